/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-machine snapshots: taking, checking and loading (see snapshot.h;
 * the file format is snapfile.c). */
#include "machine/snapshot_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "core/image.h"
#include "dev/nic/nic.h"
#include "machine/ip27_priv.h"
#include "machine/mconfig.h"
#include "net/net.h"

#define MACHINE_IMAGE_VERSION 1

/* ---- the in-memory form ---- */

snapshot *snapshot_alloc(void) { return xcalloc(1, sizeof(snapshot)); }

void snapshot_add_sec(snapshot *s, const char *name, uint8_t *data, size_t len)
{
    if (s->nsecs == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->secs = xrealloc(s->secs, s->cap * sizeof *s->secs);
    }
    s->secs[s->nsecs++] = (snap_sec){xstrdup(name), data, len, NULL};
}

snap_page *snap_page_new(void)
{
    snap_page *p = malloc(sizeof *p);
    if (p)
        p->refs = 1;
    return p;
}

size_t snapshot_release(snapshot *s)
{
    if (!s)
        return 0;
    size_t n = sizeof *s;
    for (unsigned i = 0; i < s->nsecs; i++) {
        snap_sec *c = &s->secs[i];
        free(c->name);
        if (c->refs && --*c->refs)
            continue; /* another snapshot holds the data */
        n += c->len;
        free(c->data);
        free(c->refs);
    }
    free(s->secs);
    for (unsigned i = 0; i < s->nrams; i++) {
        snap_ram *r = &s->rams[i];
        for (uint64_t k = 0; r->pages && k < r->nstored; k++)
            if (--r->pages[k]->refs == 0) {
                free(r->pages[k]);
                n += RAM_PAGE_SIZE;
            }
        n += (r->npages + 7) / 8 + r->nstored * sizeof *r->pages;
        free(r->name);
        free(r->bitmap);
        free(r->pages);
    }
    free(s->rams);
    free(s->version);
    free(s->config);
    free(s);
    return n;
}

void snapshot_free(snapshot *s) { snapshot_release(s); }

static const snap_sec *find_sec(const snapshot *s, const char *name)
{
    for (unsigned i = 0; i < s->nsecs; i++)
        if (strcmp(s->secs[i].name, name) == 0)
            return &s->secs[i];
    return NULL;
}

uint64_t snapshot_time(const snapshot *s) { return s->time; }
uint64_t snapshot_retired(const snapshot *s, unsigned i)
{
    return i < s->ncpus ? s->retired[i] : 0;
}
uint64_t snapshot_ram_pages(const snapshot *s)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < s->nrams; i++)
        n += s->rams[i].nstored;
    return n;
}
/* The host memory s holds apart from its pages and sections. */
static size_t meta_bytes(const snapshot *s)
{
    size_t n = sizeof *s;
    for (unsigned i = 0; i < s->nrams; i++)
        n += (s->rams[i].npages + 7) / 8 + s->rams[i].nstored * sizeof *s->rams[i].pages;
    return n;
}
size_t snapshot_bytes(const snapshot *s)
{
    size_t n = meta_bytes(s);
    for (unsigned i = 0; i < s->nsecs; i++)
        n += s->secs[i].len;
    for (unsigned i = 0; i < s->nrams; i++)
        n += s->rams[i].nstored * RAM_PAGE_SIZE;
    return n;
}
size_t snapshot_own_bytes(const snapshot *s) { return s->own_bytes; }
const char *snapshot_config(const snapshot *s) { return s->config; }

/* ---- device numbers for the CPUs' polled registers ---- */

static int dev_index_of(void *ctx, struct device *d)
{
    machine *m = ctx;
    int i = 0;
    for (device *x = m->devices; x; x = x->next, i++)
        if (x == d)
            return i;
    return -1;
}

static struct device *dev_at(void *ctx, int idx)
{
    machine *m = ctx;
    int i = 0;
    for (device *x = m->devices; x; x = x->next, i++)
        if (i == idx)
            return x;
    return NULL;
}

