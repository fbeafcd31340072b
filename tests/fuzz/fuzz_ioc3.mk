# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz: the IOC3 Ethernet fuzz target.  `make check` replays its corpus
# (tests/fuzz/corpus-ioc3) plus FUZZ_RUNS generated inputs; `make fuzz-ioc3`
# builds it with libFuzzer (clang) and runs it for FUZZ_SECONDS.
check_PROGRAMS += tests/fuzz/fuzz_ioc3
tests_fuzz_fuzz_ioc3_SOURCES = tests/fuzz/fuzz_ioc3.c tests/fuzz/fuzz_main.c $(FUZZ_UTIL) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_ioc3_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-ioc3"'
tests_fuzz_fuzz_ioc3_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_ioc3
EXTRA_DIST += tests/fuzz/corpus-ioc3 tests/fuzz/gen_corpus_ioc3.py

FUZZ_IOC3 = tests/fuzz/fuzz_ioc3.c tests/fuzz/fuzz_util.c tests/unit/dev/nic/nic_fake.c src/dev/pci/pci.c \
	$(filter %.c,$(NIC_SOURCES)) \
	$(filter src/core/%.c src/net/%.c,$(libxbow_a_SOURCES))
tests/fuzz/fuzz_ioc3_lf: $(FUZZ_IOC3:%=$(srcdir)/%)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $^ $(VDE_LIBS) -lutil -lm
fuzz-ioc3: tests/fuzz/fuzz_ioc3_lf
	mkdir -p tests/fuzz/work-ioc3
	./tests/fuzz/fuzz_ioc3_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=tests/fuzz/ioc3- tests/fuzz/work-ioc3 $(srcdir)/tests/fuzz/corpus-ioc3
.PHONY: fuzz-ioc3
CLEANFILES += tests/fuzz/fuzz_ioc3_lf
