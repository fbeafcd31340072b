#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --threads (one host thread per CPU, experimental) on the real Linux kernel
# (make linux): it boots on 2 and 4 CPUs to its init and runs commands there;
# two ttcp streams at once (one process on each CPU) to the sink peer with
# every datagram accounted for; a breakpoint stops every thread and the
# debugger works as with one; what needs a deterministic run is refused.
# Only what does not depend on the host's timing is checked (no rates).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux

for cpus in 2 4; do
    cmd="cat /proc/cpuinfo; ping -c 3 127.0.0.1"
    run_xbow --batch --cpus $cpus --threads=$cpus --max-insns 4000000000 \
        --append "xbow.run=\"$cmd\" xbow.after=reboot" "$vmlinux"
    expect_status 0
    expect_err "the guest reset the machine"
    expect_out "Linux version 6.1"
    expect_out "xbow-init: cpus=$cpus "
    expect_count "^processor" $cpus
    expect_out "3 packets transmitted, 3 received"
    expect_out "XBOW-RUN-END status=0"
    if [ $cpus -eq 2 ]; then
        expect_out "smp: Brought up 1 node, 2 CPUs"
    else
        expect_out "smp: Brought up 2 nodes, 4 CPUs"
    fi
done

# Two ttcp -t streams at once, 1472-byte datagrams: Linux counts every frame
# the driver took, the NIC and the sink the same (each ttcp sends one
# sentinel before its data and four after).
n=300
frames=$((2 * (n + 5)))
run_xbow --batch -q --cpus 2 --threads=2 --nic e1000-82544 --net sink:noverify \
    --append "xbow.gw=10.0.2.2 xbow.run=\"sleep 2; ttcp -t -l 1472 -n $n 239.1.2.3 & ttcp -t -l 1472 -n $n 239.1.2.4; sleep 1; ifconfig eth0\" xbow.after=reboot" \
    -ex 'continue 8000000000' -ex 'info nic' -ex 'info device e1000_0 stats' "$vmlinux"
expect_status 0
expect_out "The guest reset the machine"
expect_count "^ttcp-t: $((n * 1472)) bytes in " 2
expect_out "TX packets $frames bytes [0-9]* errors 0 dropped 0"
expect_out "^  link [a-z]*; tx $frames frames, "
expect_out "^  tx frames $frames bytes "
expect_out "^  tx drops 0$"
expect_out "^  sink      $frames frames, "

# The debugger: a breakpoint on one CPU stops both threads; info cpus, bt,
# then the run goes on to the end.
run_xbow --batch -q --cpus 2 --threads=2 --append 'xbow.run="ls /" xbow.after=reboot' \
    -ex 'break do_sys_open' -ex 'continue 4000000000' -ex 'info cpus' -ex 'bt 1' \
    -ex 'delete' -ex 'continue 4000000000' "$vmlinux"
expect_status 0
expect_out "Breakpoint 1, do_sys_open "
expect_out "^\* [01]  *0xa800000000[0-9a-f]* do_sys_open "
expect_out "^#0  do_sys_open "
expect_out "The guest reset the machine"

# What needs a deterministic run is refused.
run_xbow --batch --cpus 2 --threads=2 --record "$WORK/r.log" "$vmlinux"
expect_status 2
expect_err "record and replay need the deterministic run of --threads=1"
run_xbow --batch --cpus 2 --threads=2 -ex 'record' -ex 'trace insn on' "$vmlinux"
expect_out "record: the history (reverse execution) needs the deterministic run of --threads=1"
expect_out "trace insn: an instruction trace needs the deterministic run of --threads=1"
run_xbow --batch --cpus 2 --threads=4 "$vmlinux"
expect_status 2
expect_err "threads=4: 1 (one host thread for every CPU, deterministic) or the number of CPUs"
finish
