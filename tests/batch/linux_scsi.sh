#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux's own qla1280 driver (make linux) on the emulated ISP1040Bs with
# disks made on the host: the controllers probe with xbow's firmware image,
# sd finds sda (bus 0) and sdb (bus 1), reads sda's MBR partition table,
# mounts the ext2 file system mke2fs -d made in sda1, and the guest's md5sums
# of its files and of all of sdb equal the host's.  The guest writes a file
# (echo and dd), umounts and syncs; after xbow exits the host reads it with
# debugfs.  A second run, on 2 CPUs, finds the file again (a fresh boot);
# a third reboots the guest inside one run and the disk works after it.
# The debugger: break event isp0.iocb.fetch on the partition table's READ(10),
# the data segment from `ring isp0 request`, and in a second identical run
# `watch dma isp0 ADDR write`, set from the start, stops on the controller's
# write of that buffer.
# Each run has a bound on guest instructions ("continue N").
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux
for t in mke2fs debugfs python3 md5sum; do
    command -v $t >/dev/null 2>&1 || PATH=$PATH:/sbin:/usr/sbin
    command -v $t >/dev/null 2>&1 || skip "$t is needed (e2fsprogs, python3, coreutils)"
done

# The files, the ext2 image (fixed UUID, hash seed and time: the same bytes
# on every machine), the disk with an MBR: partition 1 from block 2048.
mkdir -p "$WORK/files/sub"
echo "hello from the host" >"$WORK/files/hello.txt"
python3 -c '
import sys
x = 12345
out = bytearray()
for i in range(300000):
    x = (x * 1103515245 + 12345) & 0x7fffffff
    out.append((x >> 16) & 0xff)
sys.stdout.buffer.write(out)' >"$WORK/files/big.bin"
head -c 5000 "$WORK/files/big.bin" | tail -c 1234 >"$WORK/files/sub/nested.bin"
E2FSPROGS_FAKE_TIME=1704067200 mke2fs -q -F -t ext2 -b 1024 -U 2f6d8e1a-7c3b-4d5e-9f10-112233445566 \
    -E hash_seed=0b1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 -d "$WORK/files" "$WORK/fs.img" 4M ||
    skip "mke2fs -d failed"
python3 - "$WORK/fs.img" "$WORK/disk.img" <<'PY'
import struct, sys
fs = open(sys.argv[1], "rb").read()
start, n = 2048, len(fs) // 512
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", start, n)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[2], "wb") as f:
    f.write(mbr + bytes(start * 512 - 512) + fs)
PY
head -c 1048576 "$WORK/files/big.bin" >"$WORK/raw.img"
truncate -s 1M "$WORK/raw.img"
h_hello=$(md5sum <"$WORK/files/hello.txt" | cut -d' ' -f1)
h_big=$(md5sum <"$WORK/files/big.bin" | cut -d' ' -f1)
h_nested=$(md5sum <"$WORK/files/sub/nested.bin" | cut -d' ' -f1)
h_raw=$(md5sum <"$WORK/raw.img" | cut -d' ' -f1)

run="mount -t ext2 /dev/sda1 /mnt; md5sum /mnt/hello.txt /mnt/big.bin /mnt/sub/nested.bin /dev/sdb; \
cat /mnt/hello.txt; echo written by the guest > /mnt/guest.txt; \
dd if=/mnt/big.bin of=/mnt/copy.bin bs=4k; umount /mnt; sync"
run_xbow --batch -q --nic none --disk "$WORK/disk.img" --disk "$WORK/raw.img,bus=1,id=2" \
    --append "xbow.run=\"$run\" xbow.after=reboot" \
    -ex 'continue 4000000000' -ex 'info scsi' -ex 'info dma' "$vmlinux"