static cpu_dev_map dev_map(machine *m) { return (cpu_dev_map){dev_index_of, dev_at, m}; }

/* ---- the machine's own state: clocks, reset, the PROM's waiting CPUs ---- */

static void machine_save(machine *m, strbuf *out)
{
    ip27 *b = ip27_of(m);
    img_put(out, MACHINE_IMAGE_VERSION, 4);
    img_put64(out, m->clock.now);
    img_put64(out, m->clock.seq);
    img_put(out, m->ncpus, 4);
    for (unsigned i = 0; i < m->ncpus; i++) {
        img_put64(out, m->local_time[i]);
        img_put64(out, cpu_retired(m->cpus[i])); /* for `info snapshots` */
        img_put(out, b->waiting[i], 1);
        img_put64(out, b->wait_ra[i]);
    }
    img_put(out, (uint32_t)m->cur_cpu, 4);
    img_put64(out, m->reset_count);
    img_put(out, m->reset_pending, 1);
    img_put_bytes(out, m->reset_why, strlen(m->reset_why));
}

typedef struct machine_img {
    uint64_t now, seq, local_time[MAX_CPUS], retired[MAX_CPUS], wait_ra[MAX_CPUS];
    uint8_t waiting[MAX_CPUS];
    unsigned ncpus, cur_cpu;
    uint64_t reset_count;
    uint8_t reset_pending;
    char reset_why[96];
} machine_img;

static int machine_parse(const uint8_t *img, size_t len, machine_img *s, xerr *err)
{
    img_reader r;
    img_reader_init(&r, img, len);
    memset(s, 0, sizeof *s);
    uint64_t v = img_get(&r, 4);
    if (!r.short_read && v != MACHINE_IMAGE_VERSION)
        return xerr_fail(err, "section \"machine\": version %llu, this xbow reads %u",
                         (unsigned long long)v, MACHINE_IMAGE_VERSION);
    s->now = img_get64(&r);
    s->seq = img_get64(&r);
    uint64_t n = img_get(&r, 4);
    if (n < 1 || n > MAX_CPUS)
        return xerr_fail(err, "section \"machine\": %llu CPUs", (unsigned long long)n);
    s->ncpus = (unsigned)n;
    for (unsigned i = 0; i < s->ncpus; i++) {
        s->local_time[i] = img_get64(&r);
        s->retired[i] = img_get64(&r);
        s->waiting[i] = (uint8_t)img_get(&r, 1);
        s->wait_ra[i] = img_get64(&r);
        if (s->waiting[i] > 1)
            return xerr_fail(err, "section \"machine\": a flag is not 0 or 1");
    }
    s->cur_cpu = (unsigned)img_get(&r, 4);
    s->reset_count = img_get64(&r);
    s->reset_pending = (uint8_t)img_get(&r, 1);
    size_t wl;
    const uint8_t *why = img_get_bytes(&r, &wl);
    if (r.short_read)
        return xerr_fail(err, "section \"machine\" is truncated");
    if (img_left(&r))
        return xerr_fail(err, "section \"machine\": %zu bytes after its end", img_left(&r));
    if (s->cur_cpu >= s->ncpus || s->reset_pending > 1 || wl >= sizeof s->reset_why)
        return xerr_fail(err, "section \"machine\" holds values out of range");
    memcpy(s->reset_why, why, wl);
    return 0;
}

int snapshot_read_info(snapshot *s, xerr *err)
{
    const snap_sec *sec = find_sec(s, "machine");
    if (!sec)
        return xerr_fail(err, "the snapshot has no \"machine\" section");
    machine_img mi;
    if (machine_parse(sec->data, sec->len, &mi, err) != 0)
        return -1;
    s->time = mi.now;
    s->ncpus = mi.ncpus;
    memcpy(s->retired, mi.retired, sizeof s->retired);
    return 0;
}

/* ---- taking ---- */

