# tests/unit/dev/chip: the 16550 UART and the M48T35.
check_PROGRAMS += tests/unit/dev/chip/test_uart_rtc
tests_unit_dev_chip_test_uart_rtc_SOURCES = tests/unit/dev/chip/test_uart_rtc.c
tests_unit_dev_chip_test_uart_rtc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_chip_test_uart_rtc_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/chip/test_uart_rtc
