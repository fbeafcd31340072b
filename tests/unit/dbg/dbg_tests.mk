# Debugger unit tests.  They run the real command language, machine loop and
# core against a small stand-in CPU (tests/unit/dbg/fake_cpu.c), so they need
# neither the R10000 nor a guest compiler.
DBG_TEST_SOURCES = $(DBG_SOURCES) tests/unit/dbg/fake_cpu.c

DBG_UNIT_TESTS = tests/unit/dbg/test_expr tests/unit/dbg/test_dbg
check_PROGRAMS += $(DBG_UNIT_TESTS)
TESTS += $(DBG_UNIT_TESTS)
tests_unit_dbg_test_expr_SOURCES = tests/unit/dbg/test_expr.c src/dbg/expr.c src/dbg/expr.h
tests_unit_dbg_test_dbg_SOURCES = tests/unit/dbg/test_dbg.c tests/unit/dbg/dbg_fixture.c tests/unit/dbg/dbg_fixture.h $(DBG_TEST_SOURCES)
tests_unit_dbg_test_dbg_CFLAGS = $(AM_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'

# docs/commands.md is generated from the command table; test_dbg checks it.
noinst_PROGRAMS += tests/unit/dbg/gen_commands_doc
tests_unit_dbg_gen_commands_doc_SOURCES = tests/unit/dbg/gen_commands_doc.c $(DBG_TEST_SOURCES)
tests_unit_dbg_gen_commands_doc_LDADD = $(XBOW_LIBS)
commands-doc: tests/unit/dbg/gen_commands_doc$(EXEEXT)
	tests/unit/dbg/gen_commands_doc$(EXEEXT) > $(srcdir)/docs/commands.md
.PHONY: commands-doc
EXTRA_DIST += docs/commands.md

# The debugger's speed target (make bench): the CPU benchmark's guest with
# nothing armed, then with 16 breakpoints and 4 DMA watchpoints armed
# outside its hot code.  DBG_BENCH_MINSNS: million instructions per run
# (1500: at 200 a translated run took 0.16 s and identical runs differed by 8%).
noinst_PROGRAMS += tests/bench/dbg_bench
tests_bench_dbg_bench_SOURCES = tests/bench/dbg_bench.c
tests_bench_dbg_bench_LDADD = $(XBOW_LIBS)
tests_bench_dbg_bench_DEPENDENCIES = libxbow.a
DBG_BENCH_MINSNS = 1500
bench-dbg: tests/bench/dbg_bench tests/bench/guest_loop.elf
	./tests/bench/dbg_bench tests/bench/guest_loop.elf $(DBG_BENCH_MINSNS)
bench: bench-dbg
.PHONY: bench-dbg

# Batch tests: the real binary on the test guest (examples/dbgtest, built by
# examples/dbgtest/dbgtest.mk); they skip while either is missing.
BATCH_TESTS += tests/batch/dbg_run.sh tests/batch/dbg_state.sh tests/batch/dbg_watch.sh \
	tests/batch/dbg_events.sh tests/batch/dbg_script.sh tests/batch/dbg_errors.sh \
	tests/batch/dbg_interrupt.sh tests/batch/dbg_dma.sh tests/batch/dbg_stories.sh \
	tests/batch/dbg_linux.sh tests/batch/dbg_linux_nic.sh tests/batch/dbg_nic.sh \
	tests/batch/dbg_counts.sh tests/batch/dbg_messages.sh tests/batch/dbg_settings.sh \
	tests/batch/dbg_frames.sh tests/batch/dbg_display.sh tests/batch/dbg_control.sh \
	tests/batch/dbg_hits.sh tests/batch/dbg_engines.sh \
	tests/batch/dbg_source.sh tests/batch/dbg_types.sh tests/batch/dbg_dwarf_bad.sh \
	tests/batch/dbg_linux_src.sh tests/batch/dbg_enums.sh
EXTRA_DIST += tests/batch/dbg_lib.sh
