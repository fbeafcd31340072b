#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record and replay (docs/record-replay.md) on the serial-irq example, which
# reads a line from the console: the recording takes the line from a pipe,
# the replay from the log with standard input empty, and prints the same
# output, the same registers and device state at the same instruction counts,
# with either engine.  Then every kind of bad log and mismatched machine:
# a divergence (a well-formed log of another run: one console byte 100
# ticks late), a damaged record, a newer format, a log cut short, another
# machine configuration, another kernel, --record with --replay, a file that
# is no log; `info record` in each mode.  Logs are changed with
# tests/batch/rr_edit.py, a reader of its own.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"
G="$EX/serial-irq/serial_irq.elf"
[ -f "$G" ] || { echo "SKIP: $G is not built"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to edit logs"; exit 77; }
EDIT="$top_srcdir/tests/batch/rr_edit.py"

# rec NAME ARGS...: record with the line coming through a pipe.
name=record
printf 'hi there\n' | timeout 120 "$XBOW" --batch -q --record "$TMP/c.rr" "$G" \
    -ex 'continue 150000' -ex 'info registers' -ex 'info device-state' \
    -ex 'continue 5000000' -ex 'info registers' -ex 'info device-state' \
    -ex 'echo ===\n' -ex 'info record' >"$TMP/record.out" 2>"$TMP/record.err"
rc=$?
expect_rc 0
expect record.out 'serial-irq: got "hi there" in 9 receive interrupts'
expect record.out "Recording to $TMP/c.rr (log format 1)"
expect record.out "  console   9 records, 9 bytes"
[ "$(python3 "$EDIT" "$TMP/c.rr" list | grep -c '^console 0 1 ')" -eq 9 ] ||
    fail "the log does not hold 9 one-byte console records"
python3 "$EDIT" "$TMP/c.rr" list | tail -n 1 | grep -q '^end ' || fail "the log has no end record"

# replay NAME ENGINE: the same commands, nothing on standard input.
replay() {
    name=$1
    timeout 120 "$XBOW" --batch -q --engine "$2" --replay "$TMP/c.rr" "$G" \
        -ex 'continue 150000' -ex 'info registers' -ex 'info device-state' \
        -ex 'continue 5000000' -ex 'info registers' -ex 'info device-state' \
        -ex 'echo ===\n' -ex 'info record' >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null
    rc=$?
    expect_rc 0
    sed '/^===$/q' "$TMP/record.out" >"$TMP/a"
    sed '/^===$/q' "$TMP/$name.out" >"$TMP/b"
    cmp -s "$TMP/a" "$TMP/b" || fail "$name: output differs from the recording's: $(diff "$TMP/a" "$TMP/b" | head -5)"
    expect "$name.out" "Replaying $TMP/c.rr (log format 1, complete): replay ended."
    expect "$name.out" "  position  record 9 of 9"
}
replay replay-jit jit
replay replay-interp interp

# Typed input during a replay is not the guest's (the TUI's console pane
# feeds chardev_push_input; a terminal on stdin is not read at all).
name=replay-stdin
printf 'other text\n' | timeout 120 "$XBOW" --batch -q --replay "$TMP/c.rr" "$G" >"$TMP/$name.out" 2>"$TMP/$name.err"
rc=$?
expect_rc 0
expect replay-stdin.out 'serial-irq: got "hi there" in 9 receive interrupts'
expect replay-stdin.err "the guest reset the machine after "

# A divergence: byte 3 is logged 100 ticks after the UART took it.
python3 "$EDIT" "$TMP/c.rr" "$TMP/late.rr" shift console 3 100
run late --replay "$TMP/late.rr" "$G"
expect_rc 1
expect late.err "replay diverged: the log has a console input (1 bytes, channel 0) at time"
expect late.err "record 3 of 9; the machine is at"
if grep -q 'got "' "$TMP/late.out"; then fail "late: the guest got a line after the divergence"; fi
run late-info --replay "$TMP/late.rr" "$G" -ex continue -ex 'info record'
expect late-info.out "replay stopped"
expect late-info.out "replay diverged: the log has a console input"

# Damage, a newer format, a log cut short.
python3 "$EDIT" "$TMP/c.rr" "$TMP/flip.rr" flip 2
run flip --replay "$TMP/flip.rr" "$G"
expect_rc 2
expect flip.err "xbow: $TMP/flip.rr: record 2 (at byte "
expect flip.err "checksum mismatch: the log is damaged"
python3 "$EDIT" "$TMP/c.rr" "$TMP/v2.rr" version 2
run v2 --replay "$TMP/v2.rr" "$G"
expect_rc 2
expect v2.err "log format version 2; this xbow reads version 1"
python3 "$EDIT" "$TMP/c.rr" "$TMP/cut.rr" cut 5
run cut --replay "$TMP/cut.rr" "$G"
expect_rc 1
expect cut.err "the log ends inside record 5"
expect cut.err "replay: the log ends here, at time "
expect cut.err "after 4 inputs, without its end record (the recording was cut short)"
head -c 10 "$TMP/c.rr" >"$TMP/head.rr"
run head --replay "$TMP/head.rr" "$G"
expect_rc 2
expect head.err "the header is cut short"

# Another machine, another kernel, both modes, no log.
run cpus --replay "$TMP/c.rr" --cpus 2 "$G"
expect_rc 2
expect cpus.err 'machine configuration differs: cpus: the file has "1", this machine "2"'
run kernel --replay "$TMP/c.rr" "$EX/hello/hello.elf"
expect_rc 2
expect kernel.err "kernel-hash differs: the recording has "
run both --replay "$TMP/c.rr" --record "$TMP/x.rr" "$G"
expect_rc 2
expect both.err "--record and --replay exclude each other"
run nolog --replay "$G" "$G"
expect_rc 2
expect nolog.err "not an xbow record log (no XBOWREC header)"
run missing --replay "$TMP/none.rr" "$G"
expect_rc 2
expect missing.err "No such file or directory"
# A recording that cannot be written leaves nothing behind.
run nodir --record "$TMP/no/such/dir.rr" "$G"
expect_rc 2
expect nodir.err "cannot create $TMP/no/such/dir.rr"

# info record without either, and the debugger's changes are said.
run off -ex 'info record'
expect off.out "No recording or replay is active"
printf 'hi there\n' >"$TMP/in.txt"
name=change
timeout 120 "$XBOW" --batch -q --record "$TMP/d.rr" "$G" -ex 'stepi 10' -ex 'set var $t0 = 7' \
    -ex 'info record' <"$TMP/in.txt" >"$TMP/change.out" 2>"$TMP/change.err"
rc=$?
expect_rc 0
expect change.err "the debugger changed a CPU register at time 10: the log holds inputs from outside"
expect change.out "the debugger changed the machine"
finish
