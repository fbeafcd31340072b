# src/machine: the machine, its run loop and the IP27 board.
libxbow_a_SOURCES += \
	src/machine/machine.c src/machine/machine.h \
	src/machine/ip27.c src/machine/ip27.h \
	src/machine/ip27_hle.c src/machine/ip27_priv.h
