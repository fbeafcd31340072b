# tests/unit/dev/nic: the shared NIC engine, and the fake PCI host the model
# tests (one folder per model) and the fuzz targets drive the models through.
NIC_TEST_SUPPORT = tests/unit/dev/nic/nic_fake.c tests/unit/dev/nic/nic_fake.h \
	tests/unit/dev/nic/nic_checks.h
check_PROGRAMS += tests/unit/dev/nic/test_nic
TESTS += tests/unit/dev/nic/test_nic
tests_unit_dev_nic_test_nic_SOURCES = tests/unit/dev/nic/test_nic.c $(NIC_TEST_SUPPORT)
BATCH_TESTS += tests/batch/nic_options.sh
BATCH_TESTS += tests/batch/nic_mac.sh
