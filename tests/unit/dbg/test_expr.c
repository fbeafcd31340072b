/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the debugger's expression language (src/dbg/expr.c)
 * against a small fake environment: registers, one symbol, a device-like
 * dotted name and 64 bytes of memory at 0x1000. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbg/expr.h"
#include "../check_run.h"

typedef struct fake {
    uint8_t mem[64];
    uint64_t a0;
    unsigned reads;
    char last_ident[128];
    char var_name[32];
    xval var;
} fake;

static fake F;

static int get_var(void *ctx, const char *name, xval *out, xerr *err)
{
    fake *f = ctx;
    if (!strcmp(name, "a0")) {
        *out = xval_int((int64_t)f->a0);
        return 0;
    }
    if (!strcmp(name, "sp")) {
        *out = xval_addr(0x1010, 8);
        return 0;
    }
    if (f->var_name[0] && !strcmp(name, f->var_name)) {
        *out = f->var;
        return 0;
    }
    xerr_set(err, "no $%s", name);
    return -1;
}

static int set_var(void *ctx, const char *name, const xval *v, xerr *err)
{
    fake *f = ctx;
    (void)err;
    if (!strcmp(name, "a0"))
        f->a0 = v->v;
    else {
        snprintf(f->var_name, sizeof f->var_name, "%s", name);
        f->var = *v;
    }
    return 0;
}

static int get_ident(void *ctx, const char *name, xval *out, xerr *err)
{
    fake *f = ctx;
    snprintf(f->last_ident, sizeof f->last_ident, "%s", name);
    if (!strcmp(name, "table")) {
        *out = xval_addr(0x1000, 4);
        return 0;
    }
    if (!strcmp(name, "bridge.DEVICE(2).SWAP_DIR")) {
        *out = xval_uns(1);
        return 0;
    }
    if (!strcmp(name, "len")) {
        *out = xval_uns(1514);
        return 0;
    }
    xerr_set(err, "No symbol \"%s\" in current context.", name);
    return -1;
}

static int read_mem(void *ctx, uint64_t a, unsigned size, uint64_t *v, xerr *err)
{
    fake *f = ctx;
    f->reads++;
    if (a < 0x1000 || a + size > 0x1000 + sizeof f->mem) {
        xerr_set(err, "Cannot access memory at address 0x%llx", (unsigned long long)a);
        return -1;
    }
    *v = load_be(f->mem + (a - 0x1000), size);
    return 0;
}

static int write_mem(void *ctx, uint64_t a, unsigned size, uint64_t v, xerr *err)
{
    fake *f = ctx;
    if (a < 0x1000 || a + size > 0x1000 + sizeof f->mem) {
        xerr_set(err, "Cannot access memory at address 0x%llx", (unsigned long long)a);
        return -1;
    }
    store_be(f->mem + (a - 0x1000), size, v);
    return 0;
}

static const expr_env env = {&F, get_var, set_var, get_ident, NULL, read_mem, write_mem, NULL};

static void setup(void)
{
    memset(&F, 0, sizeof F);
    for (unsigned i = 0; i < sizeof F.mem; i++)
        F.mem[i] = (uint8_t)(0xf0 + i);
    F.a0 = 7;
}

static int64_t ev(const char *text)
{
    xval v;
    xerr err;
    int rc = expr_evaluate(text, &env, &v, &err);
    ck_assert_msg(rc == 0, "\"%s\" failed: %s", text, err.msg);
    return xval_signed(&v);
}

/* Each expression evaluates to its signed value. */
typedef struct expr_case {
    const char *expr;
    int64_t want;
} expr_case;

static void check_exprs(const expr_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t v = ev(c[i].expr);
        ck_assert_msg(v == c[i].want, "\"%s\" = %lld, want %lld", c[i].expr, (long long)v,
                      (long long)c[i].want);
    }
}

static uint64_t evu(const char *text)
{
    xval v;
    xerr err;
    int rc = expr_evaluate(text, &env, &v, &err);
    ck_assert_msg(rc == 0, "\"%s\" failed: %s", text, err.msg);
    return v.v;
}

static const char *fails(const char *text)
{
    static xerr err;
    xval v;
    int rc = expr_evaluate(text, &env, &v, &err);
    ck_assert_msg(rc != 0, "\"%s\" should fail", text);
    return err.msg;
}

