# tests/engines: the interpreter and the translator on the same guests, in
# the same steps, compared after every step (engine_compare.c): instruction
# counts, registers, TLB, console output and memory hashes.
# tests/batch/engines.sh runs every example guest, the CPU self-tests and the
# benchmark guest through it (and Linux on 1 CPU when the kernel is built);
# `make engines-long` runs Linux on 1, 2 and 4 CPUs.
check_PROGRAMS += tests/engines/engine_compare
tests_engines_engine_compare_SOURCES = tests/engines/engine_compare.c $(UI_OPTION_FILES)
tests_engines_engine_compare_LDADD = $(XBOW_LIBS)
BATCH_TESTS += tests/batch/engines.sh
tests/batch/engines.log: tests/engines/engine_compare$(EXEEXT) $(GUEST_EXAMPLES) \
	tests/guest/cpu_selftest.elf tests/bench/mix-r2-xbow.elf

engines-long: tests/engines/engine_compare$(EXEEXT)
	ENGINES_LINUX_CPUS="1 2 4" top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	  $(SHELL) $(srcdir)/tests/batch/engines.sh --linux-only
.PHONY: engines-long
