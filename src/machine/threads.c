/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One host thread per emulated CPU (--threads=N, experimental): the run
 * loop of machine_run() when the machine has more than one thread.
 *
 * Each CPU's thread runs its CPU in quanta of THREAD_QUANTUM ticks on the
 * CPU's own clock (cpu_clock), without the machine lock; guest RAM is
 * shared, written with plain host stores, LL/SC is a compare-and-swap
 * (src/cpu/mem.c) and what one thread does to another CPU (an interrupt
 * line, dropped translations, a soft-TLB flush) is posted to it with a kick
 * (src/cpu/xthread.c).  Everything else runs under the machine lock (QEMU's
 * "big lock"): every device register access (bus.dev_lock), the device
 * timers and the console, so device models stay single-threaded code.
 *
 * Time: every CPU has its own.  A CPU's run ends at the next device timer
 * (as the one-thread loop's turn does), and a timer a device arms during a
 * run ends the runs that went past it (sched.earlier: timer_armed posts
 * cpu_post_until), so a timer fires as soon as every CPU that counts has
 * reached it, by the thread that got there last (fire_timers).  A CPU that
 * waits for an interrupt (idle skip: Linux's arch_cpu_idle) while another
 * CPU counts parks: it does not count, its thread sleeps until a post or
 * its own deadline (Count/Compare) and then catches up with the timers
 * fired, as waiting (cpu_wait_advance); of CPUs that all wait, the last
 * one keeps the time.  A CPU that runs more than THREAD_WINDOW ticks ahead
 * of the slowest other CPU that counts sleeps until that one's run ends.
 * Device accesses see a time that never goes back (the HUB's RT counter is
 * one clock for every CPU).  Each thread sleeps on its own condition and is
 * woken only when it can go on.  The debugger's stop (Ctrl-C, a breakpoint
 * or watchpoint on any CPU, a guest reset, the instruction budget) ends
 * every thread's run at once; the debugger works only once every thread
 * has parked, so every command sees a machine that stands still, as with
 * one thread.  Idle-skip probes back off to THREAD_PROBE ticks at most, so
 * that a CPU spinning on a lock is seen to wait soon.  info cpus prints
 * each thread's counters (runs, naps and why, the machine lock, the timers
 * and how late they fired) and how long the threads ran at once.
 *
 * Not deterministic: which CPU gets to a lock first, the interleaving of
 * their stores and the moment an interrupt is taken depend on the host.
 * Record/replay, the history (reverse execution) and snapshots are refused
 * with threads (ui/run.c, src/dbg). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/log.h"
#include "core/strbuf.h"
#include "machine/machine.h"

/* Ticks a CPU's thread runs between two looks at the machine (timers, the
 * console, a stop); 0.36 ms of virtual time. */
#define THREAD_QUANTUM 65536
/* How far a CPU may run ahead of the slowest other CPU. */
#define THREAD_WINDOW (4 * THREAD_QUANTUM)
/* Idle-skip probes (src/cpu/idle.c) that found no polling loop back off
 * no further than this: a CPU spinning on a lock another thread's CPU
 * holds is seen to wait within this many ticks of its own clock.  With one
 * thread the spinner and the holder take turns of 1000 instructions, so a
 * spin lasts about as long, in instructions, as the holder's critical
 * section; with threads the spinner's clock runs at the host speed of its
 * spin loop (a few translated instructions an iteration), the holder's at
 * the speed of its code, device accesses, host system calls and of its
 * host thread's share of a core, and with the probes backed off to 2^20
 * ticks a spin cost the spinner thousands of instructions (guest time) for
 * a few of the holder's: docs/performance.md, "One stream on two threads". */
#define THREAD_PROBE 4096
/* A sleeping thread looks again this often (a Ctrl-C cannot signal it). */
#define THREAD_NAP_NS 2000000
/* A thread about to nap while another CPU's thread runs first spins this
 * long (wall time) for a wake-up before it sleeps on its condition: on a
 * hand-off (one CPU waits for an interrupt or IPI the other is about to
 * send) the futex sleep and wake-up cost both threads a system call, a
 * context switch and the host's latency of waking a sleeping core, every
 * datagram batch (docs/performance.md, "One stream on two threads": on a
 * quiet 2-core host one jumbo stream pinned to CPU 1 went from 767 to 815
 * Mbit/s of host wall time on average, with a wider spread).  The spinner
 * yields its core every 64 pauses, so that a thread it waits for that
 * shares the core goes on.  XBOW_THREAD_SPIN=0
 * turns it off. */
