# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/nic: the shared gigabit NIC engine (nic*.c).  Each model's folder
# (hamachi/, e1000/, tigon/) adds its own files to NIC_SOURCES from its own
# fragment, included after this one.  The fuzz targets build NIC_SOURCES
# without a machine.
NIC_SOURCES = \
	src/dev/nic/nic.c src/dev/nic/nic.h src/dev/nic/nic_events.h \
	src/dev/nic/nic_frame.c src/dev/nic/nic_state.c \
	src/dev/nic/nic_views.c \
	src/dev/nic/nic_ring.c src/dev/nic/nic_ring.h \
	src/dev/nic/nic_coalesce.c src/dev/nic/nic_coalesce.h \
	src/dev/nic/nic_mac.c src/dev/nic/nic_mac.h \
	src/dev/nic/nic_phy.c src/dev/nic/nic_phy.h \
	src/dev/nic/nic_eeprom.c src/dev/nic/nic_eeprom.h \
	src/dev/nic/nic_i2c.c src/dev/nic/nic_i2c.h
libxbow_a_SOURCES += $(NIC_SOURCES)
