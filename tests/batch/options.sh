#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line of the real binary: its edge cases, and --help against
# the man page (both come from the option table in ui/options.c).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

# Bad command lines: a message on standard error, nothing else, status 2.
bad() {
    want=$1
    shift
    run_xbow "$@"
    expect_status 2
    expect_err "$want"
    checks=$((checks + 1))
    [ ! -s "$WORK/out" ] || fail "a refused command line printed on stdout"
}
bad '^xbow: unknown option "--frobnicate" (see xbow --help)$' --frobnicate
bad '^xbow: unknown option "--batch=yes"' --batch=yes
bad '^xbow: unknown option "-ex=help"' -ex=help
bad '^xbow: option --cpus needs an argument (see xbow --help)$' -b --cpus
bad '^xbow: option -x needs an argument' -b -x
bad '^xbow: option --pcap needs an argument' --nic hamachi --pcap
bad '^xbow: --net applies to the NIC given before it: put --nic MODEL first$' --net echo --nic hamachi
bad '^xbow: --mac applies to the NIC given before it' --mac=02:00:00:00:00:01
bad '^xbow: --cpus must be a number from 1 to 4, not 5' --cpus=5
bad '^xbow: more than one kernel given' a.elf b.elf
# The first mistake ends it: --help after it is not reached.
bad 'unknown option "--bogus"' --bogus --help

# --help wins over what follows it, and exits 0.
run_xbow --help --bogus
expect_status 0
expect_out '^Usage: xbow'

# --name=VALUE and --name VALUE build the same machine.
run_xbow -b -q --nic hamachi --net echo --mac 02:00:00:00:00:07 --cpus 2 -ex 'info pci' -ex 'info cpus'
expect_status 0
cp "$WORK/out" "$WORK/separate"
run_xbow -b -q --nic=hamachi --net=echo --mac=02:00:00:00:00:07 --cpus=2 -ex 'info pci' -ex 'info cpus'
expect_status 0
checks=$((checks + 1))
cmp -s "$WORK/out" "$WORK/separate" || fail "--name=VALUE and --name VALUE differ"
expect_out 'MAC 02:00:00:00:00:07 (--mac), net echo'

# -x and -ex (and gdb's --eval-command, with or without '=') run in order.
printf 'echo two\\n\n' >"$WORK/cmds"
run_xbow -b -q -ex 'echo one\n' -x "$WORK/cmds" --eval-command 'echo three\n' \
    --eval-command='echo four\n' --ex 'echo five\n'
expect_status 0
checks=$((checks + 1))
[ "$(cat "$WORK/out")" = "$(printf 'one\ntwo\nthree\nfour\nfive')" ] || fail "commands out of order"

# Every option of the man page's OPTIONS section is in --help, with its value.
run_xbow --help
man=${top_srcdir:-.}/docs/xbow.1
sed -n '/^\.SH OPTIONS/,/^\.SH /{/^\.TP$/{n;p}}' "$man" |
    sed 's/\\-/-/g; s/^\.B[IR]* //; s/"//g; s/  */ /g; s/ , /, /; s/= /=/' >"$WORK/tags"
checks=$((checks + 1))
[ "$(wc -l <"$WORK/tags")" -ge 20 ] || fail "found only $(wc -l <"$WORK/tags") options in $man"
while IFS= read -r tag; do
    checks=$((checks + 1))
    grep -qF -e "$tag" "$WORK/out" || fail "--help lacks \"$tag\" (docs/xbow.1 has it)"
done <"$WORK/tags"
finish
