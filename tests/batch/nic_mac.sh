#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The NICs' MAC addresses as a user sees them.  With --mac, each model's
# example driver reads the address where its hardware keeps it (Hamachi:
# EEPROM bytes 4..9; Tigon2: I2C EEPROM bytes 0x8e..0x93; 8254x: Microwire
# EEPROM words 0-2, and RAL0/RAH0 loaded from them), sends frames from it,
# and xbow prints it at start-up, in info pci and in the NIC's stats view.
# Without --mac, the default is the same for the same command line and
# differs when the slot, the backend or the kernel command line differs.
# Two guests with one address on one wire get a warning.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

EX=${top_builddir:-.}/examples
[ -f "$EX/e1000/tx.elf" ] && [ -f "$EX/tigon/tigon_tx.elf" ] && [ -f "$EX/hamachi/hamachi.elf" ] ||
    skip "the example drivers are not built"
MAX="--max-insns 50000000"
MAC=02:12:34:56:78:9a

# Hamachi: the example reads EEPROM bytes 4..9, as Linux's hamachi driver.
run_xbow --batch $MAX --nic hamachi --mac "$MAC" --net sink --append 'tx 3' "$EX/hamachi/hamachi.elf"
expect_status 0
expect_err "^xbow: hamachi0 (hamachi in slot 3): MAC $MAC (--mac), net sink$"
expect_out "^hamachi: slot 3, MAC $MAC, transmit"
expect_out "^hamachi: tx sent=3 "

# Tigon2: bit-banged I2C, as acenic.
run_xbow --batch $MAX --nic tigon2 --mac "$MAC" --net sink --append 'size=100 count=3' \
    "$EX/tigon/tigon_tx.elf"
expect_status 0
expect_err "^xbow: tigon0 (tigon2 in slot 3): MAC $MAC (--mac), net sink$"
expect_out "^tigon: slot 3, MAC $MAC, firmware up"

# 8254x: Microwire EEPROM words 0-2 (checksum intact) and RAL0/RAH0 at reset;
# the frames on the wire come from it.
for model in e1000-82543 e1000-82544; do
    run_xbow --batch --nic $model --mac 02-12-34-56-78-9A --net sink --pcap "$WORK/tx.pcap" \
        --append 'size=100 count=3' -ex 'info device e1000_0 RAL0' -ex 'info device e1000_0 RAH0' \
        -ex 'continue 50000000' -ex 'info device e1000_0 stats' "$EX/e1000/tx.elf"
    expect_status 0
    expect_err "^xbow: e1000_0 ($model in slot 3): MAC $MAC (--mac), net sink$"
    expect_out "^e1000_0.RAL0 @0x5400 (4 bytes) = 0x56341202$"
    expect_out "^e1000_0.RAH0 @0x5404 (4 bytes) = 0x80009a78$"
    expect_out "EEPROM checksum 0xbaba (good), MAC $MAC$"
    expect_out "sent 3 frames, 300 bytes"
    expect_out "^e1000_0 ($model, slot 3), MAC $MAC (--mac), net sink$"
    expect_out "^  nic mac   $MAC$"
    if command -v python3 >/dev/null 2>&1; then
        got=$(python3 "${top_srcdir:-.}/tests/batch/e1000_pcap.py" "$WORK/tx.pcap" --src "$MAC")
        checks=$((checks + 1))
        case "$got" in frames=3\ *) ;; *) fail "$model: frames from $MAC in the capture: $got" ;; esac
    fi
done

# info pci, with a second NIC on no cable.
run_xbow --batch -q --nic e1000 --mac "$MAC" --net echo --nic hamachi --net none -ex 'info pci'
expect_status 0
expect_out "^slot 3: e1000_0 8086:1008"
expect_out "^    MAC $MAC (--mac), net echo$"
expect_out "^    MAC 02:58:42:[0-9a-f:]* (default), net none (no cable)$"

# A station address programmed into the NIC (here by the debugger, as a
# driver would) is shown next to the factory one.
run_xbow --batch -q --nic e1000 --mac "$MAC" -ex 'set e1000_0.RAL0 = 0x44332202' -ex 'info pci'
expect_out "^    MAC $MAC (--mac), in use 02:22:33:44:78:9a (programmed into the NIC), net sink$"

