# tests/unit/core: the core (src/core).
check_PROGRAMS += tests/unit/core/test_core
tests_unit_core_test_core_SOURCES = tests/unit/core/test_core.c
tests_unit_core_test_core_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_core_test_core_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/core/test_core
# The console's host side: input modes and polling rate (tests/unit/core/test_hostio.c).
check_PROGRAMS += tests/unit/core/test_hostio
tests_unit_core_test_hostio_SOURCES = tests/unit/core/test_hostio.c
tests_unit_core_test_hostio_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_core_test_hostio_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/core/test_hostio
# The state section of device declarations (src/core/devstate.c).
check_PROGRAMS += tests/unit/core/test_devstate
tests_unit_core_test_devstate_SOURCES = tests/unit/core/test_devstate.c
tests_unit_core_test_devstate_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_core_test_devstate_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/core/test_devstate
# The record/replay log (src/core/rr.c).
check_PROGRAMS += tests/unit/core/test_rr
tests_unit_core_test_rr_SOURCES = tests/unit/core/test_rr.c
tests_unit_core_test_rr_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_core_test_rr_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/core/test_rr
