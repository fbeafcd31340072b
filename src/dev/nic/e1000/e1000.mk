# src/dev: the Intel 82543GC / 82544EI model (e1000*.c), one of the NIC models.
E1000_SOURCES = \
	src/dev/e1000.c src/dev/e1000.h \
	src/dev/e1000_phy.c \
	src/dev/e1000_tx.c \
	src/dev/e1000_rx.c
NIC_SOURCES += $(E1000_SOURCES)
