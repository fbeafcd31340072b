# examples/dbgtest: the debugger's test guest.  Needs examples/examples.mk
# (the runtime, GUEST_LINK).
examples/dbgtest/dbgtest.elf: GUEST_SRCS = $(srcdir)/examples/dbgtest/dbgtest.c
examples/dbgtest/dbgtest.elf: $(srcdir)/examples/dbgtest/dbgtest.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
GUEST_EXAMPLES += examples/dbgtest/dbgtest.elf
nobase_dist_example_DATA += examples/dbgtest/dbgtest.c
