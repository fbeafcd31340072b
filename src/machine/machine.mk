# SPDX-License-Identifier: GPL-2.0-or-later
# src/machine: the machine, its run loop and the IP27 board: its wiring of
# the devices (ip27.c), the NICs in Bridge slots 3..7 (--nic, ip27_nics.c),
# the PROM's high-level emulation and the synthetic PROM's data structures.
libxbow_a_SOURCES += \
	src/machine/machine.c src/machine/machine.h src/machine/threads.c \
	src/machine/ip27.c src/machine/ip27.h \
	src/machine/ip27_hle.c src/machine/ip27_priv.h \
	src/machine/ip27_nics.c src/machine/ip27_scsi.c \
	src/machine/prom.c src/machine/prom.h \
	src/machine/mconfig.c src/machine/mconfig.h \
	src/machine/snapshot.c src/machine/snapshot.h src/machine/snapshot_int.h \
	src/machine/snapfile.c \
	src/machine/record.c src/machine/record.h