typedef void (*sec_fn)(void *ctx, const char *name, strbuf *data);

static nic *nic_at(machine *m, unsigned i) { return nic_from_pci(ip27_of(m)->nics[i]); }

/* Every state section of m, in order, to fn (which owns nothing). */
static void each_section(machine *m, sec_fn fn, void *ctx)
{
    strbuf b;
    sb_init(&b);
    machine_save(m, &b);
    fn(ctx, "machine", &b);
    cpu_dev_map map = dev_map(m);
    for (unsigned i = 0; i < m->ncpus; i++) {
        sb_reset(&b);
        cpu_state_save(m->cpus[i], &b, &map);
        char name[16];
        snprintf(name, sizeof name, "cpu%u", i);
        fn(ctx, name, &b);
    }
    for (device *d = m->devices; d; d = d->next) {
        sb_reset(&b);
        dev_state_save(d, &b);
        char name[80];
        snprintf(name, sizeof name, "dev:%s", d->name);
        fn(ctx, name, &b);
    }
    for (unsigned i = 0; i < ip27_of(m)->nnics; i++) {
        net_port *p = nic_at(m, i)->port;
        sb_reset(&b);
        net_port_state_save(p, &b);
        char name[48];
        snprintf(name, sizeof name, "net:%s", p->name);
        fn(ctx, name, &b);
    }
    sb_reset(&b);
    size_t cap = chardev_input_capacity();
    uint8_t *in = xmalloc(cap);
    size_t n = chardev_pending_input(m->console, in, cap);
    sb_append(&b, in, n);
    free(in);
    fn(ctx, "console", &b);
    sb_free(&b);
}

static void add_fn(void *ctx, const char *name, strbuf *data)
{
    snapshot *s = ctx;
    uint8_t *copy = xmalloc(data->len ? data->len : 1);
    memcpy(copy, data->s, data->len);
    snapshot_add_sec(s, name, copy, data->len);
}

static bool page_zero(const uint8_t *p)
{
    const uint64_t *w = (const uint64_t *)p;
    for (unsigned i = 0; i < RAM_PAGE_SIZE / 8; i += 8) {
        uint64_t x =
            w[i] | w[i + 1] | w[i + 2] | w[i + 3] | w[i + 4] | w[i + 5] | w[i + 6] | w[i + 7];
        if (x)
            return false;
    }
    return true;
}

/* RAM the guest never touched is all zero, and reading it the first time
 * costs a page fault per page (0.2 s for 512 MB): the kernel says which host
 * pages were never touched (mincore: not resident), provided none of this
 * process is in swap (a page swapped out is not resident either). */
typedef struct untouched {
    unsigned char *vec; /* per host page: bit 0 = resident; NULL: unknown */
    uintptr_t base;     /* the first host page's address */
    size_t host_page;
} untouched;

static bool in_swap(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return true;
    char line[128];
    bool swapped = true; /* no VmSwap line: do not know */
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmSwap:", 7) == 0)
            swapped = strtoull(line + 7, NULL, 10) != 0;
    fclose(f);
    return swapped;
}

static void untouched_init(untouched *u, const ram_block *rb)
{
    u->vec = NULL;
    long hp = sysconf(_SC_PAGESIZE);
    if (hp <= 0 || rb->size < RAM_PAGE_SIZE || in_swap())
        return;
    u->host_page = (size_t)hp;
    u->base = (uintptr_t)rb->host & ~(uintptr_t)(u->host_page - 1);
    uintptr_t end =
        ((uintptr_t)rb->host + rb->size + u->host_page - 1) & ~(uintptr_t)(u->host_page - 1);
    size_t n = (end - u->base) / u->host_page;
    u->vec = xmalloc(n);
    if (mincore((void *)u->base, end - u->base, u->vec) != 0 || in_swap()) {
        free(u->vec);
        u->vec = NULL;
    }
}

/* Is RAM page pg certainly zero because no host page under it was ever
 * touched? */
