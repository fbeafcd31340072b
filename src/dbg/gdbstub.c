/* The gdb stub's session: packets in, replies out.  gdb resumes the guest
 * through xbow's own resume loop (dbg_resume), so xbow's breakpoints,
 * watchpoints and device events stop gdb's runs too; gdb's breakpoints and
 * watchpoints (Z0..Z4) sit on the CPUs' own (the same reference-counted
 * code addresses as xbow's, and CPU watchpoints), and the resume loop asks
 * the stub about stops it does not explain (client_claim).  Every CPU is a
 * thread; "monitor CMD" runs any xbow command.  All-stop only: a stop
 * stops every CPU. */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "dbg/gdbstub_int.h"

enum { RES_CONT, RES_STEP, RES_RANGE };

/* Text in each O packet (console output), before hex doubles it. */
#define O_CHUNK 1024
/* Lines of xbow's stop report gdb's console shows at a stop xbow caused. */
#define STOP_LINES 8

/* ---- sending -------------------------------------------------------------- */

void gdb_send_packet(gdbstub *s, const char *data, size_t len)
{
    if (!s->connected)
        return;
    sb_reset(&s->last);
    rsp_frame(&s->last, data, len);
    gdb_net_write(s, s->last.s, s->last.len);
}

static void reply(gdbstub *s, const char *text) { gdb_send_packet(s, text, strlen(text)); }

static void reply_sb(gdbstub *s, const strbuf *b) { gdb_send_packet(s, b->s ? b->s : "", b->len); }

/* E01: a malformed or impossible request; E14 (EFAULT): memory that cannot
 * be accessed; E16 (EINVAL): an argument out of range. */
static void reply_err(gdbstub *s, int code)
{
    char e[8];
    snprintf(e, sizeof e, "E%02x", code & 0xff);
    reply(s, e);
}

/* Text for gdb's console: O packets (while gdb waits for a stop or a
 * monitor command). */
static void console(gdbstub *s, const char *text)
{
    size_t n = strlen(text);
    for (size_t off = 0; off < n && s->connected; off += O_CHUNK) {
        strbuf b;
        sb_init(&b);
        sb_putc(&b, 'O');
        rsp_hex(&b, (const uint8_t *)text + off, n - off < O_CHUNK ? n - off : O_CHUNK);
        reply_sb(s, &b);
        sb_free(&b);
    }
}

/* ---- threads: CPU i is thread i + 1 --------------------------------------- */

enum { TH_ALL = -2, TH_ANY = -1 };

/* A thread id ("-1", "0" or a positive hex number naming a CPU) at *p:
 * TH_ALL, TH_ANY or a CPU index; -3 when it is none of those. */
static int parse_thread(gdbstub *s, const char **p)
{
    if ((*p)[0] == '-' && (*p)[1] == '1') {
        *p += 2;
        return TH_ALL;
    }
    uint64_t v;
    if (rsp_parse_hex(p, &v))
        return -3;
    if (v == 0)
        return TH_ANY;
    return v <= s->d->m->ncpus ? (int)v - 1 : -3;
}

static cpu *g_cpu(gdbstub *s)
{
    machine *m = s->d->m;
    if (s->g_cpu < 0 || (unsigned)s->g_cpu >= m->ncpus)
        s->g_cpu = s->d->cur_cpu;
    return machine_cpu(m, (unsigned)s->g_cpu);
}

/* ---- stop replies ----------------------------------------------------------- */

static void stop_reply(gdbstub *s, strbuf *b, bool with_reason)
{
    dbg *d = s->d;
    int i = s->stop.cpu >= 0 && (unsigned)s->stop.cpu < d->m->ncpus ? s->stop.cpu : d->cur_cpu;
    cpu *c = machine_cpu(d->m, (unsigned)i);
    sb_printf(b, "T%02xthread:%x;", s->stop.sig ? s->stop.sig : GDB_SIGTRAP, i + 1);
    if (with_reason)
        sb_puts(b, s->stop.reason);
    if (c) /* expedited: gdb needs no 'g' to show where it stopped */
        sb_printf(b, "%x:%016llx;%x:%016llx;", GDB_REG_SP,
                  (unsigned long long)cpu_gpr(c, GDB_REG_SP), GDB_REG_PC,
                  (unsigned long long)gdb_pc(c));
}

void gdb_send_stop(gdbstub *s)
{
    s->waiting = false;
    if (s->stop.text) {
        console(s, s->stop.text);
        free(s->stop.text);
        s->stop.text = NULL;
    }
    strbuf b;
    sb_init(&b);
    stop_reply(s, &b, true);
    s->g_cpu = s->stop.cpu; /* gdb's current thread is now the one that stopped */
    s->seen = true;
    reply_sb(s, &b);
    sb_free(&b);
}

