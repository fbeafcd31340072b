/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state section of a device declaration (src/core/devstate.c): save,
 * load, hash and compare from the declaration alone, on a small model; and
 * the check that catches a field the declaration forgot. */
#include <check.h>
#include <stdlib.h>

#include "core/dev.h"
#include "../check_run.h"

typedef struct part {
    uint16_t a;
    uint8_t buf[5];
} part;

typedef struct model {
    device *dev; /* wiring */
    uint32_t count;
    bool flag;
    bool line;
    uint8_t fifo[4];
    uint64_t words[3];
    timer t;
    part parts[2];
    uint8_t *mem;       /* MEM_LEN bytes the model allocates */
    uint32_t mem_len;   /* configuration */
    uint32_t forgotten; /* not declared: the diff must notice it */
} model;

enum { M_CTRL, M_TABLE, M_NREGS };
/* clang-format off */
static const reg_decl model_regs[] = {
    [M_CTRL] = {.name = "Ctrl", .offset = 0, .width = 4},
    [M_TABLE] = {.name = "Table", .offset = 8, .width = 4, .count = 2, .stride = 4},
};
/* clang-format on */
DEV_REGS_CHECK(model_regs, M_NREGS);

static const state_decl part_decls[] = {
    STATE_INT(part, a, "a number"),
    STATE_BYTES(part, buf, "bytes"),
};
static const state_table part_state = STATE_TABLE(part_decls, part);

static const state_decl model_decls[] = {
    STATE_WIRING(model, dev, "the register block"),
    STATE_INT(model, count, "a counter"),
    STATE_BOOL(model, flag, "a flag"),
    STATE_LINE(model, line, "an output"),
    STATE_BYTES(model, fifo, "FIFO storage"),
    STATE_INTS(model, words, "three words"),
    STATE_TIMER(model, t, "a timer"),
    STATE_PARTS(model, parts, part_state, "two parts"),
    STATE_BUFFER(model, mem, mem_len, "the model's memory"),
};
#define MEM_LEN 6

static const device_class model_class = {
    .name = "model",
    DEV_REGS(model_regs),
    .reg_space = 0x10,
    DEV_STATE(model_decls, model),
};

/* The same class name with another field list (a newer model version). */
static const state_decl other_decls[] = {
    STATE_INT(model, count, "a counter"),
};
static const device_class other_class = {
    .name = "model",
    DEV_REGS(model_regs),
    .reg_space = 0x10,
    DEV_STATE(other_decls, model),
};

static void fire(void *opaque) { (void)opaque; }

typedef struct fixture {
    sched clock;
    model m;
    device *d;
} fixture;

static void fx_init(fixture *f, const device_class *cls)
{
    memset(f, 0, sizeof *f);
    sched_init(&f->clock, 1000);
    timer_init(&f->m.t, "t", fire, &f->m);
    f->m.mem = xcalloc(1, MEM_LEN);
    f->m.mem_len = MEM_LEN;
    f->d = device_new(cls, "m0", &f->m, NULL, &f->clock);
    f->m.dev = f->d;
    device_reset(f->d);
}

static void fx_free(fixture *f)
{
    timer_del(&f->clock, &f->m.t);
    free(f->m.mem);
    device_free(f->d);
}

static void exercise(fixture *f)
{
    model *m = &f->m;
    dev_write(f->d, NULL, 0, 4, 0x1234);
    dev_write(f->d, NULL, 12, 4, 0xbeef);
    m->count = 77;
    m->flag = true;
    m->line = true;
    memcpy(m->fifo, "abcd", 4);
    m->words[2] = 0x1122334455667788ull;
    f->clock.now = 500;
    f->clock.seq = 40;
    timer_mod(&f->clock, &m->t, 900);
    m->parts[1].a = 9;
    m->parts[1].buf[4] = 0xee;
    m->mem[5] = 0x5a;
}

