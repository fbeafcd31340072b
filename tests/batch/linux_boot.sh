#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot the real Linux kernel (make linux) on 1, 2 and 4 CPUs (4 = two nodes,
# each with --mem of its own) to its init and run a command there.  Each boot
# has a bound on guest instructions so that a hang fails instead of running
# on.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux

for cpus in 1 2 4; do
    # The budget counts every CPU's clock, also while it waits (idle skip):
    # more CPUs, more ticks.  4 CPUs take about 1.2 G.
    budget=1500000000
    cmd="cat /proc/cpuinfo; cat /sys/devices/system/node/online"
    if [ $cpus -eq 4 ]; then
        budget=3000000000
        cmd="$cmd; cat /sys/devices/system/node/node1/cpulist"
    fi
    run_xbow --batch --cpus $cpus --max-insns $budget \
        --append "xbow.run=\"$cmd\" xbow.after=reboot" "$vmlinux"
    expect_status 0
    expect_err "the guest reset the machine"
    expect_out "Linux version 6.1"
    expect_out "CPU0 revision is: 00000926 (R10000)"
    expect_out "xtalk-bridge.*PCI host bridge to bus 0000:00"
    expect_out "pci 0000:00:02.0: \[10a9:0003\]"
    expect_out "ttyS0 at MMIO 0x8620178.*16550A"
    expect_out "rtc-m48t35"
    expect_out "xbow-init: cpus=$cpus "
    expect_out "XBOW-RUN-BEGIN cat /proc/cpuinfo"
    expect_count "^processor" $cpus
    expect_out "XBOW-RUN-END status=0"
    if [ $cpus -eq 2 ]; then
        expect_out "smp: Brought up 1 node, 2 CPUs"
    fi
    if [ $cpus -eq 4 ]; then
        # Node 1: its CPUs from its KLCONFIG, its memory where its MEMBNK
        # says (1 << 32), no XIO behind its HUB (only node 0's Bridge).
        expect_out "Discovered 4 cpus on 2 nodes"
        expect_out "node   1: \[mem 0x0000000100000000-0x000000011fffffff\]"
        expect_out "CPU3 revision is: 00000926 (R10000)"
        expect_out "smp: Brought up 2 nodes, 4 CPUs"
        expect_count "xtalk:n.* bridge widget" 1
        expect_out "^0-1[[:space:]]*$"
        expect_out "^2-3[[:space:]]*$"
    else
        expect_out "^0[[:space:]]*$"
    fi
done
finish
