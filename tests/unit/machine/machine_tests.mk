# Unit tests of the IP27 board devices (HUB, UART, RTC, IOC3) and the
# synthetic PROM's data structures.
check_PROGRAMS += tests/unit/test_hub tests/unit/test_uart_rtc
tests_unit_test_hub_SOURCES = tests/unit/test_hub.c
tests_unit_test_hub_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_hub_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_test_uart_rtc_SOURCES = tests/unit/test_uart_rtc.c
tests_unit_test_uart_rtc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_uart_rtc_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_hub tests/unit/test_uart_rtc
check_PROGRAMS += tests/unit/test_prom
tests_unit_test_prom_SOURCES = tests/unit/test_prom.c
tests_unit_test_prom_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CAPSTONE_CFLAGS)
tests_unit_test_prom_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_prom
