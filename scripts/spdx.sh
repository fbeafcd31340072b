#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The licence tag every source file carries (LICENSE: GPL-2.0-or-later).
#   scripts/spdx.sh list        the files that must carry it (from the source tree)
#   scripts/spdx.sh add FILE..  put the tag on files that lack it, in the
#                               comment syntax of each file's language
# tests/lint/license.sh fails when a listed file lacks the tag.
set -eu
TAG="SPDX-License-Identifier: GPL-2.0-or-later"
top=$(cd "$(dirname "$0")/.." && pwd)

list() {
    cd "$top"
    for f in Makefile.am configure.ac .ci/run; do [ -f "$f" ] && echo "$f"; done
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -- $(for d in src ui tests examples linux scripts docs; do
            for e in c h S ld sh mk py am awk cmds; do echo "$d/*.$e"; done; done)
    else # a release tarball: every such file but the GCC sources the torture tests unpack
        find src ui tests examples linux scripts docs -type f \
            \( -name '*.c' -o -name '*.h' -o -name '*.S' -o -name '*.ld' -o -name '*.sh' \
               -o -name '*.mk' -o -name '*.py' -o -name '*.am' \
               -o -name '*.awk' -o -name '*.cmds' \) \
            ! -path 'tests/torture/src/*' ! -path '*/autom4te.cache/*' | sort
    fi
}

add() {
    for f in "$@"; do
        head -n 3 "$f" | grep -q "$TAG" && continue
        case $f in
        *.c | *.h | *.S | *.ld) line="/* $TAG */" ;;
        configure.ac | *.m4) line="dnl $TAG" ;;
        *) line="# $TAG" ;;
        esac
        tmp=$f.spdx.$$
        if head -n 1 "$f" | grep -q '^#!'; then
            { head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } >"$tmp"
        else
            { echo "$line"; cat "$f"; } >"$tmp"
        fi
        cat "$tmp" >"$f" && rm -f "$tmp"
    done
}

case ${1:-} in
list) list ;;
add) shift; add "$@" ;;
*) echo "usage: scripts/spdx.sh list | add FILE..." >&2; exit 2 ;;
esac
