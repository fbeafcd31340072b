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

/* Saves from's state into an image and loads it into to. */
static void copy_state(fixture *from, fixture *to)
{
    strbuf img;
    sb_init(&img);
    dev_state_save(from->d, &img);
    xerr err;
    ck_assert_int_eq(dev_state_load(to->d, img.s, img.len, &err), 0);
    sb_free(&img);
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
    copy_state(&a, &b);
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
    strbuf why;
    sb_init(&why);
    ck_assert_int_eq(dev_state_diff(a.d, b.d, &why), 0);
    sb_free(&why);
    /* An idle timer is restored idle (removed from the scheduler). */
    timer_del(&a.clock, &a.m.t);
    copy_state(&a, &b);
    ck_assert(!timer_pending(&b.m.t));
    ck_assert_ptr_null(b.clock.head);
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
    copy_state(&a, &b);
    strbuf why;
    sb_init(&why);
    ck_assert_int_eq(dev_state_diff(a.d, b.d, &why), -1);
    ck_assert_msg(strstr(why.s, "after field mem)") && strstr(why.s, "misses"), "%s", why.s);
    /* A declared field that differs is named. */
    sb_reset(&why);
    b.m.forgotten = 5;
    b.m.parts[0].a = 3;
    ck_assert_int_eq(dev_state_diff(a.d, b.d, &why), -1);
    ck_assert_msg(strstr(why.s, "parts[0].a"), "%s", why.s);
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

/* A field only its own hooks can encode (ST_CUSTOM): a queue of up to four
 * allocated items of varying length. */
#define QMAX 4
typedef struct queue {
    uint32_t n;
    uint8_t *item[QMAX];
    uint32_t len[QMAX];
} queue;
typedef struct qmodel {
    uint32_t before;
    queue q;
    uint32_t after;
} qmodel;

/* Image: u8 n, then per item {u8 len, bytes}. */
static void q_save(const void *base, strbuf *out)
{
    const queue *q = &((const qmodel *)base)->q;
    sb_putc(out, (char)q->n);
    for (uint32_t i = 0; i < q->n; i++) {
        sb_putc(out, (char)q->len[i]);
        sb_append(out, q->item[i], q->len[i]);
    }
}

static int q_check(const void *base, const uint8_t *img, size_t len, xerr *err)
{
    (void)base;
    if (len < 1 || img[0] > QMAX)
        return xerr_fail(err, "not a queue of at most %u items", QMAX);
    size_t at = 1;
    for (unsigned i = 0; i < img[0]; i++) {
        if (at >= len || img[at] > len - at - 1)
            return xerr_fail(err, "item %u is truncated", i);
        at += 1 + img[at];
    }
    if (at != len)
        return xerr_fail(err, "%zu bytes after the items", len - at);
    return 0;
}

static void q_load(void *base, const uint8_t *img, size_t len)
{
    (void)len;
    queue *q = &((qmodel *)base)->q;
    for (uint32_t i = 0; i < q->n; i++)
        free(q->item[i]);
    memset(q, 0, sizeof *q);
    q->n = img[0];
    size_t at = 1;
    for (uint32_t i = 0; i < q->n; i++) {
        q->len[i] = img[at];
        q->item[i] = xmalloc(q->len[i] + 1);
        memcpy(q->item[i], img + at + 1, q->len[i]);
        at += 1 + q->len[i];
    }
}

static const state_ops q_ops = {q_save, q_check, q_load};
static const state_decl qmodel_decls[] = {
    STATE_INT(qmodel, before, "a word"),
    STATE_CUSTOM(qmodel, q, q_ops, "a queue of items"),
    STATE_INT(qmodel, after, "another word"),
};
static const device_class qmodel_class = {.name = "qmodel", DEV_STATE(qmodel_decls, qmodel)};

static void q_push(qmodel *m, const char *s)
{
    queue *q = &m->q;
    q->len[q->n] = (uint32_t)strlen(s);
    q->item[q->n] = (uint8_t *)xstrdup(s);
    q->n++;
}

static void q_free(qmodel *m)
{
    for (uint32_t i = 0; i < m->q.n; i++)
        free(m->q.item[i]);
}

START_TEST(state_custom_field)
{
    sched clock;
    sched_init(&clock, 1000);
    qmodel a = {0}, b = {0};
    device *da = device_new(&qmodel_class, "q0", &a, NULL, &clock);
    device *db = device_new(&qmodel_class, "q1", &b, NULL, &clock);
    a.before = 1;
    a.after = 2;
    q_push(&a, "hello");
    q_push(&a, "");
    q_push(&a, "a longer item");
    q_push(&b, "old"); /* b holds another queue: the load replaces it */
    strbuf img, why, out;
    sb_init(&img);
    sb_init(&why);
    sb_init(&out);
    dev_state_save(da, &img);
    xerr err;
    uint64_t before = dev_state_hash(db);
    /* Every truncation is refused, and leaves b as it was. */
    for (size_t n = 0; n < img.len; n++) {
        ck_assert_int_eq(dev_state_load(db, img.s, n, &err), -1);
        ck_assert_uint_eq(dev_state_hash(db), before);
    }
    ck_assert_int_eq(dev_state_load(db, img.s, img.len, &err), 0);
    ck_assert_uint_eq(b.q.n, 3);
    ck_assert_uint_eq(b.q.len[2], 13);
    ck_assert(memcmp(b.q.item[2], "a longer item", 13) == 0);
    ck_assert_ptr_ne(b.q.item[0], a.q.item[0]);
    ck_assert_uint_eq(b.after, 2);
    ck_assert_uint_eq(dev_state_hash(da), dev_state_hash(db));
    ck_assert_int_eq(dev_state_diff(da, db, &why), 0);
    /* The pointers differ, the contents not: a changed item is named. */
    b.q.item[0][0] = 'j';
    ck_assert_int_eq(dev_state_diff(da, db, &why), -1);
    ck_assert_msg(strstr(why.s, "field q differs"), "%s", why.s);
    ck_assert_uint_ne(dev_state_hash(da), dev_state_hash(db));
    /* The hook's check refuses a bad image, naming the field; b unchanged.
     * The data ends with before(4) {u32 len, the queue image} after(4). */
    before = dev_state_hash(db);
    char *bad = xmalloc(img.len);
    memcpy(bad, img.s, img.len);
    size_t qlen = 1 + 6 + 1 + 14, n_at = img.len - 4 - qlen;
    ck_assert_int_eq(bad[n_at], 3);
    bad[n_at] = 5;
    ck_assert_int_eq(dev_state_load(db, bad, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "\"q\"") && strstr(err.msg, "at most 4"), "%s", err.msg);
    ck_assert_uint_eq(dev_state_hash(db), before);
    /* A custom length running past the data. */
    memcpy(bad, img.s, img.len);
    bad[n_at - 4] = (char)200;
    ck_assert_int_eq(dev_state_load(db, bad, img.len, &err), -1);
    ck_assert_msg(strstr(err.msg, "\"q\"") && strstr(err.msg, "past the end"), "%s", err.msg);
    ck_assert_uint_eq(dev_state_hash(db), before);
    free(bad);
    /* info device-state shows the field's image. */
    dev_state_show(da, &out);
    ck_assert_msg(strstr(out.s, "custom") && strstr(out.s, "(22 bytes of image)"), "%s", out.s);
    /* A custom row without its hooks is refused. */
    const state_decl no_ops[] = {
        {.name = "q", .offset = offsetof(qmodel, q), .size = sizeof(queue), .kind = ST_CUSTOM}};
    const device_class broken = {.name = "qmodel", DEV_STATE(no_ops, qmodel)};
    char buf[160];
    ck_assert_ptr_nonnull(dev_state_problem(&broken, buf, sizeof buf));
    ck_assert_ptr_null(dev_state_problem(&qmodel_class, buf, sizeof buf));
    sb_free(&img);
    sb_free(&why);
    sb_free(&out);
    device_free(da);
    device_free(db);
    q_free(&a);
    q_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("devstate");
    check_add_tests(check_case(s, "state", NULL, NULL, 0), state_round_trip,
                    state_diff_finds_undeclared_field, state_bad_images, state_show,
                    state_bad_declarations, state_custom_field);
    return check_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
