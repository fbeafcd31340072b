# tests/guest: guest programs that check the CPU from the inside (exceptions
# through their own handlers, TLB refills, user mode, integer and FP), built
# with the examples' runtime (examples/lib) and run on the IP27 in batch mode
# by tests/batch/cpu_selftest.sh.
check_DATA = tests/guest/cpu_selftest.elf
TESTS += tests/batch/cpu_selftest.sh
EXTRA_DIST += tests/batch/cpu_selftest.sh tests/guest/cpu_selftest.c tests/guest/vectors.S
CLEANFILES += tests/guest/cpu_selftest.elf
tests/guest/cpu_selftest.elf: GUEST_SRCS = $(srcdir)/tests/guest/cpu_selftest.c $(srcdir)/tests/guest/vectors.S
tests/guest/cpu_selftest.elf: $(srcdir)/tests/guest/cpu_selftest.c $(srcdir)/tests/guest/vectors.S $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
