# tests for src/net: Check unit tests and batch tests of the host backends.
NET_UNIT_TESTS = tests/unit/net/test_net tests/unit/net/test_net_host
check_PROGRAMS += $(NET_UNIT_TESTS)
TESTS += $(NET_UNIT_TESTS)
tests_unit_net_test_net_SOURCES = tests/unit/net/test_net.c tests/unit/net/net_testlib.h
tests_unit_net_test_net_host_SOURCES = tests/unit/net/test_net_host.c tests/unit/net/net_testlib.h

# net_probe: a fake NIC on a real port, driven by the batch tests below.
check_PROGRAMS += tests/unit/net/net_probe
tests_unit_net_net_probe_LDADD = $(XBOW_LIBS)
BATCH_TESTS += tests/batch/net_tap.sh tests/batch/net_unix.sh tests/batch/net_writer.sh
# Linux in xbow on a tap in a network namespace, a host-side receiver
# (root and `make linux`; skips otherwise).
BATCH_TESTS += tests/batch/linux_tap.sh
# The same, receive and transmit at once on 2 CPUs (LINUX_BENCH=duplex's test).
BATCH_TESTS += tests/batch/linux_duplex.sh
# info nic: counts and live rates in guest and host time (tests/batch/nic_rates.sh).
BATCH_TESTS += tests/batch/nic_rates.sh
