#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Idle skip on bare-metal guests that wait (docs/cpu.md, "Waiting"): the
# test guest (tests/guest/idle_wait.c: delays on the RT counter, an awaited
# interrupt, a poll another CPU ends, a poll only the debugger ends) and the
# examples that poll (timer, smp, the e1000 receiver) print the same with
# and without it, two runs with it are the same run, `info cpus` shows the
# waiting, and the debugger still sees a loop it breaks in, ends a wait by
# writing memory and steps a waiting CPU.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

GUEST="$top_builddir/tests/guest/idle_wait.elf"
[ -f "$GUEST" ] || { echo "SKIP: $GUEST is not built"; exit 77; }

# waits NAME CPU: "IDLE/POLL", how often the CPU started waiting (NAME.out's
# info cpus: "waited N ticks (P%): I idle, P polling" under the CPU's line)
waits() {
    awk -v c="$2" '{ sub(/^\*/, " ") } $2 ~ /^0x/ { cur = $1 }
        cur == c && $1 == "waited" { print $5 "/" $7; exit }
        END { }' "$TMP/$1.out" | head -1 | grep . || echo 0/0
}
# guest_lines NAME PREFIX: what the guest printed
guest_lines() { grep "^$2" "$TMP/$1.out"; }

# --- the test guest on two CPUs, with and without idle skip ---------------
run on --cpus 2 -ex continue -ex 'info cpus' "$GUEST"
expect_rc 0
for d in 1 10 100 1000 5000; do
    expect on.out "idle_wait: delay $d us: 0 RT ticks late"
done
expect on.out "idle_wait: interrupt 0 RT ticks after the compare value"
expect on.out "idle_wait: slice B saw the store within 10 RT ticks"
expect on.out "idle_wait: done"
expect on.out "Idle skip on"
w0=$(waits on 0)
w1=$(waits on 1)
case "$w0" in 0/0 | "") fail "on: cpu0 never waited ($w0)" ;; esac
case "$w1" in 0/0 | "") fail "on: cpu1 never waited ($w1)" ;; esac

run again --cpus 2 -ex continue -ex 'info cpus' "$GUEST"
cmp -s "$TMP/on.out" "$TMP/again.out" || fail "two runs with idle skip differ"

run off --no-idle-skip --cpus 2 -ex continue -ex 'info cpus' "$GUEST"
expect_rc 0
expect off.out "Idle skip off"
[ "$(waits off 0)" = 0/0 ] || fail "off: cpu0 waited"
[ "$(guest_lines on idle_wait:)" = "$(guest_lines off idle_wait:)" ] ||
    fail "the guest printed something else without idle skip"

# --- the debugger and a waiting CPU -----------------------------------------
# A breakpoint in the polling loop keeps hitting (the loop is not skipped
# while it has one); without it the CPU waits; stepi executes; writing the
# polled word ends the wait.
run dbg --append debugger -ex 'expect "waiting for the debugger"' -ex 'break poll_loop' \
    -ex continue -ex 'ignore 1 40' -ex continue -ex delete -ex 'continue 50000000' \
    -ex 'info cpus' -ex 'stepi 2' -ex 'info cpus' -ex 'continue 50000000' \
    -ex 'set var flag = 7' -ex continue "$GUEST"
expect_rc 0
[ "$(grep -c "^Breakpoint 1, " "$TMP/dbg.out")" -eq 2 ] ||
    fail "dbg: the breakpoint in the loop did not hit twice"
expect dbg.out "waiting now in a loop polling 1 value, for"
# after stepi the CPU executes: the second info cpus has no "waiting now"
awk '/CPU  PC/ { n++ } n == 2 && /waiting now/ { bad = 1 } n == 2 && /^Idle skip/ { exit }
     END { exit bad }' "$TMP/dbg.out" || fail "dbg: stepi did not make the waiting CPU execute"
[ "$(grep -c "waiting now" "$TMP/dbg.out")" -ge 1 ] || fail "dbg: the CPU never waited"
expect dbg.out "idle_wait: flag is 7"
expect dbg.out "idle_wait: done"

# --- the examples that poll ---------------------------------------------------
for ex in "timer/timer.elf" "smp/smp.elf --cpus 4"; do
    set -- $ex
    elf=$1
    shift
    ex=$(basename "$elf" .elf) # (not "name": run() sets that)
    run "$ex-on" "$@" -ex continue -ex 'info cpus' "$EX/$elf"
    expect_rc 0
    run "$ex-off" --no-idle-skip "$@" -ex continue "$EX/$elf"
    expect_rc 0
    [ "$(guest_lines "$ex-on" "$ex:" | sort)" = "$(guest_lines "$ex-off" "$ex:" | sort)" ] ||
        fail "$ex: printed something else without idle skip"
    [ -n "$(guest_lines "$ex-on" "$ex:")" ] || fail "$ex: printed nothing"
    case "$(waits "$ex-on" 0)$(waits "$ex-on" 1)" in
    0/00/0 | 0/0) fail "$ex: no CPU waited" ;;
    esac
done

# The e1000 receiver: delays on the RT counter and a receive loop.
GENRX="gen:size=1514,rate=20000,count=200,start=tx"
run rx-on --nic e1000-82544 --net "$GENRX" --append count=200 -ex continue -ex 'info cpus' \
    "$EX/e1000/rx.elf"
expect_rc 0
run rx-off --no-idle-skip --nic e1000-82544 --net "$GENRX" --append count=200 -ex continue \
    "$EX/e1000/rx.elf"
expect_rc 0
[ "$(guest_lines rx-on e1000-rx:)" = "$(guest_lines rx-off e1000-rx:)" ] ||
    fail "e1000 rx: printed something else without idle skip"
expect rx-on.out "e1000-rx: received 200 frames"
case "$(waits rx-on 0)" in 0/0 | "") fail "e1000 rx: never waited" ;; esac

finish
