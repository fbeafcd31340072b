/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine: construction, the run loop over CPUs and device timers, and
 * stop handling.  Board-specific parts are in ip27.c (address map, devices),
 * ip27_nics.c (the NICs), prom.c and ip27_hle.c (the synthetic PROM). */
#include "machine/machine.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/hostprof.h"
#include "core/log.h"
#include "core/rr.h"
#include "machine/ip27.h"

#include <time.h>

/* Instructions a CPU runs before the next one gets its turn. */
#define DEFAULT_QUANTUM 1000
/* With one CPU there is no other to give a turn to: a turn ends at the next
 * timer (device engines, host polls), and otherwise only paces the
 * console's host side (itself polled by host time) and the stop checks
 * between turns.  A turn costs the CPU's run loop a way out of translated
 * code and back, so it is long (5.8 ms of virtual time).  The same holds
 * with several CPUs while only one runs and every other is parked at an
 * idle point (a solo turn: turn_end). */
#define SOLO_QUANTUM (1u << 20)
/* The longest turn when every CPU waits and no timer is pending: the
 * console is polled (and a stop request seen) at least this often. */
#define IDLE_TURN_MAX XBOW_CPU_HZ

/* Routines an OS calls, with interrupts disabled, when it has nothing to do
 * until an interrupt comes: their entries are idle points (cpu.h). */
static const char *const idle_routines[] = {
    "arch_cpu_idle", /* Linux (kernel/sched/idle.c: default_idle_call) */
};

void machine_config_default(machine_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->ncpus = 1;
    cfg->mem_mb = 512;
    cfg->serial = "stdio";
    cfg->on_reset = RESET_STOP;
    cfg->idle_skip = true;
    cfg->engine = cpu_engine_available(CPU_ENGINE_JIT) ? CPU_ENGINE_JIT : CPU_ENGINE_INTERP;
    cfg->threads = 1;
}

/* The replay diverged or ended (core/rr.h): stop where it happened. */
static void replay_stopped(void *ctx, const char *msg)
{
    machine_request_stop(ctx, STOP_REPLAY, msg);
}

machine *machine_new(const machine_config *cfg, xerr *err)
{
    if (cfg->ncpus < 1 || cfg->ncpus > MAX_CPUS) {
        xerr_set(err, "--cpus must be 1 to %d, not %u", MAX_CPUS, cfg->ncpus);
        return NULL;
    }
    if (cfg->threads != 1 && cfg->threads != cfg->ncpus) {
        xerr_set(err,
                 "--threads=%u: 1 (one host thread for every CPU, deterministic) or the "
                 "number of CPUs (--cpus %u: one host thread each)",
                 cfg->threads, cfg->ncpus);
        return NULL;
    }
    if (cfg->threads > 1 && cfg->rr) {
        xerr_set(err, "--threads=%u: record and replay need the deterministic run of --threads=1",
                 cfg->threads);
        return NULL;
    }
    if (!cpu_engine_available(cfg->engine)) {
        xerr_set(err, "--engine=jit: this host has no translator (it needs x86-64); "
                      "use --engine=interp");
        return NULL;
    }
    machine *m = xcalloc(1, sizeof *m);
    m->cfg = *cfg;
    bus_init(&m->bus);
    sched_init(&m->clock, XBOW_CPU_HZ);
    event_bus_init(&m->events, &m->clock.now);
    symtab_init(&m->syms);
    m->quantum = DEFAULT_QUANTUM;
    m->solo_quantum = SOLO_QUANTUM;
    m->solo_running = -1;
    m->debugger_initiator = initiator_register(&m->bus, "debugger", INIT_DEBUGGER, -1);
    m->console = chardev_open(cfg->serial ? cfg->serial : "stdio", err);
    if (!m->console)
        goto fail;
    /* The host's time is an input: read once, logged by a recording. */
    m->rtc_epoch = cfg->rtc_fixed       ? IP27_RTC_FIXED_EPOCH
                   : cfg->rtc_epoch_set ? cfg->rtc_epoch
                                        : (int64_t)time(NULL);
    if (cfg->rr) {
        m->clock.rr = cfg->rr;
        rr_attach(cfg->rr, &m->clock, replay_stopped, m);
        chardev_set_rr(m->console, cfg->rr);
    }
    m->ncpus = cfg->ncpus;
    for (unsigned i = 0; i < m->ncpus; i++) {
        m->cpus[i] = cpu_new((int)i, &m->bus, &m->clock, &m->events);
        if (!m->cpus[i]) {
            xerr_set(err, "cannot create CPU %u", i);
            goto fail;
        }
        cpu_set_idle_skip(m->cpus[i], cfg->idle_skip);
        snprintf(m->cpu_names[i], sizeof m->cpu_names[i], "cpu%u", i);
        cpu_set_engine(m->cpus[i], cfg->engine);
    }
    if (cfg->threads > 1 && machine_threads_init(m, err) != 0)
        goto fail;
    if (ip27_build(m, err) != 0)
        goto fail;
    machine_reset(m, false);
    return m;
fail:
    machine_free(m);
    return NULL;
}

