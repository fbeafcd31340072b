# examples/dbgtest: the debugger's test guest, built by the rule for
# one-file examples (examples/examples.mk).
GUEST_EXAMPLES += examples/dbgtest/dbgtest.elf
nobase_dist_example_DATA += examples/dbgtest/dbgtest.c
