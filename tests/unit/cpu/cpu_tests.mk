# Unit tests of the R10000 interpreter (src/cpu).
check_PROGRAMS += tests/unit/cpu/test_cpu
tests_unit_cpu_test_cpu_SOURCES = tests/unit/cpu/test_cpu.c tests/unit/cpu/cpu_asm.h \
	tests/unit/cpu/cpu_engines.h
tests_unit_cpu_test_cpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_cpu_test_cpu_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/cpu/test_cpu
tests_unit_cpu_test_cpu_DEPENDENCIES = libxbow.a libxbowfpu.a

# The run loop: counting at every stopping point, breakpoints on running
# pages, the trace hook, kicks, Status writes.
check_PROGRAMS += tests/unit/cpu/test_cpu_loop
tests_unit_cpu_test_cpu_loop_SOURCES = tests/unit/cpu/test_cpu_loop.c tests/unit/cpu/cpu_asm.h \
	tests/unit/cpu/cpu_engines.h
tests_unit_cpu_test_cpu_loop_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_cpu_test_cpu_loop_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_cpu_test_cpu_loop_DEPENDENCIES = libxbow.a libxbowfpu.a
TESTS += tests/unit/cpu/test_cpu_loop

# Idle skip in the CPU: polling loops and idle points wait, deterministically.
check_PROGRAMS += tests/unit/cpu/test_cpu_idle
tests_unit_cpu_test_cpu_idle_SOURCES = tests/unit/cpu/test_cpu_idle.c tests/unit/cpu/cpu_asm.h
tests_unit_cpu_test_cpu_idle_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_cpu_test_cpu_idle_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_cpu_test_cpu_idle_DEPENDENCIES = libxbow.a libxbowfpu.a
TESTS += tests/unit/cpu/test_cpu_idle
# The translator against the interpreter on twin CPUs: self-modifying code,
# DMA into code, jumps into blocks, random data as code, interrupts, the
# debugger's features.
check_PROGRAMS += tests/unit/cpu/test_jit
tests_unit_cpu_test_jit_SOURCES = tests/unit/cpu/test_jit.c tests/unit/cpu/cpu_asm.h
tests_unit_cpu_test_jit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_cpu_test_jit_LDADD = $(XBOW_LIBS) $(CHECK_LIBS)
tests_unit_cpu_test_jit_DEPENDENCIES = libxbow.a libxbowfpu.a
TESTS += tests/unit/cpu/test_jit
