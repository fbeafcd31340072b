# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the debugger's batch tests (sourced): each test runs the real
# xbow binary in batch mode on the debugger's test guest
# (examples/dbgtest/dbgtest.elf) with a command script, and checks what a
# user would see.  Builds on batch_env.sh (XBOW, TMP, expect_rc, finish).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/batch_env.sh"
GUEST="$top_builddir/examples/dbgtest/dbgtest.elf"
if [ ! -f "$GUEST" ]; then
    echo "SKIP: the test guest is not built ($GUEST)"
    exit 77
fi

# script NAME [XBOW OPTIONS...] <<EOF ... EOF: run the commands read from
# stdin with -x on the test guest; stdout in $TMP/NAME.out, stderr in
# $TMP/NAME.err, exit status in $rc.
script() {
    name=$1
    shift
    cat >"$TMP/$name.xbow"
    timeout 120 "$XBOW" --batch -q "$@" -x "$TMP/$name.xbow" "$GUEST" \
        >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
    rc=$?
}

# xbow_run NAME ARGS...: run xbow --batch -q ARGS on the test guest
# (commands as -ex options: each runs even when an earlier one failed).
xbow_run() {
    name=$1
    shift
    : >"$TMP/$name.xbow"
    timeout 120 "$XBOW" --batch -q "$@" "$GUEST" >"$TMP/$name.out" 2>"$TMP/$name.err" \
        </dev/null
    rc=$?
}

# ex_script NAME [XBOW OPTIONS...] <<EOF: the lines as -ex commands (each
# runs even after one failed, unlike a -x script in batch mode).
ex_script() {
    exname=$1
    shift
    while IFS= read -r line; do
        set -- "$@" -ex "$line"
    done
    xbow_run "$exname" "$@"
}

fail() {
    echo "FAIL: $*"
    for f in "$TMP/$name.xbow" "$TMP/$name.out" "$TMP/$name.err"; do
        [ -s "$f" ] && { echo "--- $f"; cat "$f"; }
    done
    fails=$((fails + 1))
}

# expect TEXT / expect_re REGEX / expect_not TEXT: about $TMP/$name.out.
expect() {
    grep -qF -- "$1" "$TMP/$name.out" || fail "$name.out lacks \"$1\""
}
expect_re() {
    grep -qE -- "$1" "$TMP/$name.out" || fail "$name.out lacks /$1/"
}
expect_not() {
    if grep -qF -- "$1" "$TMP/$name.out"; then fail "$name.out has \"$1\""; fi
}
# expect_count N TEXT: TEXT is on exactly N lines.
expect_count() {
    n=$(grep -cF -- "$2" "$TMP/$name.out")
    [ "$n" -eq "$1" ] || fail "$name.out has \"$2\" on $n lines, want $1"
}
# expect_seq TEXT...: lines with these texts come in this order.
expect_seq() {
    last=0
    for t in "$@"; do
        n=$(awk -v l="$last" -v t="$t" 'NR > l && index($0, t) { print NR; exit }' \
            "$TMP/$name.out")
        if [ -z "$n" ]; then
            fail "$name.out lacks \"$t\" after line $last"
            return
        fi
        last=$n
    done
}

# error_cases NAME LAST: run the commands of $TMP/cases (lines
# "COMMAND|MESSAGE") as -ex options, then the command LAST: each must print
# its MESSAGE on one line of its own, LAST one line, and the exit status
# must say that commands failed.
error_cases() {
    name=$1
    last=$2
    set --
    while IFS='|' read -r cmd msg; do
        set -- "$@" -ex "$cmd"
    done <"$TMP/cases"
    xbow_run "$name" "$@" -ex "$last"
    expect_rc 1
    while IFS='|' read -r cmd msg; do
        expect "$msg"
    done <"$TMP/cases"
    n=$(wc -l <"$TMP/$name.out")
    want=$(($(wc -l <"$TMP/cases") + 1))
    [ "$n" -eq "$want" ] || fail "$name: $n lines of output, want $want (one per error)"
}
