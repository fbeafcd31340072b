#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# NI_PORT_RESET and --on-reset: stop (default) and exit end the batch run
# with status 0 after one boot; restart reloads the kernel and boots again
# (memory outside the kernel survives, so the boot counter goes up) until
# the instruction limit.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

run stop "$EX/restart/restart.elf"
expect_rc 0
expect stop.out "restart: boot 1"
grep -q "boot 2" "$TMP/stop.out" && fail "stop: the machine restarted"

run exit --on-reset=exit "$EX/restart/restart.elf"
expect_rc 0
expect exit.out "restart: boot 1"

run again --on-reset=restart --max-insns 300000 "$EX/restart/restart.elf"
expect_rc 1
expect again.out "restart: boot 1"
expect again.out "restart: boot 2"
expect again.out "restart: boot 3"
expect again.err "instruction limit"
finish
