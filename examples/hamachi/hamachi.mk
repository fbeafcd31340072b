# The Hamachi GNIC-II example driver (xbow --nic hamachi) and the seed-story
# batch tests built on it.
examples/hamachi/hamachi.elf: GUEST_SRCS = $(srcdir)/examples/hamachi/hamachi.c
examples/hamachi/hamachi.elf: $(srcdir)/examples/hamachi/hamachi.c $(GUEST_LIB_DEPS)
	$(GUEST_LINK)
GUEST_EXAMPLES += examples/hamachi/hamachi.elf
nobase_dist_example_DATA += examples/hamachi/hamachi.c
EXTRA_DIST += examples/hamachi/hamachi.mk
TESTS += tests/batch/hamachi.sh
EXTRA_DIST += tests/batch/hamachi.sh
