# tests/unit: the NIC models (shared parts and the Hamachi).
NIC_TEST_SUPPORT = tests/unit/nic_fake.c tests/unit/nic_fake.h
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
TESTS += tests/batch/nic_options.sh
EXTRA_DIST += tests/batch/nic_options.sh
TESTS += tests/batch/nic_mac.sh
EXTRA_DIST += tests/batch/nic_mac.sh
