/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU self-test guest for the IP27 (built with examples/lib, run by
 * tests/batch/cpu_selftest.sh in batch mode): checks its own results for
 * 64-bit integer arithmetic, floating point in every rounding mode,
 * exceptions taken by its own handler (vectors.S), TLB refills from its
 * XTLB handler, and user mode, and reports on the console. */
#include <stdint.h>

#include "xbow.h"

static unsigned checks, failures;

static void check(int ok, const char *what, uint64_t got, uint64_t want)
{
    checks++;
    if (ok)
        return;
    failures++;
    printf("FAIL: %s: got 0x%llx want 0x%llx\n", what, (unsigned long long)got,
           (unsigned long long)want);
}
#define CHECK_EQ(what, got, want)                             \
    do {                                                      \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
        check(g_ == w_, what, g_, w_);                        \
    } while (0)

/* The handlers' log (vectors.S offsets). */
volatile struct {
    uint64_t cause, epc, badvaddr, count, user_return, refills, tlb_delta, status;
} exc_log;

extern char vec_xtlb[], vec_xtlb_end[], vec_general[], vec_general_end[];
extern char user_code[], user_code_end[];

#define XKPHYS_CAC 0xa800000000000000ull
#define XKPHYS_UNC 0x9000000000000000ull
#define ST_KX (1u << 7)
#define ST_SX (1u << 6)
#define ST_UX (1u << 5)
#define ST_EXL (1u << 1)
#define ST_CU1 (1u << 29)
#define ST_FR (1u << 26)

static inline uint64_t mfc0_status(void)
{
    uint64_t v;
    __asm__ volatile("mfc0 %0, $12" : "=r"(v));
    return v;
}
static inline void mtc0_status(uint64_t v) { __asm__ volatile("mtc0 %0, $12; nop" ::"r"(v)); }
static unsigned exc_code(void) { return (unsigned)(exc_log.cause >> 2) & 31; }

static void install(uint64_t off, const char *from, const char *to)
{
    volatile uint32_t *dst = (volatile uint32_t *)(XKPHYS_UNC + off);
    const uint32_t *src = (const uint32_t *)from;
    for (long i = 0; i < (to - from) / 4; i++)
        dst[i] = src[i];
}

/* ---- 64-bit integer ------------------------------------------------------ */

static uint64_t mul_by_shifts(uint64_t a, uint64_t b)
{
    uint64_t r = 0;
    for (int i = 0; i < 64; i++)
        if (b >> i & 1)
            r += a << i;
    return r;
}

static void test_integer(void)
{
    volatile uint64_t a = 0x123456789abcdef1ull, b = 0xfedcba9876543211ull;
    CHECK_EQ("dmultu lo", a * b, mul_by_shifts(a, b));
    unsigned __int128 p = (unsigned __int128)a * b;
    /* high half by 32-bit limbs */
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t t = al * bl, u = ah * bl + (t >> 32), w = al * bh + (uint32_t)u;
    CHECK_EQ("dmultu hi", (uint64_t)(p >> 64), ah * bh + (u >> 32) + (w >> 32));
    volatile int64_t n = -0x7123456789abcdefll, d = 12345;
    int64_t q = n / d, r = n % d;
    CHECK_EQ("ddiv", (uint64_t)(q * d + r), (uint64_t)n);
    check(r <= 0 && r > -d, "ddiv remainder sign", (uint64_t)r, 0);
    volatile uint64_t x = 0x8000000000000001ull;
    CHECK_EQ("dsra", (uint64_t)((int64_t)x >> 63), ~0ull);
    CHECK_EQ("dsrl32", x >> 40, 0x800000ull);
    volatile int32_t s = (int32_t)0x80000000u;
    CHECK_EQ("32-bit sign extension", (uint64_t)(int64_t)(s >> 4), 0xfffffffff8000000ull);
    volatile uint32_t m = 0xffffffffu;
    CHECK_EQ("multu", (uint64_t)m * m, 0xfffffffe00000001ull);
}

/* ---- Floating point --------------------------------------------------------- */

static void set_rm(unsigned rm)
{
    unsigned v;
    __asm__ volatile("cfc1 %0, $31" : "=r"(v));
    v = (v & ~3u) | rm;
    __asm__ volatile("ctc1 %0, $31" ::"r"(v));
}
static uint64_t bits(double d)
{
    union {
        double d;
        uint64_t u;
    } x = {d};
    return x.u;
}

