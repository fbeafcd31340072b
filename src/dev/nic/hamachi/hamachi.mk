# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/nic/hamachi: the Packet Engines Hamachi GNIC-II, one of the NIC models.
NIC_SOURCES += \
	src/dev/nic/hamachi/hamachi.c src/dev/nic/hamachi/hamachi.h \
	src/dev/nic/hamachi/hamachi_dma.c
