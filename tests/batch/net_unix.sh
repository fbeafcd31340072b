#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two processes share a wire through socket:unix: one net_probe listens and
# expects pattern datagrams, another connects and sends them.
set -u
probe="${top_builddir:-.}/tests/unit/net/net_probe"
fail() {
    echo "FAIL: net_unix.sh: $*"
    [ -n "${dir:-}" ] && for f in "$dir"/*.out; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}
[ -x "$probe" ] || fail "$probe not built"
dir=$(mktemp -d /tmp/xbow-unix-XXXXXX)
lpid=""
cleanup() { [ -n "$lpid" ] && kill "$lpid" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

"$probe" --ip 10.99.0.1 --expect 50 --ready "$dir/ready" "socket:unix:$dir/wire" >"$dir/a.out" 2>&1 &
lpid=$!
i=0; while [ ! -e "$dir/ready" ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
"$probe" --ip 10.99.0.2 --send 10.99.0.1:7000 --count 50 --size 1514 "socket:unix-connect:$dir/wire" \
    >"$dir/b.out" 2>&1 || fail "sender: $(cat "$dir/b.out")"
wait $lpid
rc=$?
lpid=""
[ $rc -eq 0 ] || fail "listener failed"
grep -q '^received 50 good, 0 bad$' "$dir/a.out" || fail "listener did not get 50 good frames"
grep -q '^sent 50, 0 dropped$' "$dir/b.out" || fail "sender dropped frames"
