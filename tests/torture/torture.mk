# tests/torture: GCC's C torture tests (gcc.c-torture/execute, from Debian's
# gcc-12-source) run as freestanding guests on xbow's R10000.
# `make torture` runs all of them (long); `make check` runs the fixed subset
# in tests/torture/subset.txt.  See docs/cpu-testing.md.
check_PROGRAMS += tests/torture/torture_run
tests_torture_torture_run_SOURCES = tests/torture/torture_run.c
tests_torture_torture_run_LDADD = $(XBOW_LIBS)
TESTS += tests/torture/torture-check.sh
EXTRA_DIST += tests/torture/torture.sh tests/torture/torture-check.sh tests/torture/libc.c \
	tests/torture/crt0.S tests/torture/torture.ld tests/torture/subset.txt tests/torture/known.txt

torture: tests/torture/torture_run$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' GUEST_CC='$(GUEST_CC)' \
	  $(SHELL) $(srcdir)/tests/torture/torture.sh --known $(srcdir)/tests/torture/known.txt
.PHONY: torture
clean-local: clean-torture
clean-torture:
	rm -rf tests/torture/out tests/torture/out-check tests/torture/src
.PHONY: clean-torture
