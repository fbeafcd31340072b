# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz: the fuzz targets, one a device model or reader.  `make check`
# replays each target's seed corpus (FUZZ_CORPUS_name) plus a bounded number
# of generated inputs (FUZZ_RUNS, default 3000; 600 for the snapshot reader,
# whose every input loads a 32 MB machine and runs it); `make fuzz-NAME`
# builds the target with libFuzzer (clang) and runs it for FUZZ_SECONDS
# (default 60); `make fuzz` is `make fuzz-hamachi`.
#  hamachi, e1000, ioc3, tigon, isp: a device model driven by an opcode
#    program (tests/fuzz/gen_corpus*.py write the seeds), the model, the core
#    and the network instrumented;
#  dwarf: the DWARF reader on the test guest's debug sections, damaged (needs
#    examples/dbgtest/dbgtest.elf);
#  gdb: the gdb stub (corpus: one packet per line, "!" lines raw);
#  rr: the record/replay log reader (logs of an example's console and of
#    Linux on a socket peer, one cut short);
#  snapshot: the snapshot reader (a real snapshot of the Tigon2 echo guest,
#    damaged in the file or in its sections' data; the whole of xbow
#    instrumented; needs the example guest).
FUZZ_NAMES = hamachi e1000 ioc3 tigon isp dwarf gdb rr snapshot
FUZZ_TARGETS = tests/fuzz/fuzz_hamachi tests/fuzz/fuzz_e1000 tests/fuzz/fuzz_ioc3 \
	tests/fuzz/fuzz_tigon tests/fuzz/fuzz_isp tests/fuzz/fuzz_dwarf tests/fuzz/fuzz_gdb \
	tests/fuzz/fuzz_rr tests/fuzz/fuzz_snapshot
check_PROGRAMS += $(FUZZ_TARGETS)
TESTS += $(FUZZ_TARGETS)

# The reader, event sink and invariant abort the device targets share.
FUZZ_UTIL = tests/fuzz/fuzz_util.c tests/fuzz/fuzz_util.h
FUZZ_DEVICE = tests/fuzz/fuzz_main.c $(FUZZ_UTIL)
tests_fuzz_fuzz_hamachi_SOURCES = tests/fuzz/fuzz_hamachi.c $(FUZZ_DEVICE) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_e1000_SOURCES = tests/fuzz/fuzz_e1000.c $(FUZZ_DEVICE) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_ioc3_SOURCES = tests/fuzz/fuzz_ioc3.c $(FUZZ_DEVICE) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_tigon_SOURCES = tests/fuzz/fuzz_tigon.c $(FUZZ_DEVICE) $(TIGON_TEST_SUPPORT)
tests_fuzz_fuzz_isp_SOURCES = tests/fuzz/fuzz_isp.c $(FUZZ_DEVICE) $(NIC_TEST_SUPPORT)
tests_fuzz_fuzz_dwarf_SOURCES = tests/fuzz/fuzz_dwarf.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_gdb_SOURCES = tests/fuzz/fuzz_gdb.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_rr_SOURCES = tests/fuzz/fuzz_rr.c tests/fuzz/fuzz_main.c
tests_fuzz_fuzz_snapshot_SOURCES = tests/fuzz/fuzz_snapshot.c tests/fuzz/fuzz_main.c

# Each target's seed corpus, relative to $(top_srcdir).
FUZZ_CORPUS_hamachi = tests/fuzz/corpus
FUZZ_CORPUS_e1000 = tests/fuzz/corpus-e1000
FUZZ_CORPUS_ioc3 = tests/fuzz/corpus-ioc3
FUZZ_CORPUS_tigon = tests/fuzz/corpus_tigon
FUZZ_CORPUS_isp = tests/fuzz/corpus-isp
FUZZ_CORPUS_dwarf = tests/fuzz/corpus-dwarf
FUZZ_CORPUS_gdb = tests/fuzz/corpus-gdb
FUZZ_CORPUS_rr = tests/fuzz/corpus-rr
FUZZ_CORPUS_snapshot = tests/fuzz/corpus-snapshot
tests_fuzz_fuzz_hamachi_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_hamachi)"'
tests_fuzz_fuzz_e1000_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_e1000)"'
tests_fuzz_fuzz_ioc3_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_ioc3)"'
tests_fuzz_fuzz_tigon_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_tigon)"'
tests_fuzz_fuzz_isp_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_isp)"'
tests_fuzz_fuzz_dwarf_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_dwarf)"'
tests_fuzz_fuzz_gdb_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_gdb)"'
tests_fuzz_fuzz_rr_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_rr)"'
tests_fuzz_fuzz_snapshot_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_CORPUS='"$(FUZZ_CORPUS_snapshot)"' \
	-DFUZZ_DEFAULT_RUNS=600
tests_fuzz_fuzz_dwarf_CFLAGS = $(AM_CFLAGS) $(DW_CFLAGS)
# They link libxbow (LDADD, Makefile.am).


EXTRA_DIST += $(foreach n,$(FUZZ_NAMES),$(FUZZ_CORPUS_$(n))) tests/fuzz/gen_corpus.py \
	tests/fuzz/gen_corpus_e1000.py tests/fuzz/gen_corpus_ioc3.py tests/fuzz/gen_corpus_tigon.py \
	tests/fuzz/gen_corpus_isp.py

# The libFuzzer builds: what each compiles instrumented (FUZZ_LF_name), what
# it links besides (FUZZ_LIBS_name, FUZZ_LIBS_DEVICE by default) and what
# else it needs to be built first.  The device targets compile the model with the core and the
# network; gdb and rr only the code under test, the rest from libxbow.a.
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_LF_DEVICE = tests/fuzz/fuzz_util.c tests/unit/dev/nic/nic_fake.c src/dev/pci/pci.c \
	$(filter %.c,$(NIC_SOURCES)) \
	$(filter src/core/%.c src/net/%.c,$(libxbow_a_SOURCES))