static bool untouched_page(const untouched *u, const ram_block *rb, uint64_t pg)
{
    if (!u->vec)
        return false;
    uintptr_t a = (uintptr_t)rb->host + pg * RAM_PAGE_SIZE;
    size_t first = (a - u->base) / u->host_page;
    size_t last = (a + RAM_PAGE_SIZE - 1 - u->base) / u->host_page;
    for (size_t i = first; i <= last; i++)
        if (u->vec[i] & 1)
            return false;
    return true;
}

/* A page of base's RAM block r (page pg), with *k its position among the
 * stored ones; NULL when it is not stored (all zero). */
static snap_page *base_page(const snap_ram *r, uint64_t pg, uint64_t *k)
{
    if (!snap_page_stored(r, pg))
        return NULL;
    return r->pages[(*k)++];
}

/* Block rb into r: with base (the same block as it was when the tracking
 * started), a page still clean is base's, shared; the others are read. */
static void take_ram(snap_ram *r, const ram_block *rb, const snap_ram *base, size_t *own)
{
    untouched u = {.vec = NULL};
    if (!base)
        untouched_init(&u, rb);
    r->name = xstrdup(rb->name);
    r->size = rb->size;
    r->npages = rb->size / RAM_PAGE_SIZE;
    r->bitmap = xcalloc(1, (r->npages + 7) / 8 + 1);
    r->pages = xmalloc((r->npages ? r->npages : 1) * sizeof *r->pages);
    r->nstored = 0;
    uint64_t bk = 0;
    for (uint64_t pg = 0; pg < r->npages; pg++) {
        const uint8_t *src = rb->host + pg * RAM_PAGE_SIZE;
        snap_page *shared = base ? base_page(base, pg, &bk) : NULL;
        snap_page *p = NULL;
        if (base && ram_page_clean(rb, pg * RAM_PAGE_SIZE)) {
            if (!shared)
                continue; /* zero then, zero now */
            shared->refs++;
            p = shared;
        } else {
            if (untouched_page(&u, rb, pg) || page_zero(src))
                continue;
            p = snap_page_new();
            if (!p)
                abort(); /* as xmalloc */
            memcpy(p->data, src, RAM_PAGE_SIZE);
            *own += sizeof *p;
        }
        r->bitmap[pg >> 3] |= (uint8_t)(1u << (pg & 7));
        r->pages[r->nstored++] = p;
    }
    free(u.vec);
    r->pages = xrealloc(r->pages, (r->nstored ? r->nstored : 1) * sizeof *r->pages);
}

/* Can base's RAM stand for m's at the start of the tracking?  The same
 * blocks, the same sizes. */
static bool base_fits(machine *m, const snapshot *base)
{
    if (!base || base->nrams != m->bus.nrams)
        return false;
    for (unsigned i = 0; i < base->nrams; i++)
        if (base->rams[i].size != m->bus.rams[i]->size ||
            strcmp(base->rams[i].name, m->bus.rams[i]->name) != 0)
            return false;
    return true;
}

snapshot *snapshot_take_since(machine *m, const snapshot *base)
{
    snapshot *s = snapshot_alloc();
    s->version = xstrdup(PACKAGE_VERSION);
    strbuf cfg;
    sb_init(&cfg);
    mconfig_text(m, &cfg);
    s->config = sb_take(&cfg);
    each_section(m, add_fn, s);
    if (!base_fits(m, base))
        base = NULL;
    size_t own = 0;
    for (unsigned i = 0; i < s->nsecs; i++) {
        snap_sec *c = &s->secs[i];
        snap_sec *b = base && i < base->nsecs ? &base->secs[i] : NULL;
        if (b && b->len == c->len && !strcmp(b->name, c->name) &&
            !memcmp(b->data, c->data, c->len)) {
            /* unchanged since base: shared (base's refs is its own field) */
            if (!b->refs) {
                b->refs = xmalloc(sizeof *b->refs);
                *b->refs = 1;
            }
            ++*b->refs;
            free(c->data);
            c->data = b->data;
            c->refs = b->refs;
        } else {
            own += c->len;
        }
    }
    s->nrams = m->bus.nrams;
    s->rams = xcalloc(s->nrams, sizeof *s->rams);
    for (unsigned i = 0; i < s->nrams; i++)
        take_ram(&s->rams[i], m->bus.rams[i], base ? &base->rams[i] : NULL, &own);
    s->own_bytes = own + meta_bytes(s);
    xerr err;
    if (snapshot_read_info(s, &err) != 0)
        abort(); /* our own machine section */
    return s;
}

