/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gdb stub's session: packets in, replies out.  gdb's breakpoints and
 * watchpoints (Z0..Z4) sit on the CPUs' own (the same reference-counted
 * code addresses as xbow's, and CPU watchpoints); memory goes through the
 * selected thread's CPU; every CPU is a thread; "monitor CMD" runs any xbow
 * command.  Resuming and stopping are gdbstub_run.c's. */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "core/rr.h"
#include "dbg/gdbstub_int.h"

/* Text in each O packet (console output), before hex doubles it. */
#define O_CHUNK 1024

/* ---- sending -------------------------------------------------------------- */

void gdb_send_packet(gdbstub *s, const char *data, size_t len)
{
    if (!s->connected)
        return;
    sb_reset(&s->last);
    rsp_frame(&s->last, data, len);
    gdb_net_write(s, s->last.s, s->last.len);
}

void gdb_reply(gdbstub *s, const char *text) { gdb_send_packet(s, text, strlen(text)); }

void gdb_reply_sb(gdbstub *s, const strbuf *b) { gdb_send_packet(s, b->s ? b->s : "", b->len); }

void gdb_reply_err(gdbstub *s, int code)
{
    char e[8];
    snprintf(e, sizeof e, "E%02x", code & 0xff);
    gdb_reply(s, e);
}

void gdb_console(gdbstub *s, const char *text)
{
    size_t n = strlen(text);
    for (size_t off = 0; off < n && s->connected; off += O_CHUNK) {
        strbuf b;
        sb_init(&b);
        sb_putc(&b, 'O');
        rsp_hex(&b, (const uint8_t *)text + off, n - off < O_CHUNK ? n - off : O_CHUNK);
        gdb_reply_sb(s, &b);
        sb_free(&b);
    }
}

/* ---- threads: CPU i is thread i + 1 --------------------------------------- */

int gdb_parse_thread(gdbstub *s, const char **p)
{
    if ((*p)[0] == '-' && (*p)[1] == '1') {
        *p += 2;
        return TH_ALL;
    }
    uint64_t v;
    if (rsp_parse_hex(p, &v))
        return TH_BAD;
    if (v == 0)
        return TH_ANY;
    return v <= s->d->m->ncpus ? (int)v - 1 : TH_BAD;
}

cpu *gdb_g_cpu(gdbstub *s)
{
    machine *m = s->d->m;
    if (s->g_cpu < 0 || (unsigned)s->g_cpu >= m->ncpus)
        s->g_cpu = s->d->cur_cpu;
    return machine_cpu(m, (unsigned)s->g_cpu);
}

gdbstub *gdb_stub(dbg *d) { return d && d->client == &gdb_client_ops ? d->client_ctx : NULL; }

gdbstub *gdb_stub_new(dbg *d)
{
    gdbstub *s = gdb_stub(d);
    if (s)
        return s;
    s = xcalloc(1, sizeof *s);
    s->d = d;
    s->lfd = -1;
    s->cfd = -1;
    s->on_detach = DETACH_RUN;
    for (unsigned i = 0; i < GDB_MAX_REFUSED; i++)
        s->refused[i].fd = -1;
    sb_init(&s->last);
    d->client = &gdb_client_ops;
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
    cpu *c = gdb_g_cpu(s);
    strbuf b;
    sb_init(&b);
    for (unsigned n = 0; n < GDB_NREGS; n++) {
        uint64_t v = 0;
        uint8_t be[8];
        gdb_reg_get(c, n, &v);
        store_be(be, 8, v);
        rsp_hex(&b, be, 8);
    }
    gdb_reply_sb(s, &b);
    sb_free(&b);
}

static void write_regs(gdbstub *s, const char *p, size_t len)
{
    cpu *c = gdb_g_cpu(s);
    if (len % 16 || len / 16 > GDB_NREGS)
        return gdb_reply_err(s, 0x16);
    uint8_t be[8];
    for (size_t i = 0; i < len / 16; i++)
        if (rsp_unhex(p + 16 * i, be, 8))
            return gdb_reply_err(s, 0x01);
    for (size_t i = 0; i < len / 16; i++) {
        rsp_unhex(p + 16 * i, be, 8);
        uint64_t old;
        if (!gdb_reg_get(c, (unsigned)i, &old) || old != load_be(be, 8))
            machine_outside_change(s->d->m, "a CPU register");
        gdb_reg_set(c, (unsigned)i, load_be(be, 8));
    }
    gdb_reply(s, "OK");
}

