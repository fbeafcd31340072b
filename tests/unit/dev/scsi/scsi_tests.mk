# SPDX-License-Identifier: GPL-2.0-or-later
# tests/unit/dev/scsi: the ISP1040B and the SCSI disk, on the NICs' fake PCI host.
check_PROGRAMS += tests/unit/dev/scsi/test_isp
TESTS += tests/unit/dev/scsi/test_isp
tests_unit_dev_scsi_test_isp_SOURCES = tests/unit/dev/scsi/test_isp.c $(NIC_TEST_SUPPORT)
