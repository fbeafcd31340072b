# SPDX-License-Identifier: GPL-2.0-or-later
# src/cpu: the R10000 interpreter (decode, execute, CP0/TLB/exceptions,
# memory and decoded pages, debugger support, disassembly).  The FPU is
# built from src/cpu/fpu.mk into libxbowfpu.a with its own float flags.
libxbow_a_SOURCES += \
	src/cpu/cpu.h src/cpu/cpu_internal.h src/cpu/ops.h src/cpu/insn.h \
	src/cpu/cpu.c \
	src/cpu/decode.c \
	src/cpu/exec.c \
	src/cpu/exec_alu.h src/cpu/exec_branch.h src/cpu/exec_mem.h src/cpu/exec_sys.h \
	src/cpu/cp0.c \
	src/cpu/tlb.c \
	src/cpu/mem.c \
	src/cpu/debug.c \
	src/cpu/idle.c \
	src/cpu/cpustate.c \
	src/cpu/xthread.c \
	src/cpu/jit.c src/cpu/jit_gen.c src/cpu/jit.h src/cpu/x86emit.h \
	src/cpu/disasm.c
EXTRA_DIST += docs/cpu.md
