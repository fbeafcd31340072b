/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run's history and reverse execution (docs/time-travel.md).
 *
 * With `record` on, the resume loop (cmd_run.c) runs the guest in slices
 * and, at a slice's end, keeps an in-memory snapshot (machine/snapshot.h)
 * every `history-interval` ticks of virtual time, the oldest dropped beyond
 * `history-size`.  Going back (goto-time, reverse-stepi, reverse-nexti,
 * reverse-continue, reverse-finish) restores the nearest earlier snapshot
 * and re-executes deterministically to the position wanted: the run is
 * deterministic given its outside inputs, which the history keeps (the
 * log, core/rr.h rr_log: console bytes, host network frames) and feeds
 * back while the machine is before the present.  A snapshot copies only
 * the RAM pages written since the one it starts from (snapshot_take_since,
 * dirty-page tracking) and shares the rest.  A change the debugger makes (a
 * register, memory, a reset, a loaded snapshot, jump) or a host network
 * peer that comes or goes cuts the history: its snapshots are dropped.
 *
 * Positions: a CPU's clock (ticks, machine.local_time) or its instruction
 * count (cpu_retired).  The re-execution runs the machine as continue
 * does (every CPU, idle skip on), in budgets that end exactly at the
 * position. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/rr.h"
#include "dbg/dbg_int.h"
#include "machine/snapshot.h"

#define DEFAULT_INTERVAL 10000000u /* ticks between two snapshots */
#define DEFAULT_SIZE_MB 1024u      /* host memory the history may use */
#define DEFAULT_OVERHEAD 10u       /* percent of the host's time snapshots may take */

typedef struct hentry {
    snapshot *s;
    uint64_t ticks[MAX_CPUS], retired[MAX_CPUS];
    uint64_t log_pos; /* the history's log: the first input after it */
    size_t bytes;     /* host memory it allocated (pages shared with the one before excluded) */
} hentry;

typedef struct history {
    bool on;
    uint64_t interval, size_mb;
    unsigned overhead;     /* percent of host time snapshots may take */
    double taken_at, cost; /* host time after the last snapshot, what it cost */
    hentry *e;
    unsigned n, cap;
    size_t bytes;   /* host memory of all of them (a shared page counted once) */
    snapshot *base; /* the snapshot the RAM was like when the dirty-page tracking
                       started (the last taken or restored), or NULL */
    bool check;     /* set history-check: compare each snapshot with the RAM */
    uint64_t checked, check_failed;
    uint64_t dropped;       /* oldest snapshots dropped for room */
    uint64_t cuts, changes; /* the counters when last looked at */
    rr_log *log;            /* the inputs from outside since the first snapshot */
    uint64_t end_now;       /* the machine's clock at the present */
    uint64_t end_ticks[MAX_CPUS], end_retired[MAX_CPUS]; /* the furthest point run to */
    uint64_t cut_ticks;   /* cpu0's clock where the history was last cut */
    const char *last_cmd; /* the last command that went back: its host time, */
    double last_secs;     /* and the ticks it re-executed (info time) */
    uint64_t last_ticks;
    const char *cut_why; /* why (NULL: never) */
    bool at_start;       /* the last back_to_hit found no stop: at the start */
} history;

static history *hstate(dbg *d)
{
    if (!d->hist) {
        history *h = xcalloc(1, sizeof *h);
        h->interval = DEFAULT_INTERVAL;
        h->size_mb = DEFAULT_SIZE_MB;
        h->overhead = DEFAULT_OVERHEAD;
        d->hist = h;
    }
    return d->hist;
}

static void drop_all(history *h)
{
    for (unsigned i = 0; i < h->n; i++)
        snapshot_free(h->e[i].s);
    h->n = 0;
    h->bytes = 0;
    h->base = NULL;
    if (h->log)
        rr_log_clear(h->log);
}

/* Drop the oldest snapshot (the pages the next one shares stay). */
static void drop_oldest(history *h)
{
    if (h->e[0].s == h->base)
        h->base = NULL;
    h->bytes -= snapshot_release(h->e[0].s);
    memmove(h->e, h->e + 1, (h->n - 1) * sizeof *h->e);
    h->n--;
    h->dropped++;
    if (h->log) /* the inputs before the oldest snapshot are never fed again */
        rr_log_forget(h->log, h->e[0].log_pos);
}

/* Over the size: the oldest go first, the newest always stays. */
static void trim(history *h)
{
    while (h->n > 1 && h->bytes > h->size_mb << 20)
        drop_oldest(h);
}

