#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Receive and transmit throughput of the NIC models with payload DMA raw
# (bulk copies) and per-word (every 32-bit word through the Bridge's swapping
# path and swapped back: seed story 1), side by side (`make bench-nic`, part
# of `make bench`).
#
# For each NIC the example driver runs as a user would run it:
#   rx: its receive driver against `gen`, offered at the 1 Gbit/s line rate
#       (NIC_BENCH_RATE) for NIC_BENCH_RX_MS of virtual time; the driver stops
#       when every frame arrived or 5 ms of virtual time passed without one
#       (what the NIC refused never comes);
#   tx: its transmit driver sends NIC_BENCH_FRAMES frames of 1514 bytes (the
#       same bytes in fewer frames for larger sizes) to `sink` as fast as its
#       ring allows.
# Every run is timed on the host (wall and user+system CPU, best of
# NIC_BENCH_RUNS); throughput is UDP payload bits the guest received (rx) or
# sent (tx) per host second.  The guest's instruction count, the NIC's DMA
# counters (`info device NIC stats`: word and bulk operations, PCI bus time)
# and the frames refused are shown too.
#
# Bytes must be identical in both modes: tx compares a hash of every frame
# on the wire (the capture, without its time stamps, which differ); rx
# compares the guest's payload sums when both modes received every frame
# offered (none refused: the same frames), and needs every received payload
# checked good by the guest anyway.
# Any difference fails the script.
#
# Environment: XBOW (./xbow), EX (the built examples directory, examples),
# NIC_BENCH_NICS (tigon2 hamachi e1000-82544), NIC_BENCH_SIZES (1514 9000;
# sizes above 1514 only for drivers with jumbo frames), NIC_BENCH_FRAMES
# (tx: frames of 1514 bytes per run, default 10000), NIC_BENCH_RX_MS (rx:
# virtual milliseconds of offered traffic, default 500), NIC_BENCH_RATE
# (line, or the frames per virtual second offered to rx), NIC_BENCH_RUNS (3).
set -u
: "${XBOW:=./xbow}" "${EX:=examples}"
: "${NIC_BENCH_NICS:=tigon2 hamachi e1000-82544}" "${NIC_BENCH_SIZES:=1514 9000}"
: "${NIC_BENCH_FRAMES:=10000}" "${NIC_BENCH_RUNS:=3}" "${NIC_BENCH_RATE:=line}"
: "${NIC_BENCH_RX_MS:=500}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbow-nic-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
die() { echo "nic_bench: $*" >&2; exit 1; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }
command -v python3 >/dev/null || die "python3 is needed to read the captures"

# wire_hash PCAP...: for each capture, SHA-256 of the frames' lengths and
# bytes in order, without the record headers (their virtual time stamps
# differ between the modes), and the number of frames.
wire_hash() {
    python3 - "$@" <<'PY'
import hashlib, struct, sys
for f in sys.argv[1:]:
    d = open(f, 'rb').read()
    h, o, n = hashlib.sha256(), 24, 0
    while o + 16 <= len(d):
        incl = struct.unpack_from('<I', d, o + 8)[0]
        h.update(struct.pack('>I', incl))
        h.update(d[o + 16:o + 16 + incl])
        o += 16 + incl
        n += 1
    print('%s/%d' % (h.hexdigest()[:16], n))
PY
}

# nic_setup NIC: the device name, the drivers and how they report.
nic_setup() {
    case $1 in
    tigon2 | acenic*) dev=tigon0 rx_elf=$EX/tigon/tigon_rx.elf tx_elf=$EX/tigon/tigon_tx.elf jumbo=1 ;;
    hamachi) dev=hamachi0 rx_elf=$EX/hamachi/hamachi.elf tx_elf=$rx_elf jumbo=0 ;;
    e1000*) dev=e1000_0 rx_elf=$EX/e1000/rx.elf tx_elf=$EX/e1000/tx.elf jumbo=1 ;;
    *) die "unknown NIC $1" ;;
    esac
    [ -f "$rx_elf" ] && [ -f "$tx_elf" ] || die "$1: the example drivers are not built (make)"
}

# guest_args NIC DIR SIZE COUNT: the driver's command line.
guest_args() {
    local j=""
    [ "$3" -gt 1514 ] && j=" jumbo=1"
    case $1/$2 in
    hamachi/rx) echo "rx $4 wait=5" ;;
    hamachi/tx) echo "tx $4 size=$3" ;;
    */rx) echo "count=$4 wait=5$j" ;;
    */tx) echo "size=$3 count=$4" ;;
    esac
}

