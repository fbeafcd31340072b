/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tracing: `trace insn` logs every instruction with the registers it
 * changed (through the CPUs' trace hook, which costs nothing when unset);
 * `trace event PATTERN` logs device and CPU events (an event-bus
 * subscription).  Lines carry the virtual time and the CPU, and go to a
 * file or to the debugger's output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "dbg/dbg_int.h"

typedef struct sink {
    char path[256]; /* "" = the debugger's output */
    FILE *f;
    unsigned users;
} sink;

struct trace_state;

typedef struct evtrace {
    char pattern[96];
    int sub;
    sink *out;
    struct trace_state *t;
    struct evtrace *next;
} evtrace;

typedef struct cpustate {
    uint64_t gpr[32], hi, lo;
    bool pending;
    strbuf line; /* the previous instruction, waiting for its results */
} cpustate;

typedef struct trace_state {
    dbg *d;
    sink *sinks[8];
    evtrace *events;
    sink *insn_out;
    cpustate cpus[MAX_CPUS];
    uint64_t insns;
} trace_state;

static trace_state *tstate(dbg *d)
{
    if (!d->trace) {
        trace_state *t = DBG_STATE(d, trace);
        t->d = d;
        for (unsigned i = 0; i < MAX_CPUS; i++)
            sb_init(&t->cpus[i].line);
    }
    return d->trace;
}

static void emit(trace_state *t, sink *s, const char *text)
{
    if (s->f) {
        fputs(text, s->f);
    } else {
        dbg_puts(t->d, text);
        /* A million lines between two slices of the run: let the front end
         * see its keys, and Ctrl-C stop the guest, in between. */
        if (dbg_interrupted(t->d) && t->d->running)
            machine_request_stop(t->d->m, STOP_USER, NULL);
    }
}

/* Is an open sink already writing to `path` (under this or another name)? */
static sink *sink_find(trace_state *t, const char *path)
{
    struct stat st, os;
    bool exists = *path && stat(path, &st) == 0;
    for (unsigned i = 0; i < ARRAY_SIZE(t->sinks); i++) {
        sink *s = t->sinks[i];
        if (s && (!strcmp(s->path, path) || (exists && s->f && fstat(fileno(s->f), &os) == 0 &&
                                             os.st_dev == st.st_dev && os.st_ino == st.st_ino)))
            return s;
    }
    return NULL;
}

/* Open (truncate) a trace file: callers check everything else first, so a
 * command that fails never empties a file. */
static sink *sink_open(dbg *d, trace_state *t, const char *path)
{
    sink *same = sink_find(t, path);
    if (same) {
        same->users++;
        return same;
    }
    for (unsigned i = 0; i < ARRAY_SIZE(t->sinks); i++) {
        if (t->sinks[i])
            continue;
        sink *s = xcalloc(1, sizeof *s);
        snprintf(s->path, sizeof s->path, "%s", path);
        if (*path && !(s->f = fopen(path, "w"))) {
            dbg_error(d, "%s: %s.", path, strerror(errno));
            free(s);
            return NULL;
        }
        s->users = 1;
        t->sinks[i] = s;
        return s;
    }
    dbg_error(d, "trace: too many trace files open.");
    return NULL;
}

static void sink_close(trace_state *t, sink *s)
{
    if (!s || --s->users)
        return;
    for (unsigned i = 0; i < ARRAY_SIZE(t->sinks); i++)
        if (t->sinks[i] == s)
            t->sinks[i] = NULL;
    if (s->f)
        fclose(s->f);
    free(s);
}

/* ---- instructions ---------------------------------------------------------------- */

static void snap(cpu *c, cpustate *cs)
{
    for (unsigned i = 0; i < 32; i++)
        cs->gpr[i] = cpu_gpr(c, i);
    cs->hi = cpu_hi(c);
    cs->lo = cpu_lo(c);
}

/* Finish the pending line of a CPU with the registers that changed. */
static void flush_cpu(trace_state *t, cpu *c, cpustate *cs)
{
    if (!cs->pending)
        return;
    bool first = true;
    for (unsigned i = 1; i < 32; i++) {
        uint64_t v = cpu_gpr(c, i);
        if (v != cs->gpr[i]) {
            sb_printf(&cs->line, "%s%s=0x%llx", first ? "\t; " : " ", cpu_gpr_names[i],
                      (unsigned long long)v);
            first = false;
        }
    }
    if (cpu_hi(c) != cs->hi) {
        sb_printf(&cs->line, "%shi=0x%llx", first ? "\t; " : " ", (unsigned long long)cpu_hi(c));
        first = false;
    }
    if (cpu_lo(c) != cs->lo)
        sb_printf(&cs->line, "%slo=0x%llx", first ? "\t; " : " ", (unsigned long long)cpu_lo(c));
    sb_putc(&cs->line, '\n');
    emit(t, t->insn_out, cs->line.s);
    sb_reset(&cs->line);
    cs->pending = false;
}

static void on_insn(void *ctx, cpu *c, uint64_t pc, uint32_t insn)
{
    trace_state *t = ctx;
    dbg *d = t->d;
    int i = cpu_index(c);
    cpustate *cs = &t->cpus[i];
    flush_cpu(t, c, cs);
    snap(c, cs);
    char dis[160], where[160];
    cpu_disasm(pc, insn, &d->m->syms, dis, sizeof dis);
    dbg_format_addr(d, (dbg_addr){pc, false}, where, sizeof where);
    sb_printf(&cs->line, "[t=%llu cpu%d] %s:\t%s", (unsigned long long)d->m->clock.now, i, where,
              dis);
    cs->pending = true;
    t->insns++;
}

static void flush_traces(dbg *d)
{
    trace_state *t = d->trace;
    if (!t || !t->insn_out)
        return;
    for (unsigned i = 0; i < d->m->ncpus; i++)
        flush_cpu(t, d->m->cpus[i], &t->cpus[i]);
    if (t->insn_out->f)
        fflush(t->insn_out->f);
}

static void insn_off(dbg *d, trace_state *t)
{
    if (!t->insn_out)
        return;
    flush_traces(d);
    for (unsigned i = 0; i < d->m->ncpus; i++)
        cpu_set_trace(d->m->cpus[i], NULL, NULL);
    sink_close(t, t->insn_out);
    t->insn_out = NULL;
}

static int cmd_trace_insn(dbg *d, const cmd_args *a)
{
    trace_state *t = tstate(d);
    const char *file = a->text[1];
    if (a->num[0] == 1) { /* off */
        if (*file)
            return dbg_usage_error(d, "trace insn", "nothing goes after \"off\"");
        if (!t->insn_out)
            return dbg_error(d, "trace insn: not on.");
        insn_off(d, t);
        return 0;
    }
    if (d->m->threads) /* the CPUs' threads would write it at once */
        return dbg_error(d, "trace insn: %s.",
                         machine_threads_refuse(d->m, "an instruction trace"));
    sink *out = sink_open(d, t, file); /* before closing the old one: it may be the same */
    if (!out)
        return -1; /* the trace that was on stays on */
    insn_off(d, t);
    t->insn_out = out;
    for (unsigned i = 0; i < d->m->ncpus; i++)
        cpu_set_trace(d->m->cpus[i], on_insn, t);
    dbg_printf(d, "Tracing instructions to %s.\n", *file ? file : "the console");
    return 0;
}

/* ---- events -------------------------------------------------------------------------- */

static void on_event(void *ctx, const event *ev)
{
    evtrace *e = ctx;
    trace_state *t = e->t;
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "[t=%llu cpu%d] ", (unsigned long long)ev->time, t->d->m->cur_cpu);
    event_format(ev, &b);
    sb_putc(&b, '\n');
    emit(t, e->out, b.s);
    sb_free(&b);
}

