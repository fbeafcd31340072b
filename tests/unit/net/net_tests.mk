# tests for src/net: Check unit tests and batch tests of the host backends.
check_PROGRAMS += tests/unit/net/test_net
tests_unit_net_test_net_SOURCES = tests/unit/net/test_net.c tests/unit/net/net_testlib.h
tests_unit_net_test_net_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_net_test_net_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/net/test_net

check_PROGRAMS += tests/unit/net/test_net_host
tests_unit_net_test_net_host_SOURCES = tests/unit/net/test_net_host.c tests/unit/net/net_testlib.h
tests_unit_net_test_net_host_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_net_test_net_host_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/net/test_net_host

# net_probe: a fake NIC on a real port, driven by the batch tests below.
check_PROGRAMS += tests/unit/net/net_probe
tests_unit_net_net_probe_SOURCES = tests/unit/net/net_probe.c
tests_unit_net_net_probe_LDADD = $(XBOW_LIBS)
TESTS += tests/batch/net_tap.sh tests/batch/net_unix.sh
EXTRA_DIST += tests/batch/net_tap.sh tests/batch/net_unix.sh
# Linux in xbow on a tap in a network namespace, a host-side receiver
# (root and `make linux`; skips otherwise).
TESTS += tests/batch/linux_tap.sh
EXTRA_DIST += tests/batch/linux_tap.sh