# guest_result NIC DIR OUT: "frames sum bad" from the driver's summary line.
guest_result() {
    case $1/$2 in
    hamachi/rx) sed -n 's/^hamachi: rx frames=[0-9]* good=\([0-9]*\) bad=\([0-9]*\) .*cksum=\(0x[0-9a-f]*\).*/\1 \3 \2/p' "$3" ;;
    hamachi/tx) sed -n 's/^hamachi: tx sent=\([0-9]*\) .*stalled=\([01]\).*/\1 - \2/p' "$3" ;;
    tigon*/rx) sed -n 's/^tigon-rx: received [0-9]* frames, [0-9]* bytes, \([0-9]*\) good payloads, \([0-9]*\) bad, payload sum \(0x[0-9a-f]*\).*/\1 \3 \2/p' "$3" ;;
    tigon*/tx) sed -n 's/^tigon-tx: sent \([0-9]*\) frames, [0-9]* bytes, payload sum \(0x[0-9a-f]*\).*/\1 \2 0/p' "$3" ;;
    e1000*/rx) sed -n 's/^e1000-rx: received \([0-9]*\) frames, [0-9]* bytes, payload sum \(0x[0-9a-f]*\) (\([0-9]*\) not.*/\1 \2 \3/p' "$3" ;;
    e1000*/tx) sed -n 's/^e1000-tx: sent \([0-9]*\) frames, [0-9]* bytes, payload sum \(0x[0-9a-f]*\).*/\1 \2 0/p' "$3" ;;
    esac
}

# run_one NIC DIR SIZE MODE: best wall and CPU time over the runs; sets
# r_wall r_cpu r_frames r_sum r_insns r_words r_bulk r_bus r_refused r_pcap (tx).
run_one() {
    local nic=$1 dir=$2 size=$3 mode=$4 count net elf t i wall cpu
    if [ "$dir" = rx ]; then
        local rate=$NIC_BENCH_RATE
        [ "$rate" = line ] && rate=$((1000000000 / ((size + 24) * 8))) # preamble, FCS, gap
        count=$((rate * NIC_BENCH_RX_MS / 1000))
        [ "$count" -ge 1 ] || count=1
        net="gen:size=$size,rate=$rate,count=$count,start=tx" elf=$rx_elf
    else
        count=$((NIC_BENCH_FRAMES * 1514 / size))
        [ "$count" -ge 1 ] || count=1
        net=sink elf=$tx_elf
    fi
    local out="$TMP/$nic-$dir-$size-$mode" pcap=()
    [ "$dir" = tx ] && pcap=(--pcap "$out.pcap")
    r_wall="" r_cpu=""
    for i in $(seq "$NIC_BENCH_RUNS"); do
        t=$( { TIMEFORMAT='%R %U %S'; time "$XBOW" --batch -q --nic "$nic" --net "$net" \
            --nic-dma="$mode" "${pcap[@]}" --append "$(guest_args "$nic" "$dir" "$size" "$count")" \
            -ex continue -ex "info device $dev stats" -ex "info cpus" "$elf" \
            >"$out.out" 2>"$out.err" </dev/null; } 2>&1 )
        wall=${t%% *}
        cpu=$(echo "$t" | awk '{ printf "%.3f", $2 + $3 }')
        if [ -z "$r_wall" ] || awk "BEGIN { exit !($wall < $r_wall) }"; then r_wall=$wall; fi
        if [ -z "$r_cpu" ] || awk "BEGIN { exit !($cpu < $r_cpu) }"; then r_cpu=$cpu; fi
    done
    local res
    res=$(guest_result "$nic" "$dir" "$out.out")
    [ -n "$res" ] || { cat "$out.out" "$out.err" >&2; die "$nic $dir $size $mode: no summary from the guest"; }
    read -r r_frames r_sum bad <<<"$res"
    [ "$bad" = 0 ] || { cat "$out.out" >&2; die "$nic $dir $size $mode: the guest saw bad payloads or stalled"; }
    [ "$dir" = rx ] || [ "$r_frames" = "$count" ] || die "$nic tx $size $mode: sent $r_frames of $count"
    r_insns=$(awk '$1 == "*" { print $NF; exit }' "$out.out")
    read -r r_words r_bulk <<<"$(sed -n 's/.*DMA (payload [a-z-]*): word ops \([0-9]*\) .* bulk ops \([0-9]*\) .*/\1 \2/p' "$out.out")"
    r_bus=$(sed -n 's/.*DMA bus time \([0-9]*\)us.*/\1/p' "$out.out")
    r_refused=$(sed -n 's/.* \([0-9]*\) refused by the NIC.*/\1/p' "$out.out")
    r_pcap=$out.pcap
    [ -n "$r_insns" ] && [ -n "$r_words" ] && [ -n "$r_bus" ] || die "$nic $dir $size $mode: no counters"
}

