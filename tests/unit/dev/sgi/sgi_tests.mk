# Unit tests for the Bridge, the PCI core, the 1-wire bus and the test device.
check_PROGRAMS += tests/unit/test_pci tests/unit/test_bridge tests/unit/test_onewire
tests_unit_test_pci_SOURCES = tests/unit/test_pci.c
tests_unit_test_pci_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_pci_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_test_bridge_SOURCES = tests/unit/test_bridge.c tests/unit/bridge_fixture.c \
	tests/unit/bridge_fixture.h tests/unit/test_bridge_dma.c tests/unit/test_bridge_pio.c
tests_unit_test_bridge_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_bridge_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_test_onewire_SOURCES = tests/unit/test_onewire.c tests/unit/bridge_fixture.c \
	tests/unit/bridge_fixture.h
tests_unit_test_onewire_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_onewire_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_pci tests/unit/test_bridge tests/unit/test_onewire
