# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/sgi: SGI's own chips on the IP27 board: the HUB, the Bridge (XIO to
# PCI), the IOC3 and the 1-wire bus with the DS2505 NIC.
libxbow_a_SOURCES += \
	src/dev/sgi/hub.c src/dev/sgi/hub.h \
	src/dev/sgi/bridge.c src/dev/sgi/bridge.h src/dev/sgi/bridge_priv.h \
	src/dev/sgi/bridge_pio.c src/dev/sgi/bridge_dma.c src/dev/sgi/bridge_view.c \
	src/dev/sgi/ioc3.c src/dev/sgi/ioc3.h \
	src/dev/sgi/onewire.c src/dev/sgi/onewire.h
EXTRA_DIST += docs/hardware.md
