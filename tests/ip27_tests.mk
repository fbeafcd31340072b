# Tests of the IP27 board that need the whole machine (CPU, Bridge, PCI
# core): the IOC3 and machine-level unit tests and the batch tests that run
# the examples.
check_PROGRAMS += tests/unit/test_ioc3 tests/unit/test_ip27
tests_unit_test_ioc3_SOURCES = tests/unit/test_ioc3.c
tests_unit_test_ioc3_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_ioc3_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_test_ip27_SOURCES = tests/unit/test_ip27.c
tests_unit_test_ip27_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_ip27_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
IP27_BATCH_TESTS = tests/batch/ip27_hello.sh tests/batch/ip27_irq.sh \
	tests/batch/ip27_smp.sh tests/batch/ip27_reset.sh tests/batch/ip27_prom.sh
TESTS += tests/unit/test_ioc3 tests/unit/test_ip27 $(IP27_BATCH_TESTS)
EXTRA_DIST += $(IP27_BATCH_TESTS) tests/batch/ip27_lib.sh