snapshot *snapshot_take(machine *m) { return snapshot_take_since(m, NULL); }

void snapshot_track(machine *m) { ram_clean_all(&m->bus); }
void snapshot_untrack(machine *m) { ram_clean_off(&m->bus); }

int snapshot_ram_diff(machine *m, const snapshot *s, unsigned *block, uint64_t *off)
{
    for (unsigned i = 0; i < s->nrams && i < m->bus.nrams; i++) {
        const snap_ram *r = &s->rams[i];
        const ram_block *rb = m->bus.rams[i];
        uint64_t k = 0;
        for (uint64_t pg = 0; pg < r->npages && pg * RAM_PAGE_SIZE < rb->size; pg++) {
            const uint8_t *live = rb->host + pg * RAM_PAGE_SIZE;
            snap_page *p = base_page(r, pg, &k);
            if (p ? memcmp(p->data, live, RAM_PAGE_SIZE) != 0 : !page_zero(live)) {
                *block = i;
                *off = pg * RAM_PAGE_SIZE;
                return 1;
            }
        }
    }
    return 0;
}

/* ---- checking ---- */

static int check_sec(machine *m, const snap_sec *sec, xerr *err)
{
    const char *n = sec->name;
    xerr why;
    if (strcmp(n, "machine") == 0) {
        machine_img mi;
        if (machine_parse(sec->data, sec->len, &mi, err) != 0)
            return -1;
        if (mi.ncpus != m->ncpus)
            return xerr_fail(err, "section \"machine\" has %u CPUs, this machine %u", mi.ncpus,
                             m->ncpus);
        return 0;
    }
    if (strcmp(n, "console") == 0) {
        if (sec->len > chardev_input_capacity())
            return xerr_fail(err, "section \"console\": %zu bytes of input, at most %zu", sec->len,
                             chardev_input_capacity());
        return 0;
    }
    if (strncmp(n, "cpu", 3) == 0) {
        unsigned i;
        char canon[16];
        if (sscanf(n + 3, "%u", &i) != 1 || i >= m->ncpus ||
            (snprintf(canon, sizeof canon, "cpu%u", i), strcmp(canon, n) != 0))
            return xerr_fail(err, "section \"%s\": this machine has no such CPU", n);
        cpu_dev_map map = dev_map(m);
        if (cpu_state_check(sec->data, sec->len, &map, &why) != 0)
            return xerr_fail(err, "section \"%s\": %s", n, why.msg);
        return 0;
    }
    if (strncmp(n, "dev:", 4) == 0) {
        device *d = machine_find_device(m, n + 4);
        if (!d)
            return xerr_fail(err, "section \"%s\": this machine has no device %s", n, n + 4);
        if (dev_state_check(d, sec->data, sec->len, &why) != 0)
            return xerr_fail(err, "section \"%s\": %s", n, why.msg);
        return 0;
    }
    if (strncmp(n, "net:", 4) == 0) {
        for (unsigned i = 0; i < ip27_of(m)->nnics; i++) {
            net_port *p = nic_at(m, i)->port;
            if (strcmp(p->name, n + 4) == 0) {
                if (net_port_state_check(p, sec->data, sec->len, &why) != 0)
                    return xerr_fail(err, "section \"%s\": %s", n, why.msg);
                return 0;
            }
        }
        return xerr_fail(err, "section \"%s\": this machine has no NIC %s", n, n + 4);
    }
    return xerr_fail(err, "unknown section \"%s\"", n);
}