void machine_free(machine *m)
{
    if (!m)
        return;
    machine_threads_free(m);
    ip27_free(m);
    for (device *d = m->devices, *n; d; d = n) {
        n = d->next;
        device_free(d);
    }
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_free(m->cpus[i]);
    chardev_close(m->console);
    symtab_free(&m->syms);
    event_bus_free(&m->events);
    bus_free(&m->bus);
    free(m);
}

void machine_add_device(machine *m, device *d)
{
    device **pp = &m->devices;
    while (*pp)
        pp = &(*pp)->next;
    *pp = d;
}

device *machine_find_device(machine *m, const char *name)
{
    for (device *d = m->devices; d; d = d->next)
        if (strcmp(d->name, name) == 0)
            return d;
    return NULL;
}

cpu *machine_cpu(machine *m, unsigned i) { return i < m->ncpus ? m->cpus[i] : NULL; }

void machine_reset(machine *m, bool clear_ram)
{
    if (clear_ram && m->ram) {
        memset(m->ram->host, 0, m->ram->size);
        ram_mark_dirty(m->ram, 0, m->ram->size);
    }
    if (clear_ram && m->ram1) {
        memset(m->ram1->host, 0, m->ram1->size);
        ram_mark_dirty(m->ram1, 0, m->ram1->size);
    }
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_reset(m->cpus[i]);
    for (device *d = m->devices; d; d = d->next)
        device_reset(d);
    ip27_reset(m);
}

int machine_load_kernel(machine *m, const char *path, xerr *err)
{
    elf_image img;
    if (elf_read_file(path, &img, err) != 0)
        return -1;
    xerr e;
    if (elf_load(&img, &m->bus, &e) != 0) {
        xerr_set(err, "%s: %s", path, e.msg);
        elf_free(&img);
        return -1;
    }
    if (elf_symbols(&img, &m->syms, &e) < 0)
        xlog(LOG_WARN, "elf", "%s: symbols not loaded: %s", path, e.msg);
    int rc = ip27_boot(m, path, &img, err);
    elf_free(&img);
    machine_update_idle_points(m);
    return rc;
}

unsigned machine_update_idle_points(machine *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_idle_points_clear(m->cpus[i]);
    if (!m->cfg.idle_skip)
        return 0;
    for (unsigned k = 0; k < ARRAY_SIZE(idle_routines); k++) {
        const symbol *s = symtab_lookup_name(&m->syms, idle_routines[k]);
        if (!s || (s->addr & 3))
            continue;
        for (unsigned i = 0; i < m->ncpus; i++)
            cpu_idle_point_add(m->cpus[i], s->addr);
        n++;
    }
    return n;
}

void machine_request_stop(machine *m, int reason, const char *msg)
{
    if (m->stop_reason == STOP_NONE) {
        m->stop_reason = reason;
        m->stop_cpu = m->cur_cpu;
        if (msg)
            snprintf(m->stop_msg, sizeof m->stop_msg, "%s", msg);
    }
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_request_exit(m->cpus[i]);
}

void machine_guest_reset(machine *m, const char *why)
{
    m->reset_pending = true;
    snprintf(m->reset_why, sizeof m->reset_why, "%s", why);
    char msg[sizeof m->stop_msg];
    snprintf(msg, sizeof msg, "%s", why);
    machine_request_stop(m, STOP_RESET, msg);
}

