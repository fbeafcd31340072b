/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who wrote this byte (info lastwrite).
 *
 * Off by default, so it costs nothing: `track writes on [RANGE]` sets
 * PF_TRACK on the RAM pages of RANGE (default: all RAM), which sends every
 * write to those pages - by a CPU or a device - through the bus hook.  Each
 * write becomes a record (initiator, CPU pc, time, size, Bridge path, and
 * the NIC's ring/descriptor context) with its place in the run for
 * goto-time: the instruction count of the CPU executing when it was made
 * (its store, or a device access that store caused), else the tick at
 * which the machine ran its devices' timers.  Each tracked byte keeps the
 * sequence number of its last record.  Records live in a ring of TRACK_RECS entries
 * (an older one reads as "overwritten"), byte maps in at most
 * TRACK_MAX_PAGES pages of 4 KB (16 KB of host memory each). */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

#define TRACK_RECS 65536u
#define TRACK_MAX_PAGES 8192u

typedef struct lw_rec {
    uint32_t seq;
    int initiator;
    uint8_t kind;
    bool has_path;
    uint32_t size;
    uint64_t addr, pc, time;
    int pos_cpu;  /* made while this CPU executed (pos: its instructions with */
    uint64_t pos; /* that one), or -1 (pos: the tick, cpu0's clock) */
    dma_path path;
} lw_rec;

typedef struct track_state {
    bool on;
    ram_range *ranges;
    unsigned nranges;
    uint32_t **pages[8]; /* per RAM block (bus->rams order): per page byte map */
    lw_rec *recs;
    uint32_t seq;
    unsigned npages;
    bool full;      /* TRACK_MAX_PAGES reached */
    uint64_t since; /* time tracking began */
} track_state;

static track_state *ts(dbg *d) { return d->track; }

bool dbg_track_active(dbg *d) { return ts(d) && ts(d)->on; }

static int block_index(dbg *d, const ram_block *rb)
{
    for (unsigned i = 0; i < d->m->bus.nrams; i++)
        if (d->m->bus.rams[i] == rb)
            return (int)i;
    return -1;
}

uint8_t dbg_track_flags(dbg *d, ram_block *rb, uint64_t page_off)
{
    track_state *t = ts(d);
    if (!t || !t->on)
        return 0;
    for (unsigned i = 0; i < t->nranges; i++) {
        const ram_range *r = &t->ranges[i];
        if (r->rb == rb && r->off < page_off + RAM_PAGE_SIZE && r->off + r->len > page_off)
            return PF_TRACK;
    }
    return 0;
}

static void free_maps(dbg *d, track_state *t)
{
    for (unsigned b = 0; b < 8; b++) {
        if (!t->pages[b])
            continue;
        uint64_t n = d->m->bus.rams[b]->size >> RAM_PAGE_SHIFT;
        for (uint64_t p = 0; p < n; p++)
            free(t->pages[b][p]);
        free(t->pages[b]);
        t->pages[b] = NULL;
    }
    t->npages = 0;
    t->full = false;
}

void dbg_track_free(dbg *d)
{
    track_state *t = ts(d);
    if (!t)
        return;
    if (d->m)
        free_maps(d, t);
    free(t->ranges);
    free(t->recs);
    free(t);
    d->track = NULL;
}

static uint32_t *page_map(dbg *d, track_state *t, int bi, uint64_t pg)
{
    if (!t->pages[bi])
        t->pages[bi] = xcalloc(d->m->bus.rams[bi]->size >> RAM_PAGE_SHIFT, sizeof(uint32_t *));
    if (!t->pages[bi][pg]) {
        if (t->npages >= TRACK_MAX_PAGES) {
            t->full = true;
            return NULL;
        }
        t->pages[bi][pg] = xcalloc(RAM_PAGE_SIZE, sizeof(uint32_t));
        t->npages++;
    }
    return t->pages[bi][pg];
}

void dbg_track_write(dbg *d, const bus_op *op, ram_block *rb, uint64_t off)
{
    track_state *t = ts(d);
    int bi = block_index(d, rb);
    if (!t || !t->on || bi < 0)
        return;
    uint32_t seq = ++t->seq;
    if (!seq)
        seq = ++t->seq; /* 0 means "never written" */
    bool recorded = false;
    for (uint64_t i = 0; i < op->size && off + i < rb->size;) {
        uint64_t pg = (off + i) >> RAM_PAGE_SHIFT;
        uint64_t in_page = (off + i) & (RAM_PAGE_SIZE - 1);
        uint64_t n = RAM_PAGE_SIZE - in_page;
        if (n > op->size - i)
            n = op->size - i;
        uint32_t *map = (rb->page_flags[pg] & PF_TRACK) ? page_map(d, t, bi, pg) : NULL;
        for (uint64_t k = 0; map && k < n; k++)
            map[in_page + k] = seq;
        recorded |= map != NULL;
        i += n;
    }
    if (!recorded)
        return;
    lw_rec *r = &t->recs[seq % TRACK_RECS];
    memset(r, 0, sizeof *r);
    r->seq = seq;
    r->initiator = op->initiator;
    r->kind = op->kind;
    r->size = op->size;
    r->addr = op->addr;
    r->time = d->m->clock.now;
    const initiator *in = initiator_get(&d->m->bus, op->initiator);
    if (in && in->kind == INIT_CPU && in->cpu >= 0 && (unsigned)in->cpu < d->m->ncpus)
        r->pc = cpu_pc(d->m->cpus[in->cpu]);
    /* A CPU runs (up to the clock's horizon): the write belongs to its
     * current instruction; otherwise to the timers of this tick. */
    machine *m = d->m;
    r->pos_cpu = -1;
    r->pos = m->clock.now;
    if (m->clock.horizon && m->cur_cpu >= 0 && (unsigned)m->cur_cpu < m->ncpus) {
        r->pos_cpu = m->cur_cpu;
        r->pos = cpu_retired(m->cpus[m->cur_cpu]);
    }
    if (op->path) {
        r->has_path = true;
        r->path = *op->path;
    }
}

static void refresh_all(dbg *d, track_state *t)
{
    for (unsigned i = 0; i < t->nranges; i++)
        dbg_watch_refresh_flags(d, t->ranges[i].rb, t->ranges[i].off, t->ranges[i].len);
}

static int track_off(dbg *d)
{
    track_state *t = ts(d);
    if (!t || !t->on)
        return dbg_error(d, "track writes: not on.");
    t->on = false;
    refresh_all(d, t);
    free(t->ranges);
    t->ranges = NULL;
    t->nranges = 0;
    free_maps(d, t);
    dbg_watch_hook_update(d);
    dbg_puts(d, "Write tracking off.\n");
    return 0;
}

static int track_on(dbg *d, const char *args)
{
    if (!d->track)
        d->track = xcalloc(1, sizeof(track_state));
    track_state *t = ts(d);
    if (!t->recs)
        t->recs = xcalloc(TRACK_RECS, sizeof *t->recs);
    ram_range r;
    if (*args) {
        dbg_addr a;
        uint64_t len;
        const char *end;
        xerr err;
        if (dbg_parse_range(d, args, "track writes", &a, &len, &end))
            return -1;
        if (*end)
            return dbg_error(d, "track writes: junk at end: \"%s\".", end);
        if (dbg_ram_range(d, a.a, len ? len : 1, &r, &err))
            return dbg_error(d, "%s", err.msg);
    }
    unsigned add = *args ? 1 : d->m->bus.nrams;
    t->ranges = xrealloc(t->ranges, (t->nranges + add) * sizeof *t->ranges);
    for (unsigned i = 0; i < add; i++) {
        if (!*args) {
            r.rb = d->m->bus.rams[i];
            r.off = 0;
            r.len = r.rb->size;
        }
        t->ranges[t->nranges++] = r;
        ram_page_flags_set(&d->m->bus, r.rb, r.off, r.len, PF_TRACK);
    }
    if (!t->on)
        t->since = d->m->clock.now;
    t->on = true;
    dbg_watch_hook_update(d);
    dbg_printf(d, "Tracking writes to %s.\n", *args ? args : "all RAM");
    return 0;
}

static int cmd_track_writes(dbg *d, const cmd_args *a)
{
    if (a->given[0] && a->num[0] == 0) /* on [RANGE] */
        return track_on(d, a->text[1]);
    if (a->given[1])
        return dbg_usage_error(d, "track writes", "a RANGE goes with on");
    if (a->given[0])
        return track_off(d);
    track_state *t = ts(d);
    if (!t || !t->on) {
        dbg_puts(d, "Write tracking is off.\n");
        return 0;
    }
    dbg_printf(d, "Write tracking is on: %u range%s, %u pages recorded%s, %u writes.\n", t->nranges,
               t->nranges == 1 ? "" : "s", t->npages,
               t->full ? " (page limit reached: later pages are not recorded)" : "", t->seq);
    return 0;
}

/* The record of the last write to the byte at ADDR: 1 with *out, 0 when
 * there is none to give (said why), -1 after an error. */
static int find_last_write(dbg *d, const char *args, const lw_rec **out, char *where, size_t wlen)
{
    track_state *t = ts(d);
    dbg_addr a;
    const char *end;
    if (dbg_parse_addr(d, args, &end, &a))
        return -1;
    if (*dbg_skip_ws(end))
        return dbg_error(d, "Junk at end of arguments: \"%s\".", dbg_skip_ws(end));
    uint64_t ba = a.a;
    if (!a.phys && (!dbg_cpu(d) || cpu_translate(dbg_cpu(d), a.a, true, &ba) != 0))
        return dbg_error(d, "Cannot translate 0x%llx (not mapped).", (unsigned long long)a.a);
    ram_block *rb;
    uint64_t off;
    if (!bus_ram_ptr(&d->m->bus, ba, &rb, &off, NULL))
        return dbg_error(d, "p:0x%010llx is not RAM.", (unsigned long long)ba);
    snprintf(where, wlen, "p:0x%010llx", (unsigned long long)(ba & BUS_PA_MASK));
    if (!t || !t->on || !(ram_page_flags(rb, off) & PF_TRACK))
        return dbg_error(d, "%s: writes there are not tracked (use \"track writes on\").", where);
    int bi = block_index(d, rb);
    uint64_t pg = off >> RAM_PAGE_SHIFT;
    uint32_t *map = bi >= 0 && t->pages[bi] ? t->pages[bi][pg] : NULL;
    uint32_t seq = map ? map[off & (RAM_PAGE_SIZE - 1)] : 0;
    char tb[32];
    if (!seq) {
        dbg_format_time(t->since, d->m->clock.hz, tb, sizeof tb);
        dbg_printf(d, "%s: not written since tracking began (t=%llu, %s)%s.\n", where,
                   (unsigned long long)t->since, tb,
                   t->full ? "; the page limit was reached, so later pages are not recorded" : "");
        return 0;
    }
    const lw_rec *r = &t->recs[seq % TRACK_RECS];
    if (r->seq != seq) {
        dbg_printf(d,
                   "%s: written by write #%u, whose record was overwritten by %u later "
                   "writes.\n",
                   where, seq, t->seq - seq);
        return 0;
    }
    *out = r;
    return 1;
}

/* Is the write later than where the machine is (the history went back)? */
static bool in_future(dbg *d, const lw_rec *r)
{
    machine *m = d->m;
    if (r->pos_cpu >= 0)
        return (unsigned)r->pos_cpu < m->ncpus && r->pos > cpu_retired(m->cpus[r->pos_cpu]);
    return m->ncpus && r->pos > m->local_time[0];
}

/* Where it stands in the run, and the goto-time lines that go there. */
static void describe_when(dbg *d, const lw_rec *r, const char *where, strbuf *b)
{
    if (r->pos_cpu >= 0)
        sb_printf(b,
                  "  when: cpu%d's instruction %llu: \"goto-time lastwrite %s\" goes to just "
                  "before it, \"goto-time insn %llu\" (cpu%d selected) just after\n",
                  r->pos_cpu, (unsigned long long)r->pos, where, (unsigned long long)r->pos,
                  r->pos_cpu);
    else
        sb_printf(b,
                  "  when: the devices' turn at tick %llu: \"goto-time lastwrite %s\" goes to "
                  "just before it, \"goto-time %llu\" just after\n",
                  (unsigned long long)r->pos, where, (unsigned long long)r->pos);
    if (!hist_recording(d))
        sb_puts(b, "  (goto-time needs the history: \"record\" before the run)\n");
    if (in_future(d, r))
        sb_puts(b, "  (later than where the machine is now: it went back in its history since; "
                   "an earlier write there is not known)\n");
}

static int cmd_info_lastwrite(dbg *d, const cmd_args *arg)
{
    const lw_rec *r;
    char where[48], tb[32];
    int found = find_last_write(d, arg->text[0], &r, where, sizeof where);
    if (found <= 0)
        return found;
    strbuf b;
    sb_init(&b);
    dbg_format_time(r->time, d->m->clock.hz, tb, sizeof tb);
    sb_printf(&b, "%s was last written at t=%llu (%s) by ", where, (unsigned long long)r->time, tb);
    const initiator *in = initiator_get(&d->m->bus, r->initiator);
    sb_puts(&b, in ? in->name : "?");
    if (in && in->kind == INIT_CPU) {
        char pc[160];
        dbg_format_addr(d, (dbg_addr){r->pc, false}, pc, sizeof pc);
        sb_printf(&b, " at %s", pc);
    }
    sb_printf(&b, ":\n  a %u-byte %swrite of p:0x%010llx\n", r->size,
              r->kind == BUS_BULK ? "bulk " : "", (unsigned long long)(r->addr & BUS_PA_MASK));
    if (r->has_path) {
        sb_printf(&b, "  through the Bridge %s window", r->path.window ? r->path.window : "?");
        if (r->path.ate >= 0)
            sb_printf(&b, ", ATE %d", r->path.ate);
        sb_printf(&b, ", swap %s, PCI address 0x%llx\n", r->path.swap ? "on" : "off",
                  (unsigned long long)r->path.pci_addr);
        if (r->path.what) {
            sb_printf(&b, "  for %s", r->path.what);
            if (r->path.ring >= 0)
                sb_printf(&b, ", ring %d", r->path.ring);
            if (r->path.index >= 0)
                sb_printf(&b, ", descriptor %d", r->path.index);
            sb_putc(&b, '\n');
        }
    }
    describe_when(d, r, where, &b);
    return dbg_puts_sb(d, &b);
}

/* goto-time lastwrite ADDR: just before the write (its CPU selected). */
static int cmd_goto_lastwrite(dbg *d, const cmd_args *arg)
{
    const lw_rec *r;
    char where[48];
    int found = find_last_write(d, arg->text[0], &r, where, sizeof where);
    if (found <= 0)
        return found < 0 ? -1 : dbg_error(d, "goto-time lastwrite: no write to go to.");
    if (r->pos_cpu >= (int)d->m->ncpus)
        return dbg_error(d,
                         "goto-time lastwrite: the write was made by cpu%d, which this "
                         "machine does not have.",
                         r->pos_cpu);
    if (r->pos_cpu >= 0) {
        if (d->cur_cpu != r->pos_cpu) {
            d->cur_cpu = r->pos_cpu;
            dbg_printf(d, "[Switching to cpu%d]\n", d->cur_cpu);
        }
        return hist_goto(d, r->pos_cpu, true, r->pos ? r->pos - 1 : 0);
    }
    return hist_goto(d, 0, false, r->pos ? r->pos - 1 : 0);
}

#include "dbg/track.cmds.h"

const dbg_cmd_table dbg_track_table = {"Breakpoints", track_commands, ARRAY_SIZE(track_commands)};
