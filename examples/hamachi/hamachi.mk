# The Hamachi GNIC-II example driver (xbow --nic hamachi), the seed-story
# batch tests built on it, and the debugger scripts that tell the two
# stories with it (examples/descintr.xbow, examples/perword.xbow; run by
# tests/batch/dbg_stories.sh).
GUEST_EXAMPLES += examples/hamachi/hamachi.elf
nobase_dist_example_DATA += examples/hamachi/hamachi.c
nobase_dist_example_DATA += examples/descintr.xbow examples/perword.xbow examples/linux-descintr.xbow
EXTRA_DIST += examples/hamachi/hamachi.mk
BATCH_TESTS += tests/batch/hamachi.sh
