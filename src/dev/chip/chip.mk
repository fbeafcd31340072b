# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/chip: industry-standard chips behind the IOC3: the 16550 UART and
# the M48T35 TIMEKEEPER (RTC and NVRAM).
libxbow_a_SOURCES += \
	src/dev/chip/uart16550.c src/dev/chip/uart16550.h \
	src/dev/chip/m48t35.c src/dev/chip/m48t35.h
