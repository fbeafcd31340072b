#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reverse execution on Linux (docs/time-travel.md), the story of issue 14:
# with the history on, break in e1000_intr, continue to its next hit,
# reverse-stepi 100 (the state of a run stopped 100 instructions before
# that hit), reverse-continue back to the previous hit: the state hash, the
# registers and the backtrace are those of the first hit.  Then goto-time
# present and back again.  Bounded: about 0.25 G instructions.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux

M="--rtc-fixed --nic e1000-82544 --net echo"
RUN='xbow.run="ping -c 3 -i 200 10.0.2.2"'

run_xbow --batch -q $M --append "$RUN" -ex record -ex 'break e1000_intr' -ex continue \
    -ex 'info state-hash' -ex 'info registers' -ex bt -ex 'echo ===\n' -ex continue \
    -ex 'info state-hash' -ex 'reverse-stepi 100' -ex 'info state-hash' -ex 'reverse-continue' \
    -ex 'info state-hash' -ex 'info registers' -ex bt -ex 'echo ===\n' -ex 'goto-time present' \
    -ex 'info state-hash' -ex 'info time' "$vmlinux"
expect_status 0
h1=$(grep '^state hash' "$WORK/out" | sed -n 1p)
h2=$(grep '^state hash' "$WORK/out" | sed -n 2p)
h3=$(grep '^state hash' "$WORK/out" | sed -n 3p)
checks=$((checks + 1))
[ -n "$h1" ] && [ "$h1" != "$h2" ] || fail "two hits of e1000_intr: '$h1' '$h2'"
i2=$(echo "$h2" | sed 's/.*cpu0 \([0-9]*\) insns/\1/')
i3=$(echo "$h3" | sed 's/.*cpu0 \([0-9]*\) insns/\1/')
[ $((i2 - i3)) -eq 100 ] || fail "reverse-stepi 100 went from $i2 to $i3"
[ "$(grep '^state hash' "$WORK/out" | sed -n 4p)" = "$h1" ] ||
    fail "reverse-continue: not the first hit's state"
[ "$(grep '^state hash' "$WORK/out" | sed -n 5p)" = "$h2" ] ||
    fail "goto-time present: not the second hit's state"
# registers and backtrace at the first hit, then after going back to it:
# what follows the first and the fourth state hash up to "==="
block() {
    awk -v k="$1" '/^state hash/ { h++; on = (h == k); next } /^===/ { on = 0 } on' "$WORK/out"
}
block 1 >"$WORK/first"
block 4 >"$WORK/back"
checks=$((checks + 1))
[ "$(wc -l <"$WORK/first")" -gt 30 ] && cmp -s "$WORK/first" "$WORK/back" ||
    fail "registers and backtrace differ: $(diff "$WORK/first" "$WORK/back" | head -5)"
expect_out '^#0  e1000_intr (irq=.*) at e1000_main.c:'
expect_out '^Back at tick [0-9]* (.*), cpu0 at [0-9]* instructions.$'

# A running reverse needs the history: without record, one line.
run_xbow --batch -q $M --append "$RUN" -ex 'break e1000_intr' -ex continue \
    -ex 'reverse-continue' "$vmlinux"
expect_status 1
expect_out '^No history to go back in: say "record" before running the guest'
finish