static void event_remove(dbg *d, trace_state *t, evtrace **pp)
{
    evtrace *e = *pp;
    *pp = e->next;
    event_unsubscribe(&d->m->events, e->sub);
    if (e->out->f)
        fflush(e->out->f);
    sink_close(t, e->out);
    free(e);
}

static int cmd_trace_event(dbg *d, const cmd_args *a)
{
    trace_state *t = tstate(d);
    const char *pat = a->text[0], *rest = a->text[1];
    if (!strcmp(pat, "off")) {
        if (strpbrk(rest, " \t"))
            return dbg_usage_error(d, "trace event", "one PATTERN after \"off\"");
        char which[sizeof t->events->pattern] = "";
        if (*rest)
            dbg_event_pattern(rest, which, sizeof which);
        unsigned n = 0;
        for (evtrace **pp = &t->events; *pp;) {
            if (!*which || !strcmp((*pp)->pattern, which)) {
                event_remove(d, t, pp);
                n++;
            } else {
                pp = &(*pp)->next;
            }
        }
        if (!n)
            return dbg_error(d, "trace event off: no event trace%s%s.", *rest ? " for " : "", rest);
        return 0;
    }
    evtrace *e = xcalloc(1, sizeof *e);
    e->t = t;
    dbg_event_pattern(pat, e->pattern, sizeof e->pattern);
    /* Check the pattern before the file is opened (and emptied).  Nothing
     * emits before the command returns, so e->out is set in time. */
    e->sub = event_subscribe_glob(&d->m->events, e->pattern, on_event, e);
    if (!e->sub) {
        free(e);
        return dbg_error(d, "No event matches \"%s\" (see \"info events\").", pat);
    }
    e->out = sink_open(d, t, rest);
    if (!e->out) {
        event_unsubscribe(&d->m->events, e->sub);
        free(e);
        return -1;
    }
    e->next = t->events;
    t->events = e;
    dbg_printf(d, "Tracing events %s to %s.\n", pat, *rest ? rest : "the console");
    return 0;
}