/* Keep the inputs from outside in the history's log (or stop). */
static void log_attach(dbg *d, rr_log *L)
{
    machine *m = d->m;
    m->clock.hist = L;
    if (m->console)
        chardev_set_history(m->console, L);
}

static void hist_free(dbg *d)
{
    history *h = d->hist;
    if (!h)
        return;
    drop_all(h);
    if (h->log && d->m)
        log_attach(d, NULL);
    rr_log_free(h->log);
    free(h->e);
    free(h);
    d->hist = NULL;
}

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The cost of going back (host time, ticks re-executed), for info time and
 * the benchmark: cost_begin and cost_end around the work (nothing without
 * a history), or costed() around a command. */
static void cost_begin(dbg *d, const char *cmd)
{
    history *h = d->hist;
    if (!h || !h->on)
        return;
    h->last_cmd = cmd;
    h->last_ticks = 0;
    h->last_secs = -host_seconds();
}

static void cost_end(dbg *d)
{
    history *h = d->hist;
    if (h && h->on && h->last_secs < 0)
        h->last_secs += host_seconds();
}

static int costed(dbg *d, const cmd_args *a, const char *cmd, int (*fn)(dbg *d, const cmd_args *a))
{
    cost_begin(d, cmd);
    int rc = fn(d, a);
    cost_end(d);
    return rc;
}

static void set_end(dbg *d, history *h, bool reset)
{
    machine *m = d->m;
    for (unsigned i = 0; i < m->ncpus; i++) {
        uint64_t t = m->local_time[i], r = cpu_retired(m->cpus[i]);
        if (reset || t > h->end_ticks[i])
            h->end_ticks[i] = t;
        if (reset || r > h->end_retired[i])
            h->end_retired[i] = r;
    }
    if (reset || m->clock.now > h->end_now)
        h->end_now = m->clock.now;
}

/* The RAM is now the one of snapshot s: track the pages written from here
 * (a snapshot then shares the others with s). */
static void track_from(dbg *d, snapshot *s)
{
    snapshot_track(d->m);
    d->hist->base = s;
}

/* The machine is back at the present: the log stops feeding (the console
 * queues what was typed there), and inputs from outside come again. */
static void feed_check(dbg *d)
{
    history *h = d->hist;
    machine *m = d->m;
    if (!rr_log_feeding(h->log) || m->clock.now < h->log->until)
        return;
    if (m->console)
        chardev_history_sync(m->console);
    rr_log_stop_feed(h->log);
}

/* set history-check: the snapshot must hold the RAM as it is (a page
 * written by a path that does not mark it dirty would keep the older
 * snapshot's bytes). */
static void check_snapshot(dbg *d, history *h, const snapshot *s)
{
    unsigned blk;
    uint64_t off;
    h->checked++;
    if (snapshot_ram_diff(d->m, s, &blk, &off) == 0)
        return;
    h->check_failed++;
    dbg_printf(d,
               "history-check: the snapshot at tick %llu differs from the RAM: %s page at "
               "offset 0x%llx was written without being marked dirty\n",
               (unsigned long long)d->m->local_time[0], d->m->bus.rams[blk]->name,
               (unsigned long long)off);
}

/* Put the machine in the state of snapshot i, the log feeding the inputs
 * after it up to the present. */
static int restore(dbg *d, int i)
{
    history *h = d->hist;
    xerr err;
    if (snapshot_restore_since(d->m, h->e[i].s, h->base, &err) != 0)
        return dbg_error(d, "Going back: %s", err.msg);
    if (h->check) /* the pages not copied were right */
        check_snapshot(d, h, h->e[i].s);
    track_from(d, h->e[i].s);
    rr_log_feed(h->log, h->e[i].log_pos, h->end_now);
    return 0;
}

static void take(dbg *d, history *h)
{
    machine *m = d->m;
    hentry e = {.s = snapshot_take_since(m, h->base), .log_pos = rr_log_end(h->log)};
    track_from(d, e.s);
    for (unsigned i = 0; i < m->ncpus; i++) {
        e.ticks[i] = m->local_time[i];
        e.retired[i] = cpu_retired(m->cpus[i]);
    }
    e.bytes = snapshot_own_bytes(e.s);
    if (h->check)
        check_snapshot(d, h, e.s);
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->e = xrealloc(h->e, h->cap * sizeof *h->e);
    }
    h->e[h->n++] = e;
    h->bytes += e.bytes;
    trim(h); /* bounded */
}

/* The machine moved on (a slice ended, a run starts or stops): cut the
 * history at a debugger change or a host peer's coming or going, note how far the run
 * went, and keep a snapshot when one is due. */
