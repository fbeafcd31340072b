#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# info nic: each NIC's counts and live frame and bit rates, per second of
# guest time (a function of the run: two identical runs show the same) and
# per second of host time (only its form is checked: it is the host's).
# The example Hamachi driver sends 3000 frames of 1024 bytes to the sink,
# then receives 2000 from the gen peer.  The IOC3's on-board Ethernet
# (ioc3_eth0) is on every machine: info nic lists it, unplugged here.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"
elf=${top_builddir:-.}/examples/hamachi/hamachi.elf
[ -f "$elf" ] || skip "$elf is not built"

F='[0-9]*\.[0-9]'
run_xbow --batch -q --nic hamachi --net sink --append "tx 3000" \
    -ex 'info nic' -ex continue -ex 'info nic' -ex 'info nic hamachi0' -ex 'info device hamachi0 stats' "$elf"
expect_status 0
expect_out "^  rates: no frame yet$"
expect_out "^hamachi0 (hamachi, slot 3), MAC 02:58:42:[0-9a-f:]* (default), net sink$"
expect_out "^  link up; tx 3000 frames, 3072000 bytes; rx 0 frames, 0 bytes$"
expect_out "^  rates over the last 0\.[0-9]\{6\} s of guest time ([0-9]*\.[0-9]\{6\} s of host time running):$"
expect_out "^    guest time: tx [1-9]$F frames/s [1-9]${F}[0-9][0-9] Mbit/s, rx 0\.0 frames/s 0\.000 Mbit/s$"
expect_out "^    host time:  tx $F frames/s $F[0-9][0-9] Mbit/s, rx 0\.0 frames/s 0\.000 Mbit/s$"
# The bit rate is the frame rate times the frame's bits (1024 bytes).
checks=$((checks + 1))
sed -n 's/^    guest time: tx \([0-9.]*\) frames\/s \([0-9.]*\) Mbit\/s.*/\1 \2/p' "$WORK/out" | sed -n '1p' |
    awk '{ d = $1 * 1024 * 8 / 1e6 - $2; if (d < -0.01 || d > 0.01) exit 1 }' ||
    fail "the guest-time bit rate is not 1024 bytes per frame"
guest1=$(grep '^    guest time:' "$WORK/out" | sed -n '1p')
# the stats view shows the same rates
checks=$((checks + 1))
[ "$(grep -c '^    guest time:' "$WORK/out")" = 3 ] || fail "want the rates in info nic (twice) and the stats view"
# The same run again: the same guest-time rates.
run_xbow --batch -q --nic hamachi --net sink --append "tx 3000" -ex continue -ex 'info nic' "$elf"
checks=$((checks + 1))
[ "$(grep '^    guest time:' "$WORK/out")" = "$guest1" ] || fail "a second run shows other guest-time rates: $(grep '^    guest time:' "$WORK/out"), first: $guest1"

# Receive from gen.
run_xbow --batch -q --nic hamachi --net gen --append "rx 2000" -ex continue -ex 'info nic' "$elf"
expect_status 0
expect_out "^  link up; tx [0-9]* frames, [0-9]* bytes; rx 20[0-9][0-9] frames, [0-9]* bytes$"
expect_out "^    guest time: tx $F frames/s $F[0-9]* Mbit/s, rx [1-9]$F frames/s $F[0-9]* Mbit/s$"

# A snapshot load forgets the samples (they are of the run after the save):
# no rates until the next frame, then the same guest-time rates as before.
run_xbow --batch -q --nic hamachi --net sink --append "tx 3000" -ex 'continue 2000000' \
    -ex 'snapshot save -m a' -ex continue -ex 'snapshot load a' -ex 'info nic hamachi0' \
    -ex continue -ex 'info nic hamachi0' "$elf"
expect_status 0
expect_out "^  rates: no frame since the state was loaded$"
expect_out "^  link up; tx 3000 frames, 3072000 bytes; rx 0 frames, 0 bytes$"
expect_out "^    guest time: tx [1-9]$F frames/s [1-9]${F}[0-9][0-9] Mbit/s, rx 0\.0 frames/s 0\.000 Mbit/s$"

# Errors: no such NIC.
run_xbow --batch -q --nic hamachi -ex 'info nic foo' "$elf"
expect_out 'No NIC named "foo"'
# No card (--nic none): the IOC3's on-board Ethernet is the machine's only
# NIC, listed unplugged (no --ioc3-net); the card's name is no NIC.
run_xbow --batch -q --nic none -ex 'info nic' -ex 'info nic hamachi0' "$elf"
expect_out "^ioc3_eth0 (ioc3-eth, slot 2), MAC 08:00:69:[0-9a-f:]* (default), net none (no cable)$"
expect_out "^  link none; tx 0 frames, 0 bytes; rx 0 frames, 0 bytes$"
expect_count "^  rates: no frame yet$" 1
expect_count "^[a-z0-9_]* ([a-z0-9-]*, slot [0-9]*), MAC " 1
expect_out 'No NIC named "hamachi0"'
# With a card, both are listed.
run_xbow --batch -q --nic hamachi -ex 'info nic' "$elf"
expect_count "^[a-z0-9_]* ([a-z0-9-]*, slot [0-9]*), MAC " 2
expect_out "^ioc3_eth0 (ioc3-eth, slot 2), .*, net none (no cable)$"
finish
