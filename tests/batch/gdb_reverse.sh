#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gdb's reverse execution through xbow's stub (bs, bc; docs/gdb.md), as a
# user drives it with real gdb-multiarch on the debugger's test guest:
# "monitor record", break, continue, reverse-stepi, reverse-continue to the
# earlier hits of a breakpoint with the registers and backtrace the forward
# run had there, reverse-finish, reverse-next and reverse-step by source
# line, gdb's watchpoint back to the stores that changed it, a NIC's DMA
# write (monitor watch dma) gone back to, going back past the history's
# start ("No more reverse-execution history."), continue again after going
# back (the same future); without a history an error that says why.  A raw
# client: bs/bc without a history, steps back one by one to where the
# forward steps were, bs/bc while running, Ctrl-C of a long bc.  Linux
# (when built): back from e1000_intr's second hit to its first.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/gdb_lib.sh"
RAW="$top_srcdir/tests/batch/gdb_raw.py"
if ! readelf -S "$GUEST" 2>/dev/null | grep -q "\.debug_info"; then
    echo "SKIP: the test guest has no debug information (source lines)"
    exit 77
fi

# sect NAME: the lines of $TMP/$name.out between "==NAME==" and the next "==".
sect() {
    awk -v s="==$1==" '$0 == s { on = 1; next } /^==/ { on = 0 } on' "$TMP/$name.out"
}

# 1. The forward run and back: two hits of leaf, back to each, registers and
#    backtrace as they were; to the start, and forward again.
xbow_start xrev "$GUEST"
gdb_run rev "$GUEST" -ex "monitor record" -ex "break leaf" -ex continue \
    -ex "echo ==A==\n" -ex "info all-registers" -ex bt -ex "echo ==\n" -ex continue \
    -ex "echo ==B==\n" -ex "info all-registers" -ex bt -ex "echo ==\n" \
    -ex "stepi 2" -ex "echo ==P1==\n" -ex 'p/x $pc' -ex "echo ==\n" -ex stepi -ex reverse-stepi \
    -ex "echo ==P2==\n" -ex 'p/x $pc' -ex "echo ==\n" \
    -ex reverse-continue -ex "echo ==B2==\n" -ex "info all-registers" -ex bt -ex "echo ==\n" \
    -ex reverse-continue -ex "echo ==A2==\n" -ex "info all-registers" -ex bt -ex "echo ==\n" \
    -ex reverse-finish -ex "echo ==F==\n" -ex bt -ex 'p/x $pc' -ex "echo ==\n" \
    -ex reverse-continue -ex 'p/x $pc' -ex reverse-stepi -ex 'p/x $pc' \
    -ex continue -ex "echo ==A3==\n" -ex "info all-registers" -ex bt -ex "echo ==\n" \
    -ex "monitor info time" -ex kill
expect_rc 0
expect "Recording the history: "
expect_count 3 "Breakpoint 1, leaf (x=0) at "
expect_count 2 "Breakpoint 1, leaf (x=1) at "
sect A >"$TMP/a"
sect B >"$TMP/b"
grep -q "^ R28 " "$TMP/a" && grep -q "^ f31: " "$TMP/a" || fail "no registers in section A"
grep -q "^#2  .* in outer (n=4)" "$TMP/a" || fail "no backtrace in section A"
cmp -s "$TMP/a" "$TMP/b" && fail "the two hits have the same registers"
for s in A2 A3; do
    sect $s | cmp -s - "$TMP/a" || fail "$s: registers or backtrace differ from the first hit's"
done
sect B2 | cmp -s - "$TMP/b" || fail "B2: registers or backtrace differ from the second hit's"
p1=$(sect P1 | sed 's/^\$[0-9]* = //')
p2=$(sect P2 | sed 's/^\$[0-9]* = //')
[ -n "$p1" ] && [ "$p1" = "$p2" ] || fail "reverse-stepi is not where the forward stepi was: $p1 / $p2"
# reverse-finish from leaf's entry: the call in middle (the jal, with its
# delay slot one step)
sect F | grep -q "^#0  0xa8[0-9a-f]* in middle (x=0) at .*dbgtest.c:23$" ||
    fail "reverse-finish did not stop at the call in middle"
jal=$(sect F | sed -n 's/^\$[0-9]* = //p')
mips_insn=$("$GDB" -batch -nx -ex "x/i $jal" "$GUEST" 2>/dev/null)
case "$mips_insn" in *jal*) ;; *) fail "reverse-finish stopped at $jal, not a jal: $mips_insn" ;; esac
# the start: no earlier stop; one more step back is refused the same way
expect_count 2 "No more reverse-execution history."
expect_re "^  last went back: reverse-continue, [0-9.]+ s of host time"
xbow_sync
on xrev
expect "[gdb attached from pid "
expect_not "Breakpoint 1"  # gdb's own stops are gdb's to report
xbow_quit

