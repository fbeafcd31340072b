# The CPU interpreter benchmark: `make bench-cpu` (also part of `make bench`).
noinst_PROGRAMS += tests/bench/cpu_bench
tests_bench_cpu_bench_SOURCES = tests/bench/cpu_bench.c tests/bench/guest_work.h tests/unit/cpu_asm.h
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

# The TUI's speed target (make bench-tui, part of make bench): the CPU
# benchmark's guest for TUI_BENCH_MINSNS million instructions in batch mode
# and in the TUI (driven in tmux; skipped without it), CPU time compared.
TUI_BENCH_MINSNS = 1000
EXTRA_DIST += tests/bench/tui_bench.sh
bench-tui: xbow$(EXEEXT) tests/bench/guest_loop.elf
	sh $(srcdir)/tests/bench/tui_bench.sh ./xbow$(EXEEXT) tests/bench/guest_loop.elf $(TUI_BENCH_MINSNS)
bench: bench-tui
.PHONY: bench-tui
