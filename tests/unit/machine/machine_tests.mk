# tests/unit/machine: the IP27 board as a whole machine (its memory and
# devices read back without running guest code) and the synthetic PROM's
# data structures.
check_PROGRAMS += tests/unit/machine/test_ip27
tests_unit_machine_test_ip27_SOURCES = tests/unit/machine/test_ip27.c
tests_unit_machine_test_ip27_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_machine_test_ip27_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
check_PROGRAMS += tests/unit/machine/test_prom
tests_unit_machine_test_prom_SOURCES = tests/unit/machine/test_prom.c
tests_unit_machine_test_prom_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CAPSTONE_CFLAGS)
tests_unit_machine_test_prom_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/machine/test_ip27 tests/unit/machine/test_prom
# Every device's declared state is its whole state: example guests, a fresh
# machine loaded from the saved devices (tests/unit/machine/test_state.c).
check_PROGRAMS += tests/unit/machine/test_state
tests_unit_machine_test_state_SOURCES = tests/unit/machine/test_state.c
tests_unit_machine_test_state_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_unit_machine_test_state_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/machine/test_state
# The machine configuration text snapshots and recordings carry.
check_PROGRAMS += tests/unit/machine/test_mconfig
tests_unit_machine_test_mconfig_SOURCES = tests/unit/machine/test_mconfig.c
tests_unit_machine_test_mconfig_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_machine_test_mconfig_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/machine/test_mconfig
# Whole-machine snapshots: the round trip with every example guest, bad files.
check_PROGRAMS += tests/unit/machine/test_snapshot
tests_unit_machine_test_snapshot_SOURCES = tests/unit/machine/test_snapshot.c
tests_unit_machine_test_snapshot_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_unit_machine_test_snapshot_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/machine/test_snapshot
