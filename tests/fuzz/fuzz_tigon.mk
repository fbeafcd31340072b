# tests/fuzz: the Tigon2 fuzz target.  `make check` replays its corpus
# (tests/fuzz/corpus_tigon) plus FUZZ_RUNS generated inputs; `make
# fuzz-tigon` builds it with libFuzzer and runs it for FUZZ_SECONDS.
check_PROGRAMS += tests/fuzz/fuzz_tigon
tests_fuzz_fuzz_tigon_SOURCES = tests/fuzz/fuzz_tigon.c tests/fuzz/fuzz_main.c $(FUZZ_UTIL) $(TIGON_TEST_SUPPORT)
tests_fuzz_fuzz_tigon_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus_tigon"'
tests_fuzz_fuzz_tigon_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_tigon
EXTRA_DIST += tests/fuzz/corpus_tigon tests/fuzz/gen_corpus_tigon.py

FUZZ_TIGON = tests/fuzz/fuzz_tigon.c tests/fuzz/fuzz_util.c tests/unit/dev/nic/tigon/tigon_host.c tests/unit/dev/nic/nic_fake.c src/dev/pci/pci.c \
	$(filter %.c,$(NIC_SOURCES)) \
	$(filter src/core/%.c src/net/%.c,$(libxbow_a_SOURCES))
tests/fuzz/fuzz_tigon_lf: $(FUZZ_TIGON:%=$(srcdir)/%)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $^ $(VDE_LIBS) -lutil -lm
fuzz-tigon: tests/fuzz/fuzz_tigon_lf
	mkdir -p tests/fuzz/work-tigon
	./tests/fuzz/fuzz_tigon_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=20 \
	  -artifact_prefix=tests/fuzz/ tests/fuzz/work-tigon $(srcdir)/tests/fuzz/corpus_tigon
.PHONY: fuzz-tigon
CLEANFILES += tests/fuzz/fuzz_tigon_lf
