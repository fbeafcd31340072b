# Helpers for the IP27 batch tests (sourced).  Each test runs the real xbow
# binary on an example guest and checks what a user would see.
# The serial test driver passes only srcdir (and runs in the build
# directory); `make check` with AM_TESTS_ENVIRONMENT passes all three.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-$PWD}
XBOW=${XBOW:-$top_builddir/xbow}
set -u
if [ ! -x "$XBOW" ]; then
    echo "SKIP: the xbow binary is not built ($XBOW)"
    exit 77
fi
EX="$top_builddir/examples"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

# run NAME ARGS...: run xbow in batch mode; stdout in $TMP/NAME.out, stderr
# in $TMP/NAME.err, exit status in $rc.
run() {
    name=$1
    shift
    timeout 120 "$XBOW" --batch -q "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
    rc=$?
}

fail() {
    echo "FAIL: $*"
    for f in "$TMP"/*.out "$TMP"/*.err; do
        [ -s "$f" ] && { echo "--- $f"; cat "$f"; }
    done
    fails=$((fails + 1))
}

# expect_rc WANT: the last run's exit status.
expect_rc() {
    [ "$rc" -eq "$1" ] || fail "$name: exit status $rc, want $1"
}

# expect NAME.out|NAME.err TEXT: a line of the file contains TEXT.
expect() {
    grep -qF -- "$2" "$TMP/$1" || fail "$1 lacks \"$2\""
}

finish() {
    [ "$fails" -eq 0 ] || exit 1
}