/* Each section the running machine has must be in the snapshot. */
typedef struct presence {
    const snapshot *s;
    char missing[80];
} presence;

static void presence_fn(void *ctx, const char *name, strbuf *data)
{
    (void)data;
    presence *p = ctx;
    if (!p->missing[0] && !find_sec(p->s, name))
        snprintf(p->missing, sizeof p->missing, "%s", name);
}

int snapshot_check(machine *m, const snapshot *s, xerr *err)
{
    if (mconfig_check(s->config, m, err) != 0)
        return -1;
    for (unsigned i = 0; i < s->nsecs; i++) {
        for (unsigned j = 0; j < i; j++)
            if (strcmp(s->secs[i].name, s->secs[j].name) == 0)
                return xerr_fail(err, "section \"%s\" appears twice", s->secs[i].name);
        if (check_sec(m, &s->secs[i], err) != 0)
            return -1;
    }
    presence pr = {.s = s};
    each_section(m, presence_fn, &pr);
    if (pr.missing[0])
        return xerr_fail(err, "the snapshot has no section \"%s\"", pr.missing);
    if (m->bus.nrams != s->nrams)
        return xerr_fail(err, "the snapshot has %u memory blocks, this machine %u", s->nrams,
                         m->bus.nrams);
    for (unsigned i = 0; i < s->nrams; i++) {
        const ram_block *rb = m->bus.rams[i];
        const snap_ram *r = &s->rams[i];
        if (strcmp(r->name, rb->name) != 0 || r->size != rb->size)
            return xerr_fail(err,
                             "memory block %u is %s of %llu bytes in the snapshot, %s of %llu "
                             "here",
                             i, r->name, (unsigned long long)r->size, rb->name,
                             (unsigned long long)rb->size);
    }
    return 0;
}

/* ---- loading ---- */

/* Block rb from r.  With base (the snapshot the dirty-page tracking
 * started from), a page still clean that base and r share (the same
 * stored page, or zero in both) is already right. */
static void restore_ram(ram_block *rb, const snap_ram *r, const snap_ram *base)
{
    untouched u;
    untouched_init(&u, rb);
    uint64_t k = 0, bk = 0;
    for (uint64_t pg = 0; pg < r->npages; pg++) {
        uint8_t *dst = rb->host + pg * RAM_PAGE_SIZE;
        snap_page *p = base_page(r, pg, &k);
        if (base && base_page(base, pg, &bk) == p && ram_page_clean(rb, pg * RAM_PAGE_SIZE))
            continue;
        if (p)
            memcpy(dst, p->data, RAM_PAGE_SIZE);
        else if (!untouched_page(&u, rb, pg) && !page_zero(dst))
            memset(dst, 0, RAM_PAGE_SIZE);
    }
    free(u.vec);
    /* Every page may have changed: the tracking (if on) sees them all. */
    ram_mark_dirty(rb, 0, rb->size);
}

int snapshot_restore(machine *m, const snapshot *s, xerr *err)
{
    return snapshot_restore_since(m, s, NULL, err);
}

