# tests/unit/machine: the IP27 board as a whole machine (its memory and
# devices read back without running guest code) and the synthetic PROM's
# data structures.
#  test_state: every device's declared state is its whole state: example
#    guests, a fresh machine loaded from the saved devices;
#  test_mconfig: the machine configuration text snapshots and recordings carry;
#  test_snapshot: whole-machine snapshots: the round trip with every example
#    guest, bad files.
MACHINE_UNIT_TESTS = tests/unit/machine/test_ip27 tests/unit/machine/test_prom \
	tests/unit/machine/test_state tests/unit/machine/test_mconfig tests/unit/machine/test_snapshot
check_PROGRAMS += $(MACHINE_UNIT_TESTS)
TESTS += $(MACHINE_UNIT_TESTS)
tests_unit_machine_test_prom_CFLAGS = $(AM_CFLAGS) $(CAPSTONE_CFLAGS)
tests_unit_machine_test_state_CFLAGS = $(AM_CFLAGS) -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_unit_machine_test_state_SOURCES = tests/unit/machine/test_state.c tests/unit/machine/example_machine.h \
	tests/unit/machine/example_config.h
tests_unit_machine_test_snapshot_SOURCES = tests/unit/machine/test_snapshot.c tests/unit/machine/example_machine.h
tests_unit_machine_test_snapshot_CFLAGS = $(AM_CFLAGS) -DTOP_BUILDDIR='"$(abs_top_builddir)"'
