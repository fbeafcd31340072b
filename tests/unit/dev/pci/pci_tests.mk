# tests/unit/dev/pci: the PCI function core (the test device is driven
# through the Bridge, tests/unit/dev/sgi/test_bridge_dma.c).
check_PROGRAMS += tests/unit/dev/pci/test_pci
tests_unit_dev_pci_test_pci_SOURCES = tests/unit/dev/pci/test_pci.c
tests_unit_dev_pci_test_pci_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_pci_test_pci_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/pci/test_pci