static void test_fp(void)
{
    volatile double one = 1.0, three = 3.0, two = 2.0;
    static const uint64_t third[4] = {0x3fd5555555555555ull, 0x3fd5555555555555ull,
                                      0x3fd5555555555556ull, 0x3fd5555555555555ull};
    for (unsigned rm = 0; rm < 4; rm++) {
        set_rm(rm);
        CHECK_EQ("1/3 in each rounding mode", bits(one / three), third[rm]);
        CHECK_EQ("-1/3 in each rounding mode", bits(-one / three),
                 third[rm == 2   ? 3
                       : rm == 3 ? 2
                                 : rm] |
                     (1ull << 63));
    }
    set_rm(0);
    double r;
    __asm__ volatile("sqrt.d %0, %1" : "=f"(r) : "f"(two));
    CHECK_EQ("sqrt.d 2", bits(r), 0x3ff6a09e667f3bcdull);
    /* MADD is not fused: (1+2^-27)(1-2^-27) - 1 is 0, not -2^-54 */
    volatile double e = 1.0 + 0x1p-27, f = 1.0 - 0x1p-27, g = 1.0;
    __asm__ volatile("msub.d %0, %3, %1, %2" : "=f"(r) : "f"(e), "f"(f), "f"(g));
    CHECK_EQ("msub.d unfused", bits(r), 0);
    volatile double big = 2147483647.5;
    int w;
    __asm__ volatile("trunc.w.d $f0, %1; mfc1 %0, $f0" : "=r"(w) : "f"(big) : "$f0");
    CHECK_EQ("trunc.w.d", (uint64_t)(int64_t)w, 2147483647ull);
    int lt;
    __asm__ volatile("c.lt.d $fcc3, %1, %2; li %0, 0; bc1f $fcc3, 1f; nop; li %0, 1; 1:"
                     : "=&r"(lt)
                     : "f"(one), "f"(two));
    CHECK_EQ("c.lt.d + bc1f cc3", lt, 1);
}

/* ---- Exceptions through our own handler -------------------------------------- */

static void test_exceptions(void)
{
    uint64_t n0 = exc_log.count;
    __asm__ volatile("break 7");
    CHECK_EQ("break: handled", exc_log.count, n0 + 1);
    CHECK_EQ("break: ExcCode", exc_code(), 9);
    __asm__ volatile("syscall");
    CHECK_EQ("syscall: ExcCode", exc_code(), 8);
    __asm__ volatile("teq $0, $0");
    CHECK_EQ("teq: ExcCode", exc_code(), 13);
    volatile int32_t big = 0x7fffffff;
    int32_t res = 5;
    __asm__ volatile("add %0, %1, %1" : "+r"(res) : "r"(big));
    CHECK_EQ("add overflow: ExcCode", exc_code(), 12);
    CHECK_EQ("add overflow: no result", res, 5);
    static volatile uint64_t words[2];
    uintptr_t odd = (uintptr_t)words + 2;
    uint32_t v = 0;
    __asm__ volatile("lw %0, 0(%1)" : "+r"(v) : "r"(odd));
    CHECK_EQ("misaligned lw: ExcCode", exc_code(), 4);
    CHECK_EQ("misaligned lw: BadVAddr", exc_log.badvaddr, odd);
    /* Coprocessor Unusable: FP with CU1 clear */
    uint64_t st = mfc0_status();
    mtc0_status(st & ~(uint64_t)ST_CU1);
    __asm__ volatile("mov.d $f2, $f4");
    mtc0_status(st);
    CHECK_EQ("CU1 clear: ExcCode", exc_code(), 11);
    CHECK_EQ("CpU: Cause.CE", (exc_log.cause >> 28) & 3, 1);
    /* an enabled FP exception: divide by zero with Z enabled */
    unsigned fcsr = 1u << 10, cause;
    __asm__ volatile("ctc1 %0, $31" ::"r"(fcsr));
    volatile double one = 1.0, zero = 0.0;
    double q;
    __asm__ volatile("div.d %0, %1, %2" : "=f"(q) : "f"(one), "f"(zero));
    __asm__ volatile("cfc1 %0, $31" : "=r"(cause));
    __asm__ volatile("ctc1 $0, $31");
    CHECK_EQ("div.d by 0 with Z enabled: ExcCode", exc_code(), 15);
    CHECK_EQ("div.d by 0: FCSR cause Z", (cause >> 12) & 0x3f, 0x08);
    CHECK_EQ("EPC of the last exception is in this program", exc_log.epc >> 60, 0xa);
    CHECK_EQ("exceptions counted", exc_log.count, n0 + 7);
}

