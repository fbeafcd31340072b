# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the gdb stub's tests (sourced): xbow runs in the background
# with its prompt reading a FIFO and the stub on a Unix socket in the test's
# own temporary directory (no TCP port to collide with tests running in
# parallel), and real gdb-multiarch runs in batch mode against it.  Builds on
# dbg_lib.sh (GUEST, TMP, fail, expect...).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
GDB=${GDB:-gdb-multiarch}
if ! command -v "$GDB" >/dev/null 2>&1; then
    echo "SKIP: $GDB is not installed (scripts/packages.txt)"
    exit 77
fi
SOCK=$TMP/gdb.sock
xpid=
xname=
nsync=0

# wait_for FILE TEXT: until FILE has TEXT (10 s at most); 1 if it never came.
wait_for() {
    for _ in $(seq 100); do
        grep -qF -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# xbow_start NAME ARGS...: xbow --cli -q --gdb unix:$SOCK ARGS, its prompt
# reading the FIFO $TMP/NAME.in (held open on fd 8), its output in
# $TMP/NAME.out and $TMP/NAME.err, the guest's console in $TMP/NAME.console
# (on stdio the console would take the prompt's input while the guest runs).
xbow_start() {
    xname=$1
    shift
    rm -f "$SOCK" "$TMP/$xname.in"
    mkfifo "$TMP/$xname.in"
    timeout 300 "$XBOW" --cli -q --gdb "unix:$SOCK" --serial "file:$TMP/$xname.console" "$@" \
        <"$TMP/$xname.in" \
        >"$TMP/$xname.out" 2>"$TMP/$xname.err" &
    xpid=$!
    exec 8>"$TMP/$xname.in"
    wait_for "$TMP/$xname.out" "gdbserver: listening on unix:$SOCK" ||
        { name=$xname; fail "xbow did not listen on $SOCK"; }
}

# xbow_cmd LINE: type LINE at xbow's prompt.
xbow_cmd() {
    printf '%s\n' "$1" >&8
}

# xbow_sync: wait until xbow has run every line typed so far.
xbow_sync() {
    nsync=$((nsync + 1))
    xbow_cmd "echo sync-$nsync\\n"
    wait_for "$TMP/$xname.out" "sync-$nsync" || { name=$xname; fail "xbow's prompt hangs"; }
}

# xbow_quit: quit xbow; its exit status in $rc, name set to its output.
xbow_quit() {
    xbow_cmd quit
    exec 8>&-
    wait "$xpid"
    rc=$?
    name=$xname
}

# gdb_run NAME ELF GDB-ARGS...: gdb-multiarch -batch on ELF, attached to
# $SOCK first; its output (stdout and stderr) in $TMP/NAME.out.
gdb_run() {
    name=$1
    elf=$2
    shift 2
    : >"$TMP/$name.xbow"
    timeout 120 "$GDB" -batch -nx -ex "set pagination off" -ex "target remote $SOCK" "$@" \
        "$elf" >"$TMP/$name.out" 2>&1 </dev/null
    rc=$?
}

# on NAME: the following expect* look at $TMP/NAME.out.
on() {
    name=$1
}