#define THREAD_SPIN_NS 50000

typedef struct worker {
    machine *m;
    unsigned i;
} worker;

/* What each thread did (info cpus): the cost of running in threads. */
/* Why a thread naps: parked waiting for an interrupt; held while polling or
 * keeping the time; held ahead of the window with work. */
enum nap_why { NAP_PARK, NAP_WAIT, NAP_AHEAD, NAP_WHYS };

typedef struct thread_stats {
    uint64_t runs;                             /* cpu_run calls (quanta or shorter) */
    uint64_t naps[NAP_WHYS], nap_ns[NAP_WHYS]; /* sleeps by why (enum nap_why), wall time asleep */
    uint64_t locks, waits, wait_ns; /* machine lock taken; of those contended, wall time */
    uint64_t handoffs;              /* taken after another thread held it */
    uint64_t fired, late, late_sum; /* timers fired; of them late (ticks late in all) */
    uint64_t late_max;
    const char *late_max_name;           /* the timer that was late by late_max */
    uint64_t ahead_sum;                  /* ticks the most advanced CPU was past the timers */
    uint64_t cuts;                       /* runs shortened by a timer armed during them */
    uint64_t spins, spin_wakes, spin_ns; /* naps that spun first; woken so; wall time spun */
    uint64_t ran_alone, ran_shared;      /* ticks run with every other CPU parked; or not */
} thread_stats;

struct machine_threads {
    pthread_t tid[MAX_CPUS];
    worker w[MAX_CPUS];
    unsigned nstarted;
    pthread_mutex_t lock; /* the machine lock (recursive) */
    pthread_cond_t go, parked;
    pthread_cond_t wake[MAX_CPUS]; /* each thread sleeps on its own */
    unsigned gen;                  /* bumped to start a run */
    unsigned nparked;              /* threads done with this run */
    bool quit;
    bool limited; /* an instruction budget ... */
    uint64_t budget;
    bool waiting[MAX_CPUS];      /* the CPU was waiting at the end of its quantum */
    bool asleep[MAX_CPUS];       /* its thread sleeps in nap() */
    bool parked_wait[MAX_CPUS];  /* ... while the CPU waits for an interrupt */
    uint64_t deadline[MAX_CPUS]; /* a parked CPU's own end of its wait */
    uint64_t until[MAX_CPUS];    /* the end of its current run (0: not in one) */
    uint64_t fired_to;           /* device timers fired up to here */
    uint64_t dev_now;            /* the latest time a device access saw */
    uint64_t quantum, window;    /* THREAD_QUANTUM, THREAD_WINDOW */
    uint64_t spin;               /* THREAD_SPIN_NS */
    uint64_t probe;              /* THREAD_PROBE */
    bool probe_short[MAX_CPUS];  /* the CPU's probes back off to `probe` at most now */
    uint64_t cpu_ns[MAX_CPUS];   /* each thread's host CPU time at its last park */
    thread_stats st[MAX_CPUS];
    thread_stats other; /* the debugger's thread */
    int holder;         /* the last thread that took the lock (-1: the debugger's) */
    /* Wall time with k threads active (not asleep, not waiting for the
     * machine lock, not parked for the debugger): how much they overlap. */
    pthread_mutex_t acc;
    unsigned nactive;
    uint64_t acc_since;
    uint64_t active_ns[MAX_CPUS + 1];
};

static _Thread_local int self_index = -1;
static _Thread_local bool self_active; /* counted in nactive (active()) */

static thread_stats *stats(machine_threads *t)
{
    return self_index >= 0 ? &t->st[self_index] : &t->other;
}

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A CPU thread stops (d < 0) or starts (d > 0) being active.  (Only a
 * thread that is active stops: the first lock() of a thread that has not
 * started a run yet must not count down.) */
