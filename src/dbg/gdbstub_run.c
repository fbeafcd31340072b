/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gdb stub's running side: gdb's resumes (c, s, vCont with ranges)
 * through xbow's resume loop, and the loop's client hooks (dbg_client):
 * polling between slices, claiming the stops at gdb's breakpoints and
 * watchpoints, and what each stop means to gdb (the stop reply, and xbow's
 * report for gdb's console when xbow caused it). */
#include <stdio.h>
#include <stdlib.h>

#include "core/rr.h"
#include "dbg/gdbstub_int.h"

enum { RES_CONT, RES_STEP, RES_RANGE };

/* Lines of xbow's stop report gdb's console shows at a stop xbow caused. */
#define STOP_LINES 8

/* ---- stop replies ----------------------------------------------------------- */

void gdb_stop_reply(gdbstub *s, strbuf *b, bool with_reason)
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
        gdb_console(s, s->stop.text);
        free(s->stop.text);
        s->stop.text = NULL;
    }
    strbuf b;
    sb_init(&b);
    gdb_stop_reply(s, &b, true);
    s->g_cpu = s->stop.cpu; /* gdb's current thread is now the one that stopped */
    s->seen = true;
    gdb_reply_sb(s, &b);
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
    /* While the history re-executes, only for gdb's own bs or bc (its
     * Ctrl-C): a new client or packet waits until it is done. */
    if (s && (!d->replaying || s->reversing))
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
    s->hit.retired = cpu_retired(c);
    if (!s->gdb_run) /* xbow's prompt resumed: its report names gdb's point */
        bp_note_stop(d, text);
    return true;
}

/* The stop reason gdb is told: its own point's (gdbs: the hit noted by
 * client_claim is this stop's), if it takes that kind. */
static void set_reason(gdbstub *s, bool gdbs)
{
    s->stop.reason[0] = 0;
    if (gdbs && s->hit.kind == 's' && s->swbreak)
        snprintf(s->stop.reason, sizeof s->stop.reason, "swbreak:;");
    else if (gdbs && s->hit.kind == 'h' && s->hwbreak)
        snprintf(s->stop.reason, sizeof s->stop.reason, "hwbreak:;");
    else if (gdbs && s->hit.kind != 's' && s->hit.kind != 'h')
        snprintf(s->stop.reason, sizeof s->stop.reason, "%s:%llx;",
                 s->hit.kind == 'w'   ? "watch"
                 : s->hit.kind == 'r' ? "rwatch"
                                      : "awatch",
                 (unsigned long long)s->hit.addr);
    s->hit.kind = 0;
}

static bool client_stopped(dbg *d, int r, const char *report)
{
    gdbstub *s = d->client_ctx;
    if (!s || !s->connected)
        return false;
    s->stop.cpu = d->cur_cpu;
    s->stop.sig = r == STOP_USER || s->interrupt ? GDB_SIGINT : GDB_SIGTRAP;
    bool gdbs = s->hit.kind && s->hit.cpu == d->cur_cpu;
    set_reason(s, gdbs);
    /* gdb's own stops (its breakpoints, steps and Ctrl-C in a run it
     * started) are gdb's to report; any other is xbow's, and gdb's console
     * shows xbow's report too. */
    bool mine =
        s->gdb_run && !bp_pending(d) && (r == STOP_STEP || r == STOP_LIMIT || gdbs || s->interrupt);
    s->interrupt = false;
    free(s->stop.text);
    s->stop.text = NULL;
    if (s->waiting && !mine && r != STOP_STEP)
        s->stop.text = report_lines(report);
    if (!s->waiting && s->seen && !s->hinted)
        s->hinted = s->hint_due = true; /* said after the report (gdb_after_packet) */
    return mine;
}

const dbg_client gdb_client_ops = {client_poll, client_claim, client_stopped};

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
        return gdb_reply_err(s, 0x01);
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
void gdb_simple_resume(gdbstub *s, char op, const char *p)
{
    uint64_t sig, addr;
    if (op == 'C' || op == 'S') { /* a signal means nothing to a machine */
        if (rsp_parse_hex(&p, &sig))
            return gdb_reply_err(s, 0x01);
        if (*p == ';')
            p++;
        else if (*p)
            return gdb_reply_err(s, 0x01);
    }
    int ci = step_cpu(s, TH_ANY);
    if (*p) {
        if (rsp_parse_hex(&p, &addr) || *p)
            return gdb_reply_err(s, 0x01);
        machine_outside_change(s->d->m, "the pc");
        gdb_reg_set(machine_cpu(s->d->m, (unsigned)ci), GDB_REG_PC, addr);
    }
    resume(s, op == 's' || op == 'S' ? RES_STEP : RES_CONT, ci, 0, 0);
}

/* vCont;ACTION[:THREAD]...: the first step (s, S, r) that names a thread or
 * is the default steps that CPU; otherwise every CPU continues.  All CPUs
 * keep one virtual time, so continuing one CPU alone is continuing all. */