/* What gdb's console shows before a stop xbow caused: xbow's report without
 * its location line (gdb shows the location its own way). */
static char *report_lines(const char *report)
{
    strbuf b;
    sb_init(&b);
    const char *last = NULL;
    for (const char *p = report; *p;) { /* the last non-empty line: the location */
        size_t n = strcspn(p, "\n");
        if (n)
            last = p;
        p += n + (p[n] == '\n');
    }
    unsigned lines = 0, more = 0;
    for (const char *p = report; *p && p != last;) {
        size_t n = strcspn(p, "\n");
        if (n && lines < STOP_LINES) {
            sb_printf(&b, "xbow: %.*s\n", (int)n, p);
            lines++;
        } else if (n) {
            more++;
        }
        p += n + (p[n] == '\n');
    }
    if (more)
        sb_printf(&b, "xbow: ... %u more lines: \"monitor info stop\" shows the whole report\n",
                  more);
    return b.s ? sb_take(&b) : NULL;
}

/* ---- the resume loop's client hooks ---------------------------------------- */

static void client_poll(dbg *d)
{
    gdbstub *s = d->client_ctx;
    if (s)
        gdb_net_poll(s, 0);
}

static gdb_point *point_at_pc(gdbstub *s, uint64_t pc)
{
    for (unsigned i = 0; i < s->npts; i++)
        if (s->pts[i].type <= GP_HW && s->pts[i].addr == pc)
            return &s->pts[i];
    return NULL;
}

static bool client_claim(dbg *d, int reason, int ci)
{
    gdbstub *s = d->client_ctx;
    cpu *c = machine_cpu(d->m, (unsigned)ci);
    if (!s || !c || !s->connected)
        return false;
    char text[400], where[160];
    if (reason == STOP_BREAKPOINT) {
        gdb_point *p = point_at_pc(s, cpu_pc(c));
        if (!p)
            return false;
        s->hit.kind = p->type == GP_SW ? 's' : 'h';
        s->hit.addr = p->addr;
        dbg_format_addr(d, (dbg_addr){p->addr, false}, where, sizeof where);
        snprintf(text, sizeof text, "\ngdb's breakpoint at %s (cpu%d)\n", where, ci);
    } else {
        const cpu_watch_hit *h = cpu_watch_hit_info(c);
        gdb_point *p = NULL;
        for (unsigned i = 0; h && i < s->npts && !p; i++)
            if (s->pts[i].type >= GP_WRITE && s->pts[i].ids[ci] == h->id)
                p = &s->pts[i];
        if (!p)
            return false;
        static const char kinds[] = {'w', 'r', 'a'};
        s->hit.kind = kinds[p->type - GP_WRITE];
        /* gdb looks the address up in its watchpoints: name a watched byte
         * even when the access began below the range. */
        s->hit.addr = h->vaddr < p->addr ? p->addr : h->vaddr;
        dbg_format_addr(d, (dbg_addr){h->pc, false}, where, sizeof where);
        snprintf(text, sizeof text, "\ngdb's watchpoint at 0x%llx: %s by cpu%d at %s\n",
                 (unsigned long long)p->addr, h->write ? "written" : "read", ci, where);
    }
    s->hit.cpu = ci;
    if (!s->gdb_run) /* xbow's prompt resumed: its report names gdb's point */
        bp_note_stop(d, text);
    return true;
}

static bool client_stopped(dbg *d, int r, const char *report)
{
    gdbstub *s = d->client_ctx;
    if (!s || !s->connected)
        return false;
    s->stop.cpu = d->cur_cpu;
    s->stop.sig = r == STOP_USER || s->interrupt ? GDB_SIGINT : GDB_SIGTRAP;
    s->stop.reason[0] = 0;
    bool gdbs = s->hit.kind && s->hit.cpu == d->cur_cpu;
    if (gdbs && s->hit.kind == 's' && s->swbreak)
        snprintf(s->stop.reason, sizeof s->stop.reason, "swbreak:;");
    else if (gdbs && s->hit.kind == 'h' && s->hwbreak)
        snprintf(s->stop.reason, sizeof s->stop.reason, "hwbreak:;");
    else if (gdbs && s->hit.kind != 's' && s->hit.kind != 'h')
        snprintf(s->stop.reason, sizeof s->stop.reason, "%s:%llx;",
                 s->hit.kind == 'w' ? "watch" : s->hit.kind == 'r' ? "rwatch" : "awatch",
                 (unsigned long long)s->hit.addr);
    s->hit.kind = 0;
    /* gdb's own stops (its breakpoints, steps and Ctrl-C in a run it
     * started) are gdb's to report; any other is xbow's, and gdb's console
     * shows xbow's report too. */
    bool mine = s->gdb_run && !bp_pending(d) &&
                (r == STOP_STEP || r == STOP_LIMIT || gdbs || s->interrupt);
    s->interrupt = false;
    free(s->stop.text);
    s->stop.text = NULL;
    if (s->waiting && !mine && r != STOP_STEP)
        s->stop.text = report_lines(report);
    if (!s->waiting && s->seen && !s->hinted)
        s->hinted = s->hint_due = true; /* said after the report (gdb_after_packet) */
    return mine;
}

