# tests/fuzz: the record/replay log reader's fuzz target.  `make check`
# replays its corpus (tests/fuzz/corpus-rr: logs of an example's console and
# of Linux on a socket peer, one cut short) plus FUZZ_RUNS generated inputs;
# `make fuzz-rr` builds it with libFuzzer (clang; the reader instrumented,
# the rest of xbow from libxbow.a) and runs it for FUZZ_SECONDS.
check_PROGRAMS += tests/fuzz/fuzz_rr
tests_fuzz_fuzz_rr_SOURCES = tests/fuzz/fuzz_rr.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_rr_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-rr"'
tests_fuzz_fuzz_rr_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_rr
EXTRA_DIST += tests/fuzz/corpus-rr

FUZZ_RR = tests/fuzz/fuzz_rr.c src/core/rr.c src/machine/record.c
tests/fuzz/fuzz_rr_lf: $(FUZZ_RR:%=$(srcdir)/%) libxbow.a libxbowfpu.a
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $(FUZZ_RR:%=$(srcdir)/%) \
	  $(XBOW_LIBS) -lutil
fuzz-rr: tests/fuzz/fuzz_rr_lf
	mkdir -p tests/fuzz/work-rr
	./tests/fuzz/fuzz_rr_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=20 \
	  -artifact_prefix=tests/fuzz/rr- tests/fuzz/work-rr $(srcdir)/tests/fuzz/corpus-rr
.PHONY: fuzz-rr
CLEANFILES += tests/fuzz/fuzz_rr_lf