void machine_restart(machine *m)
{
    m->reset_pending = false;
    m->reset_count++;
    xlog(LOG_INFO, "machine", "reset #%llu (%s)", (unsigned long long)m->reset_count, m->reset_why);
    machine_reset(m, false);
}

int machine_cpu_stop_reason(int rc)
{
    switch (rc) {
    case CPU_BREAK: return STOP_BREAKPOINT;
    case CPU_WATCH: return STOP_WATCHPOINT;
    case CPU_HALTED: return STOP_HALT;
    default: return STOP_USER;
    }
}

/* A device armed a timer before the running CPU's `until` (sched.horizon). */
static void timer_armed_earlier(void *ctx, uint64_t when)
{
    (void)when;
    machine *m = ctx;
    cpu_request_exit(m->cpus[m->cur_cpu]); /* stop after this instruction */
}

void machine_cpu_irq_raised(machine *m, unsigned i)
{
    if (m->solo_running < 0 || (int)i == m->solo_running || i >= m->ncpus)
        return;
    cpu_wait_info w;
    cpu_get_wait_info(m->cpus[i], &w);
    if (w.kind == CPU_WAIT_NONE || cpu_wait_woken(m->cpus[i])) {
        cpu_request_exit(m->cpus[m->solo_running]); /* stop after this instruction */
        m->solo_woke = true;
    }
}

/* Run CPU i from its local time up to `until`; returns a stop reason or
 * STOP_NONE when it got there. */
static int run_cpu(machine *m, unsigned i, uint64_t until)
{
    m->cur_cpu = (int)i;
    m->clock.now = m->local_time[i];
    sched *cc = cpu_clock(m->cpus[i]); /* the machine's, or its own with threads */
    cc->now = m->local_time[i];
    /* A timer armed during the turn (by another CPU's device access) ends
     * this CPU's run there too; one armed while it runs stops it. */
    uint64_t next = sched_next(&m->clock);
    if (next > m->clock.now && next < until)
        until = next;
    m->clock.horizon = until;
    m->clock.earlier = timer_armed_earlier;
    m->clock.earlier_ctx = m;
    HOSTPROF_BEGIN(m->cpus[i], HP_CPU, m->cpu_names[i]);
    int rc = cpu_run(m->cpus[i], until);
    HOSTPROF_END();
    m->clock.horizon = 0;
    m->clock.now = cc->now;
    m->local_time[i] = m->clock.now;
    if (m->stop_reason != STOP_NONE)
        return m->stop_reason;
    /* An exit request without a stop reason is left over from a stop that
     * another CPU already served (machine_request_stop asks every CPU). */
    if (rc == CPU_RAN || rc == CPU_EXIT)
        return STOP_NONE;
    if (rc == CPU_HALTED)
        snprintf(m->stop_msg, sizeof m->stop_msg, "cpu%u: %s", i, cpu_halt_reason(m->cpus[i]));
    m->stop_reason = machine_cpu_stop_reason(rc);
    return m->stop_reason;
}

/* The time every CPU has reached: device timers may fire up to there. */
uint64_t machine_common_time(const machine *m)
{
    uint64_t t = UINT64_MAX;
    for (unsigned i = 0; i < m->ncpus; i++)
        if (m->local_time[i] < t)
            t = m->local_time[i];
    return t;
}

static void fire_timers(machine *m)
{
    uint64_t t = machine_common_time(m);
    m->clock.now = t;
    sched_run_due(&m->clock);
    rr_check_time(m->clock.rr, t); /* a replay's input not taken by t: a divergence */
    HOSTPROF_BEGIN(m->console, HP_CONSOLE, "console");
    chardev_poll(m->console);
    HOSTPROF_END();
}

/* End of the current turn: the next timer or a quantum away, so that the
 * CPUs take turns and the console's output goes out between them.  A timer
 * a device arms during the turn (a doorbell write starting a DMA engine, an
 * EEPROM read) ends the running CPU's run (timer_armed_earlier) and the next
 * turn ends at it: it fires at its own tick.  When no CPU can do anything
 * the others or the devices see (each waits, or counts down a delay loop:
 * idle skip), nothing can happen before the next timer or the first CPU
 * that is quiet no longer, and the turn goes all the way there.  *idle says
 * whether every CPU waits (sched.idle: host backends pace virtual time). */
