#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init must repair a Bridge probe that Linux lost (docs/linux.md, "A boot
# race in Linux's w1 core").  The race itself depends on timing, so the test
# makes the loss certain with two breakpoints whose commands return at once
# (set $pc = $ra): every bridge_probe before /init starts returns
# -EPROBE_DEFER, as one that looked before the EEPROM's nvmem device existed
# would; and the driver core's deferred-probe work (deferred_probe_work_func)
# does nothing, so the kernel never retries the probe itself.  Only /init's
# write to /sys/bus/platform/drivers_probe can bring the PCI bus, ttyS0 and
# the NICs up then.  Without it this boot has no console and runs into its
# instruction budget.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

need_linux

# system_state < SYSTEM_RUNNING (the kernel's enumerator, from its DWARF):
# before kernel_init runs /init.
cat >"$WORK/lose.xbow" <<'EOF'
break bridge_probe if system_state < SYSTEM_RUNNING
commands
silent
set $v0 = -517
set $pc = $ra
continue
end
break deferred_probe_work_func
commands
silent
set $pc = $ra
continue
end
EOF

# 1 and 4 CPUs: the w1 search runs concurrently with the rest of the boot,
# so the EEPROM appears at different points of it.
for cpus in 1 4; do
    budget=2000000000
    [ $cpus -eq 4 ] && budget=4000000000
    run_xbow --batch -q --cpus $cpus --rtc-fixed --nic e1000-82544 --net echo \
        --append 'xbow.run="ls /sys/bus/pci/devices; ping -c 1 10.0.2.2" xbow.after=reboot' \
        -x "$WORK/lose.xbow" -ex "expect \"xbow-init: reboot\" $budget" -ex 'info breakpoints' "$vmlinux"
    expect_status 0
    expect_out "Attaching one wire slave 0b.584200000001"
    # The Bridge probe deferred before /init, and the kernel tried to retry
    # deferred probes and was stopped each time.
    expect_count "breakpoint already hit [0-9]* time" 2
    expect_out "xbow-init: xtalk-bridge\.[0-9.a-z]* was left unprobed with its 1-wire EEPROM present"
    expect_out "asked the kernel to probe it again, 1 time[^s]*$"
    expect_out "xtalk-bridge.*PCI host bridge to bus 0000:00"
    expect_out "xbow-init: cpus=$cpus .* pci=2 console=ttyS0"
    expect_out "^0000:00:02.0"
    expect_out "1 packets transmitted, 1 received"
    expect_out "XBOW-RUN-END status=0"
done
finish
