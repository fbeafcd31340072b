# tests/unit/core: the core (src/core).
#  test_core: the bus, device declarations, events, the clock, ELF, symbols;
#  test_hostio: the console's host side: input modes and polling rate;
#  test_devstate: the state section of device declarations (src/core/devstate.c);
#  test_rr: the record/replay log (src/core/rr.c).
CORE_UNIT_TESTS = tests/unit/core/test_core tests/unit/core/test_hostio \
	tests/unit/core/test_devstate tests/unit/core/test_rr
check_PROGRAMS += $(CORE_UNIT_TESTS)
TESTS += $(CORE_UNIT_TESTS)
