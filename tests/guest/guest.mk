# tests/guest: guest programs that check the CPU from the inside (exceptions
# through their own handlers, TLB refills, user mode, integer and FP), run on
# xbow's R10000 by tests/torture/torture_run.  Built with $(GUEST_CC).
GUEST_TEST_FLAGS = -march=mips4 -mabi=64 -EB -O2 -G0 -ffreestanding -nostdlib -fno-pic \
	-mno-abicalls -static -Wl,--build-id=none
check_DATA = tests/guest/cpu_selftest.elf
TESTS += tests/guest/cpu_selftest.sh
EXTRA_DIST += tests/guest/cpu_selftest.sh tests/guest/cpu_selftest.c tests/guest/vectors.S
CLEANFILES += tests/guest/cpu_selftest.elf
tests/guest/cpu_selftest.elf: $(srcdir)/tests/guest/cpu_selftest.c $(srcdir)/tests/guest/vectors.S \
		$(srcdir)/tests/torture/crt0.S $(srcdir)/tests/torture/libc.c $(srcdir)/tests/torture/torture.ld
	@mkdir -p tests/guest
	$(GUEST_CC) $(GUEST_TEST_FLAGS) -Wall -Werror -T $(srcdir)/tests/torture/torture.ld -o $@ \
	  $(srcdir)/tests/torture/crt0.S $(srcdir)/tests/guest/cpu_selftest.c \
	  $(srcdir)/tests/guest/vectors.S $(srcdir)/tests/torture/libc.c -lgcc
