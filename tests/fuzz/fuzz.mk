# tests/fuzz: fuzz targets.  `make check` replays the corpus plus a bounded
# number of generated inputs (FUZZ_RUNS, default 3000); `make fuzz` builds
# the target with libFuzzer (clang) and runs it for FUZZ_SECONDS (default 60).

# The reader, event sink and invariant abort all the targets share.
FUZZ_UTIL = tests/fuzz/fuzz_util.c tests/fuzz/fuzz_util.h
check_PROGRAMS += tests/fuzz/fuzz_hamachi
tests_fuzz_fuzz_hamachi_SOURCES = tests/fuzz/fuzz_hamachi.c tests/fuzz/fuzz_main.c $(FUZZ_UTIL) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_hamachi_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_hamachi
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/gen_corpus.py

FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_HAMACHI = tests/fuzz/fuzz_hamachi.c tests/fuzz/fuzz_util.c tests/unit/dev/nic/nic_fake.c src/dev/pci/pci.c \
	$(filter %.c,$(NIC_SOURCES)) \
	$(filter src/core/%.c src/net/%.c,$(libxbow_a_SOURCES))
tests/fuzz/fuzz_hamachi_lf: $(FUZZ_HAMACHI:%=$(srcdir)/%)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $^ $(VDE_LIBS) -lutil -lm
fuzz: tests/fuzz/fuzz_hamachi_lf
	mkdir -p tests/fuzz/work
	./tests/fuzz/fuzz_hamachi_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=tests/fuzz/ tests/fuzz/work $(srcdir)/tests/fuzz/corpus
.PHONY: fuzz
CLEANFILES += tests/fuzz/fuzz_hamachi_lf
