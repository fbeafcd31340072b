#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Kernel flavours (linux/build.sh --patches, linux/flavour.sh) given bad
# input: a set that does not exist, an empty one, a config fragment asking
# for a module, a patch made for another kernel version, a patch that
# breaks the build.  Each stops with a clear error naming the patch (and
# for the build, the file and the first compiler error), and leaves nothing
# in the cache but the log: no vmlinux, no tree, the pristine kernel
# untouched.  Needs the pristine kernel (make linux); the broken build also
# needs the pristine build tree to hold it (it does after make linux), as a
# flavour builds on it.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
build="bash ${top_srcdir:-.}/linux/build.sh"

pristine=$($build --print-path 2>/dev/null) ||
    skip "no Linux kernel built: run 'make linux' first"
cache=$(dirname "$pristine")
src=$(ls -d "$cache"/src/linux-source-* 2>/dev/null | head -n 1)
[ -f "$src/.xbow-extracted" ] || skip "no kernel source in $cache: run 'make linux'"
sum=$(sha256sum <"$pristine")

# run_build ARGS...: build.sh's exit status and stderr
run_build() {
    last_cmd="linux/build.sh $*"
    $build "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
    status=$?
}

# nothing_left FLAVOUR-PATH: no vmlinux, tree or temporary file of it
nothing_left() {
    k=${1##*/vmlinux-}
    checks=$((checks + 1))
    left=$(ls -d "$cache/patched/vmlinux-$k"* "$cache/patched/$k" "$cache/patched/System.map-$k"* \
        "$cache/patched/config-$k"* 2>/dev/null)
    [ -z "$left" ] || fail "left in the cache: $left"
}

run_build --patches "$WORK/none"
expect_status 1
expect_err "^build.sh: error: patch set '$WORK/none' not found: no directory '$WORK/none', and linux/patches/ has no set of that name (it has: hamachi-txintr-1999 ip27-dma64)"
run_build --patches
expect_status 1
expect_err "^build.sh: error: --patches needs a directory of \*.patch files or a set of linux/patches/"
mkdir "$WORK/empty"
run_build --patches "$WORK/empty"
expect_status 1
expect_err "^build.sh: error: patch set '$WORK/empty' (.*) has no \*.patch or \*.config file"
mkdir "$WORK/mod"
printf '# a module\nCONFIG_HAMACHI=m\n' >"$WORK/mod/hamachi.config"
run_build --patches "$WORK/mod"
expect_status 1
expect_err "mod/hamachi.config: 'CONFIG_HAMACHI=m': the kernel has no modules"

# A patch for another version of the driver: its context is not there.
hc=drivers/net/ethernet/packetengines/hamachi.c
mkdir -p "$WORK/other" "$WORK/a/${hc%/*}" "$WORK/b/${hc%/*}"
sed 's/"Sept 11, 2006"/"Sept 11, 2005"/' "$src/$hc" >"$WORK/a/$hc"
sed 's/"Sept 11, 2006"/"Sept 11, 2026"/' "$src/$hc" >"$WORK/b/$hc"
(cd "$WORK" && diff -u "a/$hc" "b/$hc") >"$WORK/other/01-version.patch"
path=$($build --print-path --patches "$WORK/other" 2>/dev/null)
# --print-path of a flavour that is not built: its path, status 1
run_build --print-path --patches ip27-dma64 --patches "$WORK/other"
expect_status 1
checks=$((checks + 1))
grep -q "^$cache/patched/vmlinux-.*+ip27-dma64+other-[0-9a-f]\{12\}$" "$WORK/out" || fail "no flavour path on stdout"

run_build --patches ip27-dma64 --patches "$WORK/other"
expect_status 1
expect_err "^build.sh: applied ip27-dma64/01-hamachi-dma64.patch"
expect_err "^build.sh: error: patch other/01-version.patch does not apply to linux-source-6.1 [^ ]*: Hunk #1 FAILED at [0-9]*"
expect_no_out .
nothing_left "$($build --print-path --patches ip27-dma64 --patches "$WORK/other" 2>/dev/null)"
nothing_left "$path"

# A patch that breaks the build of hamachi.c: built on the pristine build
# tree, if it holds the pristine kernel.
if cmp -s "$cache"/build-*/vmlinux "$pristine"; then
    mkdir -p "$WORK/broken"
    awk '/^static int hamachi_open\(/ { print "this is not C;" } { print }' "$src/$hc" >"$WORK/b/$hc"
    cp "$src/$hc" "$WORK/a/$hc"
    (cd "$WORK" && diff -u "a/$hc" "b/$hc") >"$WORK/broken/01-break.patch"
    path=$($build --print-path --patches "$WORK/broken" 2>/dev/null)
    run_build --patches "$WORK/broken"
    expect_status 1
    expect_err "^build.sh: error: the build of flavour broken failed in $hc, which broken/01-break.patch changes: $hc:[0-9]*:[0-9]*: error: "
    expect_err "(nothing was installed; log $cache/patched/${path##*/vmlinux-}.log)"
    nothing_left "$path"
    checks=$((checks + 1))
    [ -f "$cache/patched/${path##*/vmlinux-}.log" ] || fail "no build log kept"
    rm -f "$cache/patched/${path##*/vmlinux-}.log"
else
    echo "note: the pristine build tree of $cache holds another kernel: the broken-build case is left out"
fi

# The pristine kernel is what it was, and still the default.
run_build --print-path
expect_status 0
expect_out "^$pristine$"
checks=$((checks + 1))
[ "$(sha256sum <"$pristine")" = "$sum" ] || fail "the pristine vmlinux changed"
rm -f "$cache"/patched/*+other-*.log "$cache"/patched/*+mod-*.log
finish