expect_status 0
expect_out "The guest reset the machine"
expect_out "QLogic QLA1040 PCI to SCSI Host Adapter"
expect_out "Firmware version:  1.00.00"
expect_out "\[sda\] 10240 512-byte logical blocks"
expect_out "\[sdb\] 2048 512-byte logical blocks"
expect_out " sda: sda1"
expect_out "^$h_hello  /mnt/hello.txt"
expect_out "^$h_big  /mnt/big.bin"
expect_out "^$h_nested  /mnt/sub/nested.bin"
expect_out "^$h_raw  /dev/sdb"
expect_out "^hello from the host"
expect_out "^300000 bytes copied"
expect_out "XBOW-RUN-END status=0"
expect_out "RISC running the firmware (xbow firmware 1.00.00 at 0x1000"
expect_out "ID  1: disk $WORK/disk.img, 10240 blocks"
expect_out "ID  2: disk $WORK/raw.img, 2048 blocks"
expect_out "isp0 "
expect_no_out "Underflow\|I/O error\|EXT2-fs error"
# The host reads what the guest wrote.
dd if="$WORK/disk.img" of="$WORK/fs2.img" bs=512 skip=2048 2>/dev/null
checks=$((checks + 2))
got=$(debugfs -R "cat /guest.txt" "$WORK/fs2.img" 2>/dev/null)
[ "$got" = "written by the guest" ] || fail "debugfs cat /guest.txt: '$got'"
got=$(debugfs -R "cat /copy.bin" "$WORK/fs2.img" 2>/dev/null | md5sum | cut -d' ' -f1)
[ "$got" = "$h_big" ] || fail "debugfs cat /copy.bin: md5 $got, expected $h_big"

# A fresh boot on 2 CPUs finds the guest's file; sdb read-only refuses writes.
run_xbow --batch -q --nic none --cpus 2 --disk "$WORK/disk.img" --disk "$WORK/raw.img,bus=1,id=2,ro" \
    --append "xbow.run=\"mount -t ext2 /dev/sda1 /mnt; cat /mnt/guest.txt; md5sum /mnt/copy.bin; \
dd if=/dev/zero of=/dev/sdb bs=512 count=1 conv=fsync\" xbow.after=reboot" \
    -ex 'continue 6000000000' "$vmlinux"
expect_status 0
expect_out "^written by the guest"
expect_out "^$h_big  /mnt/copy.bin"
expect_out "\[sdb\] Write Protect is on"
expect_out "XBOW-RUN-END status="
expect_out "The guest reset the machine"

# The partition table's READ(10) of block 0 on sda: its buffer, then a DMA
# watchpoint on it in an identical run (runs are repeatable).
dbg_args="--batch -q --nic none --disk $WORK/disk.img --append xbow.after=reboot"
run_xbow $dbg_args -ex 'break event isp0.iocb.fetch if op == 0x28' -ex 'continue 2000000000' \
    -ex 'ring isp0 request' "$vmlinux"
expect_status 0
expect_out "^Event breakpoint 1: isp0.iocb.fetch .*op=0x28"
bus=$(sed -n 's/.*cmd64 .*READ(10) lba 0 .*\[\(0x[0-9a-f]*\)+[0-9]*\].*/\1/p' "$WORK/out" | head -n 1)
case "$bus" in
0x*) ;;
*) fail "no data segment of READ(10) lba 0 in the ring view ('$bus')" ;;
esac
phys=$(echo "$bus" | sed -n 's/^0x[0-9a-f]*\([0-9a-f]\{10\}\)$/0x\1/p')
[ -n "$phys" ] || phys=$bus
# (The data moves as the firmware runs the command it fetched: the watchpoint
# has to be there before the fetch.)
run_xbow $dbg_args -ex "watch dma isp0 $phys,512 write" -ex 'continue 2000000000' \
    -ex 'break event isp0.iocb.*' -ex 'continue 100000000' -ex 'info scsi' "$vmlinux"
expect_status 0
expect_out "^DMA watchpoint 1: isp0 wrote [0-9]* bytes at p:0x0*${phys#0x} (bulk)$"
expect_out "  for: isp-data, descriptor [0-9]*$"
expect_out "^Event breakpoint 2: isp0.iocb.done "
# The disk survives a reboot of the guest inside one run: the first boot
# appends a line to a file and syncs, the guest resets the machine, the
# second boot (the same xbow, "continue" again) prints that line and adds one.
run_xbow --batch -q --nic none --disk "$WORK/disk.img" \
    --append "xbow.run=\"mount -t ext2 /dev/sda1 /mnt; cat /mnt/boots.txt; echo boot >> /mnt/boots.txt; umount /mnt; sync\" xbow.after=reboot" \
    -ex 'continue 4000000000' -ex 'continue 4000000000' "$vmlinux"
expect_status 0
expect_count "The guest reset the machine" 2
expect_count "XBOW-RUN-END status=0" 2
expect_count "^boot" 1
dd if="$WORK/disk.img" of="$WORK/fs3.img" bs=512 skip=2048 2>/dev/null
checks=$((checks + 1))
got=$(debugfs -R "cat /boots.txt" "$WORK/fs3.img" 2>/dev/null | tr '\n' ' ')
[ "$got" = "boot boot " ] || fail "debugfs cat /boots.txt after two boots: '$got'"
finish