static void active(machine_threads *t, int d)
{
    if (self_index < 0 || self_active == (d > 0))
        return;
    self_active = d > 0;
    pthread_mutex_lock(&t->acc);
    uint64_t now = wall_ns();
    if (t->acc_since)
        t->active_ns[t->nactive] += now - t->acc_since;
    t->acc_since = now;
    t->nactive += (unsigned)d;
    pthread_mutex_unlock(&t->acc);
}

/* The machine lock, counted. */
static void lock(machine_threads *t)
{
    thread_stats *s = stats(t);
    if (pthread_mutex_trylock(&t->lock) != 0) {
        uint64_t t0 = wall_ns();
        bool was = self_active;
        active(t, -1);
        pthread_mutex_lock(&t->lock);
        if (was)
            active(t, 1);
        s->waits++;
        s->wait_ns += wall_ns() - t0;
    }
    s->locks++;
    if (t->holder != self_index) {
        s->handoffs++;
        t->holder = self_index;
    }
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Does a CPU thread other than i run (not asleep in nap())? */
static bool other_runs(const machine *m, unsigned i)
{
    for (unsigned j = 0; j < m->ncpus; j++)
        if (j != i && !__atomic_load_n(&m->threads->asleep[j], __ATOMIC_RELAXED))
            return true;
    return false;
}

/* Without the machine lock, for at most t->spin ns and while another CPU's
 * thread runs: wait for a wake() (asleep[i] cleared).  True if woken. */
static bool spin(machine *m, unsigned i)
{
    machine_threads *t = m->threads;
    thread_stats *s = &t->st[i];
    uint64_t t0 = wall_ns(), now = t0;
    bool woke = false;
    s->spins++;
    pthread_mutex_unlock(&t->lock);
    for (unsigned k = 0;; k++) {
        if (!__atomic_load_n(&t->asleep[i], __ATOMIC_ACQUIRE)) {
            woke = true;
            break;
        }
        if ((k & 63) == 63) {
            now = wall_ns();
            if (now - t0 >= t->spin || !other_runs(m, i))
                break;
            sched_yield();
        }
        cpu_relax();
    }
    pthread_mutex_lock(&t->lock);
    s->spin_ns += (woke ? wall_ns() : now) - t0;
    /* (A wake() after the loop gave up but before the lock: asleep is
     * false now, and nap() does not sleep.) */
    woke = !t->asleep[i];
    s->spin_wakes += woke;
    return woke;
}

/* Sleep on the thread's own condition until a wake() or THREAD_NAP_NS
 * (after spinning for a wake-up first while another CPU's thread runs). */
static void nap(machine *m, unsigned i, enum nap_why why)
{
    machine_threads *t = m->threads;
    thread_stats *s = &t->st[i];
    /* A post's kick reads asleep without the lock (kick): look for posts
     * once more after saying so. */
    __atomic_store_n(&t->asleep[i], true, __ATOMIC_SEQ_CST);
    if (cpu_has_posts(m->cpus[i])) {
        t->asleep[i] = false;
        return;
    }
    uint64_t t0 = wall_ns();
    active(t, -1);
    bool woke = t->spin && other_runs(m, i) && spin(m, i);
    if (!woke) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += THREAD_NAP_NS;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&t->wake[i], &t->lock, &ts);
    }
    active(t, 1);
    t->asleep[i] = false;
    s->naps[why]++;
    s->nap_ns[why] += wall_ns() - t0;
    t->holder = self_index;
}

/* Under the lock: wake CPU j's thread if it sleeps.  A parked CPU counts
 * again at once, at its old time: the others wait for it there (a CPU
 * that keeps the time while every other waits must not run on before the
 * one it woke got there). */
static void wake(machine_threads *t, unsigned j)
{
    if (t->parked_wait[j])
        t->waiting[j] = false; /* (until its thread looks: it may have work) */
    t->parked_wait[j] = false;
    if (t->asleep[j]) {
        __atomic_store_n(&t->asleep[j], false, __ATOMIC_RELEASE);
        pthread_cond_signal(&t->wake[j]);
    }
}

static void wake_all(machine *m)
{
    for (unsigned j = 0; j < m->ncpus; j++)
        wake(m->threads, j);
}

/* bus.dev_lock: device register accesses under the machine lock, at the
 * accessing CPU's time. */
