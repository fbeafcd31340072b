# SPDX-License-Identifier: GPL-2.0-or-later
# What the batch test libraries ip27_lib.sh and dbg_lib.sh share (sourced):
# the paths, the xbow binary (the test is skipped when it is not built), a
# temporary directory $TMP removed on exit, the failure count and the checks
# that do not depend on how a library runs xbow.
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
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

# expect_rc WANT: the last run's exit status ($rc, of the run named $name).
expect_rc() {
    [ "$rc" -eq "$1" ] || fail "$name: exit status $rc, want $1"
}

finish() {
    [ "$fails" -eq 0 ] || exit 1
}
