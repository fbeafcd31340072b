#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Tigon2 example drivers end to end on the default machine's NIC: each
# guest prints what it sent or received (frames, bytes, payload sum of the
# docs/networking.md pattern); the capture of the NIC's port shows what the
# peer got or gave, and the two must agree.  Transmit to `sink` (1514-byte
# and 9000-byte jumbo frames, raw and per-word DMA), receive from `gen`
# (1514 and 9018 bytes), ping `echo`.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

command -v python3 >/dev/null || { echo "SKIP: python3 is needed to read captures"; exit 77; }
[ -f "$EX/tigon/tigon_tx.elf" ] || { echo "SKIP: the Tigon examples are not built"; exit 77; }
MAC=02:58:42:61:00:00 # tigon0's address (--mac)

# cap NAME: the capture's summary lines (pcap_stats.py) in $TMP/NAME.cap.
cap() {
    python3 "$top_srcdir/tests/batch/pcap_stats.py" "$TMP/$1.pcap" "$MAC" >"$TMP/$1.cap" ||
        fail "$1: cannot read the capture"
}

# tx NAME SIZE COUNT [XBOW OPTIONS...]
tx() {
    n=$1 size=$2 count=$3
    shift 3
    run "$n" --nic tigon2 --mac $MAC --net sink --pcap "$TMP/$n.pcap" "$@" \
        --append "size=$size count=$count" "$EX/tigon/tigon_tx.elf"
    expect_rc 0
    bytes=$((size * count))
    expect "$n.out" "tigon-tx: sent $count frames, $bytes bytes, payload sum 0x"
    sum=$(sed -n 's/.*tigon-tx: sent .* payload sum \(0x[0-9a-f]*\).*/\1/p' "$TMP/$n.out")
    cap "$n"
    expect "$n.cap" "tx frames $count bytes $bytes udp-good $count udp-bad 0 payload-sum $sum"
}

tx tx1514 1514 64
tx tx9000 9000 50
tx txword 1514 64 --nic-dma=per-word
[ "$(cat "$TMP/tx1514.cap")" = "$(cat "$TMP/txword.cap")" ] ||
    fail "per-word DMA sent other frames than raw DMA"

# rx NAME SIZE COUNT JUMBO: gen starts when the guest sends its "ready" frame.
rx() {
    n=$1 size=$2 count=$3
    run "$n" --nic tigon2 --mac $MAC --net "gen:size=$size,rate=20000,count=$count,start=tx" \
        --pcap "$TMP/$n.pcap" --append "count=$count jumbo=$4" "$EX/tigon/tigon_rx.elf"
    expect_rc 0
    bytes=$((size * count))
    expect "$n.out" "tigon-rx: received $count frames, $bytes bytes, $count good payloads, 0 bad"
    sum=$(sed -n 's/.*tigon-rx: received .* payload sum \(0x[0-9a-f]*\).*/\1/p' "$TMP/$n.out")
    cap "$n"
    expect "$n.cap" "rx frames $count bytes $bytes udp-good $count udp-bad 0 payload-sum $sum"
}

rx rx1514 1514 200 0
rx rx9018 9018 40 1

run echo --nic tigon2 --mac $MAC --net echo --pcap "$TMP/echo.pcap" --append "count=10 size=98" \
    "$EX/tigon/tigon_echo.elf"
expect_rc 0
expect echo.out "tigon-echo: 10.0.2.2 is at 02:78:62:6f:77:02"
expect echo.out "tigon-echo: 10 requests, 10 replies (980 bytes), 0 bad"
cap echo
expect echo.cap "icmp requests 10 replies 10"

# No NIC given: the driver says so instead of hanging.
run nonic --nic none "$EX/tigon/tigon_tx.elf"
expect nonic.out "tigon: no Tigon2 on the Bridge"
finish
