# The IP27 board's own devices and the synthetic PROM (everything of the
# board that does not need the CPU): HUB, IOC3 with its 16550 UARTs and
# M48T35, the PROM data structures.
libxbow_a_SOURCES += \
	src/dev/hub.c src/dev/hub.h \
	src/dev/uart16550.c src/dev/uart16550.h \
	src/dev/m48t35.c src/dev/m48t35.h \
	src/dev/ioc3.c src/dev/ioc3.h \
	src/machine/prom.c src/machine/prom.h
