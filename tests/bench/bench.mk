# The CPU interpreter benchmark: `make bench-cpu` (also part of `make bench`).
noinst_PROGRAMS += tests/bench/cpu_bench
tests_bench_cpu_bench_SOURCES = tests/bench/cpu_bench.c tests/bench/guest_work.h
tests_bench_cpu_bench_LDADD = $(XBOW_LIBS)
EXTRA_DIST += tests/bench/guest_loop.c tests/bench/guest.ld
CLEANFILES += tests/bench/guest_loop.elf

GUEST_BENCH_FLAGS = -march=mips4 -mabi=64 -O2 -ffreestanding -nostdlib -static \
	-mno-abicalls -fno-pic -G0 -Wl,--build-id=none
tests/bench/guest_loop.elf: $(srcdir)/tests/bench/guest_loop.c $(srcdir)/tests/bench/guest_work.h $(srcdir)/tests/bench/guest.ld
	@mkdir -p tests/bench
	$(GUEST_CC) $(GUEST_BENCH_FLAGS) -T $(srcdir)/tests/bench/guest.ld -o $@ $(srcdir)/tests/bench/guest_loop.c

bench-cpu: tests/bench/cpu_bench tests/bench/guest_loop.elf
	./tests/bench/cpu_bench tests/bench/guest_loop.elf $(BENCH_MINSNS)
bench: bench-cpu
.PHONY: bench bench-cpu