# 1b. gdb's watchpoint in reverse: back to the store that made each change,
#     the value before it (gdb prints the change the way it went).
xbow_start xwatch "$GUEST"
gdb_run watch "$GUEST" -ex "monitor record" -ex "watch counter" -ex continue -ex continue \
    -ex reverse-continue -ex "echo ==W1==\n" -ex "p counter" -ex "x/i \$pc" -ex "echo ==\n" \
    -ex reverse-continue -ex "echo ==W0==\n" -ex "p counter" -ex "echo ==\n" -ex kill
expect_rc 0
expect_seq "Old value = 0" "New value = 1" "Old value = 1" "New value = 2" "Old value = 2" \
    "New value = 1" "Old value = 1" "New value = 0"
sect W1 | grep -q "^\$[0-9]* = 1$" || fail "reverse-continue to the watchpoint: $(sect W1)"
sect W1 | grep -q "sw[[:space:]]" || fail "reverse-continue to the watchpoint: not at the store"
sect W0 | grep -q "^\$[0-9]* = 0$" || fail "second reverse-continue: $(sect W0)"
xbow_quit

# 1c. The NIC story from gdb: a DMA watchpoint (monitor watch dma) on a
#     receive return descriptor; reverse-continue stops at the Tigon's write
#     with xbow's report on gdb's console, reverse-stepi shows the word before.
TIGON=$top_builddir/examples/tigon/tigon_echo.elf
if [ -f "$TIGON" ]; then
    xbow_start xnic --rtc-fixed --nic tigon2 --net echo "$TIGON"
    gdb_run nic "$TIGON" -ex "monitor record" -ex "monitor set history-interval 100000" \
        -ex "monitor watch dma tigon0 p:(char *)&ret_ring+0x2c,4 write" -ex continue \
        -ex "stepi 1000" -ex reverse-continue -ex "x/wx (char *)&ret_ring+0x2c" \
        -ex reverse-stepi -ex "x/wx (char *)&ret_ring+0x2c" -ex kill
    expect_rc 0
    expect_count 2 "xbow: DMA watchpoint 1: tigon0 wrote 4 bytes at p:0x"
    expect_count 2 "xbow:   for: rx-status, ring 4, descriptor 1"
    expect_re "^xbow: Back at tick [0-9]+ \(.*\), cpu0 at [0-9]+ instructions\.$"
    expect_seq "xbow: Back at tick" "<ret_ring+44>:	0x00000024" "<ret_ring+44>:	0x00000000"
    xbow_quit
fi

# 2. By source line: from outer's line 43 (the call of middle) next to line
#    42, reverse-next back over the call (gdb: a breakpoint of its own at
#    middle's start, bc to it, bs to the call; no vCont in reverse), next
#    again, reverse-step into middle's last line, reverse-finish to the call.
xbow_start xlines "$GUEST"
gdb_run lines "$GUEST" -ex "monitor record" -ex "break dbgtest.c:43" -ex continue -ex next \
    -ex "echo ==N==\n" -ex 'info line *$pc' -ex "echo ==\n" -ex "set debug remote 1" \
    -ex reverse-next -ex "set debug remote 0" -ex "echo ==RN==\n" -ex 'info line *$pc' -ex bt \
    -ex "echo ==\n" -ex next -ex reverse-step -ex "echo ==RS==\n" -ex bt -ex "echo ==\n" \
    -ex reverse-finish -ex "echo ==RF==\n" -ex bt -ex "echo ==\n" -ex kill
expect_rc 0
sect N | grep -q "^Line 42 of " || fail "next did not reach line 42: $(sect N)"
sect RN | grep -q "^Line 43 of " || fail "reverse-next did not go back to line 43: $(sect RN)"
sect RN | grep -q "^#0  outer (n=4) at .*dbgtest.c:43$" || fail "reverse-next: not at the start of line 43"
n=$(grep -c 'Sending packet: \$bc#' "$TMP/lines.out")
[ "$n" -ge 1 ] || fail "reverse-next over a call sent no bc"
grep -q 'Sending packet: \$vCont' "$TMP/lines.out" && fail "gdb sent vCont in reverse"
sect RS | grep -q "^#0  middle (x=.*) at .*dbgtest.c:2[56]$" ||
    fail "reverse-step from line 42 did not enter middle at its last line: $(sect RS)"
