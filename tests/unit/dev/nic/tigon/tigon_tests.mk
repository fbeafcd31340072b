# tests/unit/dev/nic/tigon: the Tigon2 model (driven through the acenic-like harness).
TIGON_TEST_SUPPORT = tests/unit/dev/nic/tigon/tigon_host.c tests/unit/dev/nic/tigon/tigon_host.h $(NIC_TEST_SUPPORT)
check_PROGRAMS += tests/unit/dev/nic/tigon/test_tigon
tests_unit_dev_nic_tigon_test_tigon_SOURCES = tests/unit/dev/nic/tigon/test_tigon.c $(TIGON_TEST_SUPPORT)
tests_unit_dev_nic_tigon_test_tigon_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_nic_tigon_test_tigon_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/nic/tigon/test_tigon
check_PROGRAMS += tests/unit/dev/nic/tigon/test_tigon_dma
tests_unit_dev_nic_tigon_test_tigon_dma_SOURCES = tests/unit/dev/nic/tigon/test_tigon_dma.c $(TIGON_TEST_SUPPORT)
tests_unit_dev_nic_tigon_test_tigon_dma_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_nic_tigon_test_tigon_dma_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/nic/tigon/test_tigon_dma
# The example guest drivers (examples/tigon) on the whole machine.
TESTS += tests/batch/tigon_examples.sh
EXTRA_DIST += tests/batch/tigon_examples.sh tests/batch/pcap_stats.py
