# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/nic/e1000: the Intel 82543GC / 82544EI, one of the NIC models.
NIC_SOURCES += \
	src/dev/nic/e1000/e1000.c src/dev/nic/e1000/e1000.h \
	src/dev/nic/e1000/e1000_phy.c \
	src/dev/nic/e1000/e1000_tx.c \
	src/dev/nic/e1000/e1000_rx.c
