#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The console's input from the host (docs/architecture.md, "Console input"),
# the way users feed it: a file, a pipe written by a script, a pipe nobody
# writes to, a terminal nobody types into, a closed standard input.
#  - scripted input gives the same run however late the writer is (within
#    the stream wait) and the same run as from a file;
#  - an idle pipe or terminal, or a closed stdin, is not polled once per
#    scheduling quantum (counted with strace: the test skips that part
#    without strace or script);
#  - input written long after the start still reaches the guest;
#  - a pty nobody opened gives the guest no input (not its own echo).
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"
G="$EX/serial-irq/serial_irq.elf"
[ -f "$G" ] || { echo "SKIP: $G is not built"; exit 77; }

insns() { sed -n 's/.* after \([0-9][0-9]*\) instructions.*/\1/p' "$TMP/$1.err"; }
# expect_limit FILE N: the run stopped at the limit of N ticks: instructions
# executed plus the ticks the CPU waited (idle skip), as xbow reports them.
expect_limit() {
    got=$(sed -n 's/.*stopped after the instruction limit (\([0-9]*\) instructions\( and \([0-9]*\) ticks waiting\)\{0,1\}).*/\1 \3/p' "$TMP/$1")
    set -- "$1" "$2" $got
    [ $# -ge 3 ] && [ $(($3 + ${4:-0})) -eq "$2" ] ||
        fail "$1: no stop at the limit of $2 instructions and waiting ticks"
}

# The same bytes from a file, from a pipe written at once, and from a pipe
# written 20 ms after the start: the same run, instruction for instruction.
printf 'hi there\n' >"$TMP/in.txt"
name=file
timeout 120 "$XBOW" --batch -q "$G" <"$TMP/in.txt" >"$TMP/file.out" 2>"$TMP/file.err"
rc=$?
expect_rc 0
expect file.out 'serial-irq: got "hi there" in'
ref=$(insns file)
[ -n "$ref" ] || fail "file: no instruction count"
for late in 0 0.02; do
    name=pipe-$late
    (sleep "$late"; cat "$TMP/in.txt") | timeout 120 "$XBOW" --batch -q "$G" \
        >"$TMP/$name.out" 2>"$TMP/$name.err"
    rc=$?
    expect_rc 0
    cmp -s "$TMP/file.out" "$TMP/$name.out" || fail "$name: the guest printed other things than from a file"
    [ "$(insns "$name")" = "$ref" ] ||
        fail "$name: $(insns "$name") instructions, from a file $ref: not the same run"
done

# A writer that pauses for longer than the stream wait: the input becomes
# live and still arrives (the guest waits for its newline, then resets).
name=late
(sleep 1; printf 'late\n') | timeout 120 "$XBOW" --batch -q "$G" >"$TMP/late.out" 2>"$TMP/late.err"
rc=$?
expect_rc 0
expect late.out 'serial-irq: got "late" in'

# --serial pty with nobody on the other side: the line is raw, as a cable
# is, so the guest does not read back its own output (the pty's echo) as
# input: it waits for a line until the instruction limit.
name=pty
timeout 120 "$XBOW" --batch -q --serial pty --max-insns 30000000 "$G" >"$TMP/pty.out" 2>"$TMP/pty.err" </dev/null
rc=$?
expect_rc 1
expect_limit pty.err 30000000

# Polls of standard input during 20 million instructions (20000 scheduling
# quanta) of a guest waiting for input, with stdin idle or closed.
if command -v script >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    N=20000000
    mkfifo "$TMP/idle"
    exec 3<>"$TMP/idle" # held open: whoever reads it waits forever
    # polls NAME: poll() calls on descriptor 0 in NAME's strace log
    polls() { grep -c 'poll(\[{fd=0,' "$TMP/$1.trace"; }
    trace() { echo "strace -f -qq -e trace=poll,ppoll -o $TMP/$1.trace $XBOW --batch -q --max-insns $N $G"; }
    name=tty
    timeout 120 script -qec "$(trace tty)" /dev/null <"$TMP/idle" >"$TMP/tty.out" 2>"$TMP/tty.err"
    expect_limit tty.out "$N"
    name=pipe
    timeout 120 sh -c "$(trace pipe)" <"$TMP/idle" >"$TMP/pipe.out" 2>"$TMP/pipe.err"
    expect_limit pipe.err "$N"
    name=closed
    timeout 120 sh -c "$(trace closed) <&-" >"$TMP/closed.out" 2>"$TMP/closed.err"
    expect_limit closed.err "$N"
    exec 3>&-
    # Host-time polling (100 a second) makes a handful of polls in this
    # run; once per quantum made 20000.  The bound fails only a run slower
    # than 20 s.
    for k in tty pipe; do
        n=$(polls $k)
        [ "$n" -lt 2000 ] || fail "stdin an idle $k: $n polls in $N instructions (one per quantum?)"
    done
    # Closed, it is /dev/null: at its end after one look.
    n=$(polls closed)
    [ "$n" -le 1 ] || fail "stdin closed: polled $n times"
else
    echo "console_input: no strace (or it may not trace here) or no script(1): poll counts not checked"
fi
finish