void gdb_vcont(gdbstub *s, const char *p)
{
    if (!strcmp(p, "?"))
        return gdb_reply(s, "vCont;c;C;s;S;r");
    int how = -1, ci = 0;
    uint64_t lo = 0, hi = 0;
    while (*p == ';') {
        p++;
        char act = *p++;
        uint64_t a = 0, b = 0;
        if (act == 'C' || act == 'S') {
            if (rsp_parse_hex(&p, &a))
                return gdb_reply_err(s, 0x01);
        } else if (act == 'r') {
            if (gdb_parse_range(&p, &a, &b, 0))
                return gdb_reply_err(s, 0x01);
        } else if (act != 'c' && act != 's' && act != 't') {
            return gdb_reply_err(s, 0x01);
        }
        int t = TH_ALL;
        if (*p == ':') {
            p++;
            t = gdb_parse_thread(s, &p);
            if (t == TH_BAD)
                return gdb_reply_err(s, 0x01);
        }
        if (*p && *p != ';')
            return gdb_reply_err(s, 0x01);
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
        return gdb_reply_err(s, 0x01);
    resume(s, how, ci, lo, hi);
}

/* ---- going back (bs, bc) --------------------------------------------------------- */

/* xbow's messages on gdb's console, each line starting with "xbow: ". */
static void console_lines(gdbstub *s, const char *text)
{
    strbuf b;
    sb_init(&b);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (n)
            sb_printf(&b, "xbow: %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    if (b.s)
        gdb_console(s, b.s);
    sb_free(&b);
}

/* Refused: why on gdb's console and xbow's, an error reply (gdb shows
 * "Remote failure reply" and stays where it was). */
static void reverse_refused(gdbstub *s, const char *what, const char *why)
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "xbow: %s: %s\n", what, why);
    gdb_console(s, b.s);
    dbg_printf(s->d, "[gdb's %s: %s]\n", what, why);
    sb_free(&b);
    gdb_reply_err(s, 0x01);
}

/* bs (one step back: a branch and its delay slot are one step, as forward)
 * and bc (back to the most recent earlier stop of a breakpoint or
 * watchpoint, gdb's or xbow's) through the history (history.c), on the
 * CPU of Hc.  At the history's start the stop says "replaylog:begin", and
 * gdb says "No more reverse-execution history". */
void gdb_reverse(gdbstub *s, const char *p)
{
    dbg *d = s->d;
    bool step = *p == 's';
    const char *what = step ? "reverse step" : "reverse continue";
    if (d->running || d->replaying)
        return reverse_refused(s, what, "the guest is running: interrupt it first");
    if (!hist_recording(d))
        return reverse_refused(s, what,
                               "no history to go back in: \"monitor record\" starts "
                               "recording it (from that point on; see docs/time-travel.md)");
    int ci = step_cpu(s, TH_ANY);
    d->cur_cpu = ci;
    strbuf out;
    sb_init(&out);
    dbg_capture saved;
    dbg_capture_begin(d, &saved, &out);
    s->waiting = true;
    s->gdb_run = true; /* gdb's points hit on the way are gdb's to report */
    s->reversing = true;
    s->interrupt = false;
    s->hit.kind = 0;
    int rc;
    if (step) {
        rc = hist_back_insns(d, ci, 1);
        if (rc == 0 && cpu_in_delay_slot(machine_cpu(d->m, (unsigned)ci)))
            rc = hist_back_insns(d, ci, 1); /* back to the branch */
    } else {
        rc = hist_back_to_stop(d, ci);
    }
    s->gdb_run = s->reversing = false;
    dbg_capture_end(d, &saved);
    bool interrupted = s->interrupt;
    s->interrupt = false;
    if (interrupted) { /* gdb's Ctrl-C: it was this command's, no later one's */
        dbg_command_begin();
        dbg_command_end();
    }
    if (!s->connected) {
        sb_free(&out);
        return;
    }
    if (rc < 0 && interrupted) { /* a SIGINT stop where the re-execution got to */
        if (out.s) {
            dbg_puts(d, out.s);
            console_lines(s, out.s);
        }
        sb_free(&out);
        s->stop.cpu = d->cur_cpu;
        s->stop.sig = GDB_SIGINT;
        s->stop.reason[0] = 0;
        return gdb_send_stop(s);
    }
    if (rc < 0) { /* said on both sides; gdb stays at the state it had */
        s->waiting = false;
        if (out.s) {
            dbg_puts(d, out.s);
            console_lines(s, out.s);
        }
        sb_free(&out);
        return gdb_reply_err(s, 0x01);
    }
    cpu *c = machine_cpu(d->m, (unsigned)d->cur_cpu);
    s->stop.cpu = d->cur_cpu;
    s->stop.sig = GDB_SIGTRAP;
    bool gdbs = !step && rc == 0 && s->hit.kind && s->hit.cpu == d->cur_cpu &&
                s->hit.retired == cpu_retired(c);
    set_reason(s, gdbs);
    if (rc == HIST_START)
        snprintf(s->stop.reason, sizeof s->stop.reason, "replaylog:begin;");
    free(s->stop.text);
    s->stop.text = NULL;
    if (!step && rc == 0 && !gdbs && out.s) {
        /* xbow's breakpoint or watchpoint: its report on both sides */
        dbg_puts(d, out.s);
        s->stop.text = report_lines(out.s);
    }
    sb_free(&out);
    gdb_send_stop(s);
}
