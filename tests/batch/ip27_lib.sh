# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the IP27 batch tests (sourced).  Each test runs the real xbow
# binary on an example guest and checks what a user would see.  Builds on
# batch_env.sh (XBOW, TMP, expect_rc, finish).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/batch_env.sh"
EX="$top_builddir/examples"

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

# expect NAME.out|NAME.err TEXT: a line of the file contains TEXT.
expect() {
    grep -qF -- "$2" "$TMP/$1" || fail "$1 lacks \"$2\""
}
