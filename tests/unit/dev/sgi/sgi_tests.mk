# tests/unit/dev/sgi: the HUB, the Bridge (with the PCI test device behind
# it), the 1-wire bus and the IOC3.
BRIDGE_FIXTURE = tests/unit/dev/sgi/bridge_fixture.c tests/unit/dev/sgi/bridge_fixture.h
SGI_UNIT_TESTS = tests/unit/dev/sgi/test_hub tests/unit/dev/sgi/test_bridge \
	tests/unit/dev/sgi/test_onewire tests/unit/dev/sgi/test_ioc3
check_PROGRAMS += $(SGI_UNIT_TESTS)
TESTS += $(SGI_UNIT_TESTS)
tests_unit_dev_sgi_test_bridge_SOURCES = tests/unit/dev/sgi/test_bridge.c $(BRIDGE_FIXTURE) \
	tests/unit/dev/sgi/test_bridge_dma.c tests/unit/dev/sgi/test_bridge_pio.c
tests_unit_dev_sgi_test_onewire_SOURCES = tests/unit/dev/sgi/test_onewire.c $(BRIDGE_FIXTURE)
