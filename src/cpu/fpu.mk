# SPDX-License-Identifier: GPL-2.0-or-later
# src/cpu: the R10000 FPU (CP1).  It is built as its own convenience library
# because it needs per-object flags: the host's IEEE unit runs under the
# guest's rounding mode, so the compiler must neither fold FP operations at
# build time, nor move them across fesetround()/fetestexcept(), nor fuse a
# multiply and an add (the R10000's MADD is not fused).
noinst_LIBRARIES += libxbowfpu.a
libxbowfpu_a_SOURCES = \
	src/cpu/fpu.c src/cpu/fpu.h \
	src/cpu/fpu_arith.c src/cpu/fpu_internal.h
FPU_FLOAT_CFLAGS = -frounding-math -fsignaling-nans -ffp-contract=off
libxbowfpu_a_CFLAGS = $(AM_CFLAGS) $(FPU_FLOAT_CFLAGS)
# After libxbow.a (whose CPU core calls fpu_exec), with libm after it.
XBOW_LIBS += libxbowfpu.a -lm
EXTRA_DIST += docs/fpu.md
