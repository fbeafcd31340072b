# tests/unit/dev/chip: the 16550 UART and the M48T35.
check_PROGRAMS += tests/unit/dev/chip/test_uart_rtc
TESTS += tests/unit/dev/chip/test_uart_rtc
