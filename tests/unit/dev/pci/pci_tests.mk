# tests/unit/dev/pci: the PCI function core (the test device is driven
# through the Bridge, tests/unit/dev/sgi/test_bridge_dma.c).
check_PROGRAMS += tests/unit/dev/pci/test_pci
TESTS += tests/unit/dev/pci/test_pci
