#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Counts and conditions, tried the way a gdb user tries them: no argument,
# 0, -1, huge, not a number, hex.  Every count goes through one rule
# (dbg_count_parse): stepi/nexti N >= 0 (0 steps nothing and shows where,
# as in gdb), continue N >= 1 (an instruction budget), ring ... N >= 1 and
# never past the ring's end, --max-insns N >= 1.  Breakpoint conditions
# are checked when they are set.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

# Each case: a command and the one line it must print.
cat >"$TMP/cases" <<'X'
stepi -1|stepi: the count must be 0 or more, not -1.
stepi abc|stepi: No symbol "abc" in current context.
nexti -3|nexti: the count must be 0 or more, not -3.
continue 0|continue: the count must be positive, not 0.
continue -1|continue: the count must be positive, not -1.
continue 2-3|continue: the count must be positive, not -1.
continue abc|continue: No symbol "abc" in current context.
watch counter if|Argument required (a condition after "if").
watch counter if nosuch > 1|a watchpoint has no field "nosuch" (fields: addr size write value).
break middle if|Argument required (a condition after "if").
break middle if nosuch == 1|No symbol "nosuch" in current context.
watch dma counter,4 if nosuchfield == 1|a DMA watchpoint has no field "nosuchfield" (fields: addr size write bulk initiator ring index swap pci value).
watch dma counter,4 if|Argument required (a condition after "if").
X
error_cases errors "info breakpoints"
expect "No breakpoints or watchpoints."   # none of them was set

# stepi 0 and nexti 0 execute nothing and show where the CPU is; hex and
# expressions are counts too.
script steps <<'X'
stepi 0
nexti 0
info registers pc
stepi 0x2
stepi 1+1
info registers pc
X
expect_rc 0
expect_count 2 "<_start>:	"
expect_re "^pc +0x[0-9a-f]+  <_start>$"
expect_re "^pc +0x[0-9a-f]+  <_start\+0x10>$"

# A condition on a field of the DMA hit, by value name: ring == rx is the
# receive ring's descriptor writes.
GUEST=$top_builddir/examples/hamachi/hamachi.elf
if [ -f "$GUEST" ]; then
    script dmacond --nic hamachi --net 'gen:size=200,rate=10000,count=20,start=tx' \
        --append 'rx 20' <<'X'
watch dma hamachi0 rx_ring,0x400 write if ring == tx
watch dma hamachi0 rx_ring,0x400 write if ring == rx && index == 2
continue
X
    expect_rc 0
    expect_re "^DMA watchpoint 2: hamachi0 wrote 4 bytes at p:0x[0-9a-f]+ \(word\)"
    expect "for: rx-desc, ring 1, descriptor 2"
    expect_not "DMA watchpoint 1: hamachi0"
    expect_not "Error in testing condition"

    # ring N: never past the ring's end (Hamachi's ends at its EndRing
    # entry, 64 here), N an expression of 1 or more.
    script ring --nic hamachi --net sink --append 'tx 3' <<'X'
continue 3000000
ring hamachi0 tx 100000000
ring hamachi0 tx 0x10
ring hamachi0 tx 1+1
X
    expect_rc 0
    expect_count 1 "    63 0x"
    expect_not "    64 0x"
    n=$(grep -cE "^.{3} *[0-9]+ 0x[0-9a-f]{16} " "$TMP/ring.out")
    [ "$n" -eq $((64 + 16 + 2)) ] || fail "ring: $n entries shown, want 64 + 16 + 2"
    expect_count 1 "EndRing"
    xbow_run ringbad --nic hamachi --net sink -ex 'ring hamachi0 tx -1' \
        -ex 'ring hamachi0 tx 0' -ex 'ring hamachi0 tx abc' -ex 'ring hamachi0 tx 1 2' \
        -ex 'info device hamachi0 ring tx -1' -ex 'info device hamachi0 ring tx 0x0'
    expect_rc 1
    expect "ring: the count must be positive, not -1."
    expect "ring: the count must be positive, not 0."
    expect "ring: No symbol \"abc\" in current context."
    expect "ring: unexpected argument \"2\".  Usage: ring NIC RING [COUNT]"
    expect_count 2 "hamachi0: want a ring and an optional count (1 or more), not \"tx "
    expect_not " 0x0000000000"
fi

# Options: --max-insns and the other numbers of the command line.
GUEST=$top_builddir/examples/dbgtest/dbgtest.elf
for v in -1 0 abc 1e5 "" 99999999999999999999; do
    xbow_run "insns$v" "--max-insns=$v"
    expect_rc 2
    grep -qE "^xbow: --max-insns must be (positive|a number)" "$TMP/insns$v.err" ||
        fail "--max-insns=$v: no clear error ($(cat "$TMP/insns$v.err"))"
done
xbow_run insnshex --max-insns 0x20
expect_rc 1
grep -q "stopped after the instruction limit (32 instructions)" "$TMP/insnshex.err" ||
    fail "--max-insns 0x20: not a budget of 32 ($(cat "$TMP/insnshex.err"))"
xbow_run cpus --cpus -1
expect_rc 2
grep -q "^xbow: --cpus must be a number from 1 to 4, not -1.$" "$TMP/cpus.err" ||
    fail "--cpus -1: $(cat "$TMP/cpus.err")"
finish
