# SPDX-License-Identifier: GPL-2.0-or-later
# The IOC3 Ethernet example driver (the Origin 200's own NIC: xbow
# --ioc3-net SPEC) and its batch tests.
GUEST_EXAMPLES += examples/ioc3/ioc3_eth.elf
nobase_dist_example_DATA += examples/ioc3/ioc3_eth.c
EXTRA_DIST += examples/ioc3/ioc3.mk
BATCH_TESTS += tests/batch/ioc3_examples.sh tests/batch/ioc3_wire.sh