static const dbg_client client_ops = {client_poll, client_claim, client_stopped};

gdbstub *gdb_stub(dbg *d) { return d && d->client == &client_ops ? d->client_ctx : NULL; }

gdbstub *gdb_stub_new(dbg *d)
{
    gdbstub *s = gdb_stub(d);
    if (s)
        return s;
    s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->d = d;
    s->lfd = -1;
    s->cfd = -1;
    s->on_detach = DETACH_RUN;
    for (unsigned i = 0; i < GDB_MAX_REFUSED; i++)
        s->refused[i].fd = -1;
    sb_init(&s->last);
    d->client = &client_ops;
    d->client_ctx = s;
    return s;
}

void gdb_stub_free(gdbstub *s)
{
    if (!s)
        return;
    if (s->connected)
        gdb_session_end(s, "disconnected: xbow is leaving");
    gdb_net_stop_listening(s);
    sb_free(&s->last);
    free(s->stop.text);
    free(s->pts);
    if (s->d->client_ctx == s) {
        s->d->client = NULL;
        s->d->client_ctx = NULL;
    }
    free(s);
}

void dbg_gdb_free(dbg *d) { gdb_stub_free(gdb_stub(d)); }

bool gdbstub_active(dbg *d)
{
    gdbstub *s = gdb_stub(d);
    return s && (s->lfd >= 0 || s->connected);
}

/* ---- sessions ---------------------------------------------------------------- */

static void remove_point(gdbstub *s, unsigned i)
{
    dbg *d = s->d;
    gdb_point *p = &s->pts[i];
    if (p->type <= GP_HW) {
        bp_addr_remove(d, -1, p->addr);
    } else {
        for (unsigned k = 0; k < d->m->ncpus; k++)
            if (p->ids[k] > 0)
                cpu_wp_remove(d->m->cpus[k], p->ids[k]);
    }
    s->pts[i] = s->pts[--s->npts];
}

void gdb_session_start(gdbstub *s, int fd, const char *peer)
{
    dbg *d = s->d;
    s->connected = true;
    s->cfd = fd;
    snprintf(s->peer, sizeof s->peer, "%s", peer);
    rsp_init(&s->dec);
    s->in_len = s->in_pos = 0;
    s->noack = false;
    s->g_cpu = d->cur_cpu;
    s->c_cpu = TH_ANY;
    s->swbreak = s->hwbreak = false;
    s->waiting = s->gdb_run = s->interrupt = s->seen = s->hinted = s->hint_due = false;
    s->hit.kind = 0;
    s->stop.sig = GDB_SIGTRAP;
    s->stop.cpu = d->cur_cpu;
    s->stop.reason[0] = 0;
    dbg_printf(d, "[gdb attached from %s]\n", peer);
    if (d->running) { /* gdb wants a stopped target: stop for it */
        bp_note_stop(d, "\ngdb attached: the machine stops for it.\n");
        machine_request_stop(d->m, STOP_USER, NULL);
    }
}

void gdb_session_end(gdbstub *s, const char *why)
{
    if (!s->connected)
        return;
    while (s->npts)
        remove_point(s, s->npts - 1);
    gdb_net_close_client(s);
    s->connected = false;
    s->waiting = false;
    s->gdb_run = false; /* a run gdb started goes on as the xbow user's */
    free(s->stop.text);
    s->stop.text = NULL;
    s->sessions++;
    dbg_printf(s->d, "[gdb %s]\n", why);
}

/* ---- registers and memory ------------------------------------------------------ */

static void read_regs(gdbstub *s)
{
    cpu *c = g_cpu(s);
    strbuf b;
    sb_init(&b);
    for (unsigned n = 0; n < GDB_NREGS; n++) {
        uint64_t v = 0;
        uint8_t be[8];
        gdb_reg_get(c, n, &v);
        store_be(be, 8, v);
        rsp_hex(&b, be, 8);
    }
    reply_sb(s, &b);
    sb_free(&b);
}

static void write_regs(gdbstub *s, const char *p, size_t len)
{
    cpu *c = g_cpu(s);
    if (len % 16 || len / 16 > GDB_NREGS)
        return reply_err(s, 0x16);
    uint8_t be[8];
    for (size_t i = 0; i < len / 16; i++)
        if (rsp_unhex(p + 16 * i, be, 8))
            return reply_err(s, 0x01);
    for (size_t i = 0; i < len / 16; i++) {
        rsp_unhex(p + 16 * i, be, 8);
        gdb_reg_set(c, (unsigned)i, load_be(be, 8));
    }
    reply(s, "OK");
}

