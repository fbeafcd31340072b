# SPDX-License-Identifier: GPL-2.0-or-later
# src/dev/scsi: the QLogic ISP1040B SCSI host adapter and SCSI disks backed
# by image files.
libxbow_a_SOURCES += \
	src/dev/scsi/isp.c src/dev/scsi/isp.h src/dev/scsi/isp_priv.h \
	src/dev/scsi/isp_view.c \
	src/dev/scsi/scsi_disk.c src/dev/scsi/scsi_disk.h