static uint64_t turn_end(const machine *m, uint64_t from, int only, bool *idle, int *solo, int *why,
                         int *kind)
{
    uint64_t end = sched_next(&m->clock);
    *why = TURN_END_TIMER;
    uint64_t q = m->ncpus == 1 ? m->solo_quantum : m->quantum;
    uint64_t quiet = UINT64_MAX; /* the earliest end of the quiet CPUs' waits */
    int busy = -1, nbusy = 0;
    bool waits = true; /* every quiet CPU waits (not in a delay loop) */
    /* (not while a CPU is being stepped: it does not wait, the others follow it) */
    bool solo_ok = m->cfg.idle_skip && only < 0; /* every other CPU waits at an idle point */
    for (unsigned i = 0; i < m->ncpus; i++) {
        uint64_t u = cpu_quiet_until(m->cpus[i], m->local_time[i]);
        if (u <= m->local_time[i]) {
            busy = (int)i;
            nbusy++;
            continue;
        }
        if (u < quiet)
            quiet = u;
        cpu_wait_info w;
        cpu_get_wait_info(m->cpus[i], &w);
        waits &= w.kind != CPU_WAIT_NONE;
        solo_ok &= w.kind == CPU_WAIT_IDLE;
    }
    uint64_t parked = quiet; /* (with one busy CPU: when the others' waits end) */
    if (nbusy)
        quiet = 0; /* some CPU is not quiet */
    *idle = quiet != 0 && waits;
    /* A solo turn: one CPU runs, every other waits at an idle point (only
     * an interrupt ends such a wait, and one the running CPU raises ends
     * its run: machine_cpu_irq_raised) and is not ahead of it.  It runs
     * first, as long as one CPU alone would, up to the first device timer
     * or the end of another's wait; the others' waits then go on to where
     * it stopped (run_turns).  Not while a CPU polls: a store ends that
     * wait, which only a look between turns sees. */
    *solo = -1;
    if (m->ncpus > 1 && nbusy == 1 && solo_ok) {
        uint64_t bt = m->local_time[busy];
        /* (no timer due before it, and not past a replay's end: the others
         * get there first) */
        solo_ok = end > bt && rr_deadline(m->clock.rr) > bt;
        for (unsigned i = 0; i < m->ncpus && solo_ok; i++)
            solo_ok = m->local_time[i] <= bt;
        if (solo_ok) {
            *solo = busy;
            from = bt;
            q = m->solo_quantum;
            if (parked < end) {
                end = parked;
                *why = TURN_END_WAIT;
            }
        }
    }
    *kind = *solo >= 0 ? TURN_SOLO : nbusy > 1 ? TURN_SHARED : nbusy ? TURN_ONE : TURN_QUIET;
    if (quiet) {
        q = IDLE_TURN_MAX;
        if (quiet < end) {
            end = quiet;
            *why = TURN_END_WAIT;
        }
    }
    if (from + q < end) {
        end = from + q;
        *why = TURN_END_QUANTUM;
    }
    /* A replay stops exactly where the recording ended. */
    uint64_t dl = rr_deadline(m->clock.rr);
    if (dl > from && dl < end) {
        end = dl;
        *why = TURN_END_REPLAY;
    }
    if (end <= from)
        end = from + 1;
    return end;
}

static int run_turns(machine *m, int only, uint64_t budget);

/* One host thread per CPU (threads.c); a guest reset with
 * --on-reset=restart starts them again from the reset state. */
static int run_threads(machine *m, uint64_t budget)
{
    for (;;) {
        int r = machine_threads_run(m, &budget); /* a restart goes on with the rest */
        if (r != STOP_RESET || m->cfg.on_reset != RESET_RESTART)
            return r;
        machine_restart(m);
        m->stop_reason = STOP_NONE;
        m->stop_msg[0] = 0;
    }
}