static void read_reg(gdbstub *s, const char *p)
{
    uint64_t n, v;
    if (rsp_parse_hex(&p, &n) || *p)
        return reply_err(s, 0x01);
    if (n >= GDB_NREGS || !gdb_reg_get(g_cpu(s), (unsigned)n, &v))
        return reply_err(s, 0x16);
    uint8_t be[8];
    store_be(be, 8, v);
    strbuf b;
    sb_init(&b);
    rsp_hex(&b, be, 8);
    reply_sb(s, &b);
    sb_free(&b);
}

static void write_reg(gdbstub *s, const char *p)
{
    uint64_t n;
    uint8_t be[8];
    if (rsp_parse_hex(&p, &n) || *p != '=' || strlen(p + 1) != 16 || rsp_unhex(p + 1, be, 8))
        return reply_err(s, 0x01);
    if (n >= GDB_NREGS || !gdb_reg_set(g_cpu(s), (unsigned)n, load_be(be, 8)))
        return reply_err(s, 0x16);
    reply(s, "OK");
}

/* "ADDR,LEN", then `sep` (skipped) unless sep is 0 */
static int parse_range(const char **p, uint64_t *addr, uint64_t *len, char sep)
{
    if (rsp_parse_hex(p, addr) || **p != ',')
        return -1;
    (*p)++;
    if (rsp_parse_hex(p, len) || (sep && **p != sep))
        return -1;
    if (sep)
        (*p)++;
    return 0;
}

/* Memory goes through the selected thread's CPU: its segments, TLB and
 * ASID, without side effects (MMIO is not read) and without exceptions. */
static void read_mem(gdbstub *s, const char *p)
{
    uint64_t addr, len;
    if (parse_range(&p, &addr, &len, 0) || *p)
        return reply_err(s, 0x01);
    if (len > (RSP_MAX_PACKET - 8) / 2)
        len = (RSP_MAX_PACKET - 8) / 2; /* gdb takes a short read and asks for the rest */
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf)
        return reply_err(s, 0x0c);
    uint64_t got = len ? cpu_read_virt(g_cpu(s), addr, buf, len) : 0;
    if (len && !got) {
        free(buf);
        return reply_err(s, 0x14);
    }
    strbuf b;
    sb_init(&b);
    rsp_hex(&b, buf, got);
    reply_sb(s, &b);
    sb_free(&b);
    free(buf);
}

static void write_mem(gdbstub *s, char *p, size_t plen, bool binary)
{
    const char *q = p;
    uint64_t addr, len;
    if (parse_range(&q, &addr, &len, ':'))
        return reply_err(s, 0x01);
    uint8_t *data = (uint8_t *)p + (q - p);
    size_t dlen = plen - (size_t)(q - p);
    if (binary) {
        long n = rsp_unescape(data, dlen);
        if (n < 0 || (uint64_t)n != len)
            return reply_err(s, 0x01);
    } else {
        if (dlen != 2 * len || rsp_unhex((const char *)data, data, len))
            return reply_err(s, 0x01);
    }
    if (len && cpu_write_virt(g_cpu(s), addr, data, len) != len)
        return reply_err(s, 0x14);
    reply(s, "OK");
}

/* ---- breakpoints and watchpoints ----------------------------------------------- */

static void set_point(gdbstub *s, const char *p, bool insert)
{
    dbg *d = s->d;
    uint64_t type, addr, kind;
    if (rsp_parse_hex(&p, &type) || type > GP_ACCESS || *p++ != ',' ||
        parse_range(&p, &addr, &kind, 0) || (*p && *p != ';'))
        return reply_err(s, 0x01);
    if (type <= GP_HW && (kind != 4 || (addr & 3)))
        return reply_err(s, 0x16); /* MIPS32 instructions only (no MIPS16) */
    if (type >= GP_WRITE && (kind == 0 || kind > (1u << 20)))
        return reply_err(s, 0x16);
    if (!insert) {
        for (unsigned i = s->npts; i-- > 0;) {
            gdb_point *pt = &s->pts[i];
            if (pt->type == (int)type && pt->addr == addr &&
                (type <= GP_HW || pt->len == kind)) {
                remove_point(s, i);
                break;
            }
        }
        return reply(s, "OK");
    }
    if (s->npts >= GDB_MAX_POINTS)
        return reply_err(s, 0x1c);
    gdb_point *n = realloc(s->pts, (s->npts + 1) * sizeof *n);
    if (!n)
        return reply_err(s, 0x0c);
    s->pts = n;
    gdb_point pt = {.type = (int)type, .addr = addr, .len = kind};
    if (type <= GP_HW) {
        bp_addr_insert(d, -1, addr);
    } else {
        static const int wt[] = {WATCH_WRITE, WATCH_READ, WATCH_ACCESS};
        for (unsigned k = 0; k < d->m->ncpus; k++) {
            pt.ids[k] = cpu_wp_insert(d->m->cpus[k], addr, kind, wt[type - GP_WRITE]);
            if (pt.ids[k] <= 0) {
                while (k-- > 0)
                    cpu_wp_remove(d->m->cpus[k], pt.ids[k]);
                return reply_err(s, 0x16);
            }
        }
    }
    s->pts[s->npts++] = pt;
    reply(s, "OK");
}

