# SPDX-License-Identifier: GPL-2.0-or-later
# The IOC3 Ethernet example driver (the Origin 200's own NIC: xbow
# --ioc3-net SPEC) and its batch tests.
examples/ioc3/ioc3_eth.elf: GUEST_SRCS = $(srcdir)/examples/ioc3/ioc3_eth.c
examples/ioc3/ioc3_eth.elf: $(srcdir)/examples/ioc3/ioc3_eth.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
GUEST_EXAMPLES += examples/ioc3/ioc3_eth.elf
nobase_dist_example_DATA += examples/ioc3/ioc3_eth.c
EXTRA_DIST += examples/ioc3/ioc3.mk
TESTS += tests/batch/ioc3_examples.sh
EXTRA_DIST += tests/batch/ioc3_examples.sh
TESTS += tests/batch/ioc3_wire.sh
EXTRA_DIST += tests/batch/ioc3_wire.sh
