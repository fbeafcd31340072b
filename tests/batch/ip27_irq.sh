#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Interrupts end to end: the HUB RT comparator raising IP4 every 10 ms of
# virtual time, and the IOC3 UART interrupt travelling SIO_IR -> INTB ->
# Bridge pin 4 -> HUB PI_INT_PEND_MOD -> IP2, for THRE and for input.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run timer "$EX/timer/timer.elf"
expect_rc 0
for i in 1 2 3 4 5; do
    expect timer.out "timer: interrupt $i at +$((i * 12500)) RT ticks"
done
expect timer.out "timer: 5 interrupts on IP4, 10 ms apart"

name=serial
printf 'hi there\n' | timeout 120 "$XBOW" --batch -q "$EX/serial-irq/serial_irq.elf" \
    >"$TMP/serial.out" 2>"$TMP/serial.err"
rc=$?
expect_rc 0
expect serial.out "serial-irq: THRE interrupt on HUB level 20 (SIO_IR 0x40"
expect serial.out "serial-irq: got \"hi there\" in"
finish