/* ---- running ------------------------------------------------------------------ */

/* One step of the selected CPU; a branch and its delay slot are one step
 * (gdb cannot step out of a slot, and sees the branch's address there). */
static int step_one(gdbstub *s)
{
    dbg *d = s->d;
    cpu *c = dbg_cpu(d);
    int r = dbg_resume(d, RUN_STEP | RUN_QUIET, 1, NULL);
    if (r == STOP_STEP && c && cpu_in_delay_slot(c))
        r = dbg_resume(d, RUN_STEP | RUN_QUIET, 1, NULL);
    return r;
}

/* Steps of a range step run between two looks at the client and the front
 * end (a range can hold a loop that never leaves it). */
#define RANGE_POLL 4096

static void resume(gdbstub *s, int how, int ci, uint64_t lo, uint64_t hi)
{
    dbg *d = s->d;
    s->waiting = true;
    if (d->running)
        return; /* the xbow prompt runs the guest: gdb gets that stop */
    s->gdb_run = true;
    s->interrupt = false;
    s->hit.kind = 0;
    int r;
    if (how == RES_CONT) {
        r = dbg_resume(d, RUN_CONTINUE, s->budget, NULL);
    } else {
        d->cur_cpu = ci;
        r = step_one(s);
        for (uint64_t n = 1; how == RES_RANGE && r == STOP_STEP && s->connected && !d->quit; n++) {
            uint64_t pc = gdb_pc(dbg_cpu(d));
            if (pc < lo || pc >= hi || (s->budget && n >= s->budget))
                break;
            if (n % RANGE_POLL == 0) {
                d->m->stop_reason = STOP_NONE; /* the front end may ask for a stop */
                if (d->poll)
                    d->poll(d);
                gdb_net_poll(s, 0);
                if (s->interrupt || d->m->stop_reason == STOP_USER) {
                    s->stop.sig = GDB_SIGINT;
                    break;
                }
            }
            r = step_one(s);
        }
    }
    s->gdb_run = false;
    if (!s->connected || !s->waiting)
        return;
    if (r < 0) { /* the guest cannot run: dbg_resume said why on xbow's side */
        s->waiting = false;
        return reply_err(s, 0x01);
    }
    gdb_send_stop(s);
}

/* The CPU a step without a thread steps: Hc's, else the current one. */
static int step_cpu(gdbstub *s, int t)
{
    if (t >= 0)
        return t;
    return s->c_cpu >= 0 ? s->c_cpu : s->d->cur_cpu;
}

/* c, s, C, S: [SIG;][ADDR] */
static void simple_resume(gdbstub *s, char op, const char *p)
{
    uint64_t sig, addr;
    if (op == 'C' || op == 'S') { /* a signal means nothing to a machine */
        if (rsp_parse_hex(&p, &sig))
            return reply_err(s, 0x01);
        if (*p == ';')
            p++;
        else if (*p)
            return reply_err(s, 0x01);
    }
    int ci = step_cpu(s, TH_ANY);
    if (*p) {
        if (rsp_parse_hex(&p, &addr) || *p)
            return reply_err(s, 0x01);
        gdb_reg_set(machine_cpu(s->d->m, (unsigned)ci), GDB_REG_PC, addr);
    }
    resume(s, op == 's' || op == 'S' ? RES_STEP : RES_CONT, ci, 0, 0);
}

/* vCont;ACTION[:THREAD]...: the first step (s, S, r) that names a thread or
 * is the default steps that CPU; otherwise every CPU continues.  All CPUs
 * keep one virtual time, so continuing one CPU alone is continuing all. */
