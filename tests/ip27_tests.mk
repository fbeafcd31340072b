# SPDX-License-Identifier: GPL-2.0-or-later
# Batch tests of the IP27 board that run the examples on the whole machine
# (its unit tests are in tests/unit/machine/machine_tests.mk).
BATCH_TESTS += tests/batch/ip27_hello.sh tests/batch/ip27_irq.sh \
	tests/batch/ip27_smp.sh tests/batch/ip27_reset.sh tests/batch/ip27_prom.sh
EXTRA_DIST += tests/batch/ip27_lib.sh tests/batch/batch_env.sh
