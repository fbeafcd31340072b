# tests/: unit tests (Check) and batch tests driving the real binary.
check_PROGRAMS += tests/unit/test_core
tests_unit_test_core_SOURCES = tests/unit/test_core.c
tests_unit_test_core_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_test_core_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/test_core
TESTS += tests/batch/cli.sh
EXTRA_DIST += tests/batch/lib.sh tests/batch/cli.sh
TESTS += tests/batch/linux_boot.sh
EXTRA_DIST += tests/batch/linux_boot.sh
TESTS += tests/batch/linux_idle.sh
EXTRA_DIST += tests/batch/linux_idle.sh
# The TUI in a private tmux server (skips without tmux).
TESTS += tests/batch/tui.sh
EXTRA_DIST += tests/batch/tui.sh