static void note(dbg *d)
{
    history *h = d->hist;
    machine *m = d->m;
    if (!h || !h->on || d->replaying || !m->ncpus)
        return;
    const char *why = NULL;
    if (m->clock.changes != h->changes)
        why = "the debugger changed the machine";
    else if (h->log->cuts != h->cuts)
        why = "a host network peer came or went (the history cannot re-run that)";
    h->changes = m->clock.changes;
    h->cuts = h->log->cuts;
    if (why) {
        drop_all(h);
        snapshot_untrack(m);
        h->cut_why = why;
        h->cut_ticks = m->local_time[0];
        set_end(d, h, true);
    } else {
        feed_check(d);
        set_end(d, h, false);
    }
    if (h->n && m->local_time[0] < h->e[h->n - 1].ticks[0] + h->interval)
        return;
    /* The cost cap: a snapshot that took c seconds is followed by at least
     * c * (100 - overhead) / overhead seconds of running.  Which states are
     * kept depends on the host; what re-execution reaches does not. */
    double now = host_seconds();
    if (h->n && h->overhead < 100 &&
        now - h->taken_at < h->cost * (double)(100 - h->overhead) / (double)h->overhead)
        return;
    take(d, h);
    h->taken_at = host_seconds();
    h->cost = h->taken_at - now;
}

void hist_before_run(dbg *d) { note(d); }
void hist_after_slice(dbg *d) { note(d); }

uint64_t hist_slice(dbg *d)
{
    history *h = d->hist;
    if (!h || !h->on || d->replaying)
        return 0;
    return h->interval;
}

bool dbg_history_span(dbg *d, uint64_t *first, uint64_t *end)
{
    history *h = d->hist;
    if (!h || !h->on || !h->n)
        return false;
    *first = h->e[0].ticks[0];
    *end = h->end_ticks[0];
    return true;
}

/* ---- going back ---------------------------------------------------------- */

static bool have_history(dbg *d)
{
    history *h = d->hist;
    if (h && h->on && h->n)
        return true;
    if (!h || !h->on)
        dbg_error(d, "No history to go back in: say \"record\" before running the guest "
                     "(see docs/time-travel.md).");
    else
        dbg_error(d, "No history yet: run the guest first (with \"record\" on).");
    return false;
}

/* The newest snapshot at or before the position (by_insn: instructions of
 * CPU ci, else its clock), or -1. */
static int entry_before(history *h, int ci, bool by_insn, uint64_t pos)
{
    for (int i = (int)h->n - 1; i >= 0; i--)
        if ((by_insn ? h->e[i].retired[ci] : h->e[i].ticks[ci]) <= pos)
            return i;
    return -1;
}

static uint64_t position(machine *m, int ci, bool by_insn)
{
    return by_insn ? cpu_retired(m->cpus[ci]) : m->local_time[ci];
}

static uint64_t total_time(const machine *m)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < m->ncpus; i++)
        t += m->local_time[i];
    return t;
}

/* Re-execution goes in slices, to see Ctrl-C (and let a front end redraw)
 * between them: how it is cut does not change the run.  The CLI's SIGINT
 * stops the CPUs at once (ui/run.c); gdb's Ctrl-C and the TUI's key are
 * read by the poll between two slices (dbg_interrupted, at most every
 * 50 ms), so a slice is a millisecond or two of host time, as the resume
 * loop's POLL_SLICE: about 750 host instructions a slice (callgrind), under
 * 0.01% of re-executing it. */
#define REEXEC_SLICE 1000000u

static uint64_t slice(uint64_t left) { return left < REEXEC_SLICE ? left : REEXEC_SLICE; }

static int interrupted(dbg *d, int ci)
{
    dbg_interrupt_reported();
    return dbg_error(d,
                     "Interrupted while re-executing the history: the machine is at tick %llu "
                     "(cpu%d), a past state (\"goto-time present\" goes back to the present).",
                     (unsigned long long)d->m->local_time[ci], ci);
}

/* Run CPU ci (the others alongside) from where the machine is to the
 * position; breakpoints are the caller's business.  0, or -1 after an
 * error message. */
