#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A bad expression, an unknown name, an unmapped address or a wrong argument
# gets a clear one-line message, and the next command runs; the exit status
# of batch mode says something failed.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

# Each case: a command and (part of) the one line it must print.
cat >"$TMP/cases" <<'X'
frobnicate|Undefined command: "frobnicate".  Try "help".
info frobs|Undefined info command: "frobs".  Try "help info".
print 1 +|A syntax error in expression, near `'.
print (1|Missing ')' in expression.
print nosuch|No symbol "nosuch" in current context.
print 1 / 0|Division by zero
print $nosuch|Convenience variable "$nosuch" has no value.
print 0x|Invalid number "0x".
x/4x 0x1000|Cannot access memory at address 0x1000 (not mapped).
x/x 0x9200000001000000|is MMIO (hub-ialias); read device registers by name
x/q main|Undefined output format "q".
set $zero = 1|$zero is always 0.
set leaf = 1|"leaf" has no type: say its width, as in set *(int *)leaf = VALUE.
break *0xa800000000020002|is not an instruction address (not a multiple of 4).
break main junk|Junk at end of arguments: "junk".
tbreak nosuch|No symbol "nosuch" in current context.
delete 42|No breakpoint number 42.
delete 3-2000000000|No breakpoint numbers 3-2000000000.
delete 99999999999999999999|delete: "99999999999999999999" is not a breakpoint number.
delete 1-|delete: "1-" is not a breakpoint number.
undisplay 4-6|No display numbers 4-6.
disable x|disable: "x" is not a breakpoint number.
condition 42 1|No breakpoint number 42.
ignore|ignore: give the breakpoint number.  Usage: ignore N COUNT
watch p:0x9200000001000000|is not RAM (it is hub-ialias): watch device registers with "break reg DEVICE.REG".
watch dma 0x1000,0|A length of 0 bytes makes no sense here.
break event nosuch.event|No event "nosuch.event" (see "info events").
break event cpu.irq if nosuch > 1|cpu0.irq has no field "nosuch" (fields: cpu ip level pending).
break reg hub.NOSUCH|hub has no register "NOSUCH" (see "info device hub").
break reg hub.PI_RT_EN_A.NOSUCH|hub.PI_RT_EN_A has no field "NOSUCH"
watch stall hub|hub does not report the state of its rings: no stall detection for it.
ring hub tx|hub has no rings to show (no "ring" view).
ring nosuch tx|No device named "nosuch" (see "info devices").
info device nosuch|No device named "nosuch" (see "info devices").
cpu 7|cpu: want a CPU number from 0 to 0.
finish|"finish" not meaningful in the outermost frame
advance|advance: give a location.
continue -5|continue: the count must be positive, not -5.
info lastwrite main|writes there are not tracked (use "track writes on").
track writes sideways|track writes: want on or off, not "sideways".
track writes off p:0x1000,4|track writes: a RANGE goes with on.  Usage: track writes [on|off] [RANGE]
trace insn maybe|trace insn: want on or off, not "maybe".
trace event nosuch.*|No event matches "nosuch.*" (see "info events").
symbol-file /nonexistent/vmlinux|/nonexistent/vmlinux: No such file or directory.
source /nonexistent/script|/nonexistent/script: No such file or directory.
printf "%d\n"|Bad format string, missing argument 1.
printf "%q\n", 1|Bad format string: unknown conversion "%q".
expect hello|expect: "TEXT" must be a "quoted string".  Usage: expect "TEXT" [INSNS]
define print|define: "print" is a built-in command.
help nosuch|Undefined command: "nosuch".  Try "help".
X
# One line each: as many lines as cases (the guest printed nothing).
error_cases errors "print 12345"
expect "\$1 = 12345"
finish
