# tests/unit/dev/sgi: the HUB, the Bridge (with the PCI test device behind
# it), the 1-wire bus and the IOC3.
BRIDGE_FIXTURE = tests/unit/dev/sgi/bridge_fixture.c tests/unit/dev/sgi/bridge_fixture.h
check_PROGRAMS += tests/unit/dev/sgi/test_hub
tests_unit_dev_sgi_test_hub_SOURCES = tests/unit/dev/sgi/test_hub.c
tests_unit_dev_sgi_test_hub_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_sgi_test_hub_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
check_PROGRAMS += tests/unit/dev/sgi/test_bridge
tests_unit_dev_sgi_test_bridge_SOURCES = tests/unit/dev/sgi/test_bridge.c $(BRIDGE_FIXTURE) \
	tests/unit/dev/sgi/test_bridge_dma.c tests/unit/dev/sgi/test_bridge_pio.c
tests_unit_dev_sgi_test_bridge_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_sgi_test_bridge_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
check_PROGRAMS += tests/unit/dev/sgi/test_onewire
tests_unit_dev_sgi_test_onewire_SOURCES = tests/unit/dev/sgi/test_onewire.c $(BRIDGE_FIXTURE)
tests_unit_dev_sgi_test_onewire_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_sgi_test_onewire_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
check_PROGRAMS += tests/unit/dev/sgi/test_ioc3
tests_unit_dev_sgi_test_ioc3_SOURCES = tests/unit/dev/sgi/test_ioc3.c
tests_unit_dev_sgi_test_ioc3_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_dev_sgi_test_ioc3_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/dev/sgi/test_hub tests/unit/dev/sgi/test_bridge tests/unit/dev/sgi/test_onewire \
	tests/unit/dev/sgi/test_ioc3
