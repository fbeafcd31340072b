# tests/fuzz: the e1000 fuzz target.  `make check` replays its corpus
# (tests/fuzz/corpus-e1000) plus FUZZ_RUNS generated inputs; `make fuzz-e1000`
# builds it with libFuzzer (clang) and runs it for FUZZ_SECONDS.
check_PROGRAMS += tests/fuzz/fuzz_e1000
tests_fuzz_fuzz_e1000_SOURCES = tests/fuzz/fuzz_e1000.c tests/fuzz/fuzz_main.c $(FUZZ_UTIL) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_e1000_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-e1000"'
tests_fuzz_fuzz_e1000_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_e1000
EXTRA_DIST += tests/fuzz/corpus-e1000 tests/fuzz/gen_corpus_e1000.py

FUZZ_E1000 = tests/fuzz/fuzz_e1000.c tests/fuzz/fuzz_util.c tests/unit/dev/nic/nic_fake.c src/dev/pci/pci.c \
	$(filter %.c,$(NIC_SOURCES)) \
	$(filter src/core/%.c src/net/%.c,$(libxbow_a_SOURCES))
tests/fuzz/fuzz_e1000_lf: $(FUZZ_E1000:%=$(srcdir)/%)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $^ $(VDE_LIBS) -lutil -lm
fuzz-e1000: tests/fuzz/fuzz_e1000_lf
	mkdir -p tests/fuzz/work-e1000
	./tests/fuzz/fuzz_e1000_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=tests/fuzz/e1000- tests/fuzz/work-e1000 $(srcdir)/tests/fuzz/corpus-e1000
.PHONY: fuzz-e1000
CLEANFILES += tests/fuzz/fuzz_e1000_lf
