#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Linux kernel that `make linux` built is the one the boot tests were
# validated with: linux/build.sh builds it reproducibly, so the sha256 of
# vmlinux-<key> must be the one linux/vmlinux.sha256 records for <key>.
# A different hash means different bits (and different boot timing) than on
# the machines that recorded it; no recorded hash means the kernel's inputs
# changed without recording the result (linux/README.md).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
src=${top_srcdir:-.}

vmlinux=$(bash "$src/linux/build.sh" --print-path 2>/dev/null) ||
    skip "no Linux kernel built: run 'make linux' first (it builds Debian's linux-source-6.1 for IP27)"
key=${vmlinux##*/vmlinux-}
last_cmd="sha256sum $vmlinux"
checks=$((checks + 1))
got=$(sha256sum <"$vmlinux" | cut -d' ' -f1)
want=$(awk -v k="$key" '$1 == k { print $2 }' "$src/linux/vmlinux.sha256" 2>/dev/null | tail -n 1)
if [ -z "$want" ]; then
    failures=$((failures + 1))
    echo "FAIL: no vmlinux sha256 recorded for key $key in linux/vmlinux.sha256."
    echo "  If you changed linux/build.sh, linux/xbow.config or linux/initramfs/*, check"
    echo "  the boot ('make check', 'make linux-sweep'), then record the new kernel with"
    echo "  'bash linux/build.sh --record-hash' and commit linux/vmlinux.sha256."
    echo "  If you changed none of them, your linux-source-6.1 or cross gcc differs from"
    echo "  the ones recorded (the key includes their versions): see linux/README.md."
elif [ "$got" != "$want" ]; then
    failures=$((failures + 1))
    echo "FAIL: $vmlinux has sha256 $got,"
    echo "  but linux/vmlinux.sha256 records $want for key $key."
    echo "  The build was not reproduced bit for bit: rebuild it with"
    echo "  'bash linux/build.sh --force'; if the hash still differs, something on this"
    echo "  machine leaks into the kernel (linux/README.md, 'Reproducible build')."
fi
finish
