#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The CPU self-test guest (tests/guest/cpu_selftest.c) on the IP27 in batch
# mode: it installs its own exception and XTLB refill handlers, runs user
# code, checks integer and FP results, and prints one line per failed check.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run selftest --max-insns 50000000 "$top_builddir/tests/guest/cpu_selftest.elf"
expect_rc 0
expect selftest.out "cpu_selftest: all"
grep -q "FAIL" "$TMP/selftest.out" && fail "selftest: failed checks"
finish
