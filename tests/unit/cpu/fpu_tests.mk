# Unit tests of the FPU (Check).  The expected values are computed by the
# host's IEEE unit in the same rounding mode, so the test needs the same
# floating-point flags as the FPU itself.
check_PROGRAMS += tests/unit/cpu/test_fpu
TESTS += tests/unit/cpu/test_fpu
tests_unit_cpu_test_fpu_CFLAGS = $(AM_CFLAGS) $(FPU_FLOAT_CFLAGS)
tests_unit_cpu_test_fpu_LDADD = $(LDADD) -lm
