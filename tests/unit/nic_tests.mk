# tests/unit: the NIC models (shared parts and the Hamachi).
# standin_pci.c stands in for src/dev/pci.c until the bridge branch is
# merged (then it goes away).
NIC_TEST_SUPPORT = tests/unit/nic_fake.c tests/unit/nic_fake.h tests/unit/standin_pci.c
check_PROGRAMS += tests/unit/test_hamachi
tests_unit_test_hamachi_SOURCES = tests/unit/test_hamachi.c $(NIC_TEST_SUPPORT)
tests_unit_test_hamachi_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_hamachi_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_hamachi
check_PROGRAMS += tests/unit/test_nic
tests_unit_test_nic_SOURCES = tests/unit/test_nic.c $(NIC_TEST_SUPPORT)
tests_unit_test_nic_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_nic_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_nic
check_PROGRAMS += tests/unit/test_nic_options
tests_unit_test_nic_options_SOURCES = tests/unit/test_nic_options.c ui/options.c
tests_unit_test_nic_options_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_nic_options_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_nic_options
TESTS += tests/batch/nic_options.sh
EXTRA_DIST += tests/batch/nic_options.sh
