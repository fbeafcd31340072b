#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Files xbow writes (trace files, --pcap, --serial file:) are emptied only
# by a command or a command line that succeeds: a mistake leaves a file the
# user had as it was, and creates no empty file.
. "${top_srcdir:-.}/tests/batch/lib.sh"
HELLO=${top_builddir:-.}/examples/hello/hello.elf
[ -f "$HELLO" ] || skip "examples/hello/hello.elf is not built"
K="$WORK/keep.txt"

# same FILE: FILE still holds "precious"
same() {
    checks=$((checks + 1))
    [ "$(cat "$1" 2>/dev/null)" = precious ] || fail "$1 was changed: \"$(head -c 40 "$1" | tr -c '[:print:]' .)\""
}
absent() {
    checks=$((checks + 1))
    [ ! -e "$1" ] || fail "$1 was created"
}
reset_files() { for f in "$@"; do echo precious >"$f"; done; }

# trace event: a pattern that matches nothing
reset_files "$K"
run_xbow --batch -ex "trace event nosuch.* $K" -ex 'info trace' "$HELLO"
expect_status 1
expect_out 'No event matches "nosuch.\*"'
expect_out 'Nothing is traced'
same "$K"
run_xbow --batch -ex "trace event nosuch.* $WORK/new.txt" "$HELLO"
absent "$WORK/new.txt"
# trace event: a good pattern, a file that cannot be written: no trace left
run_xbow --batch -ex "trace event hub*.* $WORK/nodir/t.txt" -ex 'info trace' "$HELLO"
expect_out "nodir/t.txt: No such file or directory"
expect_out 'Nothing is traced'
# trace insn: a file that cannot be opened keeps the trace that was on
run_xbow --batch -ex "trace insn on $WORK/a.txt" -ex "trace insn on $WORK/nodir/b.txt" \
    -ex 'info trace' "$HELLO"
expect_out "^instructions -> $WORK/a.txt"
# Two names for one file share it: the second does not empty the first's lines
run_xbow --batch -ex "trace insn on $WORK/a.txt" -ex 'stepi 3' \
    -ex "trace event cpu.exception $WORK/../${WORK##*/}/a.txt" -ex 'stepi 2' -ex 'trace off' "$HELLO"
expect_status 0
checks=$((checks + 1))
n=$(grep -c '^\[t=' "$WORK/a.txt")
[ "$n" -eq 5 ] || fail "a.txt has $n instruction lines, expected 5"

# The command line: --pcap and --serial file: with a kernel that does not
# load, a backend that cannot connect, a later option that is wrong.
P="$WORK/keep.pcap"
S="$WORK/console.txt"
reset_files "$P" "$S"
run_xbow --batch --nic hamachi --pcap "$P" --serial "file:$S" "$WORK/nosuch.elf"
expect_status 2
expect_err "nosuch.elf"
same "$P"
same "$S"
run_xbow --batch --nic hamachi --pcap "$WORK/new.pcap" --serial "file:$WORK/new.txt" "$WORK/nosuch.elf"
absent "$WORK/new.pcap"
absent "$WORK/new.txt"
run_xbow --batch --nic hamachi --pcap "$P" --nic e1000 --net vde:"$WORK/nosuch-switch" "$HELLO"
expect_status 2 # no switch there (or no VDE in a sanitizer build)
same "$P"
run_xbow --batch --nic hamachi --net vde:"$WORK/nosuch-switch" --pcap "$P" "$HELLO"
expect_status 2
same "$P"
# A good command line: both files are (re)written.
run_xbow --batch -q --nic hamachi --pcap "$P" --serial "file:$S" "$HELLO"
expect_status 0
checks=$((checks + 1))
[ "$(od -An -tx1 -N4 "$P" | tr -d ' ')" = 4d3cb2a1 ] || fail "$P is not a fresh pcap file"
checks=$((checks + 1))
grep -q "Hello from the SGI Origin 200" "$S" || fail "$S lacks the guest's output"
finish
