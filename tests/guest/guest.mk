# tests/guest: guest programs that check the CPU from the inside (exceptions
# through their own handlers, TLB refills, user mode, integer and FP), built
# with the examples' runtime (examples/lib) and run on the IP27 in batch mode
# by tests/batch/cpu_selftest.sh.
check_DATA = tests/guest/cpu_selftest.elf
BATCH_TESTS += tests/batch/cpu_selftest.sh
EXTRA_DIST += tests/guest/cpu_selftest.c tests/guest/vectors.S
CLEANFILES += tests/guest/cpu_selftest.elf
tests/guest/cpu_selftest.elf: GUEST_SRCS = $(srcdir)/tests/guest/cpu_selftest.c $(srcdir)/tests/guest/vectors.S
tests/guest/cpu_selftest.elf: $(srcdir)/tests/guest/cpu_selftest.c $(srcdir)/tests/guest/vectors.S $(GUEST_LIB_DEPS)
	$(GUEST_LINK)

# Idle skip from the inside: delays, an awaited interrupt, a poll another CPU
# ends, a poll only the debugger ends (tests/batch/idle_skip.sh).
check_DATA += tests/guest/idle_wait.elf
EXTRA_DIST += tests/guest/idle_wait.c
CLEANFILES += tests/guest/idle_wait.elf
tests/guest/idle_wait.elf: GUEST_SRCS = $(srcdir)/tests/guest/idle_wait.c
tests/guest/idle_wait.elf: $(srcdir)/tests/guest/idle_wait.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
BATCH_TESTS += tests/batch/idle_skip.sh
tests/batch/idle_skip.log: tests/guest/idle_wait.elf xbow$(EXEEXT)

# IPIs to a CPU parked at an idle point: seen at the tick they were sent;
# the busy CPU's solo turns (tests/batch/idle_ipi.sh).
check_DATA += tests/guest/idle_ipi.elf
EXTRA_DIST += tests/guest/idle_ipi.c
CLEANFILES += tests/guest/idle_ipi.elf
tests/guest/idle_ipi.elf: GUEST_SRCS = $(srcdir)/tests/guest/idle_ipi.c
tests/guest/idle_ipi.elf: $(srcdir)/tests/guest/idle_ipi.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
BATCH_TESTS += tests/batch/idle_ipi.sh
tests/batch/idle_ipi.log: tests/guest/idle_ipi.elf xbow$(EXEEXT)
BATCH_TESTS += tests/batch/turns.sh
tests/batch/turns.log: tests/guest/idle_ipi.elf xbow$(EXEEXT)