int snapshot_restore_since(machine *m, const snapshot *s, const snapshot *base, xerr *err)
{
    if (snapshot_check(m, s, err) != 0)
        return -1;
    if (!base_fits(m, base))
        base = NULL;
    /* Everything was checked: from here nothing can fail. */
    for (unsigned i = 0; i < s->nrams; i++)
        restore_ram(m->bus.rams[i], &s->rams[i], base ? &base->rams[i] : NULL);
    const snap_sec *ms = find_sec(s, "machine");
    machine_img mi;
    machine_parse(ms->data, ms->len, &mi, err);
    ip27 *b = ip27_of(m);
    m->clock.now = mi.now;
    m->clock.seq = mi.seq;
    for (unsigned i = 0; i < m->ncpus; i++) {
        m->local_time[i] = mi.local_time[i];
        b->waiting[i] = mi.waiting[i];
        b->wait_ra[i] = mi.wait_ra[i];
    }
    m->cur_cpu = (int)mi.cur_cpu;
    m->reset_count = mi.reset_count;
    m->reset_pending = mi.reset_pending;
    snprintf(m->reset_why, sizeof m->reset_why, "%s", mi.reset_why);
    cpu_dev_map map = dev_map(m);
    for (unsigned i = 0; i < s->nsecs; i++) {
        const snap_sec *sec = &s->secs[i];
        const char *n = sec->name;
        int rc = 0;
        if (strncmp(n, "dev:", 4) == 0) {
            rc = dev_state_load(machine_find_device(m, n + 4), sec->data, sec->len, err);
        } else if (strncmp(n, "net:", 4) == 0) {
            for (unsigned k = 0; k < b->nnics; k++)
                if (strcmp(nic_at(m, k)->port->name, n + 4) == 0)
                    rc = net_port_state_load(nic_at(m, k)->port, sec->data, sec->len, err);
        } else if (strncmp(n, "cpu", 3) == 0) {
            rc = cpu_state_load(m->cpus[atoi(n + 3)], sec->data, sec->len, &map, err);
        } else if (strcmp(n, "console") == 0) {
            chardev_set_pending_input(m->console, sec->data, sec->len);
        }
        if (rc != 0)
            abort(); /* checked above */
    }
    cpu_memory_replaced(m->cpus[0]);
    m->stop_reason = STOP_NONE;
    m->stop_msg[0] = 0;
    return 0;
}

/* ---- the state hash ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v;
    h *= 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        h = mix(h, load_le(p + i, 8));
    for (; i < n; i++)
        h = mix(h, p[i]);
    return mix(h, n);
}

static void hash_fn(void *ctx, const char *name, strbuf *data)
{
    uint64_t *h = ctx;
    *h = hash_bytes(*h, (const uint8_t *)name, strlen(name));
    *h = hash_bytes(*h, (const uint8_t *)data->s, data->len);
}

static uint64_t hash_ram(uint64_t h, const ram_block *rb)
{
    /* Four lanes: the multiplies of one lane do not wait for another's. */
    uint64_t l[4] = {h, h ^ 1, h ^ 2, h ^ 3};
    const uint64_t *w = (const uint64_t *)rb->host;
    for (uint64_t k = 0; k + 4 <= rb->size / 8; k += 4)
        for (unsigned j = 0; j < 4; j++)
            l[j] = mix(l[j], w[k + j]);
    for (unsigned j = 0; j < 4; j++)
        h = mix(h, l[j]);
    return mix(h, rb->size);
}

uint64_t machine_state_hash(machine *m)
{
    uint64_t h = 0xcbf29ce484222325ull;
    each_section(m, hash_fn, &h);
    for (unsigned i = 0; i < m->bus.nrams; i++)
        h = hash_ram(h, m->bus.rams[i]);
    return h;
}

typedef struct parts_ctx {
    void (*fn)(void *ctx, const char *name, uint64_t h);
    void *ctx;
} parts_ctx;

static void part_fn(void *ctx, const char *name, strbuf *data)
{
    parts_ctx *p = ctx;
    p->fn(p->ctx, name, hash_bytes(0xcbf29ce484222325ull, (const uint8_t *)data->s, data->len));
}

void machine_state_hash_parts(machine *m, void (*fn)(void *ctx, const char *name, uint64_t h),
                              void *ctx)
{
    parts_ctx p = {fn, ctx};
    each_section(m, part_fn, &p);
    for (unsigned i = 0; i < m->bus.nrams; i++) {
        char name[80];
        snprintf(name, sizeof name, "ram:%s", m->bus.rams[i]->name);
        fn(ctx, name, hash_ram(0xcbf29ce484222325ull, m->bus.rams[i]));
    }
}