sect RS | grep -q "^#1  0xa8[0-9a-f]* in outer (n=4) at " || fail "reverse-step: middle's caller is not outer"
sect RF | grep -q "^#0  0xa8[0-9a-f]* in outer (n=4) at .*dbgtest.c:43$" ||
    fail "reverse-finish from middle did not stop at the call in outer: $(sect RF)"
xbow_quit

# 3. No history: gdb is told why, the machine stays; monitor record, then it works.
xbow_start xnone "$GUEST"
gdb_run none "$GUEST" -ex "break leaf" -ex continue -ex reverse-stepi -ex 'p/x $pc' \
    -ex reverse-continue -ex "monitor record" -ex continue -ex reverse-continue -ex bt \
    -ex "monitor rsi" -ex kill
expect_rc 0
expect "monitor reverse-stepi: go back with gdb's own reverse-stepi: gdb would not know"
expect_count 1 'xbow: reverse step: no history to go back in: "monitor record" starts'
expect_count 1 'xbow: reverse continue: no history to go back in: "monitor record" starts'
expect_count 2 "warning: Remote failure reply: E01"
expect_re "^\\\$1 = 0xa8[0-9a-f]+$"
expect_seq "Recording the history" "Breakpoint 1, leaf (x=1)" "Breakpoint 1, leaf (x=0)" \
    "#0  leaf (x=0)"
xbow_sync
on xnone
expect "[gdb's reverse step: no history to go back in"
xbow_quit

# 4. Linux (make linux; skipped without it): break e1000_intr, continue
#    twice, reverse-stepi 20 (out of the handler, back in its caller),
#    reverse-continue to the first hit: the registers and the backtrace
#    through the kernel's frames as they were.
KERNEL=$(bash "$top_srcdir/linux/build.sh" --print-path 2>/dev/null)
ksrc=$(ls -d "$(dirname "${KERNEL:-/nonexistent}")"/src/linux-source-* 2>/dev/null | head -n 1)
if [ -n "$KERNEL" ] && [ -f "$KERNEL" ] && [ -n "$ksrc" ]; then
    xbow_start xlinux --nic e1000-82544 --net echo \
        --append 'xbow.run="ping -c 3 10.0.2.2" xbow.after=reboot' "$KERNEL"
    xbow_cmd "gdbserver on-detach stop"
    gdb_run linux "$KERNEL" -ex "directory $ksrc" -ex "monitor record" -ex "break e1000_intr" \
        -ex continue -ex "echo ==L1==\n" -ex "info registers" -ex bt -ex "echo ==\n" -ex continue \
        -ex "reverse-stepi 20" -ex "echo ==LS==\n" -ex "bt 2" -ex "echo ==\n" -ex reverse-continue \
        -ex "echo ==L2==\n" -ex "info registers" -ex bt -ex "echo ==\n" -ex detach
    expect_rc 0
    expect_count 3 "Breakpoint 1, e1000_intr (irq="
    sect L1 >"$TMP/l1"
    grep -q "^#1  0xa8[0-9a-f]* in __handle_irq_event_percpu (" "$TMP/l1" ||
        fail "no kernel backtrace at the first hit"
    sect L2 | cmp -s - "$TMP/l1" ||
        fail "Linux: registers or backtrace after reverse-continue differ from the first hit's"
    sect LS | grep -q "^#0  0xa8[0-9a-f]* in handle_irq_event_percpu (" ||
        fail "reverse-stepi 20 from e1000_intr's entry: not back in its caller: $(sect LS)"
    xbow_quit
else
    echo "note: no Linux kernel (make linux): the Linux part is skipped"
fi

# 5. A raw client: what gdb never sends, and the steps one by one.
command -v python3 >/dev/null 2>&1 || { finish; exit; }
xbow_start xraw --append forever "$GUEST"
xbow_cmd "gdbserver on-detach stop"
name=rawrev
: >"$TMP/$name.xbow"
timeout 120 python3 "$RAW" "$SOCK" reverse_nohist reverse_steps reverse_running \
    reverse_interrupt kill >"$TMP/$name.out" 2>&1
rc=$?
expect_rc 0
expect_count 0 "FAIL"
expect_count 5 "ok "
xbow_cmd "info cpus"
xbow_sync
on xraw
expect_re "^\* 0 +0xa8[0-9a-f]+ "
expect "[gdb's reverse continue: the guest is running: interrupt it first]"
expect "Interrupted while re-executing the history: the machine is at tick "
xbow_quit
expect_rc 0
finish