static void dev_lock(void *ctx, const bus_op *op, bool enter)
{
    machine *m = ctx;
    machine_threads *t = m->threads;
    if (!enter) {
        pthread_mutex_unlock(&t->lock);
        return;
    }
    lock(t);
    const initiator *in = initiator_get(&m->bus, op->initiator);
    if (in && in->kind == INIT_CPU && in->cpu >= 0 && (unsigned)in->cpu < m->ncpus) {
        cpu *c = m->cpus[in->cpu];
        if (cpu_clock(c) != &m->clock && cpu_running(c)) {
            /* Device time never goes back from one access to the next:
             * the HUB's RT counter is one clock for every CPU, and Linux's
             * timekeeping takes a step back for a jump of 2^52 ticks. */
            uint64_t now = cpu_clock(c)->now;
            if (now < t->dev_now)
                now = t->dev_now;
            m->clock.now = t->dev_now = now;
            m->cur_cpu = in->cpu;
        }
    }
}

/* A post to a CPU (xthread.c): wake its thread if it sleeps. */
static void kick(void *ctx, cpu *c)
{
    machine *m = ctx;
    machine_threads *t = m->threads;
    unsigned j = 0;
    while (j < m->ncpus && m->cpus[j] != c)
        j++;
    /* Only a sleeping thread needs the lock and a wake-up (nap() looks for
     * posts after it says it sleeps). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (j == m->ncpus || !__atomic_load_n(&t->asleep[j], __ATOMIC_SEQ_CST))
        return;
    lock(t);
    wake(t, j);
    pthread_mutex_unlock(&t->lock);
}

/* sched.earlier, under the lock: a device armed a timer at `when`; a CPU
 * whose run goes past it ends the run there (at once if it is past it
 * already), so that the timer fires as soon as every CPU got there. */
static void timer_armed(void *ctx, uint64_t when)
{
    machine *m = ctx;
    machine_threads *t = m->threads;
    for (unsigned j = 0; j < m->ncpus; j++) {
        if (t->until[j] > when) {
            t->until[j] = when;
            t->st[j].cuts++;
            cpu_post_until(m->cpus[j], when);
        }
    }
}

/* CPUs that count for the timers' time: every CPU but those whose threads
 * sleep while the CPU waits for an interrupt (parked; they catch up when
 * they wake). */
static bool counts(const machine_threads *t, unsigned j) { return !t->parked_wait[j]; }

/* CPU j's time as the others see it: a CPU behind the timers fired is one
 * that was parked and has yet to catch up with them. */
static uint64_t time_of(const machine *m, unsigned j)
{
    uint64_t f = m->threads->fired_to;
    return m->local_time[j] > f ? m->local_time[j] : f;
}

/* The time of the slowest CPU other than i that counts (only those that do
 * not wait with busy_only), UINT64_MAX when there is none. */
static uint64_t slowest_other(const machine *m, unsigned i, bool busy_only)
{
    const machine_threads *t = m->threads;
    uint64_t slow = UINT64_MAX;
    for (unsigned j = 0; j < m->ncpus; j++)
        if (j != i && counts(t, j) && !(busy_only && t->waiting[j]) && time_of(m, j) < slow)
            slow = time_of(m, j);
    return slow;
}

/* Is CPU i too far ahead of the slowest other CPU that counts?  (The
 * timers fire at the slowest CPU's time: the further a CPU runs ahead, the
 * later, in its own time, the interrupts it waits for come.) */
static bool ahead(const machine *m, unsigned i)
{
    uint64_t slow = slowest_other(m, i, false);
    return slow != UINT64_MAX && m->local_time[i] > slow + m->threads->window;
}

/* The first timer due after t. */
static uint64_t timer_after(const sched *s, uint64_t t)
{
    for (const timer *x = s->head; x; x = x->next)
        if (x->when > t)
            return x->when;
    return UINT64_MAX;
}

/* The earliest time a parked CPU (other than i) ends its wait by itself. */
static uint64_t parked_deadline(const machine *m, unsigned i)
{
    const machine_threads *t = m->threads;
    uint64_t d = UINT64_MAX;
    for (unsigned j = 0; j < m->ncpus; j++)
        if (j != i && t->parked_wait[j] && t->deadline[j] < d)
            d = t->deadline[j];
    return d;
}

/* Under the lock, by CPU i's thread at the end of a run: device timers up
 * to the time every CPU that counts reached, and the console; then the
 * threads that may go on. */
static void fire_timers(machine *m, unsigned i)
{
    machine_threads *t = m->threads;
    bool idle = true;
    uint64_t now = UINT64_MAX, top = 0;
    for (unsigned j = 0; j < m->ncpus; j++) {
        idle &= t->waiting[j];
        if (j == i || counts(t, j)) {
            now = time_of(m, j) < now ? time_of(m, j) : now;
            if (!t->waiting[j] && m->local_time[j] > top)
                top = m->local_time[j];
        }
    }
    m->clock.idle = idle;
    m->clock.now = now;
    if (now > t->fired_to)
        t->fired_to = now;
    if (now > t->dev_now)
        t->dev_now = now;
    thread_stats *s = &t->st[i];
    for (const timer *x = m->clock.head; x && x->when <= now; x = x->next) {
        uint64_t late = now - x->when;
        s->fired++;
        s->late += late != 0;
        s->late_sum += late;
        if (late > s->late_max) {
            s->late_max = late;
            s->late_max_name = x->name;
        }
        s->ahead_sum += top > x->when ? top - x->when : 0;
    }
    sched_run_due(&m->clock);
    chardev_poll(m->console);
    for (unsigned j = 0; j < m->ncpus; j++) {
        if (j == i || !t->asleep[j])
            continue;
        if (t->parked_wait[j] ? t->deadline[j] <= now : t->waiting[j] || !ahead(m, j))
            wake(t, j);
    }
}

/* CPU i's thread, under the lock, for one machine_run(). */
static void run_thread(machine *m, unsigned i)
{
    machine_threads *t = m->threads;
    cpu *c = m->cpus[i];
    sched *cc = cpu_clock(c);
    while (m->stop_reason == STOP_NONE) {
        bool posts = cpu_has_posts(c);
        cpu_wait_info w;
        cpu_get_wait_info(c, &w);
        /* (A waiting CPU with a post may have work: it counts as busy
         * until its run is over, so that no waiting CPU runs past it.) */
        t->waiting[i] = w.kind != CPU_WAIT_NONE && !posts;
        /* A CPU waiting for an interrupt while another CPU counts parks:
         * it does not count for the timers' time (it would have to follow
         * the other CPU, waking up at each of its runs) and sleeps until a
         * post (an interrupt line) or its own deadline (Count/Compare), at
         * a time the CPUs that run reached.  Of CPUs that all wait, the
         * last one keeps the time. */
        if (w.kind == CPU_WAIT_IDLE && !posts && slowest_other(m, i, false) != UINT64_MAX) {
            cc->now = m->local_time[i];
            t->deadline[i] = cpu_quiet_until(c, cc->now);
            if (t->deadline[i] > cc->now) {
                t->parked_wait[i] = true;
                for (unsigned j = 0; j < m->ncpus; j++)
                    if (j != i && !t->parked_wait[j])
                        wake(t, j); /* (one held by this CPU goes on) */
                nap(m, i, NAP_PARK);
                t->parked_wait[i] = false;
                continue;
            }
        }
        /* Catch up with the timers that fired while it slept, as waiting. */
        if (w.kind != CPU_WAIT_NONE && m->local_time[i] < t->fired_to) {
            cc->now = m->local_time[i];
            cpu_wait_advance(c, t->fired_to);
            m->local_time[i] = cc->now;
        }
        uint64_t lt = m->local_time[i], q = t->quantum;
        /* A CPU with work runs past a timer that waits for the CPUs behind
         * it, up to the next one; a waiting CPU stops at the first. */
        uint64_t limit = t->waiting[i] ? sched_next(&m->clock) : timer_after(&m->clock, lt);
        uint64_t d = parked_deadline(m, i);
        if (d > lt && d < limit)
            limit = d;
        bool held = false;
        if (t->waiting[i]) {
            /* A waiting CPU (a poll, or the one that keeps the time) goes
             * no further than the next timer, nor past the slowest CPU with
             * work (or woken up: it has yet to look at its post). */
            uint64_t slow = slowest_other(m, i, true);
            if (slow < limit)
                limit = slow;
            /* ... nor more than the window past one that waits too (it may
             * have work next, and the timers it arms would come late). */
            slow = slowest_other(m, i, false);
            if (slow != UINT64_MAX && slow + t->window < limit)
                limit = slow + t->window;
            held = limit <= lt;
        } else {
            held = ahead(m, i);
        }
        if (held && !posts) {
            /* The timers may be due now (the CPU that held them back
             * parked since): fire them and look again, or sleep. */
            uint64_t f = t->fired_to, n = sched_next(&m->clock);
            fire_timers(m, i);
            if (t->fired_to == f && sched_next(&m->clock) == n)
                nap(m, i, t->waiting[i] ? NAP_WAIT : NAP_AHEAD);
            continue;
        }
        if (limit > lt && limit - lt < q)
            q = limit - lt;
        if (t->limited) {
            if (t->budget == 0) {
                machine_request_stop(m, STOP_LIMIT, NULL);
                break;
            }
            q = t->budget < q ? t->budget : q;
            t->budget -= q;
        }
        /* Probes back off to THREAD_PROBE only while another CPU counts:
         * a CPU can spin only on a lock that a CPU which runs holds (one
         * parked waits for an interrupt in its idle routine and holds
         * none), and a probe ends translated code (host time every 4096
         * ticks, 4 probes a datagram on the tap stream: docs/performance.md,
         * "One stream on two threads"); alone, it probes once a quantum at
         * most, then backs off as on one thread.  A CPU that wakes
         * meanwhile is seen at this CPU's next run, a quantum later at
         * most. */
        bool others = slowest_other(m, i, false) != UINT64_MAX;
        if (others != t->probe_short[i]) {
            t->probe_short[i] = others;
            cpu_set_probe_max_period(c, others ? t->probe : 0);
            if (!others)
                cpu_probe_relax(c, t->quantum);
        }
        cc->now = lt;
        t->until[i] = lt + q;
        t->st[i].runs++;
        pthread_mutex_unlock(&t->lock);
        int rc = cpu_run(c, lt + q);
        lock(t);
        t->until[i] = 0;
        m->local_time[i] = cc->now;
        uint64_t ran = cc->now - lt;
        if (others)
            t->st[i].ran_shared += ran;
        else
            t->st[i].ran_alone += ran;
        if (t->limited && ran < q)
            t->budget += q - ran;
        cpu_get_wait_info(c, &w);
        t->waiting[i] = w.kind != CPU_WAIT_NONE;
        if (rc != CPU_RAN && rc != CPU_EXIT && m->stop_reason == STOP_NONE) {
            char msg[sizeof m->stop_msg] = "";
            if (rc == CPU_HALTED)
                snprintf(msg, sizeof msg, "cpu%u: %s", i, cpu_halt_reason(c));
            m->cur_cpu = (int)i;
            machine_request_stop(m, machine_cpu_stop_reason(rc), msg[0] ? msg : NULL);
        }
        fire_timers(m, i);
    }
    /* A CPU that waited while parked catches up, so that every CPU stands
     * at or past the timers fired. */
    cpu_wait_info w;
    cpu_get_wait_info(c, &w);
    if (w.kind != CPU_WAIT_NONE && m->local_time[i] < t->fired_to) {
        cc->now = m->local_time[i];
        cpu_wait_advance(c, t->fired_to);
        m->local_time[i] = cc->now;
    }
    wake_all(m);
}

static void *thread_main(void *arg)
{
    worker *w = arg;
    machine *m = w->m;
    machine_threads *t = m->threads;
    cpu_thread_enter(m->cpus[w->i]);
    self_index = (int)w->i;
    lock(t);
    unsigned seen = 0;
    for (;;) {
        while (t->gen == seen && !t->quit)
            pthread_cond_wait(&t->go, &t->lock);
        t->holder = self_index;
        if (t->quit)
            break;
        seen = t->gen;
        active(t, 1);
        run_thread(m, w->i);
        active(t, -1);
        struct timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        t->cpu_ns[w->i] = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        t->nparked++;
        if (t->nparked == m->ncpus) { /* (the debugger's time is nobody's) */
            pthread_mutex_lock(&t->acc);
            t->acc_since = 0;
            pthread_mutex_unlock(&t->acc);
        }
        pthread_cond_broadcast(&t->parked);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* XBOW_THREAD_QUANTUM, XBOW_THREAD_WINDOW, XBOW_THREAD_PROBE (docs/xbow.1): measurements'
 * knobs; a value out of range leaves the default, with a warning. */
static uint64_t env_ticks(const char *name, uint64_t def, uint64_t lo, uint64_t hi)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s != '-' && !*end && errno == 0 && v >= lo && v <= hi)
        return v;
    xlog(LOG_WARN, "threads", "%s=%s: not a number from %llu to %llu; %llu is used", name, s,
         (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)def);
    return def;
}

int machine_threads_init(machine *m, xerr *err)
{
    machine_threads *t = xcalloc(1, sizeof *t);
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&t->lock, &a);
    pthread_mutexattr_destroy(&a);
    pthread_mutex_init(&t->acc, NULL);
    pthread_cond_init(&t->go, NULL);
    pthread_cond_init(&t->parked, NULL);
    for (unsigned i = 0; i < MAX_CPUS; i++)
        pthread_cond_init(&t->wake[i], NULL);
    t->quantum = env_ticks("XBOW_THREAD_QUANTUM", THREAD_QUANTUM, 1024, 1u << 24);
    t->window = env_ticks("XBOW_THREAD_WINDOW", THREAD_WINDOW, 0, 1u << 30);
    t->probe = env_ticks("XBOW_THREAD_PROBE", THREAD_PROBE, 4096, 1u << 20);
    t->spin = env_ticks("XBOW_THREAD_SPIN", THREAD_SPIN_NS, 0, 10000000);
    t->holder = -1;
    m->threads = t;
    for (unsigned i = 0; i < m->ncpus; i++) {
        cpu_set_threaded(m->cpus[i]);
        cpu_set_probe_max_period(m->cpus[i], t->probe);
        t->probe_short[i] = true;
    }
    m->bus.dev_lock = dev_lock;
    m->bus.dev_lock_ctx = m;
    for (unsigned i = 0; i < m->ncpus; i++) {
        t->w[i].m = m;
        t->w[i].i = i;
        int e = pthread_create(&t->tid[i], NULL, thread_main, &t->w[i]);
        if (e) {
            xerr_set(err, "--threads: cannot start a host thread: %s", strerror(e));
            return -1;
        }
        t->nstarted++;
    }
    return 0;
}

