#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: the fixed subset of GCC torture tests (tests/torture/subset.txt)
# on xbow's R10000.  Every test of the subset must pass.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
export top_srcdir top_builddir
exec sh "$top_srcdir/tests/torture/torture.sh" --list "$top_srcdir/tests/torture/subset.txt" \
    --out "$top_builddir/tests/torture/out-check"
