#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --prom: a user PROM image (raw binary or ELF) starts at the reset vector
# instead of the synthetic PROM; no kernel is needed.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/ip27_lib.sh"

for img in prom.bin prom.elf; do
    run "$img" --max-insns 1000000 --prom "$EX/prom-hello/$img"
    expect_rc 0
    expect "$img.out" "Hello from a user PROM"
done
run missing --prom "$TMP/nonexistent"
expect_rc 2
expect missing.err "nonexistent"
finish
