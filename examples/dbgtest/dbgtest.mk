# examples/dbgtest: the debugger's test guest; examples/stories: the small Hamachi
# driver of the two stories, told by examples/descintr.xbow and
# examples/perword.xbow.  Needs examples/examples.mk (the runtime, GUEST_LINK).
examples/dbgtest/dbgtest.elf: GUEST_SRCS = $(srcdir)/examples/dbgtest/dbgtest.c
examples/dbgtest/dbgtest.elf: $(srcdir)/examples/dbgtest/dbgtest.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
GUEST_EXAMPLES += examples/dbgtest/dbgtest.elf
nobase_dist_example_DATA += examples/dbgtest/dbgtest.c
examples/stories/hamachi.elf: GUEST_SRCS = $(srcdir)/examples/stories/hamachi.c
examples/stories/hamachi.elf: $(srcdir)/examples/stories/hamachi.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
GUEST_EXAMPLES += examples/stories/hamachi.elf
nobase_dist_example_DATA += examples/stories/hamachi.c
# The stories' debugger scripts (tests/batch/dbg_stories.sh runs them).
nobase_dist_example_DATA += examples/descintr.xbow examples/perword.xbow
