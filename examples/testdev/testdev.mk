# Guests for the PCI DMA test device (xbow --testdev): every Bridge DMA
# window and swap mode byte by byte, and DMA/PIO to nothing.
examples/testdev/testdev_dma.elf examples/testdev/testdev_err.elf: $(srcdir)/examples/testdev/td.h
GUEST_EXAMPLES += examples/testdev/testdev_dma.elf examples/testdev/testdev_err.elf
nobase_dist_example_DATA += examples/testdev/td.h examples/testdev/testdev_dma.c \
	examples/testdev/testdev_err.c
BATCH_TESTS += tests/batch/testdev.sh
EXTRA_DIST += examples/testdev/testdev.mk
