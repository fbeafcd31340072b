# tests/guest: guest programs that check the CPU from the inside, built with
# the examples' runtime (examples/lib) and run on the IP27 in batch mode:
#   cpu_selftest  exceptions through their own handlers, TLB refills, user
#                 mode, integer and FP (tests/batch/cpu_selftest.sh)
#   idle_wait     idle skip from the inside: delays, an awaited interrupt, a
#                 poll another CPU ends, a poll only the debugger ends
#                 (tests/batch/idle_skip.sh)
#   idle_ipi      IPIs to a CPU parked at an idle point: seen at the tick
#                 they were sent; the busy CPU's solo turns
#                 (tests/batch/idle_ipi.sh)
# NAME.elf is built from NAME.c (and the sources a GUEST_SRCS of its own
# adds); a test that runs one depends on it, for a run of that test alone.
TEST_GUESTS = cpu_selftest idle_wait idle_ipi
check_DATA = $(TEST_GUESTS:%=tests/guest/%.elf)
EXTRA_DIST += $(TEST_GUESTS:%=tests/guest/%.c) tests/guest/vectors.S
CLEANFILES += $(TEST_GUESTS:%=tests/guest/%.elf)
BATCH_TESTS += tests/batch/cpu_selftest.sh tests/batch/idle_skip.sh tests/batch/idle_ipi.sh

tests/guest/%.elf: GUEST_SRCS = $(srcdir)/tests/guest/$*.c
tests/guest/%.elf: $(srcdir)/tests/guest/%.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)

tests/guest/cpu_selftest.elf: GUEST_SRCS = $(srcdir)/tests/guest/cpu_selftest.c $(srcdir)/tests/guest/vectors.S
tests/guest/cpu_selftest.elf: $(srcdir)/tests/guest/vectors.S
tests/batch/idle_skip.log: tests/guest/idle_wait.elf xbow$(EXEEXT)
tests/batch/idle_ipi.log: tests/guest/idle_ipi.elf xbow$(EXEEXT)
BATCH_TESTS += tests/batch/turns.sh
tests/batch/turns.log: tests/guest/idle_ipi.elf xbow$(EXEEXT)
