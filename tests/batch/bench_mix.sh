#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark guest (tests/bench/mix.c: checksums, copies, a sort,
# recursion, 64-bit multiply/divide) for two rounds on xbow prints exactly
# the result line of the same source built for the host.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
B=${top_builddir:-.}/tests/bench
[ -f "$B/mix-r2-xbow.elf" ] && [ -x "$B/mix_host" ] || skip "mix-r2-xbow.elf or mix_host not built"

expected=$("$B/mix_host" 2 | grep '^mix: rounds 2 checksum')
checks=$((checks + 1))
[ -n "$expected" ] || fail "mix_host printed no result"

run_xbow --batch -q --max-insns 50000000 "$B/mix-r2-xbow.elf"
expect_status 0
expect_out "^$expected\$"
expect_out "^mix: done"
expect_err "the guest reset the machine after [0-9]* instructions"
finish
