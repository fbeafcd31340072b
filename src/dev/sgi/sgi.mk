# src/dev: the Bridge (XIO to PCI), the PCI function core, the 1-wire bus
# with the DS2505 NIC, and the PCI DMA test device.
libxbow_a_SOURCES += \
	src/dev/pci.c src/dev/pci.h \
	src/dev/bridge.c src/dev/bridge.h src/dev/bridge_priv.h \
	src/dev/bridge_pio.c src/dev/bridge_dma.c src/dev/bridge_view.c \
	src/dev/onewire.c src/dev/onewire.h \
	src/dev/testdev.c src/dev/testdev.h
EXTRA_DIST += docs/hardware.md
