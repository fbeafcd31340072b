# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/pci: the PCI function core every PCI device is built on, and the
# PCI DMA test device.
libxbow_a_SOURCES += \
	src/dev/pci/pci.c src/dev/pci/pci.h \
	src/dev/pci/testdev.c src/dev/pci/testdev.h
