#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# linux/bench_scsi.sh -- sequential read and write throughput of a SCSI disk
# (--disk, the emulated ISP1040B) from the real-Linux guest (make linux):
# dd of MB megabytes (default 32) in 64 KB blocks from /dev/sda to /dev/null,
# and from /dev/zero to /dev/sda with conv=fsync, on 1 CPU.
# Prints a table in the format of docs/performance.md ("SCSI disk").
#
#   bash linux/bench_scsi.sh [XBOW]      (XBOW defaults to ./xbow)
#   make linux-bench-scsi                (MB=N: megabytes per run)
#
# Guest time: what dd prints (its clock is the guest's, virtual time).  Host
# time: the wall and CPU time of the run with the dd minus that of the same
# run with a dd of 1 block, so boot and set-up cancel out.
set -u
XBOW=${1:-./xbow}
MB=${MB:-32}
VMLINUX=$(bash "$(dirname "$0")/build.sh" --print-path) || {
    echo "linux/bench_scsi.sh: no kernel built: run 'make linux' first" >&2
    exit 1
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TIMEFORMAT='%R %U %S'
truncate -s $((MB + 1))M "$TMP/disk.img"

# run OUT DDARGS: boot, run dd, reboot; "wall user sys" in OUT.time
run() {
    out=$1
    shift
    { time "$XBOW" --batch -q --rtc-fixed --nic none --disk "$TMP/disk.img" \
        --append "xbow.run=\"dd $*\" xbow.after=reboot" -ex 'continue 60000000000' \
        "$VMLINUX" >"$out" 2>&1 </dev/null; } 2>"$out.time"
    grep -q "bytes copied" "$out" || { echo "run failed: dd $*"; tail "$out"; exit 1; }
}

measure() { # NAME DDARGS-FULL DDARGS-ONE
    name=$1
    run "$TMP/full" "$2"
    run "$TMP/one" "$3"
    guest=$(sed -n 's/.* copied, .* s, \([0-9.]*\) MB\/s/\1/p' "$TMP/full")
    read -r w1 u1 s1 <"$TMP/full.time"
    read -r w0 u0 s0 <"$TMP/one.time"
    bytes=$((MB * 1024 * 1024))
    hw=$(echo "$bytes / 1000000 / ($w1 - $w0)" | bc -l)
    hc=$(echo "$bytes / 1000000 / (($u1 + $s1) - ($u0 + $s0))" | bc -l)
    printf '| %-28s | %10s | %14.1f | %13.1f |\n' "$name" "$guest" "$hw" "$hc"
}

echo "Sequential I/O of $MB MB in 64 KB blocks, Linux 6.1 qla1280 + sd on the ISP1040B, 1 CPU"
echo
echo "| Transfer                     | guest MB/s | host wall MB/s | host CPU MB/s |"
echo "|------------------------------|-----------:|---------------:|--------------:|"
blocks=$((MB * 16))
measure "read /dev/sda (dd to null)" "if=/dev/sda of=/dev/null bs=64k count=$blocks" \
    "if=/dev/sda of=/dev/null bs=64k count=1"
measure "write /dev/sda (conv=fsync)" "if=/dev/zero of=/dev/sda bs=64k count=$blocks conv=fsync" \
    "if=/dev/zero of=/dev/sda bs=64k count=1 conv=fsync"