static void vcont(gdbstub *s, const char *p)
{
    if (!strcmp(p, "?"))
        return reply(s, "vCont;c;C;s;S;r");
    int how = -1, ci = 0;
    uint64_t lo = 0, hi = 0;
    while (*p == ';') {
        p++;
        char act = *p++;
        uint64_t a = 0, b = 0;
        if (act == 'C' || act == 'S') {
            if (rsp_parse_hex(&p, &a))
                return reply_err(s, 0x01);
        } else if (act == 'r') {
            if (parse_range(&p, &a, &b, 0))
                return reply_err(s, 0x01);
        } else if (act != 'c' && act != 's' && act != 't') {
            return reply_err(s, 0x01);
        }
        int t = TH_ALL;
        if (*p == ':') {
            p++;
            t = parse_thread(s, &p);
            if (t == -3)
                return reply_err(s, 0x01);
        }
        if (*p && *p != ';')
            return reply_err(s, 0x01);
        bool step = act == 's' || act == 'S' || act == 'r';
        if (step && how != RES_STEP && how != RES_RANGE) {
            how = act == 'r' ? RES_RANGE : RES_STEP;
            ci = step_cpu(s, t);
            lo = a;
            hi = b;
        } else if ((act == 'c' || act == 'C') && how < 0) {
            how = RES_CONT;
        }
    }
    if (*p || how < 0)
        return reply_err(s, 0x01);
    resume(s, how, ci, lo, hi);
}

/* ---- monitor ------------------------------------------------------------------ */

static void out_capture(void *ctx, const char *text) { sb_puts(ctx, text); }

static void monitor(gdbstub *s, const char *hex)
{
    dbg *d = s->d;
    size_t n = strlen(hex);
    char *line = malloc(n / 2 + 1);
    if (!line || n % 2 || rsp_unhex(hex, (uint8_t *)line, n / 2) ||
        memchr(line, 0, n / 2) || memchr(line, '\n', n / 2)) {
        free(line);
        return reply_err(s, 0x01);
    }
    line[n / 2] = 0;
    strbuf out;
    sb_init(&out);
    const command *c = dbg_line_command(line);
    if (!*dbg_skip_ws(line)) {
        sb_puts(&out, "\"monitor COMMAND\" runs an xbow command (\"monitor help\" lists them).\n");
    } else if (d->collecting) {
        sb_puts(&out, "The xbow prompt is in the middle of a block (define, commands, while...): "
                      "finish it there first.\n");
    } else if (s->monitor_ok && !s->monitor_ok(line)) {
        sb_puts(&out, "monitor: not here.\n");
    } else if (c && (c->flags & CMD_RESUMES)) {
        sb_printf(&out, "monitor %s: resume the guest with gdb's own commands (continue, "
                        "stepi...): gdb would not know that it ran.\n", c->name);
    } else {
        /* The command sees gdb's thread as the selected CPU. */
        int saved_cpu = d->cur_cpu, cpu_now = s->g_cpu >= 0 ? s->g_cpu : d->cur_cpu;
        d->cur_cpu = cpu_now;
        dbg_out_fn o = d->out;
        void *octx = d->out_ctx;
        dbg_set_output(d, out_capture, &out);
        uint64_t stops = d->stop_count;
        dbg_execute(d, line);
        if (d->collecting) {
            d->collecting = 0;
            sb_puts(&out, "monitor: blocks (define, commands, while...) need the xbow prompt.\n");
        }
        dbg_set_output(d, o, octx);
        if (d->stop_count != stops)
            sb_puts(&out, "(The guest ran: gdb shows the state it saw before until it resumes "
                          "the guest or \"maintenance flush register-cache\".)\n");
        if (d->cur_cpu == cpu_now) /* unless the command selected another CPU */
            d->cur_cpu = saved_cpu;
        else
            s->g_cpu = d->cur_cpu;
    }
    free(line);
    if (out.s)
        console(s, out.s);
    sb_free(&out);
    reply(s, "OK");
}

/* ---- queries -------------------------------------------------------------------- */

static void xfer_features(gdbstub *s, const char *p)
{
    static const char annex[] = "target.xml:";
    if (strncmp(p, annex, sizeof annex - 1))
        return reply_err(s, 0x00);
    p += sizeof annex - 1;
    uint64_t off, len;
    if (parse_range(&p, &off, &len, 0) || *p || !len)
        return reply_err(s, 0x01);
    size_t total;
    const char *x = gdb_target_xml(&total);
    if (len > RSP_MAX_PACKET / 2)
        len = RSP_MAX_PACKET / 2; /* escapes can double it */
    strbuf b;
    sb_init(&b);
    if (off >= total) {
        sb_putc(&b, 'l');
    } else {
        size_t n = total - off < len ? total - off : len;
        sb_putc(&b, off + n >= total ? 'l' : 'm');
        rsp_escape(&b, (const uint8_t *)x + off, n);
    }
    reply_sb(s, &b);
    sb_free(&b);
}

