#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the benchmark guest (tests/bench/mix.c) and time it.
#
#   mix_bench.sh xbow       xbow alone, once per engine: wall and CPU time, guest
#                           instructions per host second (`make bench-mix`, part of
#                           `make bench`); then the last engine with standard input
#                           an idle terminal and an idle open pipe instead of at its
#                           end, and the ratios
#   mix_bench.sh compare    xbow (each engine), QEMU's Malta and GXemul's testmips,
#                           interleaved, and the ratios (`make bench-compare`)
#   mix_bench.sh callgrind  host instructions per guest instruction of xbow, each
#                           engine, under valgrind --tool=callgrind (`make bench-callgrind`)
#   mix_bench.sh callgrind-profile
#                           the profiler's cost in host instructions: the same
#                           `continue N` in the debugger without the profiler, with
#                           `profile start`, and after `profile stop`
#                           (`make bench-callgrind-profile`)
#
# Environment (the make targets set it): XBOW, MIX_HOST (the host build, the
# reference result), MIX_DIR and MIX_ROUNDS (the ELFs are
# $MIX_DIR/mix-r$MIX_ROUNDS-{xbow,malta,testmips}.elf), BENCH_RUNS (default 5:
# the best run counts), BENCH_CG_MINSNS (million guest instructions under
# callgrind, default 50), QEMU and GXEMUL (the emulators' commands), ENGINES
# (xbow's --engine values to run, default "interp jit" on x86-64, else "interp").
#
# Every run's result line must equal the host's, or the script fails.
set -u
mode=${1:-xbow}
: "${XBOW:=./xbow}" "${MIX_HOST:=tests/bench/mix_host}" "${MIX_DIR:=tests/bench}"
: "${MIX_ROUNDS:=600}" "${BENCH_RUNS:=5}" "${BENCH_CG_MINSNS:=50}"
: "${QEMU:=qemu-system-mips64}" "${GXEMUL:=gxemul}"
if [ -z "${ENGINES:-}" ]; then
    case $(uname -m) in x86_64) ENGINES="interp jit";; *) ENGINES=interp;; esac
