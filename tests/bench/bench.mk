# The CPU interpreter benchmark: `make bench-cpu` (also part of `make bench`).
noinst_PROGRAMS += tests/bench/cpu_bench
tests_bench_cpu_bench_SOURCES = tests/bench/cpu_bench.c tests/bench/guest_work.h tests/unit/cpu/cpu_asm.h
tests_bench_cpu_bench_LDADD = $(XBOW_LIBS)
tests_bench_cpu_bench_DEPENDENCIES = libxbow.a libxbowfpu.a
EXTRA_DIST += tests/bench/guest_loop.c tests/bench/guest.ld tests/bench/guest_user.ld
CLEANFILES += tests/bench/guest_loop.elf tests/bench/guest_user.elf tests/bench/guest_user.bin

GUEST_BENCH_FLAGS = -march=mips4 -mabi=64 -O2 -ffreestanding -nostdlib -static \
	-mno-abicalls -fno-pic -G0 -Wl,--build-id=none
tests/bench/guest_loop.elf: $(srcdir)/tests/bench/guest_loop.c $(srcdir)/tests/bench/guest_work.h $(srcdir)/tests/bench/guest.ld
	@mkdir -p tests/bench
	$(GUEST_CC) $(GUEST_BENCH_FLAGS) -T $(srcdir)/tests/bench/guest.ld -o $@ $(srcdir)/tests/bench/guest_loop.c

tests/bench/guest_user.elf: $(srcdir)/tests/bench/guest_loop.c $(srcdir)/tests/bench/guest_work.h $(srcdir)/tests/bench/guest_user.ld
	@mkdir -p tests/bench
	$(GUEST_CC) $(GUEST_BENCH_FLAGS) -T $(srcdir)/tests/bench/guest_user.ld -o $@ $(srcdir)/tests/bench/guest_loop.c
tests/bench/guest_user.bin: tests/bench/guest_user.elf
	$(GUEST_PREFIX)objcopy -O binary tests/bench/guest_user.elf $@

# BENCH_MINSNS: million guest instructions per run (default 300)
BENCH_MINSNS = 300
bench-cpu: tests/bench/cpu_bench tests/bench/guest_loop.elf tests/bench/guest_user.bin
	./tests/bench/cpu_bench tests/bench/guest_loop.elf $(BENCH_MINSNS) 4 tests/bench/guest_user.bin
bench: bench-cpu
.PHONY: bench bench-cpu

# The emulator comparison guest (tests/bench/mix.c): one workload object,
# linked for xbow (the examples/lib runtime), QEMU's Malta and GXemul's
# testmips (shim_*.c); the host build gives the reference result.
# `make bench-mix` (part of `make bench`) times xbow on it; `make
# bench-compare` times all three; `make bench-callgrind` counts host
# instructions per guest instruction.  MIX_ROUNDS sets the workload size
# (the ELFs carry it in their names), BENCH_RUNS the runs (best one counts).
MIX_ROUNDS = 600
BENCH_RUNS = 5
BENCH_CG_MINSNS = 50
noinst_PROGRAMS += tests/bench/mix_host
tests_bench_mix_host_SOURCES = tests/bench/mix.c tests/bench/mix.h tests/bench/shim_host.c
tests_bench_mix_host_CPPFLAGS = $(AM_CPPFLAGS) -DMIX_NO_MAIN
tests_bench_mix_host_LDADD =
EXTRA_DIST += tests/bench/shim_xbow.c tests/bench/shim_malta.c tests/bench/shim_testmips.c \
	tests/bench/shim_crt0.S tests/bench/shim.ld tests/bench/mix_bench.sh
CLEANFILES += tests/bench/mix-r*.o tests/bench/mix-r*.elf

MIX_GUEST_CFLAGS = $(GUEST_CFLAGS) -fno-tree-loop-distribute-patterns
MIX_SHIM_LINK = -no-pie -static -Wl,-T,$(srcdir)/tests/bench/shim.ld -Wl,--build-id=none
tests/bench/mix-r%.o: $(srcdir)/tests/bench/mix.c $(srcdir)/tests/bench/mix.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && $(GUEST_CC) $(MIX_GUEST_CFLAGS) -DMIX_ROUNDS=$* -c -o $@ $<
tests/bench/mix-r%-xbow.elf: tests/bench/mix-r%.o $(srcdir)/tests/bench/shim_xbow.c $(GUEST_LIB_DEPS)
	$(AM_V_GEN)$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(GUEST_LIB:%=$(srcdir)/%) \
		$(srcdir)/tests/bench/shim_xbow.c $< $(GUEST_LINKFLAGS)
tests/bench/mix-r%-malta.elf: tests/bench/mix-r%.o $(srcdir)/tests/bench/shim_malta.c \
		$(srcdir)/tests/bench/shim_crt0.S $(srcdir)/tests/bench/shim.ld $(srcdir)/examples/lib/clear_bss.h
	$(AM_V_GEN)$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(srcdir)/tests/bench/shim_crt0.S \
		$(srcdir)/tests/bench/shim_malta.c $< $(MIX_SHIM_LINK)
