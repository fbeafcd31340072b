# SPDX-License-Identifier: GPL-2.0-or-later
# examples/: bare-metal guest programs and their small runtime, built with
# the MIPS cross compiler ($(GUEST_CC)) as part of `make`, installed under
# $(pkgdatadir)/examples with their sources.
# -g: DWARF (GCC 12's default, version 5) for source-level debugging: line
# tables, types, locations, and call-frame information in .debug_frame.
GUEST_CFLAGS = -march=mips4 -mabi=64 -EB -O2 -g -G0 -ffreestanding -nostdlib -fno-pic \
	-mno-abicalls -fno-builtin -Wall -Wextra -I$(srcdir)/examples/lib
GUEST_LINKFLAGS = -no-pie -static -Wl,-T,$(srcdir)/examples/lib/link.ld -Wl,--build-id=none
GUEST_LIB = examples/lib/crt0.S examples/lib/console.c examples/lib/irq.c \
	examples/lib/misc.c examples/lib/net.c examples/lib/pci.c
GUEST_LIB_DEPS = $(GUEST_LIB:%=$(srcdir)/%) $(srcdir)/examples/lib/xbow.h $(srcdir)/examples/lib/net.h $(srcdir)/examples/lib/clear_bss.h \
	$(srcdir)/examples/lib/link.ld

# One ELF per example, linked from the runtime and its own sources
# (GUEST_SRCS).  An example of one file, examples/DIR/NAME.c, needs no rule
# of its own.
GUEST_LINK = $(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(GUEST_LIB:%=$(srcdir)/%) $(GUEST_SRCS) $(GUEST_LINKFLAGS)
examples/%.elf: GUEST_SRCS = $(srcdir)/examples/$*.c
examples/%.elf: $(srcdir)/examples/%.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)

# A user PROM image for --prom, as an ELF and as a raw binary.
PROM_SRCS = examples/prom-hello/start.S examples/prom-hello/prom.c examples/lib/pci.c
examples/prom-hello/prom.elf: $(PROM_SRCS:%=$(srcdir)/%) $(srcdir)/examples/prom-hello/link.ld \
		$(srcdir)/examples/lib/xbow.h
	$(AM_V_GEN)$(MKDIR_P) $(@D) && $(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(PROM_SRCS:%=$(srcdir)/%) \
		-no-pie -static -Wl,-T,$(srcdir)/examples/prom-hello/link.ld -Wl,--build-id=none
examples/prom-hello/prom.bin: examples/prom-hello/prom.elf
	$(AM_V_GEN)$(GUEST_PREFIX)objcopy -O binary $< $@

GUEST_EXAMPLES = examples/hello/hello.elf \
	examples/prom-hello/prom.elf examples/prom-hello/prom.bin \
	examples/timer/timer.elf \
	examples/serial-irq/serial_irq.elf \
	examples/smp/smp.elf \
	examples/llsc/llsc.elf \
	examples/spinwait/spinwait.elf \
	examples/restart/restart.elf

exampledir = $(pkgdatadir)
nobase_example_DATA = $(GUEST_EXAMPLES)
nobase_dist_example_DATA = $(GUEST_LIB) examples/lib/xbow.h examples/lib/net.h examples/lib/clear_bss.h examples/lib/link.ld examples/README.md \
	examples/hello/hello.c examples/timer/timer.c examples/serial-irq/serial_irq.c examples/smp/smp.c examples/llsc/llsc.c examples/spinwait/spinwait.c examples/restart/restart.c \
	examples/prom-hello/start.S examples/prom-hello/prom.c examples/prom-hello/link.ld
CLEANFILES += $(GUEST_EXAMPLES)
