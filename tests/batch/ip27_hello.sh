#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The hello example in batch mode: its message on stdout, exit status 0 when
# the guest resets the machine through the HUB; the ARCS argv from --append;
# the same with 256 MB (two 128 MB banks), with two and with four CPUs.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run hello --max-insns 20000000 "$EX/hello/hello.elf"
expect_rc 0
expect hello.out "Hello from the SGI Origin 200 (IP27), CPU slice A."
expect hello.out "1 PROM argument: $EX/hello/hello.elf"
expect hello.out "IOC3 in Bridge slot 2, registers at 0x9200000008600000"
expect hello.err "the guest reset the machine"
expect hello.err "NI_PORT_RESET"

run append --append "console=ttyS0,9600  root=/dev/ram" "$EX/hello/hello.elf"
expect_rc 0
expect append.out "3 PROM arguments: $EX/hello/hello.elf console=ttyS0,9600 root=/dev/ram"

run mem256 --mem 256 --cpus 2 "$EX/hello/hello.elf"
expect_rc 0
expect mem256.out "CPU slice A."

# Output goes to the --serial backend, not stdout.
run serial --serial "file:$TMP/console.txt" "$EX/hello/hello.elf"
expect_rc 0
expect console.txt "Hello from the SGI Origin 200"
[ -s "$TMP/serial.out" ] && fail "serial: console output leaked to stdout"

# Four CPUs are two nodes; the program runs on nasid 0 slice A all the same.
run cpus4 --cpus 4 "$EX/hello/hello.elf"
expect_rc 0
expect cpus4.out "CPU slice A."
# Two nodes of two CPU slices at most: more is a clear error.
run cpus5 --cpus 5 "$EX/hello/hello.elf"
expect_rc 2
expect cpus5.err "--cpus must be a number from 1 to 4, not 5."
run mem4000 --mem 4000 "$EX/hello/hello.elf"
expect_rc 2
expect mem4000.err "8 memory banks"
finish
