#!/bin/sh
# Boot the real Linux kernel (make linux) on 1 and 2 CPUs to its init and run
# a command there.  Each boot has a bound on guest instructions so that a
# hang fails instead of running on.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

vmlinux=$(bash "${top_srcdir:-.}/linux/build.sh" --print-path 2>/dev/null) ||
    skip "no Linux kernel built: run 'make linux' first (it builds Debian's linux-source-6.1 for IP27)"

for cpus in 1 2; do
    run_xbow --batch --cpus $cpus --max-insns 1500000000 \
        --append 'xbow.run="cat /proc/cpuinfo" xbow.after=reboot' "$vmlinux"
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
done
finish
