# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz: the ISP1040B fuzz target.  `make check` replays its corpus
# (tests/fuzz/corpus-isp) plus FUZZ_RUNS generated inputs; `make fuzz-isp`
# builds it with libFuzzer (clang) and runs it for FUZZ_SECONDS.
check_PROGRAMS += tests/fuzz/fuzz_isp
tests_fuzz_fuzz_isp_SOURCES = tests/fuzz/fuzz_isp.c tests/fuzz/fuzz_main.c $(FUZZ_UTIL) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_isp_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-isp"'
tests_fuzz_fuzz_isp_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_isp
EXTRA_DIST += tests/fuzz/corpus-isp tests/fuzz/gen_corpus_isp.py

FUZZ_ISP = tests/fuzz/fuzz_isp.c tests/fuzz/fuzz_util.c tests/unit/dev/nic/nic_fake.c src/dev/pci/pci.c \
	src/dev/scsi/isp.c src/dev/scsi/isp_view.c src/dev/scsi/scsi_disk.c \
	$(filter %.c,$(NIC_SOURCES)) \
	$(filter src/core/%.c src/net/%.c,$(libxbow_a_SOURCES))
tests/fuzz/fuzz_isp_lf: $(FUZZ_ISP:%=$(srcdir)/%)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $^ $(VDE_LIBS) -lutil -lm
fuzz-isp: tests/fuzz/fuzz_isp_lf
	mkdir -p tests/fuzz/work-isp
	./tests/fuzz/fuzz_isp_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=tests/fuzz/isp- tests/fuzz/work-isp $(srcdir)/tests/fuzz/corpus-isp
.PHONY: fuzz-isp
CLEANFILES += tests/fuzz/fuzz_isp_lf
