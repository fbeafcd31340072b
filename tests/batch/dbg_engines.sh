#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debugger with each engine: the same session (breakpoints, ignore
# counts, continue N, stepi N, watchpoints, a DMA watchpoint, the
# registers and memory at every stop) must print exactly the same with
# --engine=interp and --engine=jit, and `info engine` says what ran.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

if ! "$XBOW" --engine=jit --batch -q -ex 'info engine' "$GUEST" >/dev/null 2>&1; then
    echo "SKIP: this host has no translator"
    exit 77
fi

cat >"$TMP/session" <<'X'
break leaf
continue
info registers
continue 3
print $pc
delete
stepi 777
info registers
x/8x $sp
watch counter
continue
continue 2
info registers
delete
break *printf+0x230
ignore 3 5
continue
info breakpoints
info registers
delete
watch dma 0x0,0x100000
continue 1000000
stepi 54321
info registers
continue
info cpus
X
# jit: the translator's default tiers (cold blocks interpreted); jit0: every
# block translated at once (XBOW_JIT_TIER=0, jit.h)
for e in interp jit jit0; do
    case $e in
    jit0) XBOW_JIT_TIER=0 script session --engine=jit <"$TMP/session" ;;
    *) script session --engine=$e <"$TMP/session" ;;
    esac
    expect_rc 0
    expect "Breakpoint 1, leaf"
    expect "Hardware watchpoint 2: counter"
    expect "Stopped: the budget of 3 instructions (all CPUs together) is used up."
    # in the UART wait loop of raw_putc, inlined into printf (the guest has DWARF)
    expect "Breakpoint 3, raw_putc (c="
    expect "<printf+0x230>:"
    expect "already hit 6 times"
    cp "$TMP/session.out" "$TMP/session-$e.txt"
done
for e in jit jit0; do
    if ! cmp -s "$TMP/session-interp.txt" "$TMP/session-$e.txt"; then
        fail "the sessions differ between the engines ($e):
$(diff "$TMP/session-interp.txt" "$TMP/session-$e.txt" | head -20)"
    fi
done

# info engine: per CPU, and the translator's figures only with it
xbow_run engine-jit --engine=jit -ex 'continue' -ex 'info engine'
expect_rc 0
expect_re '^\* 0    jit     [0-9]+ +[0-9.]+%$'
expect_re '^Translated: [0-9]+ blocks, [0-9]+ guest instructions'
expect_re '^Code cache: [0-9.]+ of 64.0 MB in use; 0 flushes'
# why the run loop left translated code (docs/cpu.md, "Exits")
expect_re '^cpu0: [0-9]+ inner runs \(one per [0-9]+ instructions\); ended by: turn end [0-9]+, Count/Compare [0-9]+, idle-skip probe [0-9]+, profiler sample 0, kick [0-9]+, stop [1-9][0-9]*$'
expect_re '^  exceptions [0-9]+: interrupts [0-9]+, TLB refills [0-9]+, other TLB [0-9]+, syscalls [0-9]+, other [0-9]+; device accesses [1-9][0-9]*$'
expect_re '^  translated code entered [1-9][0-9]* times; back to the dispatcher: lookup missed [0-9]+, jump not chained [0-9]+, budget [0-9]+, helper stop [0-9]+, exception/ERET [0-9]+$'
expect_re '^  helper calls: load [1-9][0-9]*, store [0-9]+, LWL-SDR/LL/SC [0-9]+, FPU memory [0-9]+, FPU [0-9]+, CP0/TLB [0-9]+, exception [0-9]+; blocks translated [1-9][0-9]*$'
# the default tiers leave cold blocks to the interpreter; tier 0 none
expect_re '^  interpreter \(times/instructions\): delay slot [0-9]+/[0-9]+, hook/probe [0-9]+/[0-9]+, no exec entry [0-9]+/[0-9]+, untranslated [0-9]+/[0-9]+, budget [0-9]+/[0-9]+, cold [1-9][0-9]*/[1-9][0-9]*$'
insns_jit=$(sed -n 's/^\* 0    jit     \([0-9]*\) .*/\1/p' "$TMP/engine-jit.out")
# the same over a profiled interval
xbow_run profile-jit --engine=jit -ex 'profile start' -ex 'continue' -ex 'profile stop' \
    -ex 'profile report 3'
