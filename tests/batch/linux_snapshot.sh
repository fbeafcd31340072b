#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux and snapshots: boot to the shell's command (XBOW-RUN-BEGIN), save,
# let it ping the echo peer through an e1000 and list /proc, note the state
# hash at the end; then a new xbow restores the file and must print the
# same console output from there on and reach the same hash at the same
# tick.  Also in memory within one run, and --restore without the kernel
# file (the snapshot holds the memory).  Bounded: about 0.5 G instructions.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux

M="--rtc-fixed --nic e1000-82544 --net echo"
RUN='xbow.run="ping -c 3 10.0.2.2; cat /proc/interrupts; ls /proc"'

run_xbow --batch -q $M --serial "file:$WORK/con1" --append "$RUN" \
    -ex 'expect "XBOW-RUN-BEGIN" 2000000000' -ex "snapshot save $WORK/linux.snap" \
    -ex 'snapshot save -m begin' -ex 'info state-hash' \
    -ex 'expect "XBOW-RUN-END" 2000000000' -ex 'info state-hash' \
    -ex 'snapshot load begin' -ex 'info state-hash' \
    -ex 'expect "XBOW-RUN-END" 2000000000' -ex 'info state-hash' "$vmlinux"
expect_status 0
expect_out '^Saved snapshot .*linux.snap: '
expect_out '^Loaded in-memory snapshot begin: '
l0=$(grep '^state hash' "$WORK/out" | sed -n 1p)
l1=$(grep '^state hash' "$WORK/out" | sed -n 2p)
checks=$((checks + 1))
[ -n "$l0" ] && [ -n "$l1" ] && [ "$l0" != "$l1" ] || fail "state hashes: '$l0' '$l1'"
expect_count "^$l0\$" 2
expect_count "^$l1\$" 2
checks=$((checks + 1))
grep -q '3 packets transmitted, 3 received' "$WORK/con1" || fail "no ping replies"

# A new xbow from the file (with the kernel for its symbols).
run_xbow --batch -q $M --serial "file:$WORK/con2" --append "$RUN" --restore "$WORK/linux.snap" \
    -ex 'info state-hash' -ex 'expect "XBOW-RUN-END" 2000000000' -ex 'info state-hash' \
    -ex 'bt 1' "$vmlinux"
expect_status 0
expect_out "^$l0\$"
expect_out "^$l1\$"
expect_out '^#0 '
checks=$((checks + 1))
grep -q '3 packets transmitted, 3 received' "$WORK/con2" ||
    fail "the restored Linux did not ping: $(tail -c 400 "$WORK/con2")"
grep -q 'XBOW-RUN-BEGIN' "$WORK/con2" && fail "the restored Linux printed what was before the save"
tail -c "$(wc -c <"$WORK/con2")" "$WORK/con1" | cmp -s - "$WORK/con2" ||
    fail "console output after --restore is not the end of the first run's"

# Without the kernel file: the same run (no symbols).  The same --append:
# the NIC's default MAC derives from it, and the MAC is the machine's.
run_xbow --batch -q $M --serial null --append "$RUN" --restore "$WORK/linux.snap" \
    -ex 'expect "XBOW-RUN-END" 2000000000' -ex 'info state-hash'
expect_status 0
expect_out "^$l1\$"
finish
