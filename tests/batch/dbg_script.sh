#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Scripting: define with arguments, document, if/else, while, printf,
# echo, output, source, expect; batch exit status; no host commands in batch mode.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

cat >"$TMP/lib.xbow" <<'X'
# a library of user commands
define show-leaf
  printf "leaf(%d) = %d\n", $arg0, $arg0 * 3 + 1
end
document show-leaf
  show-leaf N: what leaf(N) returns.
end
X

script scripting <<X
source $TMP/lib.xbow
help show-leaf
show-leaf 7
define count-to
  set \$i = 0
  while \$i < \$arg0
    if \$i % 2 == 0
      printf "even %d\n", \$i
    else
      printf "odd %d\n", \$i
    end
    set \$i = \$i + 1
  end
  echo counted \$argc argument\n
end
count-to 3
output 6 * 7
echo \n
expect "round 1 sum 56" 10000000
print counter
expect "timer interrupt" 10000000
X
expect_rc 0
expect "show-leaf N: what leaf(N) returns."
expect "leaf(7) = 22"
expect_seq "even 0" "odd 1" "even 2" "counted 1 argument"
expect "42"
expect "\$1 = 2"
expect "dbgtest: 1 timer interrupt"

# expect fails when the text does not come in time, or the guest stops.
script expect_budget <<'X'
expect "no such text" 5000
X
expect_rc 1
expect "expect: \"no such text\" did not appear within 5000 instructions."
script expect_stop <<'X'
break leaf
expect "round 0"
X
expect_rc 1
expect "Breakpoint 1, leaf"
expect "expect: the guest stopped before \"round 0\" appeared."

# In batch mode a failing command ends the script with exit status 1.
script failing <<'X'
print 1
print nosuch
print 2
X
expect_rc 1
expect "\$1 = 1"
expect "No symbol \"nosuch\" in current context."
expect_re ":2: command failed: print nosuch$"
expect_not "\$2 = 2"

# quit with a status; batch mode runs no host programs (unless
# --allow-shell: tests/batch/dbg_control.sh).
script quitting <<'X'
quit 3
print 1
X
expect_rc 3
expect_not "\$1"
xbow_run shell -ex "shell echo hi" -ex "!echo hi"
expect_rc 1
expect_count 2 "shell: running host commands is off in batch mode"
expect_not "hi"
finish
