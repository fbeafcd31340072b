# tests/fuzz: the gdb stub's fuzz target.  `make check` replays its corpus
# (tests/fuzz/corpus-gdb: one packet per line, "!" lines raw) plus FUZZ_RUNS
# generated inputs; `make fuzz-gdb` builds it with libFuzzer (clang; the stub
# instrumented, the rest of xbow from libxbow.a) and runs it for FUZZ_SECONDS.
check_PROGRAMS += tests/fuzz/fuzz_gdb
tests_fuzz_fuzz_gdb_SOURCES = tests/fuzz/fuzz_gdb.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_gdb_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-gdb"'
tests_fuzz_fuzz_gdb_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_gdb
EXTRA_DIST += tests/fuzz/corpus-gdb

FUZZ_GDB = tests/fuzz/fuzz_gdb.c src/dbg/rsp.c src/dbg/gdbstub.c src/dbg/gdbstub_run.c \
	src/dbg/gdbstub_regs.c src/dbg/gdbstub_net.c src/dbg/gdbstub_cmds.c
tests/fuzz/fuzz_gdb_lf: $(FUZZ_GDB:%=$(srcdir)/%) libxbow.a libxbowfpu.a
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $(FUZZ_GDB:%=$(srcdir)/%) \
	  $(XBOW_LIBS) -lutil
fuzz-gdb: tests/fuzz/fuzz_gdb_lf
	mkdir -p tests/fuzz/work-gdb
	./tests/fuzz/fuzz_gdb_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=20 \
	  -artifact_prefix=tests/fuzz/gdb- tests/fuzz/work-gdb $(srcdir)/tests/fuzz/corpus-gdb
.PHONY: fuzz-gdb
CLEANFILES += tests/fuzz/fuzz_gdb_lf
