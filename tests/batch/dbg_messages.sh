#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Messages a gdb user meets on a wrong input: each names the real problem
# (the whole bad token, a missing device, a directory, a stripped ELF, a
# time too short for the clock, a command that needs the TUI), and usage
# lines are the ones "help" shows.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

ex_script msgs --nic hamachi <<'EOF'
print 0xzz
print 0x
print 0b12
watch dma nosuchdev p:0x1000,4
watch dma hub p:0x1000
watch stall hamachi0 tx 1ns
watch stall hamachi0 tx 0ms
watch stall hamachi0 tx 1fortnight
watch stall hamachi0 rx 2US
symbol-file /
ring
ring hamachi0
help ring
layout net
info watchpoints
EOF
expect_rc 1
expect 'Invalid number "0xzz".'
expect 'Invalid number "0x".'
expect 'Invalid number "0b12".'
expect 'watch dma: no device named "nosuchdev" (devices that do DMA: bridge, ioc3, hamachi0,'
expect 'watch dma: hub does no DMA'
expect_not 'No symbol "nosuchdev"'
expect 'watch stall: 1ns is shorter than one tick of the machine'"'"'s clock (5.6 ns at 180 MHz)'
expect 'watch stall: a time of 0ms makes no sense'
expect '"1fortnight" is neither a ring of hamachi0 nor a time (a number with a unit: ns, us,'
expect 'Stall watch 1: stall hamachi0 rx for 2.000 us'
expect '/: is a directory (want an ELF or a System.map).'
expect 'ring: give a NIC.  Usage: ring NIC RING [COUNT]'
expect 'ring: give a ring.  Usage: ring NIC RING [COUNT]'
expect_re '^Usage: ring NIC RING \[COUNT\]$'
expect 'layout: only in the TUI'
expect_not 'Undefined command'

# A stripped kernel, and symbol-file of an ELF without symbols: gdb's
# "(No debugging symbols found in F)".
cp "$GUEST" "$TMP/stripped.elf"
printf '\0\0\0\0\0\0\0\0' | dd of="$TMP/stripped.elf" bs=1 seek=40 conv=notrunc 2>/dev/null
printf '\0\0' | dd of="$TMP/stripped.elf" bs=1 seek=60 conv=notrunc 2>/dev/null
name=stripped
timeout 60 "$XBOW" --batch -ex "symbol-file $TMP/stripped.elf" "$TMP/stripped.elf" \
    >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
rc=$?
expect_rc 0
expect_count 2 "(No debugging symbols found in $TMP/stripped.elf: no symbol table"
expect "Reading symbols from $TMP/stripped.elf..."
: >"$TMP/empty.map"
xbow_run emptymap -ex "symbol-file $TMP/empty.map"
expect "(No debugging symbols found in $TMP/empty.map: no \"ADDR TYPE NAME\" lines)"

# A directory as the kernel: say so (it once said "read error").
name=dirkernel
"$XBOW" --batch "$TMP" >"$TMP/$name.out" 2>&1 </dev/null
rc=$?
expect_rc 2
expect "$TMP: is a directory, not an ELF file"
expect_not "read error"

# TUI-only commands in the line-mode debugger say that they need the TUI
# (docs/tui.md) and are listed by help.
name=cli
printf 'layout net\nfocus console\nwinheight cmd +3\nzoom\ntui memory 0x1000\nhelp\n' \
    >"$TMP/$name.xbow"
timeout 60 "$XBOW" --cli -q "$GUEST" <"$TMP/$name.xbow" >"$TMP/$name.out" 2>"$TMP/$name.err"
rc=$?
expect_rc 0
for c in layout focus winheight zoom "tui memory"; do
    expect "$c: only in the TUI (start xbow on a terminal, or with --tui)."
done
expect "TUI: layout focus winheight zoom"
expect_not "Undefined command"
finish
