# tests/unit/dev/nic/e1000: the Intel 82543GC / 82544EI models (e1000).
E1000_TEST_SUPPORT = tests/unit/dev/nic/e1000/e1000_env.c tests/unit/dev/nic/e1000/e1000_env.h $(NIC_TEST_SUPPORT)
E1000_UNIT_TESTS = tests/unit/dev/nic/e1000/test_e1000 \
	tests/unit/dev/nic/e1000/test_e1000_offload
check_PROGRAMS += $(E1000_UNIT_TESTS)
TESTS += $(E1000_UNIT_TESTS)
tests_unit_dev_nic_e1000_test_e1000_SOURCES = tests/unit/dev/nic/e1000/test_e1000.c $(E1000_TEST_SUPPORT)
tests_unit_dev_nic_e1000_test_e1000_offload_SOURCES = tests/unit/dev/nic/e1000/test_e1000_offload.c $(E1000_TEST_SUPPORT)
# Linux's e1000 driver on both parts (skips without `make linux`).
BATCH_TESTS += tests/batch/e1000_linux.sh
# UDP floods from Linux to the sink, every frame accounted for (skips
# without `make linux`).
BATCH_TESTS += tests/batch/linux_udp.sh
# Issue 17: the datagrams still queued in the guest when ttcp -t returns,
# and the drain that lets them out (skips without `make linux`).
BATCH_TESTS += tests/batch/linux_tx_drain.sh
EXTRA_DIST += tests/batch/ttcp_pcap.py scripts/ttcp.py
# Two Linux guests on one wire (VDE, socket:udp): ping and UDP both ways
# (skips without `make linux`).
BATCH_TESTS += tests/batch/linux_pair.sh