static int reach(dbg *d, int ci, bool by_insn, uint64_t pos)
{
    machine *m = d->m;
    for (;;) {
        uint64_t cur = position(m, ci, by_insn);
        if (cur >= pos)
            return 0;
        if (dbg_interrupted(d))
            return interrupted(d, ci);
        uint64_t all = total_time(m);
        int r = machine_run_cpu(m, -1, slice(pos - cur));
        if (r == STOP_HALT)
            return dbg_error(d, "Re-executing the history: the CPU cannot continue: %s",
                             m->stop_msg);
        if (r == STOP_REPLAY)
            return dbg_error(d, "Re-executing the history: %s.", m->stop_msg);
        if (total_time(m) == all && r != STOP_RESET && r != STOP_EVENT && r != STOP_BREAKPOINT &&
            r != STOP_WATCHPOINT)
            return dbg_error(d, "Re-executing the history: no progress at tick %llu (%s).",
                             (unsigned long long)m->local_time[ci], stop_reason_name(r));
        for (unsigned i = 0; i < m->ncpus; i++)
            cpu_step_over_bp(m->cpus[i]);
    }
}

/* The machine is where going back left it (the position, a stop, or where
 * Ctrl-C or an error cut the re-execution short): a stop there like any
 * other, the value watchpoints from its values, the log fed on to the
 * present. */
static void arrived(dbg *d)
{
    machine *m = d->m;
    bp_forget_pending(d);
    bp_resync_all(d);
    m->stop_reason = STOP_NONE;
    feed_check(d);
    d->hist->changes = m->clock.changes;
    d->frame = 0;
    d->killed = false;
    d->stop_count++;
    dbg_modules_stopped(d, STOP_STEP);
}

/* Put the machine at the position: restore the snapshot, re-execute. */
static int go(dbg *d, int ci, bool by_insn, uint64_t pos)
{
    history *h = d->hist;
    machine *m = d->m;
    int i = entry_before(h, ci, by_insn, pos);
    if (i < 0) {
        if (h->cut_why)
            return dbg_error(d,
                             "Cannot go back so far: the history starts at tick %llu (cpu%d), "
                             "where %s.",
                             (unsigned long long)h->e[0].ticks[ci], ci, h->cut_why);
        return dbg_error(d, "Cannot go back so far: the history starts at tick %llu (cpu%d)%s.",
                         (unsigned long long)h->e[0].ticks[ci], ci,
                         h->dropped ? " (older snapshots were dropped: set history-size)" : "");
    }
    if (restore(d, i) != 0)
        return -1;
    /* The breakpoints stay armed (their hits are only noted): the run is
     * the one the history had, with them in place. */
    d->replaying = true;
    chardev_set_muted(m->console, true);
    uint64_t t0 = total_time(m);
    int rc = reach(d, ci, by_insn, pos);
    h->last_ticks += total_time(m) - t0;
    chardev_set_muted(m->console, false);
    d->replaying = false;
    arrived(d);
    return rc;
}

static void show_here(dbg *d)
{
    if (dbg_cpu(d))
        dbg_show_location(d, dbg_cpu(d));
    dbg_do_displays(d);
}

/* ---- looking for the last hit ------------------------------------------- */

typedef struct hit {
    bool found;
    unsigned index; /* the how-manieth stop of its interval's re-execution */
    uint64_t end;   /* where that re-execution ended */
    uint64_t ticks;
    int cpu;
    char *text;
} hit;

/* A code breakpoint stop during the scan: a user breakpoint (its condition
 * held) or the goal (pc == goal_pc with $sp at least goal_sp). */
static bool scan_code_hit(dbg *d, uint64_t goal_pc, uint64_t goal_sp)
{
    machine *m = d->m;
    cpu *c = m->cpus[m->cur_cpu];
    uint64_t pc = cpu_pc(c);
    bool found = false, stop = bp_code_stop(d, m->cur_cpu, pc, &found);
    if (goal_pc && pc == goal_pc && cpu_gpr(c, 29) >= goal_sp && (int)m->cur_cpu == d->cur_cpu)
        stop = true;
    if (d->client && d->client->claim && d->client->claim(d, STOP_BREAKPOINT, m->cur_cpu))
        stop = true; /* gdb's breakpoint */
    return stop;
}

/* Re-execute from snapshot i to `end` (CPU ci's clock) with the
 * breakpoints armed; the last stop before `end` goes to *last.  With
 * stop_at, end at that stop instead: the same re-execution, so the very
 * state of that stop (a position in ticks alone would not say where an
 * idle-skipping CPU was). */
