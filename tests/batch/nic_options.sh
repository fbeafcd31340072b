#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The NIC options of the xbow binary: --help documents them, bad values are
# refused with a message and exit status 2.
set -u
. "${top_srcdir:-.}/tests/batch/lib.sh"

run_xbow --help
expect_status 0
for opt in '--nic MODEL' '--net SPEC' '--pcap FILE' '--nic-dma=MODE'; do
    expect_out "$opt"
done

run_xbow --nic tulip
expect_status 2
expect_err 'unknown model "tulip" (known: .*hamachi.* e1000-82544 e1000)'
# "e1000" is another name for the 82544.
run_xbow --batch -q --nic e1000 --net sink -ex 'info devices'
expect_status 0
expect_out 'e1000_0  *e1000-82544 .*8086:1008'
run_xbow --net sink
expect_status 2
expect_err 'put --nic MODEL first'
run_xbow --pcap x.pcap
expect_status 2
expect_err 'put --nic MODEL first'
run_xbow --nic hamachi --nic-dma=fast
expect_status 2
expect_err 'want raw or per-word'
run_xbow --nic hamachi --nic hamachi --nic hamachi --nic hamachi --nic hamachi --nic hamachi
expect_status 2
expect_err 'at most 5 NICs'
run_xbow --nic
expect_status 2
expect_err 'needs an argument'
finish