la=$(loadavg)
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
echo "nic_bench: rx offered at $([ "$NIC_BENCH_RATE" = line ] && echo "the 1 Gbit/s line rate" ||
    echo "$NIC_BENCH_RATE frames per virtual second") for $NIC_BENCH_RX_MS ms of virtual time;" \
    "tx $NIC_BENCH_FRAMES frames of 1514 bytes (or the same bytes in larger ones); best of $NIC_BENCH_RUNS"
printf '%-12s %-2s %5s %9s %8s %8s %5s %6s %6s %5s %8s %8s %8s %7s %7s %9s  %s\n' \
    NIC dir size frames "raw Mb/s" "p-w Mb/s" ratio "raw s" "p-w s" ratio "raw Mins" "p-w Mins" \
    "p-w words" "raw bus" "p-w bus" refused \
    "bytes"
for nic in $NIC_BENCH_NICS; do
    nic_setup "$nic"
    for dir in rx tx; do
        for size in $NIC_BENCH_SIZES; do
            [ "$size" -le 1514 ] || [ "$jumbo" = 1 ] || continue
            run_one "$nic" "$dir" "$size" raw
            raw=("$r_wall" "$r_cpu" "$r_frames" "$r_sum" "$r_insns" "$r_bus" "$r_refused" "$r_pcap" "$r_bulk")
            run_one "$nic" "$dir" "$size" per-word
            [ "$r_bulk" = 0 ] || die "$nic $dir $size: per-word mode made $r_bulk bulk payload DMAs"
            same=""
            if [ "$dir" = tx ]; then
                read -r h1 h2 <<<"$(wire_hash "${raw[7]}" "$r_pcap" | tr '\n' ' ')"
                [ -n "$h1" ] && [ "$h1" = "$h2" ] || die "$nic tx $size: wire bytes differ ($h1 raw, $h2 per-word)"
                same="same wire ${h1%/*}"
            elif [ "${raw[2]}" = "$r_frames" ] && [ "${raw[6]:-0}" = 0 ] && [ "${r_refused:-0}" = 0 ]; then
                # Only then are they the same frames: with refusals, equal
                # counts can be different frames (the NICs' timing differs).
                [ "${raw[3]}" = "$r_sum" ] || die "$nic rx $size: payload sums differ (${raw[3]} raw, $r_sum per-word)"
                same="same sum $r_sum"
            else
                same="all checked"
            fi
            awk -v nic="$nic" -v dir="$dir" -v size="$size" -v fr="${raw[2]}" -v pf="$r_frames" \
                -v rw="${raw[0]}" -v rc="${raw[1]}" -v pw="$r_wall" -v pc="$r_cpu" \
                -v ri="${raw[4]}" -v pi="$r_insns" -v words="$r_words" -v rb="${raw[5]}" \
                -v pb="$r_bus" -v rr="${raw[6]:-0}" -v pr="${r_refused:-0}" -v same="$same" 'BEGIN {
                pl = (size - 42) * 8 / 1e6
                r = fr * pl / rw; p = pf * pl / pw
                rcpu = fr * pl / rc; pcpu = pf * pl / pc
                frames = fr == pf ? fr : fr "/" pf
                refused = dir == "tx" ? "-" : rr "/" pr
                printf "%-12s %-2s %5d %9s %8.1f %8.1f %5.2f %6.3f %6.3f %5.2f %8.1f %8.1f %9d %5.1fms %5.1fms %9s  %s\n",
                    nic, dir, size, frames, r, p, r / p, rc, pc, rcpu / pcpu, ri / 1e6, pi / 1e6,
                    words, rb / 1000, pb / 1000, refused, same }'
        done
    done
done
echo "host: ${model:-?}, $(nproc 2>/dev/null || echo '?') CPUs; load average before: $la, after: $(loadavg)"
echo "frames: good frames received or sent (raw/per-word when they differ); Mb/s: UDP payload"
echo "Mbit per host second (wall), and their ratio raw/per-word; s: user+system CPU seconds of"
echo "the run, and the ratio of the throughput on CPU time; Mins: million guest instructions"
echo "(virtual time: 180 per us);"
echo "words: per-word payload and descriptor DMA operations; bus: PCI bus time the DMA"
echo "took in virtual time; refused: rx frames the NIC dropped, raw/per-word."