static int scan(dbg *d, int i, int ci, uint64_t end, uint64_t goal_pc, uint64_t goal_sp, hit *last,
                unsigned stop_at)
{
    unsigned nstop = 0;
    history *h = d->hist;
    machine *m = d->m;
    if (restore(d, i) != 0)
        return -1;
    /* Watchpoints on values start from the values of this state. */
    bp_resync_all(d);
    if (goal_pc)
        bp_addr_insert(d, ci, goal_pc);
    d->replaying = true;
    d->running = true;
    chardev_set_muted(m->console, true);
    uint64_t t0 = total_time(m);
    int rc = 0;
    bool skip = false;
    while (m->local_time[ci] < end) {
        bp_forget_pending(d);
        if (skip)
            for (unsigned k = 0; k < m->ncpus; k++)
                cpu_step_over_bp(m->cpus[k]);
        skip = false;
        if (dbg_interrupted(d)) {
            rc = interrupted(d, ci);
            break;
        }
        uint64_t before = m->local_time[ci], all = total_time(m);
        int r = machine_run_cpu(m, -1, slice(end - before));
        if (r == STOP_HALT || r == STOP_REPLAY) {
            rc = dbg_error(d, "Re-executing the history: %s", m->stop_msg);
            break;
        }
        bool stop = bp_pending(d);
        if (r == STOP_BREAKPOINT) {
            stop = scan_code_hit(d, goal_pc, goal_sp) || bp_pending(d);
            skip = true;
        } else if (r == STOP_WATCHPOINT) {
            stop = (d->client && d->client->claim && d->client->claim(d, r, m->cur_cpu)) ||
                   bp_cpu_watch_stop(d, m->cur_cpu) || bp_pending(d);
            skip = true;
        }
        if (stop && m->local_time[ci] < end) {
            free(last->text);
            last->text = bp_pending_text(d);
            last->found = true;
            last->index = ++nstop;
            last->end = end;
            last->ticks = m->local_time[ci];
            last->cpu = m->cur_cpu;
            if (stop_at && nstop == stop_at)
                break;
        }
        if (total_time(m) == all && r != STOP_BREAKPOINT && r != STOP_WATCHPOINT &&
            r != STOP_EVENT && r != STOP_RESET) {
            rc = dbg_error(d, "Re-executing the history: no progress at tick %llu (%s).",
                           (unsigned long long)before, stop_reason_name(r));
            break;
        }
    }
    bp_forget_pending(d);
    h->last_ticks += total_time(m) - t0;
    chardev_set_muted(m->console, false);
    m->stop_reason = STOP_NONE;
    d->running = false;
    d->replaying = false;
    if (goal_pc)
        bp_addr_remove(d, ci, goal_pc);
    return rc;
}

/* Go to the most recent stop before now: a breakpoint, a watchpoint, an
 * event, or the goal.  Snapshot intervals are scanned from the newest back
 * until one has a hit.  `what` names the command in messages. */
static int back_to_hit(dbg *d, uint64_t goal_pc, uint64_t goal_sp, const char *what)
{
    history *h = d->hist;
    machine *m = d->m;
    int ci = d->cur_cpu;
    uint64_t now = m->local_time[ci];
    hit last = {0};
    h->at_start = false;
    int i = entry_before(h, ci, false, now);
    if (i >= 0 && h->e[i].ticks[ci] == now)
        i--; /* nothing before now in a snapshot taken here */
    int rc = 0;
    bool moved = false;
    for (uint64_t end = now; i >= 0 && !last.found && rc == 0; i--) {
        rc = scan(d, i, ci, end, goal_pc, goal_sp, &last, 0);
        end = h->e[i].ticks[ci];
        moved = true;
    }
    if (rc != 0 && moved) { /* Ctrl-C, or an error: a past state all the same */
        arrived(d);
    } else if (rc == 0 && last.found) {
        hit again = {0};
        rc = scan(d, i + 1, ci, last.end, goal_pc, goal_sp, &again, last.index);
        free(again.text);
        arrived(d);
        if (rc == 0) {
            if ((int)m->cur_cpu != d->cur_cpu && last.cpu != d->cur_cpu) {
                d->cur_cpu = last.cpu;
                dbg_printf(d, "[Switching to cpu%d]\n", d->cur_cpu);
            }
            char t[32];
            dbg_format_time(m->local_time[ci], m->clock.hz, t, sizeof t);
            if (last.text && *last.text)
                dbg_printf(d, "%s", last.text);
            dbg_printf(d, "%sBack at tick %llu (%s), cpu%d at %llu instructions.\n",
                       last.text && *last.text ? "" : "\n", (unsigned long long)m->local_time[ci],
                       t, ci, (unsigned long long)cpu_retired(m->cpus[ci]));
            show_here(d);
        }
    } else if (rc == 0) {
        /* gdb: "No more reverse-execution history." and the start. */
        rc = go(d, ci, false, h->e[0].ticks[ci]);
        h->at_start = rc == 0;
        if (rc == 0) {
            dbg_printf(d,
                       "\n%s: no earlier stop in the history; at its start: tick %llu, cpu%d "
                       "at %llu instructions.\n",
                       what, (unsigned long long)m->local_time[ci], ci,
                       (unsigned long long)cpu_retired(m->cpus[ci]));
            show_here(d);
        }
    }
    free(last.text);
    return rc;
}

