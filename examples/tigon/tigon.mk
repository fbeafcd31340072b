# examples/tigon: Tigon2 (SGI Gigabit Ethernet) guest drivers on the IP27
# runtime: transmit to `sink`, receive from `gen`, ping `echo`.
TIGON_GUEST_DEPS = $(srcdir)/examples/tigon/tg.c $(srcdir)/examples/tigon/tg.h $(GUEST_LIB_DEPS)
TIGON_EXAMPLES = examples/tigon/tigon_tx.elf examples/tigon/tigon_rx.elf \
	examples/tigon/tigon_echo.elf
$(TIGON_EXAMPLES): GUEST_SRCS = $(srcdir)/examples/tigon/$*.c $(srcdir)/examples/tigon/tg.c
$(TIGON_EXAMPLES): examples/tigon/%.elf: $(srcdir)/examples/tigon/%.c $(TIGON_GUEST_DEPS)
	$(GUEST_LINK)
GUEST_EXAMPLES += $(TIGON_EXAMPLES)
nobase_dist_example_DATA += examples/tigon/tg.c examples/tigon/tg.h \
	examples/tigon/tigon_tx.c examples/tigon/tigon_rx.c examples/tigon/tigon_echo.c
EXTRA_DIST += examples/tigon/tigon.mk
