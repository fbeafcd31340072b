# tests/oracle: the differential CPU tester (xbow's R10000 against Unicorn 2).
# `make check` compares one million instructions; `make oracle-long` runs
# ORACLE_INSNS of them (default 100 million, with the translator twin on
# x86-64).  See docs/cpu-testing.md.
check_PROGRAMS += tests/oracle/oracle
tests_oracle_oracle_SOURCES = \
	tests/oracle/oracle.c tests/oracle/oracle.h tests/oracle/oracle_gen.h \
	tests/oracle/gen.c tests/oracle/gen_values.c \
	tests/oracle/uc_side.c tests/oracle/xb_side.c tests/oracle/excl.c
tests_oracle_oracle_CFLAGS = $(AM_CFLAGS) $(UNICORN_CFLAGS)
tests_oracle_oracle_LDADD = $(XBOW_LIBS) $(UNICORN_LIBS) -ldl -lm
# libunicorn exports QEMU's generic names (cpu_reset, ...): keep xbow's own
# symbols out of the executable's dynamic table so Unicorn binds to its own.
tests_oracle_oracle_LDFLAGS = $(AM_LDFLAGS) -Wl,--version-script=$(srcdir)/tests/oracle/oracle.map
EXTRA_DIST += tests/oracle/oracle.map
TESTS += tests/oracle/oracle
EXTRA_DIST += docs/cpu-testing.md

oracle-long: tests/oracle/oracle$(EXEEXT)
	ORACLE_INSNS=$${ORACLE_INSNS:-100000000} ./tests/oracle/oracle$(EXEEXT)
.PHONY: oracle-long