fi
last_engine=${ENGINES##* }
elf() { echo "$MIX_DIR/mix-r$MIX_ROUNDS-$1.elf"; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/xbow-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

die() { echo "mix_bench: $*" >&2; exit 1; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }

expected=$("$MIX_HOST" "$MIX_ROUNDS" | grep '^mix: rounds') || die "cannot run $MIX_HOST"

# time_run NAME CMD...: run once with standard input from $STDIN (default
# /dev/null); sets wall, cpu (user+sys of the process tree), and checks the
# result line on stdout.
time_run() {
    local name=$1 t
    shift
    t=$( { TIMEFORMAT='%R %U %S'; time "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" <"${STDIN:-/dev/null}"; } 2>&1 )
    wall=${t%% *}
    cpu=$(echo "$t" | awk '{ printf "%.2f", $2 + $3 }')
    local got
    got=$(tr -d '\r' <"$TMP/$name.out" | grep '^mix: rounds')
    if [ "$got" != "$expected" ] || ! grep -q '^mix: done' "$TMP/$name.out"; then
        echo "mix_bench: $name printed the wrong result" >&2
        echo "  expected: $expected" >&2
        echo "  got:      ${got:-nothing}" >&2
        head -c 2000 "$TMP/$name.err" >&2
        exit 1
    fi
}

# run_xbow ENGINE
run_xbow() { time_run "xbow-$1" "$XBOW" --engine="$1" --batch -q "$(elf xbow)"; }
# Standard input that stays open and idle: a FIFO this script holds open
# (nobody writes to it); through script(1) it becomes a terminal's input.
idle_stdin() {
    [ -p "$TMP/idle" ] || { mkfifo "$TMP/idle" && exec 3<>"$TMP/idle"; } || die "no FIFO"
    echo "$TMP/idle"
}
run_xbow_pipe() {
    STDIN=$(idle_stdin) time_run xbow-pipe "$XBOW" --engine="$last_engine" --batch -q "$(elf xbow)"
}
run_xbow_tty() {
    STDIN=$(idle_stdin) time_run xbow-tty script -qec \
        "'$XBOW' --engine=$last_engine --batch -q '$(elf xbow)'" /dev/null
}
# No NIC and no VGA: the workload uses neither, and QEMU then needs no option
# ROMs (Debian's ipxe-qemu and vgabios are only recommended by qemu-system-mips).
run_qemu() {
    time_run qemu $QEMU -M malta -cpu 5KEf -m 64 -display none -vga none -nic none -monitor none -no-reboot \
        -serial null -serial null -serial stdio -kernel "$(elf malta)"
}
# GXemul wants a terminal: script gives it one.
run_gxemul() { time_run gxemul script -qec "$GXEMUL -q -E testmips -C R10000 $(elf testmips)" /dev/null; }

# best NAME: keep the smallest wall and CPU time seen for NAME.
declare -A best_wall best_cpu
best() {
    local n=$1
    if [ -z "${best_wall[$n]:-}" ] || awk "BEGIN { exit !($wall < ${best_wall[$n]}) }"; then
        best_wall[$n]=$wall
    fi
    if [ -z "${best_cpu[$n]:-}" ] || awk "BEGIN { exit !($cpu < ${best_cpu[$n]}) }"; then
        best_cpu[$n]=$cpu
    fi
}

# xbow_insns: the guest's instruction count, which every engine must give
xbow_insns() {
    local e n all=
    for e in $ENGINES; do
        n=$(sed -n 's/.* after \([0-9][0-9]*\) instructions.*/\1/p' "$TMP/xbow-$e.err" | head -1)
        [ -n "$n" ] || die "xbow --engine=$e did not report its instruction count"
        [ -z "$all" ] || [ "$n" = "$all" ] || die "the engines disagree: $all and $n instructions"
        all=$n
    done
    echo "$all"
}

machine_line() {
    local model
    model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
    echo "host: ${model:-?}, $(nproc 2>/dev/null || echo '?') CPUs; load average before: $1, after: $(loadavg)"
}

case $mode in
xbow)
    la=$(loadavg)
    tty=false
    command -v script >/dev/null && tty=true
    idle_stdin >/dev/null
    for i in $(seq "$BENCH_RUNS"); do
        for e in $ENGINES; do
            run_xbow "$e"
            best "xbow-$e"
            printf 'mix: xbow --engine=%s run %d: %s s wall, %s s CPU\n' "$e" "$i" "$wall" "$cpu"
        done
        run_xbow_pipe
        best xbow-pipe
        printf 'mix: xbow run %d, stdin an idle pipe: %s s wall, %s s CPU\n' "$i" "$wall" "$cpu"
        if $tty; then
            run_xbow_tty
            best xbow-tty
            printf 'mix: xbow run %d, stdin an idle terminal: %s s wall, %s s CPU\n' "$i" "$wall" "$cpu"
        fi
    done
    n=$(xbow_insns)
    echo "$expected (same as the host)"
    machine_line "$la"
    for e in $ENGINES; do
        awk -v e="$e" -v n="$n" -v w="${best_wall[xbow-$e]}" -v c="${best_cpu[xbow-$e]}" -v r="$BENCH_RUNS" 'BEGIN {
            printf "mix: xbow --engine=%s %d guest instructions; best of %d: %.2f s wall, %.2f s CPU\n", e, n, r, w, c
            printf "mix: xbow --engine=%s %.1f M guest instructions per host second (wall), %.1f M per CPU second\n",
                e, n / w / 1e6, n / c / 1e6 }'
    done
    # The console's input must cost nothing while nobody types (docs/performance.md).
    for k in pipe tty; do
        [ -n "${best_cpu[xbow-$k]:-}" ] || { echo "mix: no run with stdin a terminal (no script(1))"; continue; }
        [ $k = tty ] && what="an idle terminal" || what="an idle open pipe"
        awk -v l="$what" -v e="$last_engine" -v w="${best_wall[xbow-$k]}" -v c="${best_cpu[xbow-$k]}" \
            -v w0="${best_wall[xbow-$last_engine]}" -v c0="${best_cpu[xbow-$last_engine]}" 'BEGIN {
            printf "mix: stdin %s (--engine=%s): best %.2f s wall, %.2f s CPU: %.2fx wall, %.2fx CPU of stdin at its end\n",
                l, e, w, c, w / w0, c / c0 }'
    done
    ;;
