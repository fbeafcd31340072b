# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/nic/tigon: the Alteon Tigon2 (its firmware as host code), one of the
# NIC models.
NIC_SOURCES += \
	src/dev/nic/tigon/tigon.c src/dev/nic/tigon/tigon.h \
	src/dev/nic/tigon/tigon_fw.c \
	src/dev/nic/tigon/tigon_dma.c