static int cmd_trace_off(dbg *d, const cmd_args *a)
{
    trace_state *t = d->trace;
    if (!t)
        return 0;
    insn_off(d, t);
    while (t->events)
        event_remove(d, t, &t->events);
    return 0;
}

static int cmd_trace(dbg *d, const cmd_args *a)
{
    if (a->given[0])
        return dbg_undefined_subcommand(d, "trace", a->text[0]);
    return dbg_error(d, "trace: say what to trace: trace insn on|off, trace event PATTERN.");
}

static int cmd_info_trace(dbg *d, const cmd_args *a)
{
    trace_state *t = d->trace;
    unsigned n = 0;
    if (t && t->insn_out) {
        dbg_printf(d, "instructions -> %s (%llu so far)\n",
                   *t->insn_out->path ? t->insn_out->path : "console",
                   (unsigned long long)t->insns);
        n++;
    }
    for (evtrace *e = t ? t->events : NULL; e; e = e->next, n++)
        dbg_printf(d, "events %s -> %s\n", e->pattern, *e->out->path ? e->out->path : "console");
    if (!n)
        dbg_puts(d, "Nothing is traced.\n");
    return 0;
}

static void dbg_trace_free(dbg *d)
{
    trace_state *t = d->trace;
    if (!t)
        return;
    if (d->m) {
        insn_off(d, t);
        while (t->events)
            event_remove(d, t, &t->events);
    }
    for (unsigned i = 0; i < MAX_CPUS; i++)
        sb_free(&t->cpus[i].line);
    free(t);
    d->trace = NULL;
}

#include "dbg/trace.cmds.h"

/* The trace files hold everything up to the stop. */
static void trace_on_stop(dbg *d, int reason) { flush_traces(d); }

const dbg_module dbg_trace_module = {
    .name = "trace",
    .commands = DBG_COMMANDS("Tracing", trace_commands),
    .on_stop = trace_on_stop,
    .free = dbg_trace_free,
};
