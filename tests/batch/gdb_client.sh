#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Real gdb-multiarch against xbow's gdb stub, as a user drives it, on the
# debugger's test guest (examples/dbgtest): break at a symbol, continue, bt,
# info registers, p/x $pc, x/4i $pc, a watchpoint that fires, info threads
# and thread 2 with two CPUs, Ctrl-C of a running guest, detach and attach
# again, and both sides of one machine: a stop caused at the xbow prompt is
# seen by gdb and the other way round.  The checks take gdb's output with and
# without debug information in the guest (symbols only: "0x... in f ()").
. "${top_srcdir:-${srcdir:-.}}/tests/batch/gdb_lib.sh"

# 1. Break, continue, look around; detach leaving the machine stopped.
xbow_start one "$GUEST"
xbow_cmd "gdbserver on-detach stop"
gdb_run brk "$GUEST" -ex "break middle" -ex continue -ex bt -ex "info registers" \
    -ex 'p/x $pc' -ex 'x/4i $pc' -ex "info threads" -ex "monitor info cpus" -ex detach
expect_rc 0
expect_re "^Breakpoint 1 at 0xa8[0-9a-f]+"
bp=$(sed -n 's/^Breakpoint 1 at \(0x[0-9a-f]*\).*/\1/p' "$TMP/brk.out")
expect_re "^Breakpoint 1, ($bp in )?middle \("
expect_re "^#0  ($bp in )?middle \("
expect_re "^#1  0xa8[0-9a-f]+ in outer \("
expect_re "^ R0 +0+ "                       # info registers: the GPRs ...
expect_re "^ +status +lo +hi +badvaddr *$"   # ... CP0 and the rest, by gdb's names
expect_re "^ +cause +pc *$"
expect_re "^ +fcsr +fir *$"
expect_re " 0+900 *$"                         # fir: the R10000's FCR0
expect "\$1 = $bp"
expect_re "^=> $bp <middle(\+[0-9]+)?>:"
expect_re "^   0xa8[0-9a-f]+ <middle\+[0-9]+>:"
expect_re "^\* 1 +Thread 1 \(cpu0, node 0 slice A\) ($bp in )?middle \("
expect_re "^\* 0 +$bp middle(\+0x[0-9a-f]+)? "
expect "[Inferior 1 (Remote target) detached]"
xbow_sync
on one
expect "[gdb attached from pid "
expect "[gdb detached: the machine stays stopped (gdbserver on-detach stop)]"
# gdb's own stops are gdb's to report: the xbow console stays quiet.
expect_not "Breakpoint 1"
# The machine is where gdb left it, and the xbow prompt works on it.
xbow_cmd "info cpus"
xbow_sync
on one
expect_re "^\* 0 +$bp middle(\+0x[0-9a-f]+)? "

# Attach again: the same place; a breakpoint and a watchpoint.
gdb_run again "$GUEST" -ex 'p/x $pc' -ex "break leaf" -ex continue -ex bt -ex "delete" \
    -ex 'watch *(unsigned int *)&counter' -ex continue -ex continue -ex kill
expect_rc 0
expect "\$1 = $bp"
expect_re "^Breakpoint 1, (0xa8[0-9a-f]+ in )?leaf \("
expect_re "^#1  0xa8[0-9a-f]+ in middle \("
expect "Hardware watchpoint 2: *(unsigned int *)&counter"
expect_seq "Old value = 0" "New value = 1" "Old value = 1" "New value = 2"
expect "[Inferior 1 (Remote target) killed]"
xbow_sync
on one
expect "[gdb killed its session: the machine stays stopped]"
xbow_quit
expect_rc 0

# 2. Two CPUs: two threads; thread 2 is the second CPU, still in the PROM.
xbow_start two --cpus 2 "$GUEST"
gdb_run threads "$GUEST" -ex "info threads" -ex "thread 2" -ex 'p/x $pc' -ex "thread 1" \
    -ex 'p/x $pc' -ex kill
expect_rc 0
expect_re "^\* 1 +Thread 1 \(cpu0, node 0 slice A\) (0xa800000000020000 in )?_start \(\)"
expect_re "^  2 +Thread 2 \(cpu1, node 0 slice B\) 0xffffffffbfc00000 in \?\? \(\)"
expect "[Switching to thread 2 (Thread 2)]"
expect "\$1 = 0xffffffffbfc00000"
expect "\$2 = 0xa800000000020000"
xbow_quit

