# tests/fuzz: the snapshot reader's fuzz target (a real snapshot of the
# Tigon2 echo guest, damaged in the file or in its sections' data).  `make
# check` replays tests/fuzz/corpus-snapshot plus FUZZ_RUNS generated inputs
# (default 600 here);
# `make fuzz-snapshot` builds it with libFuzzer (clang; the whole of xbow
# instrumented) and runs it for FUZZ_SECONDS.  Needs the example guest.
check_PROGRAMS += tests/fuzz/fuzz_snapshot
tests_fuzz_fuzz_snapshot_SOURCES = tests/fuzz/fuzz_snapshot.c tests/fuzz/fuzz_main.c
# Each input loads a 32 MB machine and runs it: fewer generated inputs.
tests_fuzz_fuzz_snapshot_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-snapshot"' \
	-DFUZZ_DEFAULT_RUNS=600
tests_fuzz_fuzz_snapshot_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_snapshot
EXTRA_DIST += tests/fuzz/corpus-snapshot tests/fuzz/fuzz_snapshot.mk

FUZZ_SNAPSHOT = tests/fuzz/fuzz_snapshot.c \
	$(filter %.c,$(libxbow_a_SOURCES))
tests/fuzz/fuzz_snapshot_lf: $(FUZZ_SNAPSHOT:%=$(srcdir)/%) libxbowfpu.a
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE $(CAPSTONE_CFLAGS) $(DW_CFLAGS) \
	  -o $@ $(FUZZ_SNAPSHOT:%=$(srcdir)/%) libxbowfpu.a $(CAPSTONE_LIBS) $(DW_LIBS) \
	  $(VDE_LIBS) $(ZLIB_LIBS) -lutil -lm
fuzz-snapshot: tests/fuzz/fuzz_snapshot_lf examples/tigon/tigon_echo.elf
	mkdir -p tests/fuzz/work-snapshot
	top_builddir=. ./tests/fuzz/fuzz_snapshot_lf -max_total_time=$(FUZZ_SECONDS) -max_len=512 \
	  -timeout=10 -artifact_prefix=tests/fuzz/snapshot- tests/fuzz/work-snapshot \
	  $(srcdir)/tests/fuzz/corpus-snapshot
.PHONY: fuzz-snapshot
CLEANFILES += tests/fuzz/fuzz_snapshot_lf
