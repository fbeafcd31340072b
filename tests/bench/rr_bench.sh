#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What recording costs (`make bench-record`; docs/performance.md, "Record and
# replay"): the benchmark guest (tests/bench/mix.c, no outside input) and a
# Linux UDP run on a socket peer (tests/batch/rr_peer.py, which sends every
# datagram back; Linux boots, pings it 3 times, sends it N datagrams with ttcp
# and reboots: N frames out and N into the guest), each without and
# with --record, and the Linux run's replay.  Prints wall and CPU time (the
# best of BENCH_RUNS runs; CPU time is the steadier figure: while the guest
# waits for the host's network, xbow waits in ppoll, which costs none), the
# log's size and its number of records.
#
# Environment: XBOW, MIX_ELF (the mix guest), VMLINUX (the kernel; the Linux
# part is left out without it), BENCH_RUNS (default 3), UDP_N (default 2000).
set -u
: "${XBOW:=./xbow}" "${BENCH_RUNS:=3}" "${UDP_N:=2000}"
: "${MIX_ELF:=tests/bench/mix-r600-xbow.elf}"
here=$(cd "$(dirname "$0")/../.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbow-rrbench.XXXXXX")
peer=
trap '[ -n "$peer" ] && kill $peer 2>/dev/null; rm -rf "$TMP"' EXIT
die() { echo "rr_bench: $*" >&2; exit 1; }

# timed NAME CMD...: best wall and CPU over BENCH_RUNS runs into best_wall, best_cpu.
timed() {
    local name=$1 t w c
    shift
    best_wall= best_cpu=
    for _ in $(seq "$BENCH_RUNS"); do
        t=$( { TIMEFORMAT='%R %U %S'; time "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" </dev/null; } 2>&1 )
        w=${t%% *}
        c=$(echo "$t" | awk '{ printf "%.2f", $2 + $3 }')
        if [ -z "$best_wall" ] || awk "BEGIN { exit !($w < $best_wall) }"; then best_wall=$w; fi
        if [ -z "$best_cpu" ] || awk "BEGIN { exit !($c < $best_cpu) }"; then best_cpu=$c; fi
    done
}
row() { printf '  %-34s wall %7.2f s   cpu %7.2f s\n' "$1" "$best_wall" "$best_cpu"; }
ratio() { awk "BEGIN { printf \"%+.1f%%\", ($2 / $1 - 1) * 100 }"; }

echo "rr_bench: load average $(cut -d' ' -f1-3 /proc/loadavg), $BENCH_RUNS runs each, best counts"
[ -f "$MIX_ELF" ] || die "$MIX_ELF is not built"
echo "mix ($MIX_ELF):"
timed mix "$XBOW" --batch -q "$MIX_ELF"
row "plain"
mw=$best_wall mc=$best_cpu
timed mixrec "$XBOW" --batch -q --record "$TMP/mix.rr" "$MIX_ELF"
row "--record"
grep -q '^mix: done' "$TMP/mixrec.out" || die "the recorded mix run did not finish"
echo "  recording overhead: wall $(ratio "$mw" "$best_wall"), cpu $(ratio "$mc" "$best_cpu"); log $(stat -c %s "$TMP/mix.rr") bytes"

[ -n "${VMLINUX:-}" ] && [ -f "$VMLINUX" ] || { echo "linux: no kernel (make linux): left out"; exit 0; }
python3 "$here/tests/batch/rr_peer.py" "$TMP/port" "$TMP/peer.stats" 0 echo &
peer=$!
for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
[ -s "$TMP/port" ] || die "the peer did not start"
net="socket:udp:0:127.0.0.1:$(cat "$TMP/port")"
app="xbow.run=\"ping -c 3 -i 200 10.0.2.2; ttcp -t -l 1472 -n $UDP_N 10.0.2.2\" xbow.after=reboot"
linux() { "$XBOW" --batch -q --nic e1000-82544 --net "$net" --append "$app" "$@" "$VMLINUX"; }
echo "linux UDP ($UDP_N datagrams of 1472 bytes to a socket peer, after 3 pings):"
timed linux linux
row "plain"
lw=$best_wall lc=$best_cpu
grep -q "ttcp-t: msgs=$UDP_N " "$TMP/linux.out" || die "linux: ttcp did not send $UDP_N datagrams"
timed linuxrec linux --record "$TMP/linux.rr"
row "--record"
grep -q "ttcp-t: msgs=$UDP_N " "$TMP/linuxrec.out" || die "linux --record: ttcp did not finish"
echo "  recording overhead: wall $(ratio "$lw" "$best_wall"), cpu $(ratio "$lc" "$best_cpu")"
records=$(linux --replay "$TMP/linux.rr" -ex continue -ex 'info record' 2>/dev/null | sed -n 's/^  position  record [0-9]* of \([0-9]*\).*/\1/p')
echo "  log: $(stat -c %s "$TMP/linux.rr") bytes, ${records:-?} records"
kill $peer 2>/dev/null
wait $peer 2>/dev/null
peer=
timed linuxrep linux --replay "$TMP/linux.rr"
row "--replay (no peer)"
grep -q "ttcp-t: msgs=$UDP_N " "$TMP/linuxrep.out" || die "linux --replay: ttcp did not finish"
