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

fail() {
    failures=$((failures + 1))
    echo "FAIL: $last_cmd: $*"
    echo "--- stdout:"
    head -c 4000 "$WORK/out"
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

finish() {
    echo "$checks checks, $failures failed"
    [ "$failures" -eq 0 ]
}
