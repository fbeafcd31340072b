#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Malformed or truncated debug information: symbol-file and the kernel
# given on the command line say what is wrong in one line, and the
# debugger goes on (without source-level debugging for that file); the
# source commands on a file whose DWARF is damaged inside give errors,
# never a crash.  The damaged files are made from the test guest.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }

# damage IN OUT SECTION OFFSET BYTES|truncate: BYTES (hex) written at
# OFFSET into SECTION of the ELF64 IN (or the file cut in the middle of
# SECTION).
damage() {
    python3 - "$@" <<'P'
import struct, sys
src, dst, sec, off, what = sys.argv[1:6]
d = bytearray(open(src, 'rb').read())
shoff, = struct.unpack('>Q', d[0x28:0x30])
shentsize, shnum, shstrndx = struct.unpack('>HHH', d[0x3a:0x40])
def sh(i):
    return struct.unpack('>IIQQQQIIQQ', d[shoff + i * shentsize:shoff + (i + 1) * shentsize])
stroff = sh(shstrndx)[4]
for i in range(shnum):
    h = sh(i)
    name = d[stroff + h[0]:d.index(b'\0', stroff + h[0])].decode()
    if name == sec:
        start = h[4] + int(off, 0)
        break
else:
    sys.exit('no section ' + sec)
if what == 'truncate':
    d = d[:start]
else:
    b = bytes.fromhex(what)
    d[start:start + len(b)] = b
open(dst, 'wb').write(d)
P
}
B=$TMP
damage "$GUEST" "$B/unit.elf" .debug_info 0 ffffffffffffffffffffff
damage "$GUEST" "$B/abbrev.elf" .debug_abbrev 0 ffffffffffffffffffff
damage "$GUEST" "$B/frame.elf" .debug_frame 0 0000001000000000ffffffff
damage "$GUEST" "$B/line.elf" .debug_line 0 00000008ffff0000
damage "$GUEST" "$B/cut.elf" .debug_line 16 truncate
for f in unit abbrev frame line cut; do
    [ -s "$B/$f.elf" ] || fail "could not make $f.elf"
done

# symbol-file of each: one line about it, and the next command runs.
xbow_run symfiles -ex "symbol-file $B/unit.elf" -ex "symbol-file $B/frame.elf" \
    -ex "symbol-file $B/cut.elf" -ex "print 6 * 7"
expect_rc 1
expect_re "unit\.elf: malformed DWARF \(unit 0\): .*; no source-level debugging with it\.$"
# a broken .debug_frame: the rest is used, the frames come from prologues
expect_re "^warning: .*frame\.elf: \.debug_frame: the FDE at offset 0x0 names no CIE; frames are found from the prologues there\.$"
expect_re "cut\.elf: truncated: section headers run past the end of the file$"
expect "\$1 = 42"

# A damaged file as the kernel: it runs; source-level debugging is off
# for it (a broken unit header) or for the damaged unit only (crt0.S's
# abbreviations or line table: the other units still have theirs); the
# machine-level commands work.  Never a crash.
for f in unit abbrev line frame; do
    timeout 120 "$XBOW" --batch -q -ex "break middle" -ex run -ex "list" -ex "info line *\$pc" \
        -ex "bt" -ex "info locals" -ex "step" -ex "next" -ex "finish" -ex "ptype table" \
        -ex "print counter" -ex "info registers pc" "$B/$f.elf" >"$TMP/run-$f.out" 2>&1 \
        </dev/null
    rc=$?
    name=run-$f
    [ "$rc" -le 1 ] || fail "run-$f: exit status $rc (a crash?)"
    expect "Breakpoint 1, middle"
    expect_re "^pc +0xa8[0-9a-f]+  <outer\+0x"
done
name=run-unit
expect_re "unit\.elf: malformed DWARF \(unit 0\): .*; no source-level debugging with it\.$"
expect "list: no debugging information"
expect "#0  0xa8"
for f in abbrev line frame; do
    name=run-$f
    expect_seq "Breakpoint 1, middle (x=0) at dbgtest.c:23" "23	    u64 r = leaf(x) + leaf(x + 1);" \
        "in outer (n=" "Value returned is \$1 = 5"
done
name=run-abbrev
expect_re "^#3  0x[0-9a-f]+ in _start\+0x70 \(sp 0x"
finish
