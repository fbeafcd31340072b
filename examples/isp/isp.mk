# SPDX-License-Identifier: GPL-2.0-or-later
# The QLogic ISP1040B example driver (xbow --disk FILE) and its batch test,
# which also drives the debugger on it (info scsi, ring, break event
# isp0.iocb.*, watch dma isp0 on the read buffer).
GUEST_EXAMPLES += examples/isp/isp_disk.elf
nobase_dist_example_DATA += examples/isp/isp_disk.c
EXTRA_DIST += examples/isp/isp.mk
BATCH_TESTS += tests/batch/isp_example.sh