FUZZ_LF_hamachi = tests/fuzz/fuzz_hamachi.c $(FUZZ_LF_DEVICE)
FUZZ_LF_e1000 = tests/fuzz/fuzz_e1000.c $(FUZZ_LF_DEVICE)
FUZZ_LF_ioc3 = tests/fuzz/fuzz_ioc3.c $(FUZZ_LF_DEVICE)
FUZZ_LF_tigon = tests/fuzz/fuzz_tigon.c tests/unit/dev/nic/tigon/tigon_host.c $(FUZZ_LF_DEVICE)
FUZZ_LF_isp = tests/fuzz/fuzz_isp.c src/dev/scsi/isp.c src/dev/scsi/isp_view.c \
	src/dev/scsi/scsi_disk.c $(FUZZ_LF_DEVICE)
FUZZ_LF_dwarf = tests/fuzz/fuzz_dwarf.c src/dbg/dwarf.c src/dbg/dwarf_cfi.c src/dbg/dwarf_loc.c \
	src/dbg/dwarf_type.c src/dbg/ctype.c src/core/strbuf.c src/core/alloc.c
FUZZ_LF_gdb = tests/fuzz/fuzz_gdb.c src/dbg/rsp.c src/dbg/gdbstub.c src/dbg/gdbstub_run.c \
	src/dbg/gdbstub_regs.c src/dbg/gdbstub_net.c src/dbg/gdbstub_cmds.c
FUZZ_LF_rr = tests/fuzz/fuzz_rr.c src/core/rr.c src/machine/record.c
FUZZ_LF_snapshot = tests/fuzz/fuzz_snapshot.c $(filter %.c,$(libxbow_a_SOURCES))
FUZZ_LIBS_DEVICE = $(VDE_LIBS) -lutil -lm
FUZZ_LIBS_dwarf = $(DW_LIBS)
FUZZ_LIBS_gdb = $(XBOW_LIBS) -lutil
FUZZ_LIBS_rr = $(XBOW_LIBS) -lutil
FUZZ_CFLAGS_snapshot = $(CAPSTONE_CFLAGS) $(DW_CFLAGS)
FUZZ_LIBS_snapshot = libxbowfpu.a $(CAPSTONE_LIBS) $(DW_LIBS) \
	$(VDE_LIBS) $(ZLIB_LIBS) -lutil -lm
tests/fuzz/fuzz_hamachi_lf: $(FUZZ_LF_hamachi:%=$(srcdir)/%)
tests/fuzz/fuzz_e1000_lf: $(FUZZ_LF_e1000:%=$(srcdir)/%)
tests/fuzz/fuzz_ioc3_lf: $(FUZZ_LF_ioc3:%=$(srcdir)/%)
tests/fuzz/fuzz_tigon_lf: $(FUZZ_LF_tigon:%=$(srcdir)/%)
tests/fuzz/fuzz_isp_lf: $(FUZZ_LF_isp:%=$(srcdir)/%)
tests/fuzz/fuzz_dwarf_lf: $(FUZZ_LF_dwarf:%=$(srcdir)/%)
tests/fuzz/fuzz_gdb_lf: $(FUZZ_LF_gdb:%=$(srcdir)/%) libxbow.a libxbowfpu.a
tests/fuzz/fuzz_rr_lf: $(FUZZ_LF_rr:%=$(srcdir)/%) libxbow.a libxbowfpu.a
tests/fuzz/fuzz_snapshot_lf: $(FUZZ_LF_snapshot:%=$(srcdir)/%) libxbowfpu.a
$(FUZZ_NAMES:%=tests/fuzz/fuzz_%_lf): tests/fuzz/fuzz_%_lf:
	$(FUZZ_CC) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
	  -I$(top_srcdir)/src -I$(top_builddir) -D_GNU_SOURCE $(FUZZ_CFLAGS_$*) \
	  -o $@ $(filter %.c,$^) $(or $(FUZZ_LIBS_$*),$(FUZZ_LIBS_DEVICE))
CLEANFILES += $(FUZZ_NAMES:%=tests/fuzz/fuzz_%_lf)

# The runs: libFuzzer's inputs of at most FUZZ_MAX_LEN_name bytes (4096),
# a timeout of FUZZ_TIMEOUT_name seconds (10) each; new inputs go to
# tests/fuzz/work-name, what breaks to tests/fuzz/name-*.
FUZZ_MAX_LEN_snapshot = 512
FUZZ_TIMEOUT_tigon = 20
FUZZ_TIMEOUT_gdb = 20
FUZZ_TIMEOUT_rr = 20
fuzz-dwarf: examples/dbgtest/dbgtest.elf
fuzz-snapshot: examples/tigon/tigon_echo.elf
$(FUZZ_NAMES:%=fuzz-%): fuzz-%: tests/fuzz/fuzz_%_lf
	mkdir -p tests/fuzz/work-$*
	top_builddir=. ./tests/fuzz/fuzz_$*_lf -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=$(or $(FUZZ_MAX_LEN_$*),4096) -timeout=$(or $(FUZZ_TIMEOUT_$*),10) \
	  -artifact_prefix=tests/fuzz/$*- tests/fuzz/work-$* $(srcdir)/$(FUZZ_CORPUS_$*)
fuzz: fuzz-hamachi
.PHONY: fuzz $(FUZZ_NAMES:%=fuzz-%)
