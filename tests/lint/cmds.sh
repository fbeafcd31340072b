#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/cmds.awk, the generator of the command tables (docs/declaring-commands.md):
# a good declaration becomes the C row it stands for, and every kind of bad
# one stops it with FILE:LINE and a message that says what is wrong.  Run
# with every awk the machine has (Debian's default is mawk; gawk may be it).
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
GEN="${top_srcdir:-.}/scripts/cmds.awk"

# gen FILE...: the generator on FILE(s) ($AWKPROG); stdout and stderr in $WORK/out, err.
gen() {
    last_cmd="$AWKPROG -f scripts/cmds.awk $*"
    $AWKPROG -f "$GEN" "$@" >"$WORK/out" 2>"$WORK/err"
    status=$?
}
check_all() {
    last_cmd="$AWKPROG -v check=1 -f scripts/cmds.awk $*"
    $AWKPROG -v check=1 -f "$GEN" "$@" >"$WORK/out" 2>"$WORK/err"
    status=$?
}
# bad NAME 'MESSAGE REGEX' <<EOF: the declaration fails with that message.
bad() {
    cat >"$WORK/$1.cmds"
    gen "$WORK/$1.cmds"
    checks=$((checks + 1))
    [ "$status" -ne 0 ] || fail "a bad declaration ($1) was accepted"
    expect_err "^$WORK/$1.cmds:$2"
}

good() {
    cat >"$WORK/good.cmds" <<'EOF'
# A comment.
table demo_commands

command demo thing
aliases dt, demo t
run cmd_demo
arg count N; optional; min 1; max UINT64_MAX; default 2
arg word on|off; what on or off; complete =on|off
flags machine norepeat
help
    Do a "thing" (first line: the summary).
    A second line with a backslash \n and  two spaces.
        An indented line.

    After an empty line.
    Example: demo thing 3 on

command demo raw
fn cmd_raw
usage demo raw [ANYTHING]
body
      COMMANDS...
    end
help
    Hand-parsed.
    Example: demo raw x
EOF
    gen "$WORK/good.cmds"
    expect_status 0
    expect_out '^static const command demo_commands\[\] = {$'
    expect_out '^#line 4 "'"$WORK"'/good.cmds"$'
    expect_out '^    {.name = "demo thing",$'
    expect_out '^     .aliases = "dt,demo t",$'
    expect_out '^     .run = cmd_demo,$'
    expect_out '^     .nargs = 2,$'
    expect_out '{.kind = ARG_COUNT, .name = "N", .optional = true, .min = 1, .max = UINT64_MAX, .dflt = 2},'
    expect_out '{.kind = ARG_WORD, .name = "on|off", .what = "on or off", .complete = "=on|off", .choices = "on|off"},'
    expect_out '^     .flags = CMD_MACHINE | CMD_NOREPEAT,$'
    expect_out '^     .help = "Do a \\"thing\\" (first line: the summary).\\n"$'
    expect_out '"A second line with a backslash \\\\n and  two spaces.\\n"$'
    expect_out '"    An indented line.\\n"$'
    expect_out '^             "\\n"$'
    expect_out '"Example: demo thing 3 on"},$'
    expect_out '^     .fn = cmd_raw,$'
    expect_out '^     .usage = "demo raw \[ANYTHING\]",$'
    expect_out '^     .body = "  COMMANDS...\\nend",$'
    expect_out '^};$'
}

for AWKPROG in awk mawk gawk; do
    command -v "$AWKPROG" >/dev/null 2>&1 || continue
    good

    bad field '6: error: unknown field "halp"' <<'EOF'
table t

command x
run cmd_x
    
halp
    Text.
EOF
    bad nohandler '3: error: command "x" has no handler' <<'EOF'
table t

command x
help
    Text.
EOF
    bad nohelp '3: error: command "x" has no help' <<'EOF'
table t

command x
run cmd_x

command y
run cmd_y
help
    Text.
EOF
    bad emptyhelp '5: error: "help" has no text' <<'EOF'
table t
command x
run cmd_x
help

command y
EOF
    bad twice '7: error: command "x" is declared twice (first at .*twice.cmds:2)' <<'EOF'
table t
command x
run cmd_x
help
    Text.

command x
run cmd_x2
help
    Text.
EOF
    bad alias '8: error: alias "x" is declared twice' <<'EOF'
table t
command x
run cmd_x
help
    Text.
command y
run cmd_y
aliases yy, x
help
    Text.
EOF
    bad kind '4: error: arg: unknown kind "number"' <<'EOF'
table t
command x
run cmd_x
arg number N
help
    Text.
EOF
    bad attr '4: error: arg: unknown attribute "optionl"' <<'EOF'
table t
command x
run cmd_x
arg count N; optionl
help
    Text.
EOF
    bad flag '4: error: flags: unknown flag "resume"' <<'EOF'
table t
command x
run cmd_x
flags machine resume
help
    Text.
EOF
    bad fnargs '5: error: command "x": declared arguments need a "run" handler' <<'EOF'
table t
command x
fn cmd_x
usage x LINE
arg text LINE
help
    Text.
EOF
    bad fnusage '3: error: command "x": an "fn" handler needs a "usage" line' <<'EOF'
table t
command x
fn cmd_x
help
    Text.
EOF
    bad runusage '4: error: command "x": the usage of a "run" handler is made from its arguments' <<'EOF'
table t
command x
run cmd_x
usage x [N]
help
    Text.
EOF
    bad twohandlers '4: error: command "x" has two handlers' <<'EOF'
table t
command x
run cmd_x
fn cmd_x
help
    Text.
EOF
    bad twofields '5: error: command "x": "flags" twice (first at line 4)' <<'EOF'
table t
command x
run cmd_x
flags machine
flags exact
help
    Text.
EOF
    bad indent '1: error: an indented line belongs to a "help" or "body" block' <<'EOF'
    Text.
EOF
    bad notable '1: error: command "x" before any "table NAME"' <<'EOF'
command x
EOF
    bad handlername '3: error: run: "cmd x" is not a C function name' <<'EOF'
table t
command x
run cmd x
EOF
    bad toomany '8: error: command "x" has more than 4 arguments' <<'EOF'
table t
command x
run cmd_x
arg name A
arg name B
arg name C
arg name D
arg name E
EOF
    bad emptytable '1: error: table t declares no command' <<'EOF'
table t
table u
EOF

    # A name in two files: the check over all of them names both.
    printf 'table t\ncommand x\nrun cmd_x\nhelp\n    Text.\n' >"$WORK/one.cmds"
    printf 'table u\n\ncommand y\nrun cmd_y\nhelp\n    Text.\ncommand x\nrun cmd_x\nhelp\n    Text.\n' \
        >"$WORK/two.cmds"
    check_all "$WORK/one.cmds" "$WORK/two.cmds"
    expect_status 1
    expect_err "^$WORK/two.cmds:7: error: command \"x\" is declared twice (first at $WORK/one.cmds:2)"
    # The tree's own declarations pass.
    src=${top_srcdir:-.}
    check_all "$src"/src/dbg/*.cmds "$src"/ui/*.cmds
    expect_status 0
done
finish
