# examples/e1000: bare-metal guest drivers for the Intel 82543GC / 82544EI
# (transmit to sink, receive from gen, ping echo), on the guest runtime of
# examples/lib; one ELF each, sharing e1000drv.c.
E1000_GUEST_DRV = examples/e1000/e1000drv.c
E1000_GUEST_DEPS = $(GUEST_LIB_DEPS) $(srcdir)/examples/e1000/e1000drv.c \
	$(srcdir)/examples/e1000/e1000drv.h
E1000_GUEST_LINK = $(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $(GUEST_LIB:%=$(srcdir)/%) \
	$(srcdir)/$(E1000_GUEST_DRV) $< $(GUEST_LINKFLAGS)

examples/e1000/tx.elf: $(srcdir)/examples/e1000/tx.c $(E1000_GUEST_DEPS)
	$(E1000_GUEST_LINK)
examples/e1000/rx.elf: $(srcdir)/examples/e1000/rx.c $(E1000_GUEST_DEPS)
	$(E1000_GUEST_LINK)
examples/e1000/echo.elf: $(srcdir)/examples/e1000/echo.c $(E1000_GUEST_DEPS)
	$(E1000_GUEST_LINK)

E1000_EXAMPLES = examples/e1000/tx.elf examples/e1000/rx.elf examples/e1000/echo.elf
nobase_example_DATA += $(E1000_EXAMPLES)
nobase_dist_example_DATA += examples/e1000/e1000drv.c examples/e1000/e1000drv.h \
	examples/e1000/tx.c examples/e1000/rx.c examples/e1000/echo.c
CLEANFILES += $(E1000_EXAMPLES)

# The batch test that runs them against sink, gen and echo and compares
# their counts with the captures.
BATCH_TESTS += tests/batch/e1000_examples.sh
EXTRA_DIST += tests/batch/e1000_pcap.py
