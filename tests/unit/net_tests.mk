# tests for src/net: Check unit tests and batch tests of the host backends.
check_PROGRAMS += tests/unit/test_net
tests_unit_test_net_SOURCES = tests/unit/test_net.c tests/unit/net_testlib.h
tests_unit_test_net_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_net_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_net

check_PROGRAMS += tests/unit/test_net_host
tests_unit_test_net_host_SOURCES = tests/unit/test_net_host.c tests/unit/net_testlib.h
tests_unit_test_net_host_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_net_host_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_net_host
