# examples/tigon: Tigon2 (SGI Gigabit Ethernet) guest drivers on the IP27
# runtime: transmit to `sink`, receive from `gen`, ping `echo`.
TIGON_GUEST_SRCS = $(srcdir)/examples/tigon/tg.c
TIGON_GUEST_DEPS = $(TIGON_GUEST_SRCS) $(srcdir)/examples/tigon/tg.h $(GUEST_LIB_DEPS)

examples/tigon/tigon_tx.elf: GUEST_SRCS = $(srcdir)/examples/tigon/tigon_tx.c $(TIGON_GUEST_SRCS)
examples/tigon/tigon_tx.elf: $(srcdir)/examples/tigon/tigon_tx.c $(TIGON_GUEST_DEPS)
	$(GUEST_LINK)

examples/tigon/tigon_rx.elf: GUEST_SRCS = $(srcdir)/examples/tigon/tigon_rx.c $(TIGON_GUEST_SRCS)
examples/tigon/tigon_rx.elf: $(srcdir)/examples/tigon/tigon_rx.c $(TIGON_GUEST_DEPS)
	$(GUEST_LINK)

examples/tigon/tigon_echo.elf: GUEST_SRCS = $(srcdir)/examples/tigon/tigon_echo.c $(TIGON_GUEST_SRCS)
examples/tigon/tigon_echo.elf: $(srcdir)/examples/tigon/tigon_echo.c $(TIGON_GUEST_DEPS)
	$(GUEST_LINK)

GUEST_EXAMPLES += examples/tigon/tigon_tx.elf examples/tigon/tigon_rx.elf \
	examples/tigon/tigon_echo.elf
nobase_dist_example_DATA += examples/tigon/tg.c examples/tigon/tg.h \
	examples/tigon/tigon_tx.c examples/tigon/tigon_rx.c examples/tigon/tigon_echo.c
EXTRA_DIST += examples/tigon/tigon.mk
