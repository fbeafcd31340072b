# SPDX-License-Identifier: GPL-2.0-or-later
# src/core: physical-access layer, devices, events, clock, ELF, symbols.
libxbow_a_SOURCES += \
	src/core/common.h src/core/alloc.c \
	src/core/bus.c src/core/bus.h \
	src/core/chardev.c src/core/chardev.h \
	src/core/dev.c src/core/dev.h src/core/devstate.c \
	src/core/elf.c src/core/elf.h \
	src/core/event.c src/core/event.h \
	src/core/hostprof.c src/core/hostprof.h \
	src/core/log.c src/core/log.h \
	src/core/outfile.c src/core/outfile.h \
	src/core/rr.c src/core/rr.h \
	src/core/sched.c src/core/sched.h \
	src/core/strbuf.c src/core/strbuf.h src/core/image.h \
	src/core/symtab.c src/core/symtab.h
dist_man1_MANS += docs/xbow.1
EXTRA_DIST += docs/architecture.md docs/record-replay.md
