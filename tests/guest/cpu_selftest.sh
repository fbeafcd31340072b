#!/bin/sh
# The CPU self-test guest (tests/guest/cpu_selftest.c) on xbow's R10000: it
# installs its own exception and XTLB refill handlers, runs user code, and
# exits with the number of failed checks.
top_builddir=${top_builddir:-$(pwd)}
out=$("$top_builddir/tests/torture/torture_run" --exceptions --max-insns 10000000 \
      "$top_builddir/tests/guest/cpu_selftest.elf")
rc=$?
echo "$out"
[ $rc -eq 0 ] && echo "$out" | grep -q "all checks passed"
