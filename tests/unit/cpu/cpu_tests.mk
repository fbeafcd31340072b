# Unit tests of the R10000 interpreter (src/cpu).
CPU_UNIT_TESTS = tests/unit/cpu/test_cpu tests/unit/cpu/test_cpu_loop \
	tests/unit/cpu/test_cpu_idle tests/unit/cpu/test_jit
check_PROGRAMS += $(CPU_UNIT_TESTS)
TESTS += $(CPU_UNIT_TESTS)
tests_unit_cpu_test_cpu_SOURCES = tests/unit/cpu/test_cpu.c tests/unit/cpu/cpu_asm.h \
	tests/unit/cpu/cpu_engines.h

# The run loop: counting at every stopping point, breakpoints on running
# pages, the trace hook, kicks, Status writes.
tests_unit_cpu_test_cpu_loop_SOURCES = tests/unit/cpu/test_cpu_loop.c tests/unit/cpu/cpu_asm.h \
	tests/unit/cpu/cpu_engines.h

# Idle skip in the CPU: polling loops and idle points wait, deterministically.
tests_unit_cpu_test_cpu_idle_SOURCES = tests/unit/cpu/test_cpu_idle.c tests/unit/cpu/cpu_asm.h \
	tests/unit/cpu/cpu_engines.h
# The translator against the interpreter on twin CPUs: self-modifying code,
# DMA into code, jumps into blocks, random data as code, interrupts, the
# debugger's features.
tests_unit_cpu_test_jit_SOURCES = tests/unit/cpu/test_jit.c tests/unit/cpu/cpu_asm.h
