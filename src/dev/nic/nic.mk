# src/dev: the gigabit NIC models and their shared parts (nic_*.c).
NIC_SOURCES = \
	src/dev/nic.c src/dev/nic.h \
	src/dev/nic_frame.c \
	src/dev/nic_views.c \
	src/dev/nic_ring.c src/dev/nic_ring.h \
	src/dev/nic_coalesce.c src/dev/nic_coalesce.h \
	src/dev/nic_mac.c src/dev/nic_mac.h \
	src/dev/nic_phy.c src/dev/nic_phy.h \
	src/dev/nic_eeprom.c src/dev/nic_eeprom.h \
	src/dev/nic_i2c.c src/dev/nic_i2c.h \
	src/dev/hamachi.c src/dev/hamachi_dma.c src/dev/hamachi.h \
	src/dev/tigon.c src/dev/tigon_fw.c src/dev/tigon_dma.c src/dev/tigon.h
libxbow_a_SOURCES += $(NIC_SOURCES)
# The machine's --nic wiring (Bridge slots 3..7); not part of NIC_SOURCES, which
# the fuzz targets build without a machine.
libxbow_a_SOURCES += src/machine/ip27_nics.c