START_TEST(state_round_trip)
{
    fixture a, b;
    fx_init(&a, &model_class);
    fx_init(&b, &model_class);
    uint64_t fresh = dev_state_hash(a.d);
    ck_assert_uint_eq(fresh, dev_state_hash(b.d));
    exercise(&a);
    ck_assert_uint_ne(dev_state_hash(a.d), fresh);
    strbuf img, why;
    sb_init(&img);
    sb_init(&why);
    dev_state_save(a.d, &img);
    xerr err;
    ck_assert_int_eq(dev_state_load(b.d, img.s, img.len, &err), 0);
    ck_assert_uint_eq(dev_state_hash(a.d), dev_state_hash(b.d));
    ck_assert_uint_eq(DEV_R(b.d, M_CTRL), 0x1234);
    ck_assert_uint_eq(*dev_rv(b.d, M_TABLE, 1), 0xbeef);
    ck_assert_uint_eq(b.m.words[2], 0x1122334455667788ull);
    ck_assert_int_eq(b.m.parts[1].buf[4], 0xee);
    ck_assert_int_eq(b.m.mem[5], 0x5a);
    ck_assert_ptr_ne(b.m.mem, a.m.mem);
    /* The timer is back in b's scheduler at its time and order. */
    ck_assert(timer_pending(&b.m.t));
    ck_assert_uint_eq(b.m.t.when, 900);
    ck_assert_uint_eq(b.m.t.seq, 40);
    ck_assert_ptr_eq(b.clock.head, &b.m.t);
    ck_assert_ptr_eq(b.m.dev, b.d); /* wiring untouched */
    ck_assert_int_eq(dev_state_diff(a.d, b.d, &why), 0);
    /* An idle timer is restored idle (removed from the scheduler). */
    timer_del(&a.clock, &a.m.t);
    sb_reset(&img);
    img.len = 0;
    dev_state_save(a.d, &img);
    ck_assert_int_eq(dev_state_load(b.d, img.s, img.len, &err), 0);
    ck_assert(!timer_pending(&b.m.t));
    ck_assert_ptr_null(b.clock.head);
    sb_free(&img);
    sb_free(&why);
    fx_free(&a);
    fx_free(&b);
}
END_TEST

START_TEST(state_diff_finds_undeclared_field)
{
    fixture a, b;
    fx_init(&a, &model_class);
    fx_init(&b, &model_class);
    exercise(&a);
    a.m.forgotten = 5;
    strbuf img, why;
    sb_init(&img);
    sb_init(&why);
    dev_state_save(a.d, &img);
    xerr err;
    ck_assert_int_eq(dev_state_load(b.d, img.s, img.len, &err), 0);
    ck_assert_int_eq(dev_state_diff(a.d, b.d, &why), -1);
    ck_assert_msg(strstr(why.s, "after field mem)") && strstr(why.s, "misses"), "%s", why.s);
    /* A declared field that differs is named. */
    sb_reset(&why);
    b.m.forgotten = 5;
    b.m.parts[0].a = 3;
    ck_assert_int_eq(dev_state_diff(a.d, b.d, &why), -1);
    ck_assert_msg(strstr(why.s, "parts[0].a"), "%s", why.s);
    sb_free(&img);
    sb_free(&why);
    fx_free(&a);
    fx_free(&b);
}
END_TEST