static void read_reg(gdbstub *s, const char *p)
{
    uint64_t n, v;
    if (rsp_parse_hex(&p, &n) || *p)
        return gdb_reply_err(s, 0x01);
    if (n >= GDB_NREGS || !gdb_reg_get(gdb_g_cpu(s), (unsigned)n, &v))
        return gdb_reply_err(s, 0x16);
    uint8_t be[8];
    store_be(be, 8, v);
    strbuf b;
    sb_init(&b);
    rsp_hex(&b, be, 8);
    gdb_reply_sb(s, &b);
    sb_free(&b);
}

static void write_reg(gdbstub *s, const char *p)
{
    uint64_t n;
    uint8_t be[8];
    if (rsp_parse_hex(&p, &n) || *p != '=' || strlen(p + 1) != 16 || rsp_unhex(p + 1, be, 8))
        return gdb_reply_err(s, 0x01);
    machine_outside_change(s->d->m, "a CPU register");
    if (n >= GDB_NREGS || !gdb_reg_set(gdb_g_cpu(s), (unsigned)n, load_be(be, 8)))
        return gdb_reply_err(s, 0x16);
    gdb_reply(s, "OK");
}

int gdb_parse_range(const char **p, uint64_t *addr, uint64_t *len, char sep)
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
    if (gdb_parse_range(&p, &addr, &len, 0) || *p)
        return gdb_reply_err(s, 0x01);
    if (len > (RSP_MAX_PACKET - 8) / 2)
        len = (RSP_MAX_PACKET - 8) / 2; /* gdb takes a short read and asks for the rest */
    uint8_t *buf = xmalloc(len);
    uint64_t got = len ? cpu_read_virt(gdb_g_cpu(s), addr, buf, len) : 0;
    if (len && !got) {
        free(buf);
        return gdb_reply_err(s, 0x14);
    }
    strbuf b;
    sb_init(&b);
    rsp_hex(&b, buf, got);
    gdb_reply_sb(s, &b);
    sb_free(&b);
    free(buf);
}

static void write_mem(gdbstub *s, char *p, size_t plen, bool binary)
{
    const char *q = p;
    uint64_t addr, len;
    if (gdb_parse_range(&q, &addr, &len, ':'))
        return gdb_reply_err(s, 0x01);
    uint8_t *data = (uint8_t *)p + (q - p);
    size_t dlen = plen - (size_t)(q - p);
    if (binary) {
        long n = rsp_unescape(data, dlen);
        if (n < 0 || (uint64_t)n != len)
            return gdb_reply_err(s, 0x01);
    } else {
        if (dlen != 2 * len || rsp_unhex((const char *)data, data, len))
            return gdb_reply_err(s, 0x01);
    }
    if (len)
        machine_outside_change(s->d->m, "memory");
    if (len && cpu_write_virt(gdb_g_cpu(s), addr, data, len) != len)
        return gdb_reply_err(s, 0x14);
    gdb_reply(s, "OK");
}

/* ---- breakpoints and watchpoints ----------------------------------------------- */

static void set_point(gdbstub *s, const char *p, bool insert)
{
    dbg *d = s->d;
    uint64_t type, addr, kind;
    if (rsp_parse_hex(&p, &type) || type > GP_ACCESS || *p++ != ',' ||
        gdb_parse_range(&p, &addr, &kind, 0) || (*p && *p != ';'))
        return gdb_reply_err(s, 0x01);
    if (type <= GP_HW && (kind != 4 || (addr & 3)))
        return gdb_reply_err(s, 0x16); /* MIPS32 instructions only (no MIPS16) */
    if (type >= GP_WRITE && (kind == 0 || kind > (1u << 20)))
        return gdb_reply_err(s, 0x16);
    if (!insert) {
        for (unsigned i = s->npts; i-- > 0;) {
            gdb_point *pt = &s->pts[i];
            if (pt->type == (enum gdb_point_type)type && pt->addr == addr &&
                (type <= GP_HW || pt->len == kind)) {
                remove_point(s, i);
                break;
            }
        }
        return gdb_reply(s, "OK");
    }
    if (s->npts >= GDB_MAX_POINTS)
        return gdb_reply_err(s, 0x1c);
    s->pts = xrealloc(s->pts, (s->npts + 1) * sizeof *s->pts);
    gdb_point pt = {.type = (enum gdb_point_type)type, .addr = addr, .len = kind};
    if (type <= GP_HW) {
        bp_addr_insert(d, -1, addr);
    } else {
        static const int wt[] = {WATCH_WRITE, WATCH_READ, WATCH_ACCESS};
        for (unsigned k = 0; k < d->m->ncpus; k++) {
            pt.ids[k] = cpu_wp_insert(d->m->cpus[k], addr, kind, wt[type - GP_WRITE]);
            if (pt.ids[k] <= 0) {
                while (k-- > 0)
                    cpu_wp_remove(d->m->cpus[k], pt.ids[k]);
                return gdb_reply_err(s, 0x16);
            }
        }
    }
    s->pts[s->npts++] = pt;
    gdb_reply(s, "OK");
}

