# tests/fuzz: the DWARF reader's fuzz target (the test guest's debug
# sections, damaged).  `make check` replays tests/fuzz/corpus-dwarf plus
# FUZZ_RUNS generated inputs; `make fuzz-dwarf` builds it with libFuzzer
# (clang) and runs it for FUZZ_SECONDS.  Needs examples/dbgtest/dbgtest.elf.
check_PROGRAMS += tests/fuzz/fuzz_dwarf
tests_fuzz_fuzz_dwarf_SOURCES = tests/fuzz/fuzz_dwarf.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_dwarf_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"tests/fuzz/corpus-dwarf"'
tests_fuzz_fuzz_dwarf_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS)
tests_fuzz_fuzz_dwarf_LDADD = $(XBOW_LIBS)
TESTS += tests/fuzz/fuzz_dwarf
EXTRA_DIST += tests/fuzz/corpus-dwarf tests/fuzz/fuzz_dwarf.mk

FUZZ_DWARF = tests/fuzz/fuzz_dwarf.c src/dbg/dwarf.c src/dbg/dwarf_cfi.c src/dbg/dwarf_loc.c \
	src/dbg/dwarf_type.c src/dbg/ctype.c src/core/strbuf.c src/core/alloc.c
tests/fuzz/fuzz_dwarf_lf: $(FUZZ_DWARF:%=$(srcdir)/%)
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE -o $@ $^ $(DW_LIBS)
fuzz-dwarf: tests/fuzz/fuzz_dwarf_lf examples/dbgtest/dbgtest.elf
	mkdir -p tests/fuzz/work-dwarf
	top_builddir=. ./tests/fuzz/fuzz_dwarf_lf -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
	  -timeout=10 -artifact_prefix=tests/fuzz/dwarf- tests/fuzz/work-dwarf \
	  $(srcdir)/tests/fuzz/corpus-dwarf
.PHONY: fuzz-dwarf
CLEANFILES += tests/fuzz/fuzz_dwarf_lf
