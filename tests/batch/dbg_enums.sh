#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Enumerators in expressions as C scopes them, on a small guest compiled
# here with the examples' flags and runtime: a local variable hides the
# file's enumerator of the same name, an enum declared in the function or
# in a block is seen there only, a negative enumerator of a signed enum,
# casts to the enum show the name, and a name outside every scope is
# unknown.  (The drivers' enums and Linux's: dbg_types.sh, dbg_linux_src.sh.)
. "${top_srcdir:-${srcdir:-.}}/tests/batch/dbg_lib.sh"
CC=${GUEST_CC:-mips64-linux-gnuabi64-gcc}
command -v "$CC" >/dev/null 2>&1 || { echo "SKIP: $CC is not installed"; exit 77; }
lib=$top_srcdir/examples/lib
cat >"$TMP/scope.c" <<'C'
#include "xbow.h"
enum color { RED, GREEN = 5, BLUE };
enum sign { NEG = -2, POS = 3 };
typedef enum { SHADOW = 7 } shadow_t;
volatile int sink;
volatile enum sign sign_var = NEG;
__attribute__((noinline)) int paint(shadow_t s)
{
    enum local_e { INNER = 40 };
    int GREEN = 99; /* hides the file's enumerator */
    sink = GREEN + INNER + (int)s;
    {
        enum { IN_BLOCK = 3 };
        volatile int x = IN_BLOCK;
        sink += x;
    }
    return sink;
}
int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    enum color c = BLUE;
    sink = paint(SHADOW) + (int)c + (int)sign_var;
    return 0;
}
C
"$CC" -march=mips4 -mabi=64 -EB -O2 -g -G0 -ffreestanding -nostdlib -fno-pic -mno-abicalls \
    -fno-builtin -I"$lib" -o "$TMP/scope.elf" "$lib/crt0.S" "$lib/console.c" "$lib/irq.c" \
    "$lib/misc.c" "$lib/pci.c" "$TMP/scope.c" -no-pie -static -Wl,-T,"$lib/link.ld" \
    -Wl,--build-id=none || { echo "FAIL: the guest does not compile"; exit 1; }
GUEST=$TMP/scope.elf

ex_script scope <<'EOF'
break paint
run
print GREEN
print INNER
print RED
print SHADOW
print s == SHADOW
print (enum color)6
print/d BLUE
whatis INNER
print IN_BLOCK
print NEG
print/d NEG
print NEG < 0
print (enum sign)-2
print sign_var == NEG
break main
print INNER
print 1
EOF
expect_rc 1
expect_re "^Breakpoint 1, paint \(s=SHADOW\) at scope\.c:[0-9]+$"
expect "\$1 = 99"
expect "\$2 = INNER"
expect "\$3 = RED"
expect "\$4 = SHADOW"
expect "\$5 = 1"
expect "\$6 = BLUE"
expect "\$7 = 6"
expect "type = enum local_e"
expect "No symbol \"IN_BLOCK\" in current context."
expect "\$8 = NEG"
expect "\$9 = -2"
expect "\$10 = 1"
expect "\$11 = NEG"
expect "\$12 = 1"
expect "\$13 = INNER"
expect "\$14 = 1"

# Inside the block its enum is seen, and the local GREEN still hides the
# file's; in main (after paint returned) the function's enum is not.
xbow_run block -ex "break scope.c:15" -ex run -ex "print IN_BLOCK" -ex "print GREEN" \
    -ex "print GREEN == 99" -ex "delete" -ex "finish" -ex "print INNER" -ex "print GREEN" \
    -ex "print 2"
expect_rc 1
expect "\$1 = IN_BLOCK"
expect "\$2 = 99"
expect "\$3 = 1"
expect "Value returned is \$4 = 149"
expect "No symbol \"INNER\" in current context."
expect "\$5 = GREEN"
expect "\$6 = 2"
finish
