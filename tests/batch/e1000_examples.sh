#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The e1000 example drivers on the whole machine, both parts: what each
# guest says it sent or received (frames, bytes, payload sum) must match
# what the peer's side of the cable carried, counted from the capture by an
# independent reader (e1000_pcap.py), which also checks the IP/UDP/ICMP
# checksums (the transmit example leaves them to the NIC) and the pattern.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to read the captures"; exit 77; }
PCAP="python3 $top_srcdir/tests/batch/e1000_pcap.py"
GEN=02:78:62:6f:77:01
ECHO=02:78:62:6f:77:02

# guest NAME.out PATTERN: the numbers of the guest's summary line as
# "frames=N bytes=N sum=0x...", for comparison with the capture.
guest() {
    sed -n "s/.*$2 \([0-9]*\) [a-z ]*frames*, \([0-9]*\) bytes, payload sum \(0x[0-9a-f]*\).*/frames=\1 bytes=\2 sum=\3/p" "$TMP/$1"
}

# same NAME WANT GOT: the guest's numbers are the capture's.
same() {
    [ -n "$2" ] || { fail "$1: no summary line from the guest"; return; }
    case "$3 " in
    "$2 "*) ;;
    *) fail "$1: the guest says \"$2\", the capture \"$3\"" ;;
    esac
}

for model in e1000-82543 e1000-82544; do
    # Transmit: 9000-byte jumbo and 1514-byte frames to sink, checksums by the NIC.
    for size in 9000 1514; do
        run tx-$model-$size --nic $model --net sink --pcap "$TMP/tx.pcap" \
            --append "size=$size count=40" "$EX/e1000/tx.elf"
        expect_rc 0
        expect tx-$model-$size.out "sent 40 frames, $((40 * size)) bytes"
        got=$($PCAP "$TMP/tx.pcap")
        same tx-$model-$size "$(guest tx-$model-$size.out sent)" "$got"
        same tx-$model-$size-csum "badip=0 badl4=0 badpayload=0 udp=40" \
            "$(echo "$got" | sed 's/.*\(badip\)/\1/')"
    done

    # Receive: frames from gen (started by the driver's first frame), by interrupt.
    run rx-$model --nic $model --net gen:size=1514,rate=20000,count=150,start=tx \
        --pcap "$TMP/rx.pcap" --append "count=150" "$EX/e1000/rx.elf"
    expect_rc 0
    expect rx-$model.out "received 150 frames, 227100 bytes"
    expect rx-$model.out "(0 not matching the pattern)"
    expect rx-$model.out "UDP checksums checked by the NIC 150, bad 0"
    same rx-$model "$(guest rx-$model.out received)" "$($PCAP "$TMP/rx.pcap" --src $GEN)"

    # Receive jumbo frames over 16 KiB buffers.
    run rxj-$model --nic $model --net gen:size=9000,rate=5000,count=30,start=tx \
        --pcap "$TMP/rxj.pcap" --append "count=30 jumbo=1" "$EX/e1000/rx.elf"
    expect_rc 0
    same rxj-$model "$(guest rxj-$model.out received)" "$($PCAP "$TMP/rxj.pcap" --src $GEN)"

    # Echo: ARP, then ICMP echo; requests counted on the NIC's side, replies on echo's.
    run echo-$model --nic $model --net echo --pcap "$TMP/echo.pcap" \
        --append "count=25 size=700" "$EX/e1000/echo.elf"
    expect_rc 0
    expect echo-$model.out "25 echo requests (17500 bytes), 25 good replies, 0 bad"
    rep=$($PCAP "$TMP/echo.pcap" --src $ECHO)
    req=$($PCAP "$TMP/echo.pcap" --not-src $ECHO)
    same echo-$model-replies "icmp-req=0 icmp-rep=25" "$(echo "$rep" | sed 's/.*\(icmp-req\)/\1/')"
    same echo-$model-requests "icmp-req=25 icmp-rep=0" "$(echo "$req" | sed 's/.*\(icmp-req\)/\1/')"
    sum=$(sed -n 's/.*payload sum \(0x[0-9a-f]*\).*/\1/p' "$TMP/echo-$model.out")
    case "$rep" in *"sum=$sum badip=0 badl4=0 badpayload=0"*) ;;
    *) fail "echo-$model: guest payload sum $sum, replies in the capture: $rep" ;;
    esac
done

# Per-word payload DMA: the same frames on the wire, byte for byte, later
# (the engine waits out the slower bus, so the capture times differ).
run tx-raw --nic e1000 --net sink --pcap "$TMP/raw.pcap" --append "size=1514 count=20" "$EX/e1000/tx.elf"
run tx-word --nic e1000 --net sink --nic-dma=per-word --pcap "$TMP/word.pcap" \
    --append "size=1514 count=20" "$EX/e1000/tx.elf"
expect_rc 0
$PCAP "$TMP/raw.pcap" --frames >"$TMP/raw.frames" &&
    $PCAP "$TMP/word.pcap" --frames >"$TMP/word.frames" || fail "cannot read the captures"
[ "$(wc -l <"$TMP/raw.frames")" -eq 20 ] || fail "raw DMA: $(wc -l <"$TMP/raw.frames") frames, not 20"
cmp -s "$TMP/raw.frames" "$TMP/word.frames" || fail "per-word DMA changed the frames"
cmp -s "$TMP/raw.pcap" "$TMP/word.pcap" && fail "per-word DMA took no more virtual time than raw DMA"
finish
