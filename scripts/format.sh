#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The C style of the tree (.clang-format; linux/initramfs/.clang-format for
# the guest's programs, which follow the kernel's style), applied by
# clang-format 14, Debian 12's version: another version formats some
# constructs differently.
#   scripts/format.sh check    list the files that differ, exit 1 if any (make format-check)
#   scripts/format.sh apply    rewrite them (make format)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
CF=${CLANG_FORMAT:-clang-format}
command -v "$CF" >/dev/null 2>&1 || { echo "format: $CF is not installed (apt-get install clang-format)" >&2; exit 2; }
ver=$("$CF" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
[ "$ver" = 14 ] || echo "format: warning: $CF is version $ver; the tree follows version 14" >&2
# The tree's own C files: git's list in a checkout; in a release tarball
# every C file but the GCC sources the torture tests unpack.  Not examples/:
# the debugger's tests and the docs quote those guests' source lines
# (dbgtest.c:23, hamachi.c:151 ...), so they keep their layout until a
# change that moves their lines updates those too.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files -- 'src/*.[ch]' 'ui/*.[ch]' 'tests/*.[ch]' 'linux/initramfs/*.[ch]' 'linux/extra/*.[ch]')
else
    files=$(find src ui tests linux/initramfs linux/extra -type f \( -name '*.c' -o -name '*.h' \) \
        ! -path 'tests/torture/src/*' | sort)
fi
case ${1:-} in
check)
    bad=0
    for f in $files; do
        if ! "$CF" --style=file "$f" | cmp -s - "$f"; then
            echo "format: $f differs from .clang-format (scripts/format.sh apply, or see: $CF --style=file $f | diff $f -)"
            bad=1
        fi
    done
    [ "$bad" -eq 0 ] && echo "format: $(echo "$files" | wc -l) files follow .clang-format"
    exit "$bad"
    ;;
apply)
    for f in $files; do "$CF" --style=file -i "$f"; done
    ;;
*) echo "usage: scripts/format.sh check | apply" >&2; exit 2 ;;
esac