void machine_threads_free(machine *m)
{
    machine_threads *t = m->threads;
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->quit = true;
    pthread_cond_broadcast(&t->go);
    pthread_mutex_unlock(&t->lock);
    for (unsigned i = 0; i < t->nstarted; i++)
        pthread_join(t->tid[i], NULL);
    m->bus.dev_lock = NULL;
    free(t);
    m->threads = NULL;
}

uint64_t machine_threads_cpu_ns(const machine *m, unsigned i)
{
    return m->threads && i < m->ncpus ? m->threads->cpu_ns[i] : 0;
}

int machine_threads_run(machine *m, uint64_t *budget)
{
    machine_threads *t = m->threads;
    lock(t);
    t->limited = *budget != UINT64_MAX;
    t->budget = *budget;
    uint64_t horizon = m->clock.horizon;
    void (*earlier)(void *, uint64_t) = m->clock.earlier;
    void *earlier_ctx = m->clock.earlier_ctx;
    m->clock.horizon = UINT64_MAX; /* every timer armed: timer_armed() */
    m->clock.earlier = timer_armed;
    m->clock.earlier_ctx = m;
    t->fired_to = t->dev_now = machine_common_time(m);
    for (unsigned i = 0; i < m->ncpus; i++) {
        cpu_wait_info w;
        cpu_get_wait_info(m->cpus[i], &w);
        t->waiting[i] = w.kind != CPU_WAIT_NONE;
        cpu_set_live(m->cpus[i], true, kick, m);
    }
    t->nparked = 0;
    t->gen++;
    pthread_cond_broadcast(&t->go);
    while (t->nparked < m->ncpus)
        pthread_cond_wait(&t->parked, &t->lock);
    t->holder = self_index;
    /* Every thread parked: the debugger's thread may touch any CPU again. */
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_set_live(m->cpus[i], false, NULL, NULL);
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_take_posted(m->cpus[i]);
    m->clock.now = machine_common_time(m);
    m->clock.horizon = horizon;
    m->clock.earlier = earlier;
    m->clock.earlier_ctx = earlier_ctx;
    m->clock.idle = false;
    if (t->limited)
        *budget = t->budget; /* what is left (a restart goes on with it) */
    /* The debugger looks at the CPU that stopped, not at the last one whose
     * device access set cur_cpu while the others were still parking (a
     * breakpoint on cpu0 was reported as "an unknown breakpoint" at cpu1's
     * pc when cpu1 read a device register before it saw the stop). */
    if (m->stop_reason != STOP_NONE && m->stop_cpu >= 0 && (unsigned)m->stop_cpu < m->ncpus)
        m->cur_cpu = m->stop_cpu;
    int r = m->stop_reason;
    pthread_mutex_unlock(&t->lock);
    return r;
}

