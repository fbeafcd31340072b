# tests/unit/dev/nic/hamachi: the Hamachi model.
check_PROGRAMS += tests/unit/dev/nic/hamachi/test_hamachi
TESTS += tests/unit/dev/nic/hamachi/test_hamachi
tests_unit_dev_nic_hamachi_test_hamachi_SOURCES = tests/unit/dev/nic/hamachi/test_hamachi.c $(NIC_TEST_SUPPORT)