/* ---- for other modules (the gdb stub, goto-time lastwrite) --------------- */

bool hist_recording(dbg *d) { return d->hist && d->hist->on; }

/* goto-time's work once the position is known: refuse one beyond the
 * present, go, say where.  0 or -1. */
static int goto_pos(dbg *d, int ci, bool by_insn, uint64_t pos)
{
    history *h = d->hist;
    machine *m = d->m;
    uint64_t end = by_insn ? h->end_retired[ci] : h->end_ticks[ci];
    if (pos > end)
        return dbg_error(d,
                         "goto-time: %s %llu is beyond the present (%s %llu): the history "
                         "goes no further; continue runs on.",
                         by_insn ? "instruction" : "tick", (unsigned long long)pos,
                         by_insn ? "instruction" : "tick", (unsigned long long)end);
    if (go(d, ci, by_insn, pos) != 0)
        return -1;
    char t[32];
    dbg_format_time(m->local_time[0], m->clock.hz, t, sizeof t);
    dbg_printf(d, "At tick %llu (%s), cpu%d at %llu instructions.\n",
               (unsigned long long)m->local_time[0], t, ci,
               (unsigned long long)cpu_retired(m->cpus[ci]));
    show_here(d);
    return 0;
}

int hist_goto(dbg *d, int ci, bool by_insn, uint64_t pos)
{
    if (!have_history(d))
        return -1;
    cost_begin(d, "goto-time");
    int rc = goto_pos(d, ci, by_insn, pos);
    cost_end(d);
    return rc;
}

int hist_back_insns(dbg *d, int ci, uint64_t n)
{
    if (!have_history(d))
        return -1;
    history *h = d->hist;
    uint64_t now = cpu_retired(d->m->cpus[ci]), first = h->e[0].retired[ci];
    if (now <= first)
        return HIST_START; /* nothing earlier to go to */
    bool start = now - first < n;
    cost_begin(d, "reverse-stepi");
    int rc = go(d, ci, true, start ? first : now - n);
    cost_end(d);
    return rc != 0 ? -1 : start ? HIST_START : 0;
}

int hist_back_to_stop(dbg *d, int ci)
{
    if (!have_history(d))
        return -1;
    d->cur_cpu = ci;
    cost_begin(d, "reverse-continue");
    int rc = back_to_hit(d, 0, 0, "reverse-continue");
    cost_end(d);
    return rc != 0 ? -1 : d->hist->at_start ? HIST_START : 0;
}

/* ---- commands ------------------------------------------------------------ */

static int cmd_record(dbg *d, const cmd_args *a)
{
    UNUSED(a);
    history *h = hstate(d);
    if (d->m->threads) /* which CPU stores first is the host's choice: no re-execution */
        return dbg_error(d, "record: %s.",
                         machine_threads_refuse(d->m, "the history (reverse execution)"));
    if (h->on)
        return dbg_error(d, "The history is already being recorded (\"record stop\" ends it).");
    h->on = true;
    h->cut_why = NULL;
    h->changes = d->m->clock.changes;
    if (!h->log) {
        h->log = rr_log_new(&d->m->clock);
        log_attach(d, h->log);
    }
    h->cuts = h->log->cuts;
    set_end(d, h, true);
    if (d->m->ncpus)
        take(d, h);
    /* The first one's cost is not the rule (RAM never touched is slow to
     * read the first time): the cap starts with the next one. */
    h->taken_at = host_seconds();
    h->cost = 0;
    dbg_printf(d,
               "Recording the history: a snapshot every %llu ticks or more, at most %llu MB "
               "(reverse-stepi, reverse-continue, goto-time go back in it).\n",
               (unsigned long long)h->interval, (unsigned long long)h->size_mb);
    return 0;
}

static int cmd_record_stop(dbg *d, const cmd_args *a)
{
    UNUSED(a);
    history *h = d->hist;
    if (!h || !h->on)
        return dbg_error(d, "No history is being recorded (\"record\" starts it).");
    drop_all(h);
    snapshot_untrack(d->m);
    log_attach(d, NULL);
    rr_log_free(h->log);
    h->log = NULL;
    h->on = false;
    dbg_puts(d, "History recording stopped; its snapshots are dropped.\n");
    return 0;
}