compare)
    command -v "${QEMU%% *}" >/dev/null || die "no $QEMU (Debian qemu-system-mips)"
    command -v "${GXEMUL%% *}" >/dev/null || die "no $GXEMUL (Debian gxemul)"
    command -v script >/dev/null || die "no script (util-linux)"
    la=$(loadavg)
    runs=""
    for e in $ENGINES; do runs="$runs xbow-$e"; done
    runs="$runs qemu gxemul"
    for i in $(seq "$BENCH_RUNS"); do
        for r in $runs; do
            case $r in
            xbow-*) run_xbow "${r#xbow-}";;
            *) "run_$r";;
            esac
            best "$r"
            printf 'mix: run %d %-12s %6s s wall, %6s s CPU\n' "$i" "$r" "$wall" "$cpu"
        done
    done
    n=$(xbow_insns)
    echo "$expected (all the same as the host)"
    machine_line "$la"
    printf '%-28s %10s %10s %14s\n' "mix, best of $BENCH_RUNS" "wall s" "CPU s" "M insns/s wall"
    for r in $runs; do
        case $r in
        xbow-*) label="xbow --engine=${r#xbow-}";;
        qemu) label="QEMU malta (5KEf)";;
        gxemul) label="GXemul testmips (R10000)";;
        esac
        awk -v l="$label" -v n="$n" -v w="${best_wall[$r]}" -v c="${best_cpu[$r]}" \
            'BEGIN { printf "%-28s %10.2f %10.2f %14.1f\n", l, w, c, n / w / 1e6 }'
    done
    for e in $ENGINES; do
        awk -v e="$e" -v x="${best_wall[xbow-$e]}" -v q="${best_wall[qemu]}" -v g="${best_wall[gxemul]}" \
            -v xc="${best_cpu[xbow-$e]}" -v qc="${best_cpu[qemu]}" -v gc="${best_cpu[gxemul]}" 'BEGIN {
            printf "ratio xbow(%s)/QEMU   %.2f wall, %.2f CPU\n", e, x / q, xc / qc
            printf "ratio xbow(%s)/GXemul %.2f wall, %.2f CPU\n", e, x / g, xc / gc }'
    done
    echo "(instructions: xbow's count; the workload object is the same in all builds)"
    ;;
callgrind)
    command -v valgrind >/dev/null || die "no valgrind"
    n=$((BENCH_CG_MINSNS * 1000000))
    for e in $ENGINES; do
        out="$TMP/callgrind-$e.out"
        # --smc-check=all: the translator writes code and patches jumps
        valgrind --tool=callgrind --smc-check=all --callgrind-out-file="$out" "$XBOW" \
            --engine="$e" --batch -q --max-insns "$n" "$(elf xbow)" >"$TMP/cg.out" 2>"$TMP/cg.err"
        grep -q "instruction limit ($n instructions)" "$TMP/cg.err" || {
            cat "$TMP/cg.err" >&2
            die "xbow --engine=$e under callgrind did not run to the limit"
        }
        total=$(sed -n 's/^summary: *//p;s/^totals: *//p' "$out" | head -1 | tr -d ',')
        inner=$(callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null |
            awk '/:cpu_run \[/ { gsub(",", "", $1); print $1; exit }')
        # Translated code has no symbol and no object file: callgrind names
        # it by its address, in the list of functions' own costs.
        gen=$(callgrind_annotate --inclusive=no --threshold=100 "$out" 2>/dev/null |
            awk '/%\) +\?\?\?:0x[0-9a-f]+ \[\?\?\?\]$/ { gsub(",", "", $1); s += $1 }
                 END { printf "%.0f", s }')
        awk -v e="$e" -v n="$n" -v t="$total" -v i="${inner:-0}" -v g="${gen:-0}" 'BEGIN {
            printf "callgrind --engine=%s: %d guest instructions, %.0f host instructions in all (%.1f per guest instruction)\n", e, n, t, t / n
            if (i > 0) printf "callgrind --engine=%s: %.1f host instructions per guest instruction inside cpu_run()\n", e, i / n
            if (g / n >= 0.05) printf "callgrind --engine=%s: %.1f of them in translated code (no symbol)\n", e, g / n }'
    done
    ;;
callgrind-profile)
    command -v valgrind >/dev/null || die "no valgrind"
    n=$((BENCH_CG_MINSNS * 1000000))
    # cg NAME COMMANDS...: host instructions of `continue N` between them
    cg() {
        local name=$1 out="$TMP/cg-$1.out"
        shift
        valgrind --tool=callgrind --smc-check=all --callgrind-out-file="$out" "$XBOW" --batch -q "$@" \
            "$(elf xbow)" >"$TMP/cg.out" 2>"$TMP/cg.err" || {
            cat "$TMP/cg.err" >&2
            die "xbow under callgrind failed ($name)"
        }
        sed -n 's/^summary: *//p;s/^totals: *//p' "$out" | head -1 | tr -d ','
    }
    off=$(cg off -ex "continue $n")
    on=$(cg on -ex 'profile start' -ex "continue $n" -ex 'profile stop')
    after=$(cg after -ex 'profile start' -ex 'profile stop' -ex "continue $n")
    awk -v n="$n" -v off="$off" -v on="$on" -v after="$after" 'BEGIN {
        printf "callgrind: continue %d, host instructions in all:\n", n
        printf "  no profile:                %.0f (%.2f per guest instruction)\n", off, off / n
        printf "  profile start ... stop:    %.0f (%.2f per guest instruction, %+.2f%%)\n", on, on / n, (on - off) / off * 100
        printf "  after profile stop:        %.0f (%.2f per guest instruction, %+.3f%%)\n", after, after / n, (after - off) / off * 100 }'
    ;;
*)
    die "unknown mode $mode (xbow, compare, callgrind or callgrind-profile)"
    ;;
esac