/* ---- monitor ------------------------------------------------------------------ */

static void monitor(gdbstub *s, const char *hex)
{
    dbg *d = s->d;
    size_t n = strlen(hex);
    char *line = xmalloc(n / 2 + 1);
    if (n % 2 || rsp_unhex(hex, (uint8_t *)line, n / 2) || memchr(line, 0, n / 2) ||
        memchr(line, '\n', n / 2)) {
        free(line);
        return gdb_reply_err(s, 0x01);
    }
    line[n / 2] = 0;
    strbuf out;
    sb_init(&out);
    const char *rest;
    const command *c = dbg_command_lookup(d, line, &rest);
    if (!*dbg_skip_ws(line)) {
        sb_puts(&out, "\"monitor COMMAND\" runs an xbow command (\"monitor help\" lists them).\n");
    } else if (d->collecting) {
        sb_puts(&out, "The xbow prompt is in the middle of a block (define, commands, while...): "
                      "finish it there first.\n");
    } else if (s->monitor_ok && !s->monitor_ok(line)) {
        sb_puts(&out, "monitor: not here.\n");
    } else if (c && !strncmp(c->name, "reverse-", 8)) {
        sb_printf(&out,
                  "monitor %s: go back with gdb's own %s: gdb would not know that the "
                  "machine moved (monitor goto-time is there for what gdb has no command "
                  "for).\n",
                  c->name, c->name);
    } else if (c && (c->flags & CMD_RESUMES)) {
        sb_printf(&out,
                  "monitor %s: resume the guest with gdb's own commands (continue, "
                  "stepi...): gdb would not know that it ran.\n",
                  c->name);
    } else {
        /* The command sees gdb's thread as the selected CPU. */
        int saved_cpu = d->cur_cpu, cpu_now = s->g_cpu >= 0 ? s->g_cpu : d->cur_cpu;
        d->cur_cpu = cpu_now;
        dbg_capture saved;
        dbg_capture_begin(d, &saved, &out);
        uint64_t stops = d->stop_count;
        dbg_execute(d, line);
        if (d->collecting) {
            d->collecting = 0;
            sb_puts(&out, "monitor: blocks (define, commands, while...) need the xbow prompt.\n");
        }
        dbg_capture_end(d, &saved);
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
        gdb_console(s, out.s);
    sb_free(&out);
    gdb_reply(s, "OK");
}

/* ---- queries -------------------------------------------------------------------- */

static void xfer_features(gdbstub *s, const char *p)
{
    static const char annex[] = "target.xml:";
    if (strncmp(p, annex, sizeof annex - 1))
        return gdb_reply_err(s, 0x00);
    p += sizeof annex - 1;
    uint64_t off, len;
    if (gdb_parse_range(&p, &off, &len, 0) || *p || !len)
        return gdb_reply_err(s, 0x01);
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
    gdb_reply_sb(s, &b);
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
        /* Reverse execution (bs, bc) always: "monitor record" may start the
         * history after gdb asked; without one they answer an error. */
        sb_printf(&b,
                  "PacketSize=%x;qXfer:features:read+;QStartNoAckMode+;swbreak+;hwbreak+;"
                  "vContSupported+;ReverseStep+;ReverseContinue+",
                  RSP_MAX_PACKET);
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
        int t = gdb_parse_thread(s, &q);
        if (t < 0 || *q) {
            sb_free(&b);
            return gdb_reply_err(s, 0x01);
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
    gdb_reply_sb(s, &b);
    sb_free(&b);
}

/* ---- dispatch ------------------------------------------------------------------ */

static void set_thread(gdbstub *s, const char *p)
{
    char which = *p;
    if (which != 'g' && which != 'c')
        return gdb_reply_err(s, 0x01);
    p++;
    int t = gdb_parse_thread(s, &p);
    if (t == TH_BAD || *p)
        return gdb_reply_err(s, 0x01);
    if (which == 'g')
        s->g_cpu = t >= 0 ? t : s->d->cur_cpu;
    else
        s->c_cpu = t >= 0 ? t : TH_ANY;
    gdb_reply(s, "OK");
}

static void detach(gdbstub *s)
{
    dbg *d = s->d;
    gdb_reply(s, "OK");
    bool run = s->on_detach == DETACH_RUN && !d->running;
    gdb_session_end(s,
                    d->running ? "detached"
                    : run ? "detached: the guest runs on (gdbserver on-detach run; Ctrl-C stops it)"
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
        gdb_stop_reply(s, &b, false);
        gdb_reply_sb(s, &b);
        sb_free(&b);
        s->seen = true;
        return;
    }
    case 'g': return len == 1 ? read_regs(s) : gdb_reply_err(s, 0x01);
    case 'G': return write_regs(s, pkt + 1, len - 1);
    case 'p': return read_reg(s, pkt + 1);
    case 'P': return write_reg(s, pkt + 1);
    case 'm': return read_mem(s, pkt + 1);
    case 'M': return write_mem(s, pkt + 1, len - 1, false);
    case 'X': return write_mem(s, pkt + 1, len - 1, true);
    case 'Z': return set_point(s, pkt + 1, true);
    case 'z': return set_point(s, pkt + 1, false);
    case 'c':
    case 'C':
    case 's':
    case 'S': return gdb_simple_resume(s, pkt[0], pkt + 1);
    case 'H': return set_thread(s, pkt + 1);
    case 'T': {
        const char *p = pkt + 1;
        int t = gdb_parse_thread(s, &p);
        return t >= 0 && !*p ? gdb_reply(s, "OK") : gdb_reply_err(s, 0x01);
    }
    case 'D': return detach(s);
    case 'k': return kill_session(s);
    case 'q': return query(s, pkt);
    case 'Q':
        if (!strcmp(pkt, "QStartNoAckMode")) {
            gdb_reply(s, "OK");
            s->noack = true;
            return;
        }
        break;
    case 'v':
        if (!strncmp(pkt, "vCont", 5))
            return gdb_vcont(s, pkt + 5);
        if (!strncmp(pkt, "vKill", 5)) {
            gdb_reply(s, "OK");
            return kill_session(s);
        }
        break; /* vMustReplyEmpty and the rest: empty */
    case 'b':
        if (!strcmp(pkt, "bs") || !strcmp(pkt, "bc"))
            return gdb_reverse(s, pkt + 1);
        break; /* b (baud rate, long gone) and the rest: empty */
    default: break;
    }
    (void)d;
    gdb_reply(s, "");
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
        /* A stop is on its way: the rest waits until the guest stopped.
         * (Not while the history re-executes: there the reason a slice
         * ended is left in stop_reason, and gdb's Ctrl-C must get through.) */
        if (d->running && !d->replaying && d->m->stop_reason != STOP_NONE)
            return;
        /* The history re-executes: only gdb's Ctrl-C of its own bs or bc
         * now, the rest after. */
        if (d->replaying && (!s->reversing || s->in[s->in_pos] != 0x03))
            return;
        int ev = rsp_feed(&s->dec, s->in[s->in_pos++]);
        switch (ev) {
        case RSP_PACKET: {
            if (!s->noack)
                gdb_net_write(s, "+", 1);
            /* A copy: a packet that runs the guest lets the decoder take
             * the next one (Ctrl-C) meanwhile. */
            size_t len = s->dec.len;
            char *pkt = xmalloc(len + 1);
            memcpy(pkt, s->dec.buf, len + 1);
            s->depth++;
            if (len)
                dispatch(s, pkt, len);
            else
                gdb_reply(s, "");
            s->depth--;
            free(pkt);
            break;
        }
        case RSP_NAK:
            if (!s->noack && s->last.len)
                gdb_net_write(s, s->last.s, s->last.len);
            break;
        case RSP_INTERRUPT:
            if (s->reversing) { /* bs, bc: the history's re-execution stops */
                s->interrupt = true;
                dbg_interrupt();
            } else if (d->running) {
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
            gdb_reply_err(s, 0x16);
            break;
        default: break;
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