expect_rc 0
expect_re '^  run loop: [1-9][0-9]* inner runs \(turn end [0-9]+, Count/Compare [0-9]+, idle-skip probe [0-9]+, sample [1-9][0-9]*, kick [0-9]+, stop [1-9][0-9]*\); [0-9]+ exceptions \([0-9]+ interrupts\), [1-9][0-9]* device accesses$'
expect_re '^  translator: entered [1-9][0-9]* times, back to the dispatcher [0-9]+ \(lookup [0-9]+, not chained [0-9]+, budget [0-9]+, helper stop [0-9]+, exception [0-9]+\); [0-9]+ helper calls \([0-9]+ LWL-SDR/LL/SC\); [0-9]+ instructions interpreted \([0-9]+ cold\); [0-9]+ blocks translated$'
xbow_run profile-interp --engine=interp -ex 'profile start' -ex 'continue' -ex 'profile stop' \
    -ex 'profile report 3'
expect_rc 0
expect_re '^  run loop: [1-9][0-9]* inner runs'
expect_not "  translator: entered"
XBOW_JIT_TIER=0 xbow_run engine-jit0 --engine=jit -ex 'continue' -ex 'info engine'
expect_rc 0
expect_re ', cold 0/0$'
insns_jit0=$(sed -n 's/^\* 0    jit     \([0-9]*\) .*/\1/p' "$TMP/engine-jit0.out")
xbow_run engine-interp --engine=interp -ex 'continue' -ex 'info engine'
expect_rc 0
expect_re '^\* 0    interp  [0-9]+ +-$'
expect_not "Translated:"
expect_re '^cpu0: [0-9]+ inner runs'
expect_not "translated code entered"
insns_interp=$(sed -n 's/^\* 0    interp  \([0-9]*\) .*/\1/p' "$TMP/engine-interp.out")
[ -n "$insns_interp" ] && [ "$insns_interp" = "$insns_jit" ] && [ "$insns_interp" = "$insns_jit0" ] ||
    fail "instruction counts differ: interp '$insns_interp', jit '$insns_jit', jit tier 0 '$insns_jit0'"
xbow_run engine-arg -ex 'info engine 1'
expect_rc 1
expect "info engine: it takes no arguments"

# XBOW_JIT_PERFMAP=1: /tmp/perf-PID.map names every translated block by its
# guest pc, in the format perf report reads (hex start, hex size, name);
# without it no map is written
perfmap() {
    "$XBOW" --engine=jit --batch -q -ex continue -ex 'info engine' "$GUEST" >"$TMP/perfmap.out" 2>&1 </dev/null &
    pid=$!
    wait $pid
    rc=$?
    map=/tmp/perf-$pid.map
}
XBOW_JIT_PERFMAP=1 XBOW_JIT_TIER=0 perfmap
[ "$rc" -eq 0 ] || fail "XBOW_JIT_PERFMAP=1: exit status $rc"
if [ ! -s "$map" ]; then
    fail "XBOW_JIT_PERFMAP=1: no $map"
else
    blocks=$(sed -n 's/^Translated: \([0-9]*\) blocks.*/\1/p' "$TMP/perfmap.out")
    lines=$(grep -cE '^[0-9a-f]+ [0-9a-f]+ guest_[0-9a-f]{16}$' "$map")
    [ "$lines" = "$(wc -l <"$map")" ] || fail "$map: lines not in perf's format: $(grep -vE '^[0-9a-f]+ [0-9a-f]+ guest_' "$map" | head -3)"
    [ -n "$blocks" ] && [ "$blocks" -gt 0 ] && [ "$lines" = "$blocks" ] ||
        fail "$map: $lines blocks named, info engine says ${blocks:-?} translated"
    # instructions are words, and each block has code of its own
    grep -qE 'guest_[0-9a-f]{15}[^048c]$' "$map" && fail "$map: a block at an unaligned pc"
    [ "$(cut -d' ' -f1 "$map" | sort -u | wc -l)" = "$lines" ] || fail "$map: two blocks at one host address"
    grep -q ' guest_a800000000020' "$map" || fail "$map: no block of the guest's code (XKPHYS 0x20000)"
    rm -f "$map"
fi
perfmap
[ ! -e "$map" ] || { rm -f "$map"; fail "a perf map without XBOW_JIT_PERFMAP"; }
finish