void machine_threads_describe(const machine *m, strbuf *b)
{
    const machine_threads *t = m->threads;
    if (!t)
        return;
    uint64_t all = 0;
    for (unsigned k = 0; k <= m->ncpus; k++)
        all += t->active_ns[k];
    sb_printf(b, "  wall time running: %.3f s;", (double)all / 1e9);
    for (unsigned k = 0; k <= m->ncpus; k++)
        sb_printf(b, " %u thread%s active %.3f s (%.1f%%)%s", k, k == 1 ? "" : "s",
                  (double)t->active_ns[k] / 1e9,
                  all ? 100.0 * (double)t->active_ns[k] / (double)all : 0.0,
                  k < m->ncpus ? "," : "\n");
    for (unsigned i = 0; i < m->ncpus; i++) {
        const thread_stats *s = &t->st[i];
        uint64_t naps = 0, nap_ns = 0;
        for (unsigned w = 0; w < NAP_WHYS; w++)
            naps += s->naps[w], nap_ns += s->nap_ns[w];
        sb_printf(b,
                  "  cpu%u thread: %llu runs (%llu cut short by a timer), %llu naps (%.3f s "
                  "asleep); machine lock taken %llu times, %llu from another thread, %llu "
                  "waited for (%.3f s)\n",
                  i, (unsigned long long)s->runs, (unsigned long long)s->cuts,
                  (unsigned long long)naps, (double)nap_ns / 1e9, (unsigned long long)s->locks,
                  (unsigned long long)s->handoffs, (unsigned long long)s->waits,
                  (double)s->wait_ns / 1e9);
        sb_printf(b,
                  "              fired %llu device timers, %llu late by %.0f ticks on average "
                  "(at most %llu%s%s); the most advanced CPU %.0f ticks past them\n",
                  (unsigned long long)s->fired, (unsigned long long)s->late,
                  s->late ? (double)s->late_sum / (double)s->late : 0.0,
                  (unsigned long long)s->late_max, s->late_max_name ? ": " : "",
                  s->late_max_name ? s->late_max_name : "",
                  s->fired ? (double)s->ahead_sum / (double)s->fired : 0.0);
        sb_printf(b,
                  "              naps: %llu parked waiting for an interrupt (%.3f s), %llu held "
                  "while waiting (%.3f s), %llu held ahead of the others (%.3f s)\n",
                  (unsigned long long)s->naps[NAP_PARK], (double)s->nap_ns[NAP_PARK] / 1e9,
                  (unsigned long long)s->naps[NAP_WAIT], (double)s->nap_ns[NAP_WAIT] / 1e9,
                  (unsigned long long)s->naps[NAP_AHEAD], (double)s->nap_ns[NAP_AHEAD] / 1e9);
        sb_printf(b,
                  "              spun before a nap %llu times (%.3f s), woken while spinning "
                  "%llu times; ran %llu ticks with every other CPU parked, %llu not\n",
                  (unsigned long long)s->spins, (double)s->spin_ns / 1e9,
                  (unsigned long long)s->spin_wakes, (unsigned long long)s->ran_alone,
                  (unsigned long long)s->ran_shared);
    }
}