# The default: printed at start-up, read by the guest, reproducible.
default_mac() {
    sed -n "s/^xbow: tigon0 (tigon2 in slot 3): MAC \([0-9a-f:]*\) (default), .*/\1/p" "$WORK/err"
}
tigon_tx() {
    run_xbow --batch $MAX --nic tigon2 "$@" "$EX/tigon/tigon_tx.elf"
    expect_status 0
}
tigon_tx --net sink --append 'size=100 count=2'
a=$(default_mac)
case "$a" in 02:58:42:??:??:??) ;; *) fail "no default MAC at start-up: '$a'" ;; esac
expect_out "^tigon: slot 3, MAC $a, "
tigon_tx --net sink --append 'size=100 count=2'
checks=$((checks + 1))
[ "$(default_mac)" = "$a" ] || fail "the same command line gave another default MAC: $(default_mac), $a"
tigon_tx --net sink:noverify --append 'size=100 count=2'
b=$(default_mac)
tigon_tx --net sink --append 'size=100 count=3'
c=$(default_mac)
checks=$((checks + 1))
[ -n "$b" ] && [ -n "$c" ] && [ "$a" != "$b" ] && [ "$a" != "$c" ] && [ "$b" != "$c" ] ||
    fail "the default MAC does not follow the backend and the command line: $a $b $c"
# The slot: a second NIC of the same model.
run_xbow --batch -q --nic e1000 --net sink --nic e1000 --net sink -ex 'info pci'
checks=$((checks + 1))
[ "$(grep -c '^    MAC 02:58:42:.* (default), net sink$' "$WORK/out")" -eq 2 ] &&
    [ "$(sed -n 's/^    MAC \(02:58:42:[0-9a-f:]*\) .*/\1/p' "$WORK/out" | sort -u | wc -l)" -eq 2 ] ||
    fail "two NICs in slots 3 and 4 do not have two default MACs"
# -q leaves out the start-up lines.
run_xbow --batch -q $MAX --nic hamachi --net sink --append 'tx 1' "$EX/hamachi/hamachi.elf"
checks=$((checks + 1))
if grep -q "^xbow: hamachi0 " "$WORK/err"; then fail "-q printed the NIC line"; fi

# Two NICs of one machine with one address, and the bad --mac values.
run_xbow --nic e1000 --mac "$MAC" --nic hamachi --mac "$MAC"
expect_status 2
expect_err "e1000_0 and hamachi0 would both have the MAC $MAC: give them different --mac"
run_xbow --mac "$MAC" --nic e1000
expect_status 2
expect_err "xbow: --mac applies to the NIC given before it: put --nic MODEL first"
for bad in 02:12:34:56:78 02:12:34:56:78:9a:bc 0212.3456.789a 02:12:34:56:78:9g 2:12:34:56:78:9a ''; do
    run_xbow --nic e1000 --mac "$bad"
    expect_status 2
    expect_err "xbow: --mac: \"$bad\" is not a MAC address (want six hex bytes such as 02:00:00:00:00:01)"
done
run_xbow --nic e1000 --mac 01:00:5e:00:00:01
expect_status 2
expect_err "xbow: --mac: 01:00:5e:00:00:01 is a multicast address (bit 0 of the first byte is set), not a station address"
run_xbow --nic e1000 --mac ff:ff:ff:ff:ff:ff
expect_status 2
expect_err "is the broadcast address, not a station address"
run_xbow --nic e1000 --mac 00:00:00:00:00:00
expect_status 2
expect_err "xbow: --mac: 00:00:00:00:00:00 is the all-zero address, not a station address"
run_xbow --nic e1000 --mac "$MAC" --net sink --mac 02:00:00:00:00:01
expect_status 2
expect_err "xbow: --mac: NIC 1 (--nic e1000) already has --mac $MAC: one --mac per --nic"
run_xbow --nic e1000 --mac
expect_status 2
expect_err "option --mac needs an argument"
# A universal (vendor-assigned) address is a valid station address.
run_xbow --batch -q --nic e1000 --mac 00:60:cf:20:12:34 -ex 'info pci'
expect_status 0
expect_out "^    MAC 00:60:cf:20:12:34 (--mac), net sink$"
finish
