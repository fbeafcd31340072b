# SPDX-License-Identifier: GPL-2.0-or-later
# linux.mk -- automake fragment for the real-Linux guest kernel.
# Include it from the top-level Makefile.am:
#
#     include $(srcdir)/linux/linux.mk
#     EXTRA_DIST += $(LINUX_DIST)

# Sequential read and write MB/s of a SCSI disk from Linux (docs/performance.md).
linux-bench-scsi: xbow$(EXEEXT)
	$(LINUX_BASH) $(srcdir)/linux/bench_scsi.sh ./xbow$(EXEEXT)
#
# `make linux` builds (or reuses) the IP27 vmlinux in the user's cache,
# ${XBOW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xbow}/linux/, and prints its
# path on the last line.  `make linux-path` prints that path without building
# and fails if it has not been built yet.  With PATCHES='SET...' (sets of
# linux/patches/, or directories of *.patch files) both are about that
# flavour of the kernel instead (linux/flavour.sh).  `make linux-debug`
# rebuilds the kernel (or the flavour) and starts xbow on it with XBOW_ARGS
# (linux/debug.sh).  `make linux-bench` measures the guest on xbow
# (linux/bench.sh); `make linux-sweep` boots it over 1 to 4 CPUs and 25
# command lines (linux/sweep.sh).  See linux/README.md.

LINUX_DIST = \
	linux/README.md \
	docs/linux.md \
	linux/build.sh \
	linux/flavour.sh \
	linux/debug.sh \
	linux/bench.sh \
	linux/bench_scsi.sh \
	linux/sweep.sh \
	linux/vmlinux.sha256 \
	linux/linux.mk \
	linux/xbow.config \
	linux/initramfs/init.c \
	linux/initramfs/disk.c \
	linux/initramfs/ping.c \
	linux/initramfs/ttcp.c \
	linux/initramfs/xlibc.c \
	linux/initramfs/xlibc.h \
	linux/initramfs/initramfs.list.in \
	linux/extra/taskset.c \
	linux/patches/README.md \
	linux/patches/ip27-dma64/01-hamachi-dma64.patch \
	linux/patches/ip27-dma64/02-acenic-dma64.patch \
	linux/patches/ip27-dma64/03-e1000-dma64-pci64.patch \
	linux/patches/ip27-dma64/ip27-dma64.config \
	linux/patches/hamachi-txintr-1999/01-hamachi-1999-tx.patch

# build.sh needs bash, whatever $(SHELL) is.
LINUX_BASH = bash

.PHONY: linux linux-path linux-debug linux-bench linux-bench-scsi linux-sweep

# PATCHES='SET...' becomes one --patches SET per word.
LINUX_PATCH_ARGS = set --; for p in $(PATCHES); do set -- "$$@" --patches "$$p"; done

linux:
	@$(LINUX_PATCH_ARGS); $(LINUX_BASH) $(srcdir)/linux/build.sh "$$@"

linux-path:
	@$(LINUX_PATCH_ARGS); $(LINUX_BASH) $(srcdir)/linux/build.sh --print-path "$$@"

# The edit-rebuild-debug loop: rebuild the kernel (or the PATCHES flavour),
# then run xbow on it with XBOW_ARGS; LOOP=1 offers to rebuild and start
# again each time xbow exits (docs/linux.md, "Patching the kernel"):
#   make linux-debug PATCHES=ip27-dma64 XBOW_ARGS='--nic hamachi -x s.xbow' LOOP=1
linux-debug: xbow$(EXEEXT)
	@loop='$(LOOP)'; $(LINUX_PATCH_ARGS); $(LINUX_BASH) $(srcdir)/linux/debug.sh $${loop:+--loop} "$$@" -- \
		./xbow$(EXEEXT) $(XBOW_ARGS)

# Boot time and UDP throughput of the Linux guest (docs/performance.md).
linux-bench: xbow$(EXEEXT)
	PATCHES='$(PATCHES)' $(LINUX_BASH) $(srcdir)/linux/bench.sh ./xbow$(EXEEXT)
EXTRA_DIST += $(LINUX_DIST)

# Boots on 1 to 4 CPUs with 25 command lines, each to the shell with the
# Bridge probed (docs/linux.md, "Boot sweep").  SWEEP_ARGS passes options,
# e.g. SWEEP_ARGS='--cpus 4 --cases 1,3'.
linux-sweep: xbow$(EXEEXT)
	$(LINUX_BASH) $(srcdir)/linux/sweep.sh $(SWEEP_ARGS) ./xbow$(EXEEXT)
