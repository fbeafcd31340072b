#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Snapshots as a user drives them: save to a file and in memory, quit,
# start again with --restore, and reach the same state hash at the same
# tick with the same console output from there on; info snapshots, delete,
# load by name; every error (no argument, a missing name, a file of
# garbage, a truncated or corrupted file, another machine) is one line and
# leaves the machine where it was.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
need_example tigon/tigon_echo.elf
M="--rtc-fixed --nic tigon2 --net echo"

# 1. Save at 300000 to a file and in memory, run on to the guest's end
# (it resets the machine), note the state hash there.
run_xbow --batch -q $M --serial "file:$WORK/con1" \
    -ex 'stepi 300000' -ex "snapshot save $WORK/s.snap" -ex 'snapshot save -m here' \
    -ex 'info state-hash' -ex 'continue' -ex 'info state-hash' \
    -ex 'snapshot load here' -ex 'info state-hash' -ex 'continue' -ex 'info state-hash' \
    -ex 'snapshot save -m' -ex 'info snapshots' -ex 'snapshot delete s1' -ex 'info snapshots' "$ELF"
expect_status 0
expect_out "^Saved snapshot $WORK/s.snap: time .* (tick 300000), cpu0 at 300000 instructions"
expect_out '^Saved in-memory snapshot here: '
expect_out '^Loaded in-memory snapshot here: time .* (tick 300000)'
expect_out '^Saved in-memory snapshot s1: '
expect_out '^here  *[0-9.]* ms  *300000  *[0-9]*  *[0-9.]* MB$'
expect_out '^s1  *[0-9.]* ms  *[0-9]* '
expect_out '^total  *[0-9.]* MB$'
expect_count '^s1 ' 1
expect_count 'The guest reset the machine' 2
l0=$(grep '^state hash' "$WORK/out" | sed -n 1p)
l1=$(grep '^state hash' "$WORK/out" | sed -n 2p)
checks=$((checks + 1))
case "$l0" in "state hash "*" at tick 300000, cpu0 300000 insns") ;; *) fail "first hash: $l0" ;; esac
[ "$l1" != "$l0" ] || fail "the guest did not change the state"
# The load, and the same run after it.
expect_count "^$l0\$" 2
expect_count "^$l1\$" 2
[ -s "$WORK/s.snap" ] || fail "no snapshot file"

# 2. A new xbow from the file: the same state, the same run, the same output.
run_xbow --batch -q $M --serial "file:$WORK/con2" --restore "$WORK/s.snap" \
    -ex 'info state-hash' -ex 'continue' -ex 'info state-hash' "$ELF"
expect_status 0
expect_out "^$l0\$"
expect_out "^$l1\$"
# Its console output is what the first run printed after the save.
checks=$((checks + 1))
grep -q 'tigon-echo: 10 requests, 10 replies' "$WORK/con2" ||
    fail "the restored guest did not finish: $(cat "$WORK/con2")"
tail -c "$(wc -c <"$WORK/con2")" "$WORK/con1" | cmp -s - "$WORK/con2" ||
    fail "console output after --restore is not the end of the first run's"

# 3. Without a kernel and without commands, batch mode runs on from it.
run_xbow --batch -q $M --restore "$WORK/s.snap" --max-insns 4000000
expect_out 'tigon-echo: 10 requests, 10 replies'

# 4. Errors: one line each, and the machine stays where it was.
printf 'not a snapshot\n' >"$WORK/garbage"
head -c 5000 "$WORK/s.snap" >"$WORK/short.snap"
cp "$WORK/s.snap" "$WORK/flip.snap"
size=$(wc -c <"$WORK/s.snap")
printf '\377' | dd of="$WORK/flip.snap" bs=1 seek=$((size - 30)) conv=notrunc 2>/dev/null
cp "$WORK/s.snap" "$WORK/newer.snap"
printf '\011' | dd of="$WORK/newer.snap" bs=1 seek=8 conv=notrunc 2>/dev/null
run_xbow --batch -q $M -ex 'stepi 1000' -ex 'info state-hash' \
    -ex 'snapshot load' -ex 'snapshot save' -ex 'snapshot load nosuch' \
    -ex 'snapshot load -m nosuch' -ex 'snapshot delete nosuch' -ex 'snapshot delete' \
    -ex "snapshot load $WORK/garbage" -ex "snapshot load $WORK/short.snap" \
    -ex "snapshot load $WORK/flip.snap" -ex "snapshot load $WORK/newer.snap" \
    -ex "snapshot save /nonexistent/dir/x.snap" -ex 'snapshot save -m bad/name' \
    -ex 'info state-hash -x' -ex 'info state-hash' "$ELF"
expect_status 1
expect_out '^snapshot load: give a snapshot.s name or a file.  Usage: snapshot load \[-m|-f\] NAME|FILE$'
expect_out '^snapshot save: give a file, or -m NAME.  Usage: snapshot save FILE|-m \[NAME\]$'
expect_out '^snapshot delete: give a snapshot.s name.  Usage: snapshot delete NAME$'
expect_out 'snapshot load: no snapshot named "nosuch" in memory and no such file.'
expect_out 'snapshot load: no snapshot named "nosuch" in memory (see "info snapshots").'
expect_out 'snapshot delete: no snapshot named "nosuch" in memory'
expect_out "snapshot load: $WORK/garbage: not an xbow snapshot"
expect_out "snapshot load: $WORK/short.snap: the snapshot is truncated"
expect_out "snapshot load: $WORK/flip.snap: section \"ram:[a-z0-9-]*\" is corrupted"
expect_out "snapshot load: $WORK/newer.snap: snapshot format version 9 is newer than this xbow reads (1)"
expect_out 'snapshot save: /nonexistent/dir/x.snap: '
expect_out 'snapshot save: "bad/name" is not a snapshot name'
expect_out 'info state-hash'
h=$(grep '^state hash' "$WORK/out" | sed -n 1p | awk '{print $3}')
expect_count "^state hash $h at tick 1000, " 2

# 5. Another machine: named, and nothing loaded.
run_xbow --batch -q --rtc-fixed --cpus 2 --nic tigon2 --net echo \
    -ex "snapshot load $WORK/s.snap" -ex 'info state-hash' "$ELF"
expect_status 1
expect_out 'machine configuration differs: cpus: the file has "1", this machine "2"'
expect_out '^state hash [0-9a-f]* at tick 0, cpu0 0 insns, cpu1 0 insns$'
run_xbow --batch -q --rtc-fixed --nic hamachi --restore "$WORK/s.snap" "$ELF"
expect_status 2
expect_err "^xbow: --restore $WORK/s.snap: machine configuration differs: nic0: "
run_xbow --batch -q $M --restore "$WORK/short.snap" "$ELF"
expect_status 2
expect_err "^xbow: --restore $WORK/short.snap: the snapshot is truncated"

# 6. A file and an in-memory snapshot of the same name: load asks which.
cd "$WORK" || exit 1
run_xbow --batch -q $M -ex 'snapshot save dup' -ex 'snapshot save -m dup' -ex 'snapshot load dup' \
    -ex 'snapshot load -m dup' -ex 'snapshot load -f dup' "$ELF"
expect_out 'snapshot load: "dup" is both a snapshot in memory and a file: say -m dup or -f dup.'
expect_out '^Loaded in-memory snapshot dup'
expect_out '^Loaded snapshot dup'
finish