START_TEST(arithmetic_and_precedence)
{
    static const expr_case cases[] = {
        {"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"10 - 4 - 3", 3}, {"-5 / 2", -2},
        {"-5 % 3", -2},   {"1 << 4 | 1", 17}, {"-16 >> 2", -4},
    };
    check_exprs(cases, ARRAY_SIZE(cases));
    ck_assert_uint_eq(evu("0xffffffffffffffff >> 60"), 15);
    static const expr_case cases2[] = {
        {"6 & 3 ^ 1", 3},        {"~0", -1},       {"!5 + !0", 1},           {"2 < 3 == 1", 1},
        {"3 >= 3 && 2 <= 1", 0}, {"1 ? 2 : 3", 2}, {"0 ? 2 : 0 ? 3 : 4", 4}, {"'A' + '\\n'", 75},
    };
    check_exprs(cases2, ARRAY_SIZE(cases2));
}
END_TEST

START_TEST(signed_and_unsigned)
{
    static const expr_case cases[] = {
        {"-1 < 0", 1},
        /* A hex constant above INT64_MAX is unsigned, so -1 converts to it. */
        {"0xffffffffffffffff > 0", 1},
        {"-1 < 1u", 0},
        {"(unsigned)-1 == 0xffffffff", 1},
        {"(char)0xff", -1},
        {"(u8)0x1ff", 0xff},
        {"(short)0x18000", -32768},
        {"(unsigned long long)-1 == 0xffffffffffffffff", 1},
        {"-9223372036854775807 - 1 < 0", 1},
    };
    check_exprs(cases, ARRAY_SIZE(cases));
}
END_TEST

START_TEST(numbers)
{
    static const expr_case cases[] = {
        {"010", 8},
        {"0b101", 5},
        {"0x7fUL", 127},
        {"0", 0},
    };
    check_exprs(cases, ARRAY_SIZE(cases));
    ck_assert_str_eq(fails("18446744073709551616"), "Numeric constant too large.");
    ck_assert_ptr_nonnull(strstr(fails("09"), "Invalid number"));
    ck_assert_ptr_nonnull(strstr(fails("0x"), "Invalid number"));
    ck_assert_ptr_nonnull(strstr(fails("12abc"), "Invalid number"));
    ck_assert_str_eq(fails("0xzz"), "Invalid number \"0xzz\".");
    ck_assert_str_eq(fails("0x + 1"), "Invalid number \"0x\".");
    ck_assert_str_eq(fails("0bz2 + 1"), "Invalid number \"0bz2\".");
}
END_TEST

START_TEST(short_circuit)
{
    /* *0 cannot be read: it must not be evaluated. */
    ck_assert_int_eq(ev("0 && *0"), 0);
    ck_assert_int_eq(ev("1 || *0"), 1);
    ck_assert_int_eq(ev("1 ? 5 : *0"), 5);
    ck_assert_uint_eq(F.reads, 0);
    ck_assert_ptr_nonnull(strstr(fails("1 && *0"), "Cannot access memory"));
}
END_TEST

START_TEST(names)
{
    ck_assert_int_eq(ev("$a0 * 2"), 14);
    ck_assert_int_eq(ev("bridge.DEVICE(2).SWAP_DIR"), 1);
    ck_assert_str_eq(F.last_ident, "bridge.DEVICE(2).SWAP_DIR");
    ck_assert_int_eq(ev("len > 1500"), 1);
    ck_assert_str_eq(fails("nosuch + 1"), "No symbol \"nosuch\" in current context.");
    ck_assert_str_eq(fails("$nosuch"), "no $nosuch");
    /* A symbol is its address, like &sym; & is accepted. */
    ck_assert_uint_eq(evu("table"), 0x1000);
    ck_assert_uint_eq(evu("&table"), 0x1000);
}
END_TEST

START_TEST(memory)
{
    /* *INT reads a 32-bit signed word (big-endian). */
    ck_assert_uint_eq(evu("*0x1000") & 0xffffffff, 0xf0f1f2f3);
    ck_assert_int_eq(ev("*0x1000"), (int32_t)0xf0f1f2f3);
    ck_assert_int_eq(ev("*(u8 *)0x1001"), 0xf1);
    ck_assert_int_eq(ev("*(char *)0x1001"), (int8_t)0xf1);
    ck_assert_uint_eq(evu("*(u16 *)0x1002"), 0xf2f3);
    ck_assert_uint_eq(evu("*(unsigned long *)0x1008"), 0xf8f9fafbfcfdfeffull);
    /* Pointer arithmetic scales by the pointee size, as in C. */
    ck_assert_uint_eq(evu("(u16 *)0x1000 + 3"), 0x1006);
    ck_assert_int_eq(ev("(u32 *)0x1010 - (u32 *)0x1000"), 4);
    ck_assert_uint_eq(evu("((u8 *)0x1000)[5]"), 0xf5);
    /* Addresses (symbols, $sp) step by bytes; typed pointers by elements. */
    ck_assert_uint_eq(evu("table + 4"), 0x1004);
    ck_assert_uint_eq(evu("*(table + 4)") & 0xffffffff, 0xf4f5f6f7);
    ck_assert_uint_eq(evu("table[1]") & 0xffffffff, 0xf1f2f3f4);
    ck_assert_uint_eq(evu("((u32 *)table)[1]") & 0xffffffff, 0xf4f5f6f7);
    ck_assert_int_eq(ev("(table + 8) - table"), 8);
    ck_assert_uint_eq(evu("$sp + 8"), 0x1018);
    ck_assert_uint_eq(evu("*$sp"), 0x0001020304050607ull); /* $sp points at 8-byte values */
    ck_assert_ptr_nonnull(strstr(fails("*0x2000"), "0x2000"));
    ck_assert_ptr_nonnull(strstr(fails("1[2]"), "not a pointer"));
}
END_TEST

START_TEST(assignment)
{
    ck_assert_int_eq(ev("$a0 = 3 + 4 * 2"), 11);
    ck_assert_uint_eq(F.a0, 11);
    ck_assert_int_eq(ev("$n = $m = 4"), 4);
    ck_assert_str_eq(F.var_name, "n");
    ev("*(u8 *)0x1000 = 0x1ff");
    ck_assert_uint_eq(F.mem[0], 0xff);
    ck_assert_uint_eq(F.mem[1], 0xf1);
    ev("*0x1004 = 0x01020304");
    ck_assert_uint_eq(load_be(F.mem + 4, 4), 0x01020304);
    ev("((u16 *)0x1000)[4] = 0xbeef");
    ck_assert_uint_eq(load_be(F.mem + 8, 2), 0xbeef);
    ck_assert_str_eq(fails("1 = 2"), "Left operand of assignment is not an lvalue.");
    ck_assert_ptr_nonnull(strstr(fails("table = 1"), "Cannot assign"));
    xerr err;
    expr *e = expr_parse("$x = 1", NULL, &err);
    ck_assert(expr_is_assignment(e));
    expr_free(e);
}
END_TEST

START_TEST(syntax_errors)
{
    ck_assert_str_eq(fails("1 +"), "A syntax error in expression, near `'.");
    ck_assert_str_eq(fails("(1"), "Missing ')' in expression.");
    ck_assert_str_eq(fails("1 2"), "A syntax error in expression, near `2'.");
    ck_assert_str_eq(fails(""), "An expression is missing.");
    ck_assert_str_eq(fails("4 / (2 - 2)"), "Division by zero");
    ck_assert_str_eq(fails("1 ? 2"), "Missing ':' in conditional expression.");
    ck_assert_ptr_nonnull(strstr(fails("1 @ 2"), "Invalid character '@'"));
    ck_assert_str_eq(fails("(void)1"), "Cannot cast to void.");
}
END_TEST

START_TEST(prefix_parsing)
{
    xerr err;
    const char *end;
    expr *e = expr_parse("main+8 if $a0 == 1", &end, &err);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(end, "if $a0 == 1");
    expr_free(e);
    e = expr_parse("0x10 + 2,64 write", &end, &err);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(end, ",64 write");
    xval v;
    ck_assert_int_eq(expr_eval(e, &env, &v, &err), 0);
    ck_assert_uint_eq(v.v, 0x12);
    expr_free(e);
    e = expr_parse("len", NULL, &err);
    ck_assert_str_eq(expr_single_ident(e), "len");
    expr_free(e);
}
END_TEST

static void count_ident(void *ctx, const char *name)
{
    strcat((char *)ctx, name);
    strcat((char *)ctx, ";");
}

START_TEST(identifier_walk)
{
    char seen[200] = "";
    xerr err;
    expr *e =
        expr_parse("len > 1500 && (cause & 0x100) ? ring : hamachi0.TxStatus.Done", NULL, &err);
    ck_assert_ptr_nonnull(e);
    expr_idents(e, count_ident, seen);
    ck_assert_str_eq(seen, "len;cause;ring;hamachi0.TxStatus.Done;");
    expr_free(e);
}
END_TEST


int main(void)
{
    return check_main("expr", "expr", setup, NULL, 0, arithmetic_and_precedence,
                      signed_and_unsigned, numbers, short_circuit, names, memory, assignment,
                      syntax_errors, prefix_parsing, identifier_walk);
}
