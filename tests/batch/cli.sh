#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line and batch mode, driven the way a user would.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

# --help and --version
run_xbow --help
expect_status 0
expect_out "Usage: xbow"
expect_out "--batch"
run_xbow --version
expect_status 0
expect_out "^xbow [0-9]"

# Unknown options and bad values: a clear message and status 2
run_xbow --frobnicate
expect_status 2
expect_err 'unknown option "--frobnicate"'
run_xbow --cpus 9
expect_status 2
expect_err "--cpus"
run_xbow --on-reset=never
expect_status 2
expect_err "want stop, exit or restart"
run_xbow -x
expect_status 2
expect_err "needs an argument"

# Batch commands: help, help CMD, echo, -x files; a failing command makes
# the exit status non-zero but later commands still run.
run_xbow --batch -ex 'help' -ex 'help stepi' -ex 'echo one\n'
expect_status 0
expect_out "help COMMAND"
expect_out "Usage: stepi \[N\]"
expect_out "^one$"
run_xbow --batch -ex 'frobnicate' -ex 'echo after\n'
expect_status 1
expect_out 'Undefined command: "frobnicate"'
expect_out "^after$"
run_xbow --batch -ex 'info bogus'
expect_status 1
expect_out 'Undefined info command'
# Abbreviations and aliases as in gdb
run_xbow --batch -ex 'i devices' -ex 'h echo'
expect_status 0
expect_out "Usage: echo \\[TEXT\\]"

cmds="$WORK/cmds.xbow"
printf 'echo from-file\\n\n# a comment\n\necho second\\n\n' > "$cmds"
run_xbow --batch -x "$cmds"
expect_status 0
expect_out "^from-file$"
expect_out "^second$"
printf 'echo ok\\n\nnot-a-command\necho never\\n\n' > "$cmds"
run_xbow --batch -x "$cmds"
expect_status 1
expect_out "cmds.xbow:2: command failed"
expect_no_out "^never$"
run_xbow --batch -x /nonexistent/file
expect_status 1
expect_out "No such file"

# quit with a status
run_xbow --batch -ex 'quit 3'
expect_status 3

# Multi-line blocks must be closed
run_xbow --batch -ex 'define foo' -ex 'echo x'
expect_status 1

finish
