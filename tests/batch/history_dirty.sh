#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The history's snapshots copy only the RAM pages written since the one
# before (dirty-page tracking, docs/time-travel.md); a write path that does
# not mark its page would leave an older page in them.  `set history-check
# on` compares every snapshot with the whole RAM as it is: over the example
# guests whose devices write RAM by DMA (Tigon bulk and per-word, e1000,
# Hamachi, IOC3, the ISP's SCSI DMA, the PCI test device) and two CPUs, on both engines,
# with a snapshot every 20000 ticks, going back and running on past the
# present, and after the debugger's own writes, no snapshot may differ.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
B=${top_builddir:-.}/examples
for f in tigon/tigon_echo.elf e1000/echo.elf hamachi/hamachi.elf ioc3/ioc3_eth.elf \
    isp/isp_disk.elf testdev/testdev_dma.elf smp/smp.elf; do
    [ -f "$B/$f" ] || skip "$B/$f not built"
done
truncate -s 1M "$WORK/d.img"

H="-ex record -ex 'set history-interval 20000' -ex 'set history-overhead 100' -ex 'set history-check on'"

# check NAME RUN-TICKS XBOW-ARGS...: record with the check on, run, go back
# to the middle, run on past the present; every snapshot equals the RAM.
check() {
    name=$1 ticks=$2
    shift 2
    for engine in jit interp; do
        run_xbow --batch -q --rtc-fixed --engine=$engine -ex record \
            -ex 'set history-interval 20000' -ex 'set history-overhead 100' \
            -ex 'set history-check on' -ex "continue $ticks" -ex 'goto-time 30000' \
            -ex "continue $((ticks / 2))" -ex 'info time' "$@"
        checks=$((checks + 1))
        grep -q '^history-check: ' "$WORK/out" && fail "$name ($engine): a page written without being marked"
        n=$(sed -n 's/^  history-check: \([0-9]*\) snapshots* compared with the RAM, 0 differed$/\1/p' "$WORK/out")
        checks=$((checks + 1))
        [ "${n:-0}" -ge 20 ] || fail "$name ($engine): ${n:-no} snapshots checked"
    done
}

check tigon-bulk 1500000 --nic tigon2 --net echo "$B/tigon/tigon_echo.elf"
check tigon-per-word 1500000 --nic tigon2 --net echo --nic-dma=per-word "$B/tigon/tigon_echo.elf"
check e1000 3000000 --nic e1000 --net echo --append "count=10 size=700" "$B/e1000/echo.elf"
check hamachi 3000000 --nic hamachi --net sink --append 'tx 40 size=1024' "$B/hamachi/hamachi.elf"
check ioc3 3000000 --nic none --ioc3-net echo --append 'tx 30 size=600' "$B/ioc3/ioc3_eth.elf"
check isp 3000000 --nic none --disk "$WORK/d.img" "$B/isp/isp_disk.elf"
check testdev 1500000 --testdev "$B/testdev/testdev_dma.elf"

# Two CPUs storing (the SMP example), a snapshot every 5000 ticks.
for engine in jit interp; do
    run_xbow --batch -q --rtc-fixed --cpus 2 --engine=$engine -ex record \
        -ex 'set history-interval 5000' -ex 'set history-overhead 100' -ex 'set history-check on' \
        -ex 'continue 2000000' -ex 'goto-time 60000' -ex 'continue 1000000' -ex 'info time' \
        "$B/smp/smp.elf"
    checks=$((checks + 1))
    grep -q '^history-check: ' "$WORK/out" && fail "smp ($engine): a page written without being marked"
    expect_out '^  history-check: [0-9][0-9]* snapshots compared with the RAM, 0 differed$'
done

# The debugger's writes (memory, a register), a snapshot loaded, then on:
# the snapshots after them still equal the RAM.
run_xbow --batch -q --rtc-fixed --nic tigon2 --net echo -ex record \
    -ex 'set history-interval 20000' -ex 'set history-overhead 100' -ex 'set history-check on' \
    -ex 'continue 400000' -ex 'snapshot save -m a' -ex 'continue 200000' \
    -ex 'set var *(int *)&ret_ring = 0x12345678' -ex 'continue 200000' \
    -ex 'snapshot load a' -ex 'continue 300000' -ex 'info time' "$B/tigon/tigon_echo.elf"
expect_status 0
checks=$((checks + 1))
grep -q '^history-check: ' "$WORK/out" && fail "debugger writes: a page written without being marked"
expect_out '^  history-check: [0-9]* snapshots compared with the RAM, 0 differed$'
finish
