# tests/unit/dev/nic/tigon: the Tigon2 model (driven through the acenic-like harness).
TIGON_TEST_SUPPORT = tests/unit/dev/nic/tigon/tigon_host.c tests/unit/dev/nic/tigon/tigon_host.h $(NIC_TEST_SUPPORT)
TIGON_UNIT_TESTS = tests/unit/dev/nic/tigon/test_tigon \
	tests/unit/dev/nic/tigon/test_tigon_dma
check_PROGRAMS += $(TIGON_UNIT_TESTS)
TESTS += $(TIGON_UNIT_TESTS)
tests_unit_dev_nic_tigon_test_tigon_SOURCES = tests/unit/dev/nic/tigon/test_tigon.c $(TIGON_TEST_SUPPORT)
tests_unit_dev_nic_tigon_test_tigon_dma_SOURCES = tests/unit/dev/nic/tigon/test_tigon_dma.c $(TIGON_TEST_SUPPORT)
# The example guest drivers (examples/tigon) on the whole machine.
BATCH_TESTS += tests/batch/tigon_examples.sh
EXTRA_DIST += tests/batch/pcap_stats.py
