# tests/unit/dev/nic/e1000: the Intel 82543GC / 82544EI models (e1000).
E1000_TEST_SUPPORT = tests/unit/dev/nic/e1000/e1000_env.c tests/unit/dev/nic/e1000/e1000_env.h $(NIC_TEST_SUPPORT)
check_PROGRAMS += tests/unit/dev/nic/e1000/test_e1000
tests_unit_dev_nic_e1000_test_e1000_SOURCES = tests/unit/dev/nic/e1000/test_e1000.c $(E1000_TEST_SUPPORT)
tests_unit_dev_nic_e1000_test_e1000_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_nic_e1000_test_e1000_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/nic/e1000/test_e1000
check_PROGRAMS += tests/unit/dev/nic/e1000/test_e1000_offload
tests_unit_dev_nic_e1000_test_e1000_offload_SOURCES = tests/unit/dev/nic/e1000/test_e1000_offload.c $(E1000_TEST_SUPPORT)
tests_unit_dev_nic_e1000_test_e1000_offload_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_nic_e1000_test_e1000_offload_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/nic/e1000/test_e1000_offload
# Linux's e1000 driver on both parts (skips without `make linux`).
TESTS += tests/batch/e1000_linux.sh
EXTRA_DIST += tests/batch/e1000_linux.sh
# UDP floods from Linux to the sink, every frame accounted for (skips
# without `make linux`).
TESTS += tests/batch/linux_udp.sh
EXTRA_DIST += tests/batch/linux_udp.sh tests/batch/ttcp_pcap.py
# Two Linux guests on one wire (VDE, socket:udp): ping and UDP both ways
# (skips without `make linux`).
TESTS += tests/batch/linux_pair.sh
EXTRA_DIST += tests/batch/linux_pair.sh
