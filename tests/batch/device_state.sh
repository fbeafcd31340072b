#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `info device-state` as a user drives it: every device's state hash, one
# device's declared fields, the same hashes for the same run, and errors for
# a wrong device name or too many arguments.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
need_example timer/timer.elf

# Every device, with its class, hash and image size.
run_xbow --batch -q --rtc-fixed --nic hamachi -ex 'info device-state' \
    -ex 'stepi 200000' -ex 'info device-state' -ex 'info device-state hub' \
    -ex 'info device-state ioc3.uart-a' -ex 'info device-state bridge' \
    -ex 'info device-state hamachi0' "$ELF"
expect_status 0
for dev in 'hub  *hub' 'bridge  *bridge' 'ioc3  *ioc3' 'ioc3.uart-a  *uart16550' \
    'ioc3.rtc  *m48t35' 'hamachi0  *hamachi'; do
    expect_count "^  $dev  *[0-9a-f]\{16\}  *[0-9][0-9]* bytes\$" 2
done
# The timer guest armed the HUB's RT comparator: the hub's hash changed,
# and the comparator shows as a pending timer with its due time and order.
first=$(grep '^  hub ' "$WORK/out" | sed -n 1p | awk '{print $3}')
second=$(grep '^  hub ' "$WORK/out" | sed -n 2p | awk '{print $3}')
[ "$first" != "$second" ] || fail "the hub's state hash did not change ($first)"
expect_out "^hub (hub): state hash $second, image [0-9]* bytes\$"
expect_out '^  cmp_timer  *timer  *due at [0-9]* (in [0-9]*), order [0-9]*, idle, idle  -- RT comparator A and B$'
expect_out '^  reg.PI_RT_EN_A  *reg  *0x1$'
expect_out '^  w  *wiring not state: outputs to the CPUs and the board: hub_wiring$'
expect_out '^  mlan_ctl.done_at  *int  *0x0  -- virtual time the last slot ends$'
expect_out '^  rx_timer  *timer  *due at'
expect_out '^  eeprom.mem  *bytes  *01'
expect_out '^  counters  *int  *0x0'
# Hamachi's model state: a part array listed in short, the EEPROM's buffer.
expect_out '^  tx.done\[2..511\]  *parts  510 more, as the ones above  -- '
expect_out '^  ee.data  *buffer [0-9a-f]*\.\.\. (512 bytes, [0-9]* not 0)  -- the contents$'
# The same run again: the same hashes.
grep ' [0-9a-f]\{16\}  *[0-9]* bytes$' "$WORK/out" >"$WORK/hashes1"
run_xbow --batch -q --rtc-fixed --nic hamachi -ex 'info device-state' \
    -ex 'stepi 200000' -ex 'info device-state' "$ELF"
expect_status 0
grep ' [0-9a-f]\{16\}  *[0-9]* bytes$' "$WORK/out" >"$WORK/hashes2"
cmp -s "$WORK/hashes1" "$WORK/hashes2" || fail "the same run gave other hashes: $(diff "$WORK/hashes1" "$WORK/hashes2")"

# Bad input: an unknown device, two names.
run_xbow --batch -q --rtc-fixed -ex 'info device-state nosuch' "$ELF"
expect_out 'No device named "nosuch"'
run_xbow --batch -q --rtc-fixed -ex 'info device-state hub bridge' "$ELF"
expect_out '^info device-state: unexpected argument "bridge".  Usage: info device-state \[NAME\]'
finish