static void query(gdbstub *s, const char *p)
{
    dbg *d = s->d;
    strbuf b;
    sb_init(&b);
    if (!strncmp(p, "qSupported", 10)) {
        s->swbreak = strstr(p, "swbreak+") != NULL;
        s->hwbreak = strstr(p, "hwbreak+") != NULL;
        /* Reverse execution (ReverseStep+, ReverseContinue+) joins this list
         * when the time-travel issue lands. */
        sb_printf(&b, "PacketSize=%x;qXfer:features:read+;QStartNoAckMode+;swbreak+;hwbreak+;"
                      "vContSupported+", RSP_MAX_PACKET);
    } else if (!strcmp(p, "qAttached") || !strncmp(p, "qAttached:", 10)) {
        sb_putc(&b, '1'); /* the machine was there before gdb: quit detaches */
    } else if (!strcmp(p, "qC")) {
        sb_printf(&b, "QC%x", d->cur_cpu + 1);
    } else if (!strcmp(p, "qfThreadInfo")) {
        sb_putc(&b, 'm');
        for (unsigned i = 0; i < d->m->ncpus; i++)
            sb_printf(&b, "%s%x", i ? "," : "", i + 1);
    } else if (!strcmp(p, "qsThreadInfo")) {
        sb_putc(&b, 'l');
    } else if (!strncmp(p, "qThreadExtraInfo,", 17)) {
        const char *q = p + 17;
        int t = parse_thread(s, &q);
        if (t < 0 || *q) {
            sb_free(&b);
            return reply_err(s, 0x01);
        }
        strbuf text;
        sb_init(&text);
        gdb_thread_info(d, t, &text);
        rsp_hex_str(&b, text.s);
        sb_free(&text);
    } else if (!strncmp(p, "qXfer:features:read:", 20)) {
        sb_free(&b);
        return xfer_features(s, p + 20);
    } else if (!strncmp(p, "qRcmd,", 6)) {
        sb_free(&b);
        return monitor(s, p + 6);
    } else if (!strncmp(p, "qSymbol:", 8)) {
        sb_puts(&b, "OK"); /* no symbols wanted */
    }
    /* Anything else (qOffsets, qTStatus, qCRC, ...) is unsupported: empty. */
    reply_sb(s, &b);
    sb_free(&b);
}

/* ---- dispatch ------------------------------------------------------------------ */

static void set_thread(gdbstub *s, const char *p)
{
    char which = *p;
    if (which != 'g' && which != 'c')
        return reply_err(s, 0x01);
    p++;
    int t = parse_thread(s, &p);
    if (t == -3 || *p)
        return reply_err(s, 0x01);
    if (which == 'g')
        s->g_cpu = t >= 0 ? t : s->d->cur_cpu;
    else
        s->c_cpu = t >= 0 ? t : TH_ANY;
    reply(s, "OK");
}

static void detach(gdbstub *s)
{
    dbg *d = s->d;
    reply(s, "OK");
    bool run = s->on_detach == DETACH_RUN && !d->running;
    gdb_session_end(s, d->running ? "detached" : run
                    ? "detached: the guest runs on (gdbserver on-detach run; Ctrl-C stops it)"
                    : "detached: the machine stays stopped (gdbserver on-detach stop)");
    s->run_after_detach = run;
}

static void kill_session(gdbstub *s)
{
    dbg *d = s->d;
    if (d->running) {
        bp_note_stop(d, "\ngdb killed its session.\n");
        machine_request_stop(d->m, STOP_USER, NULL);
    }
    gdb_session_end(s, "killed its session: the machine stays stopped");
}

static void dispatch(gdbstub *s, char *pkt, size_t len)
{
    dbg *d = s->d;
    switch (pkt[0]) {
    case '?': {
        strbuf b;
        sb_init(&b);
        stop_reply(s, &b, false);
        reply_sb(s, &b);
        sb_free(&b);
        s->seen = true;
        return;
    }
    case 'g': return len == 1 ? read_regs(s) : reply_err(s, 0x01);
    case 'G': return write_regs(s, pkt + 1, len - 1);
    case 'p': return read_reg(s, pkt + 1);
    case 'P': return write_reg(s, pkt + 1);
    case 'm': return read_mem(s, pkt + 1);
    case 'M': return write_mem(s, pkt + 1, len - 1, false);
    case 'X': return write_mem(s, pkt + 1, len - 1, true);
    case 'Z': return set_point(s, pkt + 1, true);
    case 'z': return set_point(s, pkt + 1, false);
    case 'c': case 'C': case 's': case 'S': return simple_resume(s, pkt[0], pkt + 1);
    case 'H': return set_thread(s, pkt + 1);
    case 'T': {
        const char *p = pkt + 1;
        int t = parse_thread(s, &p);
        return t >= 0 && !*p ? reply(s, "OK") : reply_err(s, 0x01);
    }
    case 'D': return detach(s);
    case 'k': return kill_session(s);
    case 'q': return query(s, pkt);
    case 'Q':
        if (!strcmp(pkt, "QStartNoAckMode")) {
            reply(s, "OK");
            s->noack = true;
            return;
        }
        break;
    case 'v':
        if (!strncmp(pkt, "vCont", 5))
            return vcont(s, pkt + 5);
        if (!strncmp(pkt, "vKill", 5)) {
            reply(s, "OK");
            return kill_session(s);
        }
        break; /* vMustReplyEmpty and the rest: empty */
    case 'b':
        /* bs, bc (reverse step and continue) wait for the time-travel issue:
         * they will step back through its log and stop with replaylog: at
         * either end.  Not advertised until then. */
        break;
    default:
        break;
    }
    (void)d;
    reply(s, "");
}

