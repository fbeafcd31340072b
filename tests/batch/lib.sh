# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for batch tests: run the real xbow binary and check what it prints.
# Each test sources this file, calls run_xbow and the expect_* checks, then
# finish.  A failed check prints what was expected and the output.
XBOW=${XBOW:-./xbow}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/xbow-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failures=0
checks=0
last_cmd=

run_xbow() {
    last_cmd="xbow $*"
    "$XBOW" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
    status=$?
}

# run_xbow_in INPUTFILE ARGS...: with standard input from a file
run_xbow_in() {
    input=$1
    shift
    last_cmd="xbow $* < $input"
    "$XBOW" "$@" >"$WORK/out" 2>"$WORK/err" <"$input"
    status=$?
}

# bg_start OUT ERR CMD...: CMD in the background, its stdout to OUT and its
# stderr to ERR, standard input from /dev/null; $! is CMD's process.  OUT is
# emptied before CMD starts, by this shell: a wait for CMD's output
# (out_lines) must not read what was in OUT before (the previous run's
# output: with "CMD >OUT &" the background shell empties OUT only when the
# host schedules it, and a busy host let a test go on with a run's output
# that had yet to start; tests/batch/lib_bg.sh).
bg_start() {
    _out=$1 _err=$2
    shift 2
    : >"$_out"
    "$@" >>"$_out" 2>"$_err" </dev/null &
}

# out_lines FILE PATTERN: the number of FILE's lines matching PATTERN, 0 when
# FILE does not exist (yet)
out_lines() {
    _n=$(grep -c -e "$2" "$1" 2>/dev/null)
    echo "${_n:-0}"
}

fail() {
    failures=$((failures + 1))
    echo "FAIL: $last_cmd: $*"
    echo "--- stdout:"
    # the start and the end: a Linux boot's first 4000 bytes say nothing
    # about why its run failed
    if [ "$(wc -c <"$WORK/out")" -gt 6000 ]; then
        head -c 1500 "$WORK/out"
        echo
        echo "[... $(wc -c <"$WORK/out") bytes in all; the last 4500:]"
        tail -c 4500 "$WORK/out"
    else
        cat "$WORK/out"
    fi
    echo "--- stderr:"
    head -c 2000 "$WORK/err"
    echo "---"
}

expect_status() {
    checks=$((checks + 1))
    [ "$status" -eq "$1" ] || fail "exit status $status, expected $1"
}

expect_out() {
    checks=$((checks + 1))
    grep -q -e "$1" "$WORK/out" || fail "stdout lacks /$1/"
}

expect_no_out() {
    checks=$((checks + 1))
    if grep -q -e "$1" "$WORK/out"; then fail "stdout has /$1/"; fi
}

expect_err() {
    checks=$((checks + 1))
    grep -q -e "$1" "$WORK/err" || fail "stderr lacks /$1/"
}

# expect_count PATTERN N: stdout has exactly N lines matching
expect_count() {
    checks=$((checks + 1))
    n=$(grep -c -e "$1" "$WORK/out")
    [ "$n" -eq "$2" ] || fail "stdout has $n lines matching /$1/, expected $2"
}

skip() {
    echo "SKIP: $*"
    exit 77
}

# need_tap: what a test with a tap in a network namespace needs (root, the
# tun driver, iproute2, python3 for the host's peers), or it skips.
need_tap() {
    [ "$(id -u)" = 0 ] || skip "needs root (creates a network namespace and a tap device)"
    [ -c /dev/net/tun ] || skip "/dev/net/tun is missing (no tun driver)"
    command -v ip >/dev/null 2>&1 || skip "the ip command (iproute2) is missing"
    command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
}

# need_linux [BUILD.SH OPTIONS]: vmlinux is the kernel the cache holds
# (linux/build.sh --print-path), or the test skips naming the make command.
need_linux() {
    vmlinux=$(bash "${top_srcdir:-.}/linux/build.sh" --print-path "$@" 2>/dev/null) ||
        skip "no Linux kernel built: run 'make linux' first (it builds Debian's linux-source-6.1 for IP27)"
}

# need_example PATH: ELF is the example guest examples/PATH in the build
# tree, or the test skips.
need_example() {
    ELF=${top_builddir:-.}/examples/$1
    [ -f "$ELF" ] || skip "$ELF not built"
}

# expect_in NAME.EXT PATTERN: $WORK/NAME.EXT has a line matching PATTERN
# (the output of one of several programs); a failure names $label and shows
# the end of NAME.out and NAME.err.
expect_in() {
    checks=$((checks + 1))
    grep -q -e "$2" "$WORK/$1" && return 0
    failures=$((failures + 1))
    echo "FAIL: $label: $1 lacks /$2/"
    tail -n 40 "$WORK/${1%.*}.out"
    cat "$WORK/${1%.*}.err"
}

# udp_ports: two free UDP ports of 127.0.0.1 in $pa and $pb, the two ends
# of a socket:udp wire.
udp_ports() {
    ports=$(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
    pa=${ports% *} pb=${ports#* }
}

# vde_start: a VDE switch at $sw ($WORK/sw), its management socket at
# $WORK/sw.mgmt (tests/batch/vde_wait_out.py reads its counts), or the test
# skips; vde_stop ends it (the test's exit trap calls it).
vde_start() {
    sw="$WORK/sw"
    vde_switch -s "$sw" -M "$WORK/sw.mgmt" -d -p "$WORK/sw.pid" >/dev/null 2>&1 ||
        skip "vde_switch does not start"
}
vde_stop() {
    [ -n "${sw:-}" ] && [ -f "$WORK/sw.pid" ] && kill "$(cat "$WORK/sw.pid")" 2>/dev/null
}

# peer_start: tests/batch/rr_peer.py in the background (pid in $peerpid,
# its counts at the end in $WORK/peer.stats), a host at 10.0.2.2 on a UDP
# socket link ($net, for --net) that answers ARP and ping and takes 20 UDP
# datagrams; $app is the Linux command line that pings it and sends them
# (ttcp), then starts a shell.  Returns 1 after a failed check if the peer
# did not start.  peer_stop ends it.
peer_start() {
    peer_py="${top_srcdir:-.}/tests/batch/rr_peer.py"
    case "$peer_py" in /*) ;; *) peer_py="$PWD/$peer_py" ;; esac
    python3 "$peer_py" "$WORK/port" "$WORK/peer.stats" 20 &
    peerpid=$!
    for _ in $(seq 100); do [ -s "$WORK/port" ] && break; sleep 0.1; done
    [ -s "$WORK/port" ] || { fail "the peer did not start"; return 1; }
    net="socket:udp:0:127.0.0.1:$(cat "$WORK/port")"
    app='xbow.run="ping -c 3 -i 200 10.0.2.2; ttcp -t -l 512 -n 20 10.0.2.2" xbow.after=shell'
}
peer_stop() {
    kill "$peerpid" 2>/dev/null
    wait "$peerpid" 2>/dev/null
    peerpid=
}

# type_at_shell TEXT: writes TEXT (a printf format) once the guest's shell
# has said it is ready in $WORK/out (at most 120 s): what a user types at
# its prompt, for xbow's standard input.  $WORK/out must not hold an earlier
# run's output (remove it first): the two sides of the pipe start together,
# and this side may look before xbow's side has truncated the file.
type_at_shell() {
    for _ in $(seq 1200); do grep -q "shell ready" "$WORK/out" 2>/dev/null && break; sleep 0.1; done
    sleep 0.3
    printf "$1"
}

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ]
}
