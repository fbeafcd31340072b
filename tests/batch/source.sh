#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# source and -x FILE: a file of debugger commands, one per line.  A
# directory or a binary file is refused before anything runs; like gdb, the
# first command that fails stops the file (with its name and line), in
# batch mode and interactively, and a file that sources another stops too.
. "${top_srcdir:-.}/tests/batch/lib.sh"
ELF=${top_builddir:-.}/examples/hello/hello.elf
[ -f "$ELF" ] || skip "examples/hello/hello.elf is not built"

run_xbow --batch -ex "source $WORK"
expect_status 1
expect_out "$WORK: Is a directory\."
run_xbow --batch -x "$WORK"
expect_status 1
expect_out "$WORK: Is a directory\."

# A binary file (an ELF): refused, none of its stray strings runs.
for how in -ex -x; do
    if [ $how = -x ]; then run_xbow --batch -x "$ELF" -ex 'echo next'; else
        run_xbow --batch -ex "source $ELF" -ex 'echo next'; fi
    expect_status 1
    expect_out "hello.elf: not a text file"
    expect_no_out "Undefined command"
    expect_count "." 2 # the refusal and "next"
done

# Text, then binary bytes: a file is refused before anything runs; from a
# pipe, which cannot be read ahead, it stops at that line before running it.
printf 'echo text-ok\\n\n\001\002c\necho never\\n\n' >"$WORK/mixed.xbow"
run_xbow --batch -x "$WORK/mixed.xbow" "$ELF"
expect_status 1
expect_out "mixed.xbow: not a text file"
expect_no_out "text-ok"
mkfifo "$WORK/mixed.fifo"
cat "$WORK/mixed.xbow" >"$WORK/mixed.fifo" &
run_xbow --batch -x "$WORK/mixed.fifo" "$ELF"
wait
expect_status 1
expect_out "^text-ok$"
expect_out "mixed.fifo:2: not a text line"
expect_no_out "never"
expect_no_out "Continuing"

# The first failing command stops the file; a file that sourced it stops
# too, each saying where.  Interactively (the CLI reading its commands from
# a pipe) the same, and the next command typed still runs.
printf 'echo inner-1\\n\nbogus-command\necho inner-never\\n\n' >"$WORK/inner.xbow"
printf 'echo outer-1\\n\nsource %s\necho outer-never\\n\n' "$WORK/inner.xbow" >"$WORK/outer.xbow"
run_xbow --batch -x "$WORK/outer.xbow"
expect_status 1
expect_out "^outer-1$"
expect_out "^inner-1$"
expect_out 'Undefined command: "bogus-command"'
expect_out "inner.xbow:2: command failed: bogus-command"
expect_out "outer.xbow:2: command failed: source "
expect_no_out "never"
printf 'source %s\necho typed-after\\n\n' "$WORK/outer.xbow" >"$WORK/typed"
run_xbow_in "$WORK/typed" --cli -q
expect_out "inner.xbow:2: command failed: bogus-command"
expect_no_out "never"
expect_out "^typed-after$"

# A FIFO (a script another program writes) is a file of commands too.
mkfifo "$WORK/fifo"
printf 'echo from-a-fifo\\n\n' >"$WORK/fifo" &
run_xbow --batch -x "$WORK/fifo"
wait
expect_status 0
expect_out "^from-a-fifo$"
finish