static int goto_time(dbg *d, const cmd_args *a)
{
    char w[16];
    const char *rest = dbg_next_word(a->text[0], w, sizeof w);
    bool by_insn = strcmp(w, "insn") == 0;
    const char *num = by_insn ? rest : a->text[0];
    if (!*num)
        return dbg_usage_error(d, "goto-time", "give a time in ticks, or insn N");
    /* The argument first: a bad one is said before a missing history. */
    bool present = !by_insn && (strcmp(num, "present") == 0 || strcmp(num, "end") == 0);
    uint64_t pos = 0;
    if (!present && dbg_parse_count(d, "goto-time", num, 0, UINT64_MAX, &pos) != 0)
        return -1;
    if (!have_history(d))
        return -1;
    history *h = d->hist;
    int ci = by_insn ? d->cur_cpu : 0;
    uint64_t end = by_insn ? h->end_retired[ci] : h->end_ticks[ci];
    if (present)
        pos = end; /* back where the run went furthest */
    return goto_pos(d, ci, by_insn, pos);
}

static int cmd_goto_time(dbg *d, const cmd_args *a) { return costed(d, a, "goto-time", goto_time); }

/* What every reverse command checks first: a selected CPU, then (with a
 * count N: 0 shows where the CPU is) the history.  1: go on; 0: done; -1:
 * an error was said. */
static int back_start(dbg *d, const uint64_t *n)
{
    if (!dbg_cpu(d))
        return dbg_error(d, "No CPU selected.");
    if (n && *n == 0) {
        show_here(d);
        return 0;
    }
    return have_history(d) ? 1 : -1;
}

static int reverse_stepi(dbg *d, const cmd_args *a)
{
    uint64_t n = a->num[0];
    int go_on = back_start(d, &n);
    if (go_on <= 0)
        return go_on;
    cpu *c = dbg_cpu(d);
    uint64_t now = cpu_retired(c);
    if (n > now)
        return dbg_error(d, "reverse-stepi: cpu%d has executed only %llu instructions.", d->cur_cpu,
                         (unsigned long long)now);
    if (go(d, d->cur_cpu, true, now - n) != 0)
        return -1;
    show_here(d);
    return 0;
}

static int cmd_reverse_stepi(dbg *d, const cmd_args *a)
{
    return costed(d, a, "reverse-stepi", reverse_stepi);
}

/* reverse-nexti: one instruction back; when that lands in a function the
 * previous instruction called (it returned to here), back to the call. */
static int reverse_nexti(dbg *d, const cmd_args *a)
{
    uint64_t n = a->num[0];
    int go_on = back_start(d, &n);
    if (go_on <= 0)
        return go_on;
    for (uint64_t k = 0; k < n; k++) {
        cpu *c = dbg_cpu(d);
        uint64_t pc0 = cpu_pc(c), sp0 = cpu_gpr(c, 29), now = cpu_retired(c);
        if (now == 0)
            return dbg_error(d, "reverse-nexti: cpu%d has executed no instruction.", d->cur_cpu);
        if (go(d, d->cur_cpu, true, now - 1) != 0)
            return -1;
        c = dbg_cpu(d);
        uint8_t b[4];
        bool returned = cpu_pc(c) != pc0 - 4 && cpu_read_virt(c, pc0 - 8, b, 4) == 4 &&
                        dbg_insn_is_call((uint32_t)load_be(b, 4));
        if (returned) {
            d->quiet_stop = true;
            int rc = back_to_hit(d, pc0 - 8, sp0, "reverse-nexti");
            d->quiet_stop = false;
            if (rc)
                return rc;
            continue;
        }
        if (k + 1 == n)
            show_here(d);
    }
    return 0;
}

static int cmd_reverse_nexti(dbg *d, const cmd_args *a)
{
    return costed(d, a, "reverse-nexti", reverse_nexti);
}

static int reverse_continue(dbg *d, const cmd_args *a)
{
    UNUSED(a);
    if (back_start(d, NULL) <= 0)
        return -1;
    return back_to_hit(d, 0, 0, "reverse-continue");
}

static int cmd_reverse_continue(dbg *d, const cmd_args *a)
{
    return costed(d, a, "reverse-continue", reverse_continue);
}

static int reverse_finish(dbg *d, const cmd_args *a)
{
    UNUSED(a);
    if (back_start(d, NULL) <= 0)
        return -1;
    cpu *c = dbg_cpu(d);
    frame f[2];
    if (dbg_unwind(d, c, f, 2) < 2)
        return dbg_error(d, "\"reverse-finish\" not meaningful in the outermost frame (no "
                            "caller found).");
    dbg_printf(d, "Run back to call of #0 in the caller at 0x%016llx\n",
               (unsigned long long)(f[1].pc - 8));
    return back_to_hit(d, f[1].pc - 8, f[1].sp, "reverse-finish");
}

