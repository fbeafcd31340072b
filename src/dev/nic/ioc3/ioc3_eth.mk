# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/nic/ioc3: the SGI IOC3's 10/100 Ethernet function, a NIC model the
# board attaches to the IOC3 (src/dev/sgi/ioc3.c) rather than to a PCI slot.
NIC_SOURCES += \
	src/dev/nic/ioc3/ioc3_eth.c src/dev/nic/ioc3/ioc3_eth.h \
	src/dev/nic/ioc3/ioc3_eth_dma.c
