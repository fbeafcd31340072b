#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# gdb settings: a gdb-style preamble runs (pagination, confirm, height,
# width), logging copies everything the debugger prints to a file (appended
# or overwritten, with or without the screen), show shows the settings,
# gdb settings xbow does not have say so, and settings' names still work as
# guest symbols and convenience variables.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

log="$TMP/session.log"
echo "an older session" >"$log"
script preamble <<X
set pagination off
set confirm off
set height 0
set width unlimited
set logging file $log
set logging overwrite on
set logging enabled on
break middle
run
bt
print/x \$a0 + 0x10
set logging redirect on
echo only-in-the-file\\n
set logging redirect off
set logging enabled off
echo after-logging\\n
show logging
show pagination
X
expect_rc 0
expect "Copying output to $log."
expect "Done logging to $log."
expect "after-logging"
expect_re "^logging +off$"
expect_re "^logging file +$log$"
expect_re "^logging overwrite +on "
expect_re "^pagination +off "
name=preamble.log
cp "$log" "$TMP/$name.out"
: >"$TMP/$name.xbow"
expect "Breakpoint 1, middle"
expect_re "^#1  0x[0-9a-f]+ in outer \(n=.*\) at dbgtest\.c:[0-9]+$"
expect '$1 = 0x10'
expect "only-in-the-file"
expect_not "an older session"
expect_not "after-logging"
expect_not "Copying output"

# Redirect: output goes to the file only; the screen does not see it.
name=preamble
n=$(grep -c "only-in-the-file" "$TMP/preamble.out")
[ "$n" -eq 0 ] || fail "preamble: redirected output reached the screen"

# Appending (the default), gdb's older "set logging on FILE" and "off",
# trace-commands echoing each command into the log, errors logged too.
xbow_run append -ex "set logging on $log" -ex 'set trace-commands on' -ex 'print 6 * 7' \
    -ex 'print nosuch' -ex 'set logging off'
expect_rc 1
name=append.log
cp "$log" "$TMP/$name.out"
expect "only-in-the-file"
expect "+print 6 * 7"
expect '$1 = 42'
expect 'No symbol "nosuch" in current context.'

# gdb settings xbow has not: a clear message, a failing status; unknown
# words are neither settings nor assignments; abbreviations of settings do
# not swallow assignments; set var still assigns.
script unsupported <<'X'
set print pretty on
X
expect_rc 1
expect "set print: not supported in xbow."
ex_script others <<'EOF'
set args foo
show history
set frobnicate 3
set logging sideways
set pagination maybe
show nosuch
set $w = 5
set $pagination = 7
print $w + $pagination
set var $h = 1
show version
show
EOF
expect_rc 1
expect "set args: not supported in xbow (the kernel command line is --append)."
expect "show history: not supported in xbow"
expect 'set frobnicate: xbow has no such setting ("show" lists them)'
expect 'set logging: want on, off, enabled, file, overwrite, redirect or debugredirect, not "sideways".'
expect 'set pagination: want on or off, not "maybe".'
expect 'show: xbow has no setting "nosuch"'
expect '$1 = 12'
expect_re "^xbow [0-9]"
expect_re "^confirm +on "
expect_re "^trace-commands +off "

# A file that cannot be written: an error, logging stays off.
xbow_run badlog -ex "set logging file $TMP/no/such/dir/x.log" -ex 'set logging on' \
    -ex 'show logging'
expect_rc 1
expect "set logging: cannot open $TMP/no/such/dir/x.log: No such file or directory."
expect_re "^logging +off$"
finish