static void log_bad(gdbstub *s, const char *what)
{
    xlog(LOG_WARN, "gdbserver", "%s from %s: %s", what, s->peer,
         s->noack ? "dropped" : "asked for it again");
}

void gdb_feed(gdbstub *s)
{
    dbg *d = s->d;
    while (s->connected && s->in_pos < s->in_len) {
        /* A stop is on its way: the rest waits until the guest stopped. */
        if (d->running && d->m->stop_reason != STOP_NONE)
            return;
        int ev = rsp_feed(&s->dec, s->in[s->in_pos++]);
        switch (ev) {
        case RSP_PACKET: {
            if (!s->noack)
                gdb_net_write(s, "+", 1);
            /* A copy: a packet that runs the guest lets the decoder take
             * the next one (Ctrl-C) meanwhile. */
            size_t len = s->dec.len;
            char *pkt = malloc(len + 1);
            if (!pkt)
                break;
            memcpy(pkt, s->dec.buf, len + 1);
            s->depth++;
            if (len)
                dispatch(s, pkt, len);
            else
                reply(s, "");
            s->depth--;
            free(pkt);
            break;
        }
        case RSP_NAK:
            if (!s->noack && s->last.len)
                gdb_net_write(s, s->last.s, s->last.len);
            break;
        case RSP_INTERRUPT:
            if (d->running) {
                s->interrupt = true;
                if (!s->gdb_run)
                    bp_note_stop(d, "\nInterrupted by gdb.\n");
                machine_request_stop(d->m, STOP_USER, NULL);
            } else if (s->gdb_run) { /* between the steps of a range */
                s->interrupt = true;
            }
            break;
        case RSP_BAD_CHECKSUM:
            log_bad(s, "a packet with a bad checksum");
            if (!s->noack)
                gdb_net_write(s, "-", 1);
            break;
        case RSP_TOO_LONG:
            xlog(LOG_WARN, "gdbserver", "a packet longer than %d bytes from %s: refused",
                 RSP_MAX_PACKET, s->peer);
            if (!s->noack)
                gdb_net_write(s, "+", 1);
            reply_err(s, 0x16);
            break;
        default:
            break;
        }
    }
}

void gdb_after_packet(gdbstub *s)
{
    if (s->depth || s->d->running)
        return;
    if (s->hint_due && s->connected)
        dbg_puts(s->d, "(gdb is attached but did not resume the guest: it shows the state it "
                       "last saw until it resumes it, or until \"maintenance flush "
                       "register-cache\" there.)\n");
    s->hint_due = false;
    if (s->off_pending) {
        s->off_pending = false;
        if (s->connected)
            gdb_session_end(s, "disconnected: gdbserver off");
        gdb_net_stop_listening(s);
    }
    if (s->run_after_detach) {
        s->run_after_detach = false;
        if (!s->d->quit)
            dbg_resume(s->d, RUN_CONTINUE, s->budget, NULL);
    }
}

/* ---- a client without a socket (fuzzing) ------------------------------------------ */

int gdbstub_attach_virtual(dbg *d, gdbstub_send_fn send, void *ctx, uint64_t budget)
{
    gdbstub *s = gdb_stub_new(d);
    if (!s)
        return -1;
    if (s->connected)
        gdb_session_end(s, "replaced");
    s->vsend = send;
    s->vctx = ctx;
    s->budget = budget;
    gdb_session_start(s, -1, "a virtual client");
    return 0;
}

void gdbstub_input(dbg *d, const uint8_t *data, size_t len)
{
    gdbstub *s = gdb_stub(d);
    while (s && s->connected && len) {
        size_t n = len < sizeof s->in ? len : sizeof s->in;
        if (s->in_pos == s->in_len) {
            memcpy(s->in, data, n);
            s->in_len = n;
            s->in_pos = 0;
            data += n;
            len -= n;
        }
        gdb_feed(s);
        gdb_after_packet(s);
        if (s->in_pos != s->in_len)
            break; /* held back for a stop that the resume loop did not take */
    }
}