# 3. Ctrl-C (SIGINT to gdb, as at its prompt) stops a guest that never
#    stops by itself; gdb goes on with the next command.
xbow_start intr --append forever "$GUEST"
name=ctrlc
: >"$TMP/$name.xbow"
"$GDB" -batch -nx -ex "target remote $SOCK" -ex continue -ex 'info registers pc' \
    -ex kill "$GUEST" >"$TMP/$name.out" 2>&1 </dev/null &
gpid=$!
wait_for "$TMP/intr.console" "dbgtest: round 2" || fail "the guest did not run"
sleep 0.3
kill -INT "$gpid" # once, to gdb itself, as the terminal would
for _ in $(seq 100); do
    kill -0 "$gpid" 2>/dev/null || break
    sleep 0.1
done
kill "$gpid" 2>/dev/null && fail "gdb did not finish after Ctrl-C"
wait "$gpid"
rc=$?
expect_rc 0
expect "received signal SIGINT, Interrupt."
expect_re "^pc: 0xa8[0-9a-f]+$"
xbow_quit

# 4. One machine, two front ends: a breakpoint set at the xbow prompt stops
#    gdb's continue; both report it (gdb: SIGTRAP and xbow's report).
xbow_start mix "$GUEST"
xbow_cmd "break leaf"
xbow_sync
gdb_run mixgdb "$GUEST" -ex continue -ex "monitor info stop" -ex "info breakpoints" -ex detach
expect "xbow: Breakpoint 1, leaf"
expect "Program received signal SIGTRAP, Trace/breakpoint trap."
expect_re "^(0xa8[0-9a-f]+ in )?leaf \("
expect "No breakpoints or watchpoints."   # xbow's are not gdb's
expect_re "^0xa8[0-9a-f]+ <leaf>:"        # monitor info stop: the whole report
# the detached guest runs on, into leaf again: reported at the prompt
for _ in $(seq 100); do
    [ "$(grep -c "Breakpoint 1, leaf" "$TMP/mix.out")" -ge 2 ] && break
    sleep 0.1
done
xbow_sync
on mix
expect_seq "Breakpoint 1, leaf" "[gdb detached: the guest runs on (gdbserver on-detach run; Ctrl-C stops it)]" "Breakpoint 1, leaf"
expect_count 2 "Breakpoint 1, leaf"
xbow_quit
expect_rc 0

# 5. The xbow prompt runs the guest while gdb is attached and stopped: gdb is
#    not told (all-stop), xbow says so once; gdb sees the new state after
#    flushing its register cache.
xbow_start stale "$GUEST"
name=stalegdb
: >"$TMP/$name.xbow"
timeout 120 "$GDB" -batch -nx -ex "target remote $SOCK" -ex 'p/x $pc' -ex "shell sleep 3" \
    -ex "maintenance flush register-cache" -ex 'p/x $pc' -ex 'p $pc == leaf' -ex kill \
    "$GUEST" >"$TMP/$name.out" 2>&1 </dev/null &
gpid=$!
wait_for "$TMP/stalegdb.out" "\$1 = 0xa800000000020000" || fail "gdb did not attach"
xbow_cmd "break leaf"
xbow_cmd "continue"
xbow_sync
wait "$gpid"
rc=$?
on stalegdb
expect_rc 0
expect "\$3 = 1"
on stale
expect_seq "Breakpoint 1, leaf" "(gdb is attached but did not resume the guest: it shows the state it last saw until it resumes it, or until \"maintenance flush register-cache\" there.)"
xbow_quit
expect_rc 0

# 6. With DWARF in the guest (examples built with -g), gdb does the source
#    level itself through the stub: lines, arguments, locals, next, step.
if command -v readelf >/dev/null 2>&1 && readelf -S "$GUEST" | grep -q "\.debug_info"; then
    xbow_start src "$GUEST"
    gdb_run srcgdb "$GUEST" -ex "break middle" -ex continue -ex "info args" -ex next -ex next \
        -ex "info locals" -ex bt -ex "p message" -ex kill
    expect_re "^Breakpoint 1, middle \(x=0\) at .*dbgtest\.c:[0-9]+$"
    expect "x = 0"
    expect "r = 5"
    expect_re "^#2  0xa8[0-9a-f]+ in main \("
    expect "\$1 = \"hello, debugger\""
    xbow_quit
fi
finish
