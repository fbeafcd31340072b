# SPDX-License-Identifier: GPL-2.0-or-later
# tests/unit/dev/nic/ioc3: the IOC3 Ethernet model.
check_PROGRAMS += tests/unit/dev/nic/ioc3/test_ioc3_eth
TESTS += tests/unit/dev/nic/ioc3/test_ioc3_eth
tests_unit_dev_nic_ioc3_test_ioc3_eth_SOURCES = tests/unit/dev/nic/ioc3/test_ioc3_eth.c $(NIC_TEST_SUPPORT)
# Linux's own ioc3-eth driver on the model (needs `make linux`; skips without it).
BATCH_TESTS += tests/batch/ioc3_linux.sh
