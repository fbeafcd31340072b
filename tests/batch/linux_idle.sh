#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Idle skip with the real Linux kernel (make linux) on 1, 2 and 4 CPUs: the
# idle CPUs wait in arch_cpu_idle instead of spinning through the idle loop
# (info cpus counts their waits), timers keep virtual time (`sleep 1` in the
# guest is 1.00 s of /proc/uptime, as without idle skip), the same command
# line gives the same run twice, and the profiler sees where the busy CPU
# spends its instructions.  Skips until the kernel is built.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux

RUN='xbow.run="cat /proc/uptime; sleep 1; cat /proc/uptime" xbow.after=reboot'

# slept: the difference between the two uptimes the guest printed
slept() {
    tr -d '\r' <"$WORK/out" | sed -n '/^XBOW-RUN-BEGIN/,/^XBOW-RUN-END/p' |
        awk '/^[0-9]+\.[0-9]+ [0-9]+\.[0-9]+$/ { u[n++] = $1 } END { if (n == 2) printf "%.2f", u[1] - u[0] }'
}

# idle_waits CPU: how often a CPU started waiting in the idle routine (info
# cpus: "waited N ticks (P%): I idle, P polling" under the CPU's line)
idle_waits() {
    tr -d '\r' <"$WORK/out" | awk -v c="$1" '{ sub(/^\*/, " ") } $2 ~ /^0x/ { cur = $1 }
        cur == c && $1 == "waited" { n = $5 } END { print n + 0 }'
}

for cpus in 1 2 4; do
    run_xbow --batch --rtc-fixed --cpus $cpus --append "$RUN" \
        -ex 'continue 4000000000' -ex 'info cpus' "$vmlinux"
    expect_status 0
    expect_out "XBOW-RUN-END status=0"
    expect_out "Idle skip on"
    s=$(slept)
    case "$s" in
    1.00 | 1.01) ;;
    *) fail "$cpus CPUs: sleep 1 took \"$s\" s of uptime" ;;
    esac
    i=0
    while [ $i -lt $cpus ]; do
        n=$(idle_waits $i)
        [ "${n:-0}" -gt 0 ] || fail "$cpus CPUs: cpu$i never waited in the idle routine"
        i=$((i + 1))
    done
    cp "$WORK/out" "$WORK/out.$cpus"
done

# The same command line twice: the same run (every instruction count and wait).
run_xbow --batch --rtc-fixed --cpus 2 --append "$RUN" -ex 'continue 4000000000' -ex 'info cpus' \
    "$vmlinux"
checks=$((checks + 1))
cmp -s "$WORK/out" "$WORK/out.2" || fail "two runs on 2 CPUs differ: $(diff "$WORK/out.2" "$WORK/out" | head -5)"

# The reference timing: every instruction of the idle loop executed, and
# `sleep 1` takes the same virtual time.
run_xbow --batch --rtc-fixed --no-idle-skip --append "$RUN" -ex 'continue 4000000000' \
    -ex 'info cpus' "$vmlinux"
expect_status 0
expect_out "Idle skip off"
s=$(slept)
case "$s" in
1.00 | 1.01) ;;
*) fail "without idle skip: sleep 1 took \"$s\" s of uptime" ;;
esac
[ "$(idle_waits 0)" = 0 ] || fail "without idle skip: cpu0 waited"

# The profiler on Linux: the boot's busiest functions, kernel and user.
run_xbow --batch --rtc-fixed --cpus 2 --append 'xbow.run="ls /; cat /proc/uptime"' \
    -ex 'profile start' -ex 'expect "XBOW-RUN-END" 4000000000' -ex 'profile stop' \
    -ex 'profile report 40' "$vmlinux"
expect_status 0
expect_out "Profiling every CPU"
expect_out "^cpu0: .* instructions executed (.* samples; kernel"
expect_out "^cpu1: .* waited .* ticks"
expect_out "^All CPUs: "
expect_out "% *memcpy$\|% *__copy_user$\|% *memset$\|% *__bzero$"
expect_out "cpu0: guest instructions$"
expect_out "ioc3.uart-a registers$"
expect_out "timer hub-rt-a$"
finish
