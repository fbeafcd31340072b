#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The debugger with each engine: the same session (breakpoints, ignore
# counts, continue N, stepi N, watchpoints, a DMA watchpoint, the
# registers and memory at every stop) must print exactly the same with
# --engine=interp and --engine=jit, and `info engine` says what ran.
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"

if ! "$XBOW" --engine=jit --batch -q -ex 'info engine' "$GUEST" >/dev/null 2>&1; then
    echo "SKIP: this host has no translator"
    exit 77
fi

cat >"$TMP/session" <<'X'
break leaf
continue
info registers
continue 3
print $pc
delete
stepi 777
info registers
x/8x $sp
watch counter
continue
continue 2
info registers
delete
break *printf+0x230
ignore 3 5
continue
info breakpoints
info registers
delete
watch dma 0x0,0x100000
continue 1000000
stepi 54321
info registers
continue
info cpus
X
for e in interp jit; do
    script session --engine=$e <"$TMP/session"
    expect_rc 0
    expect "Breakpoint 1, leaf"
    expect "Hardware watchpoint 2: counter"
    expect "Stopped: the budget of 3 instructions (all CPUs together) is used up."
    # in the UART wait loop of raw_putc, inlined into printf (the guest has DWARF)
    expect "Breakpoint 3, raw_putc (c="
    expect "<printf+0x230>:"
    expect "already hit 6 times"
    cp "$TMP/session.out" "$TMP/session-$e.txt"
done
if ! cmp -s "$TMP/session-interp.txt" "$TMP/session-jit.txt"; then
    fail "the sessions differ between the engines:
$(diff "$TMP/session-interp.txt" "$TMP/session-jit.txt" | head -20)"
fi

# info engine: per CPU, and the translator's figures only with it
xbow_run engine-jit --engine=jit -ex 'continue' -ex 'info engine'
expect_rc 0
expect_re '^\* 0    jit     [0-9]+ +[0-9.]+%$'
expect_re '^Translated: [0-9]+ blocks, [0-9]+ guest instructions'
expect_re '^Code cache: [0-9.]+ of 64.0 MB in use; 0 flushes'
xbow_run engine-interp --engine=interp -ex 'continue' -ex 'info engine'
expect_rc 0
expect_re '^\* 0    interp  [0-9]+ +-$'
expect_not "Translated:"
xbow_run engine-arg -ex 'info engine 1'
expect_rc 1
expect "info engine: it takes no arguments"
finish