static int cmd_reverse_finish(dbg *d, const cmd_args *a)
{
    return costed(d, a, "reverse-finish", reverse_finish);
}

static int cmd_info_time(dbg *d, const cmd_args *a)
{
    UNUSED(a);
    machine *m = d->m;
    history *h = hstate(d);
    char t[32];
    strbuf b;
    sb_init(&b);
    dbg_format_time(m->clock.now, m->clock.hz, t, sizeof t);
    sb_printf(&b, "Virtual time: tick %llu (%s) at %llu ticks per second\n",
              (unsigned long long)m->clock.now, t, (unsigned long long)m->clock.hz);
    for (unsigned i = 0; i < m->ncpus; i++)
        sb_printf(&b, "  cpu%u: clock %llu ticks, %llu instructions\n", i,
                  (unsigned long long)m->local_time[i],
                  (unsigned long long)cpu_retired(m->cpus[i]));
    if (!h->on) {
        sb_puts(&b, "History: off (\"record\" starts it)\n");
    } else {
        sb_printf(&b,
                  "History: on, a snapshot every %llu ticks or more (at most %u%% of the host's "
                  "time), at most %llu MB\n",
                  (unsigned long long)h->interval, h->overhead, (unsigned long long)h->size_mb);
        if (h->n)
            sb_printf(&b, "  span: tick %llu to %llu (the present), %u snapshot%s, %.1f MB\n",
                      (unsigned long long)h->e[0].ticks[0], (unsigned long long)h->end_ticks[0],
                      h->n, h->n == 1 ? "" : "s", (double)h->bytes / (1 << 20));
        if (h->n) {
            const hentry *l = &h->e[h->n - 1];
            sb_printf(&b,
                      "  the last snapshot holds %.1f MB of RAM and state, %.1f MB of it new "
                      "(the rest shared with the one before)\n",
                      (double)snapshot_bytes(l->s) / (1 << 20), (double)l->bytes / (1 << 20));
        }
        if (h->log && rr_log_end(h->log) > h->log->first)
            sb_printf(&b, "  inputs from outside kept: %llu (%.1f KB)%s\n",
                      (unsigned long long)h->log->n, (double)h->log->bytes / 1024,
                      rr_log_feeding(h->log) ? ", fed back up to the present" : "");
        if (h->check)
            sb_printf(&b, "  history-check: %llu snapshot%s compared with the RAM, %llu differed\n",
                      (unsigned long long)h->checked, h->checked == 1 ? "" : "s",
                      (unsigned long long)h->check_failed);
        if (h->dropped)
            sb_printf(&b, "  %llu older snapshot%s dropped for room\n",
                      (unsigned long long)h->dropped, h->dropped == 1 ? "" : "s");
        if (h->last_cmd)
            sb_printf(&b, "  last went back: %s, %.3f s of host time, %llu ticks re-executed\n",
                      h->last_cmd, h->last_secs, (unsigned long long)h->last_ticks);
        if (h->cut_why)
            sb_printf(&b, "  cut at tick %llu: %s\n", (unsigned long long)h->cut_ticks, h->cut_why);
    }
    return dbg_puts_sb(d, &b);
}

static int cmd_set_history_interval(dbg *d, const cmd_args *a)
{
    hstate(d)->interval = a->num[0];
    return 0;
}

static int cmd_set_history_overhead(dbg *d, const cmd_args *a)
{
    hstate(d)->overhead = (unsigned)a->num[0];
    return 0;
}

static int cmd_set_history_check(dbg *d, const cmd_args *a)
{
    const char *v = a->text[0];
    bool on = !strcmp(v, "on") || !strcmp(v, "1");
    if (!on && strcmp(v, "off") && strcmp(v, "0"))
        return dbg_usage_error(d, "set history-check", "say on or off");
    history *h = hstate(d);
    h->check = on;
    h->checked = h->check_failed = 0;
    return 0;
}

static int cmd_set_history_size(dbg *d, const cmd_args *a)
{
    history *h = hstate(d);
    h->size_mb = a->num[0];
    trim(h);
    return 0;
}

#include "dbg/history.cmds.h"

const dbg_module dbg_history_module = {
    .name = "history",
    .commands = DBG_COMMANDS("Running", history_commands),
    .free = hist_free,
};
