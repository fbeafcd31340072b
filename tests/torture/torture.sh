#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build GCC's C torture tests (gcc.c-torture/execute) as freestanding
# guests and run each on xbow's R10000 (torture_run, one process per test,
# with an instruction limit).
#
#   torture.sh [--list FILE] [--known FILE] [--out DIR]
#
# Sources: $TORTURE_SRC (the execute/ directory) or the tarball of Debian's
# gcc-12-source package, extracted once into $top_builddir/tests/torture/src.
# A test that does not compile freestanding or needs a library function the
# tiny runtime (libc.c) lacks is SKIPPED with the reason; the others PASS or
# FAIL.  --known lists failures that are explained (docs/cpu-testing.md):
# they are reported as KNOWN.  Exit status 1 if any other test failed.
# Environment: GUEST_CC, top_srcdir, top_builddir (set by make),
# TORTURE_OPT (default -O2), TORTURE_MAX_INSNS (default 200 million),
# TORTURE_JOBS (default 2).
set -eu
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
GUEST_CC=${GUEST_CC:-mips64-linux-gnuabi64-gcc}
OPT=${TORTURE_OPT:--O2}
MAXI=${TORTURE_MAX_INSNS:-200000000}
JOBS=${TORTURE_JOBS:-2}
here=$top_srcdir/tests/torture
run=$top_builddir/tests/torture/torture_run
list= known= out=$top_builddir/tests/torture/out
while [ $# -gt 0 ]; do
    case $1 in
    --list) list=$2; shift 2 ;;
    --known) known=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --one) one=$2; shift 2 ;;
    *) echo "usage: torture.sh [--list FILE] [--known FILE] [--out DIR]" >&2; exit 2 ;;
    esac
done
# Compiled as hosted C (as GCC's own harness does: builtins such as alloca
# and fabs, calls that -O removes), linked with the tiny runtime instead of
# a C library.
CFLAGS="-march=mips4 -mabi=64 -EB $OPT -G0 -nostdlib -fno-pic -mno-abicalls -w"
LDFLAGS="-march=mips4 -mabi=64 -EB -static -nostdlib -Wl,--build-id=none -T $here/torture.ld"

# One test: print "RESULT name: detail".
one_test() {
    src=$1 name=$(basename "$1" .c) d=$out/$name
    mkdir -p "$d"
    # dg-options / dg-additional-options apply to the test's compilation,
    # unless they are for another target ({ target i?86-*-* } ...)
    opts=$(grep 'dg-\(additional-\)\{0,1\}options' "$src" | grep -v '{ *target' | grep -v 'dg-skip' |
        sed -n 's/.*dg-\(additional-\)\{0,1\}options *{\{0,1\} *"\([^"]*\)".*/\2/p' | head -n 2 | tr '\n' ' ')
    # shellcheck disable=SC2086
    if ! $GUEST_CC $CFLAGS $opts -c "$src" -o "$d/t.o" 2> "$d/cc.log"; then
        echo "SKIP $name: does not compile for MIPS: $(grep -m1 'error' "$d/cc.log" | sed 's/^[^:]*:[0-9:]* //')"
        return
    fi
    if ! $GUEST_CC $LDFLAGS "$out/crt0.o" "$d/t.o" "$out/libc.o" -lgcc -o "$d/t.elf" 2> "$d/ld.log"; then
        syms=$(sed -n "s/.*undefined reference to \`\([^']*\)'.*/\1/p" "$d/ld.log" | sort -u | tr '\n' ' ')
        if [ -z "$syms" ] && grep -q 'relocation truncated to fit: R_MIPS_\(GOT\|CALL16\)' "$d/ld.log"; then
            echo "SKIP $name: needs libgcc routines built as PIC (GOT) code: $(sed -n 's/.*libgcc.a(\([^)]*\)).*/\1/p' "$d/ld.log" | sort -u | tr '\n' ' ')"
        else
            echo "SKIP $name: needs ${syms:-$(grep -m1 -v warning "$d/ld.log")}"
        fi
        return
    fi
    res=$("$run" --max-insns "$MAXI" "$d/t.elf" 2>&1 || true)
    case $res in
    PASS*) echo "PASS $name"; rm -rf "$d" ;;
    *) echo "FAIL $name: $res" ;;
    esac
}

if [ -n "${one:-}" ]; then
    one_test "$one"
    exit 0
fi

src=${TORTURE_SRC:-}
if [ -z "$src" ]; then
    src=$top_builddir/tests/torture/src/execute
    if [ ! -f "$src/.stamp" ]; then
        tarball=$(ls /usr/src/gcc-12/gcc-12*.tar.xz 2>/dev/null | head -n1 || true)
        if [ -z "$tarball" ]; then
            echo "torture: GCC's sources are missing: install the Debian package gcc-12-source" >&2
            exit 77
        fi
        rm -rf "$src"
        mkdir -p "$src"
        top=$(tar -tJf "$tarball" | head -n1 | cut -d/ -f1)
        tar -xJf "$tarball" -C "$src" --strip-components=5 "$top/gcc/testsuite/gcc.c-torture/execute/"
        touch "$src/.stamp"
    fi
fi
[ -x "$run" ] || { echo "torture: build $run first (make tests/torture/torture_run)" >&2; exit 2; }
mkdir -p "$out"
# shellcheck disable=SC2086
$GUEST_CC $CFLAGS -I"$top_srcdir/examples/lib" -c "$here/crt0.S" -o "$out/crt0.o"
# shellcheck disable=SC2086
$GUEST_CC $CFLAGS -O2 -c "$here/libc.c" -o "$out/libc.o"

if [ -n "$list" ]; then
    grep -v '^#' "$list" | sed 's/[[:space:]].*//' | grep . | sed "s|^|$src/|; s|\$|.c|"
else
    ls "$src"/*.c
fi > "$out/tests.txt"
export GUEST_CC top_srcdir top_builddir TORTURE_OPT TORTURE_MAX_INSNS
xargs -P "$JOBS" -n 1 sh "$0" --out "$out" --one < "$out/tests.txt" | sort > "$out/results.txt"

pass=$(grep -c '^PASS' "$out/results.txt" || true)
skip=$(grep -c '^SKIP' "$out/results.txt" || true)
nfail=0 nknown=0
while read -r kind name rest; do
    [ "$kind" = FAIL ] || continue
    name=${name%:}
    if [ -n "$known" ] && grep -q "^$name[[:space:]]" "$known"; then
        nknown=$((nknown + 1))
        echo "KNOWN $name: $rest"
    else
        nfail=$((nfail + 1))
        echo "FAIL $name: $rest"
    fi
done < "$out/results.txt"
echo "torture ($OPT): $(wc -l < "$out/tests.txt") tests, $pass passed, $nknown known failures, $skip skipped (see $out/results.txt)"
echo "$pass passed, $nfail failed, $skip skipped"
[ "$nfail" -eq 0 ]