tests/bench/mix-r%-testmips.elf: tests/bench/mix-r%.o $(srcdir)/tests/bench/shim_testmips.c \
		$(srcdir)/tests/bench/shim_crt0.S $(srcdir)/tests/bench/shim.ld $(srcdir)/examples/lib/clear_bss.h
	$(AM_V_GEN)$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(srcdir)/tests/bench/shim_crt0.S \
		$(srcdir)/tests/bench/shim_testmips.c $< $(MIX_SHIM_LINK)
.PRECIOUS: tests/bench/mix-r%.o

MIX_BENCH = XBOW=./xbow MIX_HOST=tests/bench/mix_host MIX_DIR=tests/bench \
	MIX_ROUNDS=$(MIX_ROUNDS) BENCH_RUNS=$(BENCH_RUNS) BENCH_CG_MINSNS=$(BENCH_CG_MINSNS) \
	bash $(srcdir)/tests/bench/mix_bench.sh
bench-mix: xbow tests/bench/mix_host tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf
	$(MIX_BENCH) xbow
bench-compare: xbow tests/bench/mix_host tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf \
		tests/bench/mix-r$(MIX_ROUNDS)-malta.elf tests/bench/mix-r$(MIX_ROUNDS)-testmips.elf
	$(MIX_BENCH) compare
bench-callgrind: xbow tests/bench/mix_host tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf
	$(MIX_BENCH) callgrind
bench-callgrind-profile: xbow tests/bench/mix_host tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf
	$(MIX_BENCH) callgrind-profile
bench: bench-mix
.PHONY: bench-mix bench-compare bench-callgrind bench-callgrind-profile

# `make check`: two rounds of the guest on xbow give the host's result.
BATCH_TESTS += tests/batch/bench_mix.sh
tests/batch/bench_mix.log: tests/bench/mix-r2-xbow.elf tests/bench/mix_host xbow

# The NICs' payload DMA, raw against per-word (seed story 1): `make
# bench-nic` (part of `make bench`) runs each NIC's example receive and
# transmit drivers in both modes and prints the throughput side by side
# (tests/bench/nic_bench.sh; NIC_BENCH_FRAMES, NIC_BENCH_RUNS, ... in its
# environment make a longer run).
EXTRA_DIST += tests/bench/nic_bench.sh docs/performance.md
bench-nic: xbow examples/tigon/tigon_rx.elf examples/tigon/tigon_tx.elf \
		examples/hamachi/hamachi.elf examples/e1000/rx.elf examples/e1000/tx.elf
	XBOW=./xbow EX=examples bash $(srcdir)/tests/bench/nic_bench.sh
bench: bench-nic
.PHONY: bench-nic

# The TUI's speed target (make bench-tui, part of make bench): the CPU
# benchmark's guest for TUI_BENCH_MINSNS million instructions in batch mode
# and in the TUI (driven in tmux; skipped without it), CPU time compared.
TUI_BENCH_MINSNS = 1000
EXTRA_DIST += tests/bench/tui_bench.sh
bench-tui: xbow$(EXEEXT) tests/bench/guest_loop.elf
	sh $(srcdir)/tests/bench/tui_bench.sh ./xbow$(EXEEXT) tests/bench/guest_loop.elf $(TUI_BENCH_MINSNS)
bench: bench-tui
.PHONY: bench-tui

# Snapshot save and load times for a 512 MB machine with Linux booted
# (tests/bench/snap_bench.c): `make bench-timetravel` (needs `make linux`).
noinst_PROGRAMS += tests/bench/snap_bench
tests_bench_snap_bench_SOURCES = tests/bench/snap_bench.c
tests_bench_snap_bench_LDADD = $(XBOW_LIBS)
tests_bench_snap_bench_DEPENDENCIES = libxbow.a libxbowfpu.a
bench-timetravel: tests/bench/snap_bench xbow tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf
	@vmlinux=$$(bash $(srcdir)/linux/build.sh --print-path 2>/dev/null) || \
	  { echo "bench-timetravel: no Linux kernel built: run 'make linux' first"; exit 1; }; \
	./tests/bench/snap_bench "$$vmlinux" $(BENCH_RUNS) "$${TMPDIR:-/tmp}"
	XBOW=./xbow BENCH_RUNS=$(BENCH_RUNS) MIX_ELF=tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf \
	  VMLINUX="$$(bash $(srcdir)/linux/build.sh --print-path 2>/dev/null)" \
	  bash $(srcdir)/tests/bench/reverse_bench.sh
.PHONY: bench-timetravel
EXTRA_DIST += tests/bench/reverse_bench.sh
# What recording costs: the mix guest and a Linux UDP run on a socket peer,
# without and with --record, and the Linux run's replay (docs/performance.md).
bench-record: xbow tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf
	XBOW=./xbow MIX_ELF=tests/bench/mix-r$(MIX_ROUNDS)-xbow.elf BENCH_RUNS=$(BENCH_RUNS) \
	  VMLINUX="$$(bash $(srcdir)/linux/build.sh --print-path 2>/dev/null)" \
	  bash $(srcdir)/tests/bench/rr_bench.sh
.PHONY: bench-record
EXTRA_DIST += tests/bench/rr_bench.sh