START_TEST(state_bad_images)
{
    fixture a, b, o;
    fx_init(&a, &model_class);
    fx_init(&b, &model_class);
    fx_init(&o, &other_class);
    exercise(&a);
    strbuf img;
    sb_init(&img);
    dev_state_save(a.d, &img);
    uint64_t before = dev_state_hash(b.d);
    xerr err;
    /* Every truncation is refused, and leaves b as it was. */
    for (size_t n = 0; n < img.len; n++) {
        ck_assert_int_eq(dev_state_load(b.d, img.s, n, &err), -1);
        ck_assert_uint_eq(dev_state_hash(b.d), before);
    }
    /* Trailing bytes. */
    char *longer = xmalloc(img.len + 1);
    memcpy(longer, img.s, img.len);
    longer[img.len] = 0;
    ck_assert_int_eq(dev_state_load(b.d, longer, img.len + 1, &err), -1);
    ck_assert_msg(strstr(err.msg, "after the end"), "%s", err.msg);
    free(longer);
    /* A flag holding 2: the flag is found in the data by its value. */
    char *bad = xmalloc(img.len);
    memcpy(bad, img.s, img.len);
    /* The data ends with flag(1) line(1) fifo(4) words(24) timer(17) parts(2 x 7) mem. */
    size_t flag_at = img.len - MEM_LEN - 2 * 7 - 17 - 24 - 4 - 1 - 1;
    ck_assert_int_eq(bad[flag_at], 1);
    bad[flag_at] = 2;
    ck_assert_int_eq(dev_state_load(b.d, bad, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "\"flag\"") && strstr(err.msg, "not a flag"), "%s", err.msg);
    ck_assert_uint_eq(dev_state_hash(b.d), before);
    /* Not an image at all. */
    memcpy(bad, "JUNK", 4);
    ck_assert_int_eq(dev_state_load(b.d, bad, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "not a device state image"), "%s", err.msg);
    free(bad);
    /* The same class name, another field list. */
    ck_assert_int_eq(dev_state_load(o.d, img.s, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "fields"), "%s", err.msg);
    ck_assert_uint_eq(dev_state_hash(b.d), before);
    /* A buffer of another size (a device configured differently). */
    b.m.mem_len = MEM_LEN - 1;
    ck_assert_int_eq(dev_state_load(b.d, img.s, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "\"mem\""), "%s", err.msg);
    b.m.mem_len = MEM_LEN;
    sb_free(&img);
    fx_free(&a);
    fx_free(&b);
    fx_free(&o);
}
END_TEST

START_TEST(state_show)
{
    fixture a;
    fx_init(&a, &model_class);
    exercise(&a);
    strbuf out;
    sb_init(&out);
    dev_state_show(a.d, &out);
    ck_assert_msg(strstr(out.s, "reg.Table") && strstr(out.s, "0x0 0xbeef"), "%s", out.s);
    ck_assert_msg(strstr(out.s, "not state: the register block"), "%s", out.s);
    ck_assert_msg(strstr(out.s, "due at 900 (in 400), order 40"), "%s", out.s);
    ck_assert_msg(strstr(out.s, "parts[1].buf") && strstr(out.s, "00000000ee"), "%s", out.s);
    ck_assert_msg(strstr(out.s, "fifo") && strstr(out.s, "61626364 (4 bytes, 4 not 0)"), "%s",
                  out.s);
    ck_assert_msg(strstr(out.s, "mem  ") && strstr(out.s, "buffer 00000000005a (6 bytes, 1 not 0)"),
                  "%s", out.s);
    sb_free(&out);
    fx_free(&a);
}
END_TEST

/* Declarations the walkers cannot handle are refused (device_new aborts). */
typedef struct odd {
    uint8_t three[3];
    uint32_t x;
} odd;
static const state_decl odd_decls[] = {
    {.name = "three", .offset = offsetof(odd, three), .size = 3, .kind = ST_INT},
};
static const state_decl outside_decls[] = {
    {.name = "x", .offset = offsetof(odd, x), .size = 4, .count = 2, .kind = ST_INT},
};
static const state_decl sound_decls[] = {
    STATE_BYTES(odd, three, "three bytes"),
    STATE_INT(odd, x, "a word"),
};

START_TEST(state_bad_declarations)
{
    const device_class bad = {.name = "odd", DEV_STATE(odd_decls, odd)};
    const device_class outside = {.name = "odd", DEV_STATE(outside_decls, odd)};
    const device_class sound = {.name = "odd", DEV_STATE(sound_decls, odd)};
    char buf[160];
    const char *why = dev_state_problem(&bad, buf, sizeof buf);
    ck_assert_msg(why && strstr(why, "three"), "%s", why ? why : "(none)");
    why = dev_state_problem(&outside, buf, sizeof buf);
    ck_assert_msg(why && strstr(why, "does not fit"), "%s", why ? why : "(none)");
    ck_assert_ptr_null(dev_state_problem(&sound, buf, sizeof buf));
    ck_assert_ptr_null(dev_state_problem(&model_class, buf, sizeof buf));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("devstate");
    TCase *tc = tcase_create("state");
    tcase_add_test(tc, state_round_trip);
    tcase_add_test(tc, state_diff_finds_undeclared_field);
    tcase_add_test(tc, state_bad_images);
    tcase_add_test(tc, state_show);
    tcase_add_test(tc, state_bad_declarations);
    suite_add_tcase(s, tc);
    return check_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