const char *machine_threads_refuse(const machine *m, const char *what)
{
    static char msg[200];
    if (!m->threads)
        return "";
    snprintf(msg, sizeof msg,
             "%s needs the deterministic run of --threads=1 (this machine runs one host thread "
             "per CPU: --threads=%u)",
             what, m->cfg.threads);
    return msg;
}

int machine_run_cpu(machine *m, int only, uint64_t max_insns)
{
    m->stop_reason = STOP_NONE;
    m->stop_msg[0] = 0;
    if (m->reset_pending)
        machine_restart(m); /* stopped on a reset before: carry it out now */
    uint64_t budget = max_insns ? max_insns : UINT64_MAX;
    m->clock.pace_host_ns = 0; /* host time spent stopped is not the guest's */
    /* A CPU being stepped executes: it does not wait (idle skip). */
    if (only >= 0)
        cpu_hold_wait(m->cpus[only], true);
    HOSTPROF_BEGIN(m, HP_RUN, "run loop");
    int r = m->threads && only < 0 ? run_threads(m, budget) : run_turns(m, only, budget);
    HOSTPROF_END();
    if (only >= 0)
        cpu_hold_wait(m->cpus[only], false);
    return r;
}

static int run_turns(machine *m, int only, uint64_t budget)
{
    for (;;) {
        uint64_t t = machine_common_time(m);
        int solo, why, kind;
        uint64_t end = turn_end(m, t, only, &m->clock.idle, &solo, &why, &kind);
        m->turns[kind]++;
        m->turn_ends[why]++;
        for (unsigned k = 0; k < m->ncpus; k++) {
            /* A solo turn runs the busy CPU first, then the parked ones. */
            unsigned i = solo < 0 ? k : k == 0 ? (unsigned)solo : k <= (unsigned)solo ? k - 1 : k;
            if (only >= 0 && (int)i != only && m->local_time[i] >= m->local_time[only])
                continue; /* held while another CPU steps, until it catches up */
            uint64_t lt = m->local_time[i];
            uint64_t until = end > lt ? end : lt;
            if (only < 0 || (int)i == only)
                if (budget < until - lt)
                    until = lt + budget;
            if (only >= 0 && (int)i != only)
                until = m->local_time[only] < until ? m->local_time[only] : until;
            if (solo >= 0 && (int)i != solo && m->local_time[solo] < until)
                until = m->local_time[solo]; /* where the busy CPU stopped */
            if (until <= lt)
                continue;
            int r;
            if (solo < 0) {
                r = run_cpu(m, i, until);
            } else if ((int)i == solo) {
                m->solo_running = solo;
                m->solo_woke = false;
                r = run_cpu(m, i, until);
                m->solo_running = -1;
                m->solo_wakes += m->solo_woke;
            } else {
                /* Its wait goes on to `until`: an interrupt the busy CPU
                 * raised at that time is seen then, not earlier. */
                cpu_wait_to(m->cpus[i], until);
                r = run_cpu(m, i, until);
                cpu_wait_to(m->cpus[i], 0);
            }
            if (only < 0 || (int)i == only)
                budget -= m->local_time[i] - lt;
            if (r == STOP_RESET && m->cfg.on_reset == RESET_RESTART) {
                machine_restart(m);
                m->stop_reason = STOP_NONE;
                m->stop_msg[0] = 0;
                break; /* a new turn for every CPU from the reset state */
            }
            if (r != STOP_NONE) {
                fire_timers(m);
                return r;
            }
        }
        fire_timers(m);
        if (m->stop_reason != STOP_NONE)
            return m->stop_reason;
        if (budget == 0) {
            m->stop_reason = only >= 0 ? STOP_STEP : STOP_LIMIT;
            return m->stop_reason;
        }
    }
}

int machine_run(machine *m, uint64_t max_insns) { return machine_run_cpu(m, -1, max_insns); }

void machine_outside_change(machine *m, const char *what)
{
    m->clock.changes++;
    rr_outside_change(m->clock.rr, what);
}

const char *stop_reason_name(int reason)
{
    static const char *const names[] = {
        "running",     "instruction limit", "breakpoint", "watchpoint", "event",
        "interrupted", "machine reset",     "halted",     "step",       "replay"};
    return reason >= 0 && reason < (int)ARRAY_SIZE(names) ? names[reason] : "?";
}
