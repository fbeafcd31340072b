#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source file carries the licence tag of LICENSE (GPL-2.0-or-later) in
# its first three lines; scripts/spdx.sh lists the files and adds the tag.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
last_cmd="scripts/spdx.sh list"
src=${top_srcdir:-.}
checks=$((checks + 1))
[ -f "$src/LICENSE" ] && grep -q "GNU GENERAL PUBLIC LICENSE" "$src/LICENSE" &&
    grep -q "Version 2, June 1991" "$src/LICENSE" || fail "LICENSE is not the GPL version 2 text"
n=0
for f in $(sh "$src/scripts/spdx.sh" list); do
    n=$((n + 1))
    head -n 3 "$src/$f" | grep -q "SPDX-License-Identifier: GPL-2.0-or-later" ||
        { checks=$((checks + 1)); fail "$f: no SPDX-License-Identifier: GPL-2.0-or-later in its first 3 lines (scripts/spdx.sh add $f)"; }
done
checks=$((checks + 1))
[ "$n" -gt 300 ] || fail "scripts/spdx.sh lists only $n files"
finish
