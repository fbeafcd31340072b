#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Breakpoints and watchpoints: conditions, ignore counts, enable/disable,
# commands (logging without stopping), virtual and physical watchpoints,
# DMA watchpoints on CPU accesses, write tracking.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

script conds <<'X'
break middle if $a0 == 2
run
print $a0
condition 1 $a0 == 3
continue
print $a0
condition 1
ignore 1 3
continue
print $a0
disable 1
tbreak leaf
continue
enable 1
info breakpoints
clear middle
info breakpoints
X
expect_rc 0
expect_seq "Breakpoint 1, middle" "\$1 = 2" "Breakpoint 1, middle" "\$2 = 3" \
    "Will ignore next 3 crossings of breakpoint 1." "\$3 = 3" "Temporary breakpoint 2, leaf"
expect_not "stop only if"
expect "Deleted breakpoint 1"
expect "No breakpoints or watchpoints."

# silent ... continue: a breakpoint that logs without stopping.
script logging <<'X'
break leaf
commands
  silent
  printf "leaf(%d)\n", $a0
  continue
end
break outer
commands 2
  print $a0 * 10
end
run
continue 2000
info breakpoints 1
X
expect_rc 0
expect_seq "Breakpoint 2, outer" "\$1 = 40" "leaf(0)" "leaf(1)" "leaf(1)" "leaf(2)" "leaf(2)" "leaf(3)"
expect_not "Breakpoint 1, leaf"
expect "breakpoint already hit 8 times"

# counter is a C variable (the guest has debug information): watch and x
# take its address, arithmetic its value (&counter is the address).
script watches --append forever <<'X'
watch counter if value == 2
continue
print counter
delete
watch counter
continue
continue
info watchpoints
delete
awatch &table[1]
continue
delete
watch p:(&counter & 0xffffffffff)
continue
X
expect_rc 0
# The first watchpoint stops only when the new value is 2.
expect_seq "Hardware watchpoint 1: counter" "Written by cpu0 at" "Old value = 0x00000001" \
    "New value = 0x00000002" "\$1 = 2" \
    "Hardware watchpoint 2: counter" "Old value = 0x00000002" "New value = 0x00000003"
expect_re "^2 +hw watchpoint +keep y   counter, 4 bytes"
expect_seq "Hardware access watchpoint 3: &table[1]" "Written by cpu0 at" "Value = 0x"
expect_re "^Physical watchpoint 4: p:\(&counter & 0xffffffffff\) \(4 bytes\), written by cpu0 at 0x[0-9a-f]+ <main\+0x"
expect "New value = 0x00000004"

# watch dma with CPU accesses asked for; who wrote what (track writes).
script dma <<'X'
watch dma cpus p:(&counter & 0xffffffffff),4 write if size == 4
continue
delete
track writes on
continue 20000
info lastwrite counter
info lastwrite p:(table & 0xffffffffff) + 16
track writes
track writes off
X
expect_rc 0
expect_re "DMA watchpoint 1: dma by cpus write p:0x[0-9a-f]+, 4 bytes"
expect_re "DMA watchpoint 1: cpu0 at 0x[0-9a-f]+ <main\+0x[0-9a-f]+> wrote 4 bytes at p:0x[0-9a-f]+ \(word\)"
expect "path: direct (not through a Bridge DMA window)"
expect "data: 0x00000001"
expect "Tracking writes to all RAM."
expect_re "^p:0x[0-9a-f]+ was last written at t=[0-9]+ \([0-9.]+ us\) by cpu0 at 0x[0-9a-f]+ <main\+0x"
expect "a 4-byte write"
expect_re "by cpu0 at 0x[0-9a-f]+ <middle\+0x"
expect "a 8-byte write"
expect_re "^Write tracking is on: [0-9]+ ranges?, [0-9]+ pages recorded, [0-9]+ writes.$"
expect "Write tracking off."
# Physical-only commands take kernel addresses and symbols (XKPHYS, KSEG0,
# KSEG1: the physical address behind them, no TLB) as well as bus addresses.
script physaddr --append forever <<'X'
watch dma cpus counter,4 write if size == 4
continue
delete
xp/1xw counter
x/1xw p:counter
xp/1xw &counter & 0xffffffffff
xp/1xw 0xffffffff80000000 + (&counter & 0x1fffffff)
xp/1xw 0xffffffffa0000000 + (&counter & 0x1fffffff)
xp/1xw 0x9600000000000000 + (&counter & 0xffffffffff)
track writes on table,64
continue 20000
info lastwrite &table[2]
track writes off
X
expect_rc 0
expect_re "^DMA watchpoint 1: dma by cpus write p:0x[0-9a-f]+, 4 bytes"
expect_re "^DMA watchpoint 1: cpu0 at 0x[0-9a-f]+ <main\+0x[0-9a-f]+> wrote 4 bytes"
# cached: XKPHYS, p:, the bus address, KSEG0
n=$(grep -cE "^p:0x00[0-9a-f]{8}:	0x00000001$" "$TMP/physaddr.out")
[ "$n" -eq 4 ] || fail "physaddr: $n cached reads of counter, want 4"
expect_re "^p:0x4[0-9a-f]{10}:	0x00000001"   # KSEG1: uncached, attribute 0 (HSPEC)
expect_re "^p:0x7[0-9a-f]{10}:	0x00000001"   # XKPHYS uncached, attribute 3 (UNCAC)
expect "Tracking writes to table,64."
expect_re "^p:0x[0-9a-f]+ was last written at t=[0-9]+ .* by cpu0 at 0x[0-9a-f]+ <middle\+0x"
expect_not "Nothing at physical address"

# Mapped addresses have no physical address without the TLB: each segment.
xbow_run mapped -ex 'xp/x 0xc000000000001000' -ex 'watch dma 0xffffffffc0000000,4' \
    -ex 'track writes on 0xffffffffe0000000,4' -ex 'x/x p:0x00000fff00000000' \
    -ex 'watch p:0x4000000000000000' -ex 'xp/x 0xa800100000000000' \
    -ex 'rwatch p:0x100000000000000' -ex 'watch dma p:0x7000000000,4'
expect_rc 1
expect "xp needs a physical address: 0xc000000000001000 is in XKSEG, which the TLB maps"
expect "watch dma needs a physical address: 0xffffffffc0000000 is in KSSEG"
expect "track writes needs a physical address: 0xffffffffe0000000 is in KSEG3"
expect "p:ADDR needs a physical address: 0xfff00000000 is in XKUSEG"
expect "p:ADDR needs a physical address: 0x4000000000000000 is in XKSSEG"
expect "xp needs a physical address: 0xa800100000000000 is not one (in XKPHYS, the bits"
expect "p:ADDR needs a physical address: 0x100000000000000 is in no MIPS segment."
expect "Nothing at physical address cac:0x7000000000."
finish