/* ---- TLB refill and user mode ---------------------------------------------------- */

#define MAP_VA 0x0000000040000000ull /* xkuseg, mapped */

static void test_tlb(void)
{
    static volatile uint64_t target[1024] __attribute__((aligned(8192)));
    uint64_t pa = (uintptr_t)target - XKPHYS_CAC;
    exc_log.tlb_delta = pa - MAP_VA;
    uint64_t r0 = exc_log.refills;
    target[0] = 0x1111222233334444ull;
    target[512 + 3] = 0x5555666677778888ull; /* the odd page of the pair */
    volatile uint64_t *m = (volatile uint64_t *)MAP_VA;
    CHECK_EQ("mapped read, even page", m[0], 0x1111222233334444ull);
    CHECK_EQ("mapped read, odd page", m[512 + 3], 0x5555666677778888ull);
    CHECK_EQ("one refill for the pair", exc_log.refills, r0 + 1);
    m[7] = 0xabcdef;
    CHECK_EQ("mapped write reaches memory", target[7], 0xabcdef);
    /* TLBP finds the entry */
    int64_t idx;
    __asm__ volatile("dmtc0 %1, $10; nop; tlbp; nop; mfc0 %0, $0" : "=r"(idx) : "r"(MAP_VA));
    check(idx >= 0, "tlbp finds the refilled entry", (uint64_t)idx, 0);
}

#define USER_VA 0x0000000010000000ull

static void test_user(void)
{
    uint64_t pa = (uintptr_t)user_code - XKPHYS_CAC;
    exc_log.tlb_delta = pa - USER_VA;
    /* retire the old mapping of this VA range: invalidate the TLB entries */
    for (int i = 0; i < 64; i++)
        __asm__ volatile(
            "mtc0 %0, $0; dmtc0 %1, $10; dmtc0 $0, $2; dmtc0 $0, $3; nop; tlbwi" ::"r"(i),
            "r"(0xc000000000000000ull + ((uint64_t)i << 13)));
    uint64_t n0 = exc_log.count;
    uint64_t v2, v3;
    __asm__ volatile("dla    $8, 1f\n\t"
                     "sd     $8, %2\n\t"  /* user_return */
                     "dmtc0  %3, $14\n\t" /* EPC = user code */
                     "mfc0   $8, $12\n\t"
                     "ori    $8, $8, 0x12\n\t" /* KSU = user, EXL */
                     "mtc0   $8, $12\n\t"
                     "nop\n\t"
                     "eret\n"
                     "1:\n\t"
                     "move   %0, $2\n\t"
                     "move   %1, $3\n\t"
                     : "=r"(v2), "=r"(v3), "=m"(exc_log.user_return)
                     : "r"(USER_VA)
                     : "$8", "$2", "$3", "memory");
    CHECK_EQ("user mode ran: syscall handled", exc_log.count, n0 + 1);
    CHECK_EQ("syscall from user mode: ExcCode", exc_code(), 8);
    CHECK_EQ("user mode: Status.KSU at the syscall", (exc_log.status >> 3) & 3, 2);
    CHECK_EQ("user code result", v2, 0x12345678);
    CHECK_EQ("user code result + 1", v3, 0x12345679);
    CHECK_EQ("back in kernel mode", (mfc0_status() >> 3) & 3, 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    install(0x080, vec_xtlb, vec_xtlb_end);
    install(0x180, vec_general, vec_general_end);
    /* 64-bit kernel, user and supervisor; FPU on, FR=1; BEV, ERL, EXL clear */
    mtc0_status(ST_KX | ST_SX | ST_UX | ST_CU1 | ST_FR);
    test_integer();
    test_fp();
    test_exceptions();
    test_tlb();
    test_user();
    if (failures)
        printf("cpu_selftest: %u of %u checks FAILED\n", failures, checks);
    else
        printf("cpu_selftest: all %u checks passed\n", checks);
    return 0;
}
