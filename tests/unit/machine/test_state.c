/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every device's declared state is its whole state: the round trip.
 *
 * An example guest runs on machine A; at several points every device of A
 * is saved (dev_state_save) and loaded into the same device of a machine B
 * built fresh from the same configuration.  Then B's device must equal A's:
 * the same state hash, the same register values read without side effects,
 * and dev_state_diff finds no byte of the model's struct that differs
 * outside the declared fields (wiring excepted) -- a field a model forgot to
 * declare, and the guest changed, fails here by name.  At the last point
 * both machines then run on without CPUs (timers fire, the console receives
 * the same bytes, the same registers are read with their side effects) and
 * must stay identical.
 *
 * Example guests come from the build tree (examples/); a guest that is not
 * built is skipped with a message. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/log.h"
#include "dev/chip/uart16550.h"
#include "dev/nic/nic.h"
#include "machine/machine.h"
#include "../check_run.h"
#include "../../xorshift.h"
#include "example_machine.h"

typedef struct guest {
    const char *elf; /* under examples/ */
    unsigned ncpus;
    bool test_device;
    const char *input;  /* typed on the console at the start, or NULL */
    uint64_t stride;    /* compare every `stride` instructions... */
    uint64_t end;       /* ...up to `end` (or until the guest stops) */
    const char *nic;    /* a NIC model in slot 3, or NULL */
    const char *net;    /* its backend */
    const char *append; /* the guest's command line */
    bool disk;          /* --disk of a read-only image (both machines share it) */
} guest;

static machine *build(const guest *g)
{
    machine_config cfg = example_config(g->ncpus, g->test_device, g->nic, g->net, g->append);
    static char img[64];
    if (g->disk) {
        if (!img[0]) {
            snprintf(img, sizeof img, "/tmp/xbow-test-state-%d.img", (int)getpid());
            FILE *f = fopen(img, "wb");
            ck_assert(f && ftruncate(fileno(f), 1 << 20) == 0);
            fclose(f);
        }
        cfg.ndisks = 1;
        cfg.disks[0] = (disk_config){.bus = 0, .id = -1, .ro = true};
        snprintf(cfg.disks[0].path, sizeof cfg.disks[0].path, "%s", img);
    }
    return example_machine(&cfg, g->elf);
}

/* Load every device of a into b, then check b equals a (after all are
 * loaded: a register can show another device's state, as SIO_IR shows the
 * UARTs' interrupt levels). */
static void transfer_and_compare(machine *a, machine *b, const char *where)
{
    unsigned n = 0;
    for (device *da = a->devices; da; da = da->next, n++) {
        device *db = machine_find_device(b, da->name);
        ck_require(db != NULL, "%s: no %s in the fresh machine", where, da->name);
        strbuf img;
        sb_init(&img);
        dev_state_save(da, &img);
        xerr err;
        ck_require(dev_state_load(db, img.s, img.len, &err) == 0, "%s: %s", where, err.msg);
        sb_free(&img);
    }
    ck_assert_uint_gt(n, 5);
    for (device *da = a->devices; da; da = da->next) {
        device *db = machine_find_device(b, da->name);
        strbuf why;
        sb_init(&why);
        ck_require(dev_state_diff(da, db, &why) == 0, "%s: %s: %s", where, da->name, why.s);
        ck_require(dev_state_hash(da) == dev_state_hash(db), "%s: %s: hash", where, da->name);
        for (unsigned id = 0; id < da->cls->nregs; id++) {
            const reg_decl *r = &da->cls->regs[id];
            for (unsigned k = 0; k < (r->count > 1 ? r->count : 1u); k++)
                ck_require(dev_peek(da, id, k) == dev_peek(db, id, k), "%s: %s.%s%u differs", where,
                           da->name, r->name, k);
        }
        sb_free(&why);
    }
}

static bool built(const guest *g) { return example_built(g->elf, "test_state"); }

/* Both machines run on without their CPUs for `ticks`: device timers fire,
 * the console receives `input`, UART A is read as a driver would. */
static void run_on(machine *a, machine *b, uint64_t ticks, const char *input)
{
    machine *m[2] = {a, b};
    for (int i = 0; i < 2; i++)
        chardev_push_input(m[i]->console, (const uint8_t *)input, strlen(input));
    device *ua = machine_find_device(a, "ioc3.uart-a"), *ub = machine_find_device(b, "ioc3.uart-a");
    ck_assert(ua && ub);
    uint64_t step = ticks / 64 ? ticks / 64 : 1;
    for (uint64_t t = 0; t < ticks; t += step) {
        for (int i = 0; i < 2; i++) {
            m[i]->clock.now += step;
            sched_run_due(&m[i]->clock);
        }
        for (unsigned reg = UART_IIR; reg <= UART_LSR; reg += UART_LSR - UART_IIR) {
            uint64_t va = 0, vb = 0;
            dev_read(ua, NULL, reg, 1, &va);
            dev_read(ub, NULL, reg, 1, &vb);
            ck_require(va == vb, "UART A register %u: %llu, %llu", reg, (unsigned long long)va,
                       (unsigned long long)vb);
            if (reg == UART_LSR && (va & 1)) { /* data ready: take it */
                dev_read(ua, NULL, UART_RBR, 1, &va);
                dev_read(ub, NULL, UART_RBR, 1, &vb);
                ck_require(va == vb, "UART A RBR: %llu, %llu", (unsigned long long)va,
                           (unsigned long long)vb);
            }
        }
        for (device *da = a->devices; da; da = da->next) {
            device *db = machine_find_device(b, da->name);
            ck_require(dev_state_hash(da) == dev_state_hash(db),
                       "%s diverges %llu ticks after the load", da->name,
                       (unsigned long long)(t + step));
        }
    }
}

/* Every byte of the model's struct, declared or not (a field the model forgot
 * to declare changes this hash, not dev_state_hash's). */
static uint64_t struct_hash(const device *d)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const uint8_t *p = d->priv;
    for (uint32_t i = 0; p && i < d->cls->state.size; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void round_trip(const guest *g)
{
    if (!built(g))
        return;
    machine *a = build(g);
    if (g->input)
        chardev_push_input(a->console, (const uint8_t *)g->input, strlen(g->input));
    bool changed = false;
    unsigned points = 0, same = 0;
    uint64_t seen[32] = {0}; /* A's device hashes at the last point compared */
    for (uint64_t done = 0; done < g->end;) {
        int why = machine_run(a, g->stride);
        done += g->stride;
        bool last = done >= g->end || why != STOP_LIMIT;
        /* A point where no device changed since the last one compared (not
         * a declared field, not a byte of the model's struct) would load the
         * same images into the same fresh machine: skipped (the CPU ran, the
         * devices waited).  What is left lands where the devices work. */
        bool moved = false;
        unsigned i = 0;
        for (device *da = a->devices; da; da = da->next, i++) {
            ck_assert_uint_lt(i, ARRAY_SIZE(seen));
            uint64_t h = dev_state_hash(da) ^ struct_hash(da);
            moved |= h != seen[i];
            seen[i] = h;
        }
        if (!moved && !last) {
            same++;
            continue;
        }
        points++;
        machine *b = build(g);
        for (device *da = a->devices; da && !changed; da = da->next)
            changed = dev_state_hash(da) != dev_state_hash(machine_find_device(b, da->name));
        /* The machine-level state a snapshot restores with the devices. */
        b->clock.now = a->clock.now;
        b->clock.seq = a->clock.seq;
        char where[96];
        snprintf(where, sizeof where, "%s at %llu", g->elf, (unsigned long long)done);
        transfer_and_compare(a, b, where);
        if (last)
            run_on(a, b, 2 * XBOW_CPU_HZ / 100, "state\n");
        machine_free(b);
        if (last)
            break;
    }
    ck_assert_msg(changed, "%s: the guest changed no device state", g->elf);
    fprintf(stderr,
            "test_state: %s: %u points compared, %u where no device had changed, "
            "%llu instructions\n",
            g->elf, points, same, (unsigned long long)cpu_retired(a->cpus[0]));
    machine_free(a);
}

START_TEST(state_hello)
{
    static const guest g = {
        "hello/hello.elf", 1, false, NULL, 2000, 400000, NULL, NULL, NULL, false};
    round_trip(&g);
}
END_TEST

START_TEST(state_timer)
{
    static const guest g = {"timer/timer.elf", 1,    false, NULL, 100003,
                            12000000,          NULL, NULL,  NULL, false};
    round_trip(&g);
}
END_TEST

START_TEST(state_serial_irq)
{
    static const guest g = {
        "serial-irq/serial_irq.elf", 1, false, "typed\n", 5003, 3000000, NULL, NULL, NULL, false};
    round_trip(&g);
}
END_TEST

START_TEST(state_smp)
{
    static const guest g = {"smp/smp.elf", 2, false, NULL, 5003, 1000000, NULL, NULL, NULL, false};
    round_trip(&g);
}
END_TEST

START_TEST(state_testdev)
{
    static const guest g = {
        "testdev/testdev_dma.elf", 1, true, NULL, 20011, 5000000, NULL, NULL, NULL, false};
    round_trip(&g);
}
END_TEST

/* The NICs: each model's driver example, with frames coming back from the
 * echo peer (the Rx FIFO, the frame in progress) or going to the sink, and
 * saves landing mid-frame and mid-DMA at these strides. */
START_TEST(state_nic_hamachi)
{
    static const guest g = {
        "hamachi/hamachi.elf", 1, false, NULL, 7919, 4000000, "hamachi", "sink", "tx 60", false};
    round_trip(&g);
}
END_TEST

START_TEST(state_nic_e1000)
{
    static const guest g = {
        "e1000/echo.elf",    1,    false, NULL, 7919, 4000000, "e1000-82544", "echo",
        "count=25 size=700", false};
    round_trip(&g);
}
END_TEST

START_TEST(state_nic_tigon)
{
    static const guest g = {
        "tigon/tigon_echo.elf", 1, false, NULL, 7919, 4000000, "tigon2", "echo", NULL, false};
    round_trip(&g);
}
END_TEST

/* What the guests leave alone (divisor latches, the RT counter, the Bridge's
 * 1-wire EEPROM, error latches): every register of every device written
 * with pseudo-random values and read back (read-to-clear included), the
 * clock moving on between, and a fresh machine compared every few steps. */
START_TEST(state_register_storm)
{
    static const guest g = {"hello/hello.elf", 1, true, NULL, 0, 0, NULL, NULL, NULL, true};
    if (!built(&g))
        return;
    log_set_level(LOG_ERROR); /* garbage interrupt packets are warned about */
    machine *a = build(&g);
    uint64_t x = 0x9e3779b97f4a7c15ull;
    device *devs[16];
    unsigned ndev = 0;
    for (device *d = a->devices; d && ndev < ARRAY_SIZE(devs); d = d->next)
        devs[ndev++] = d;
    for (unsigned step = 1; step <= 3000; step++) {
        xorshift64(&x);
        device *d = devs[x % ndev];
        unsigned id = (unsigned)(x >> 8) % d->cls->nregs;
        const reg_decl *r = &d->cls->regs[id];
        unsigned idx = r->count > 1 ? (unsigned)(x >> 20) % r->count : 0;
        uint64_t off = r->offset + idx * r->stride, v = x * 0x2545f4914f6cdd1dull;
        unsigned width = r->width;
        if ((x >> 48) % 4 == 0 && d->cls->reg_space) {
            /* Anywhere in the register block: memories, windows, PCI space. */
            off = ((x >> 24) % d->cls->reg_space) & ~3ull;
            width = 4;
        }
        if (x & 0x100000000ull) {
            dev_write(d, NULL, off, width, v & MASK(width * 8));
        } else {
            uint64_t got;
            dev_read(d, NULL, off, width, &got);
        }
        if (step % 7 == 0) {
            a->clock.now += (x >> 40) % 20000;
            sched_run_due(&a->clock);
        }
        if (step % 50 == 0) {
            machine *b = build(&g);
            b->clock.now = a->clock.now;
            b->clock.seq = a->clock.seq;
            char where[64];
            snprintf(where, sizeof where, "register storm, step %u", step);
            transfer_and_compare(a, b, where);
            machine_free(b);
        }
    }
    machine_free(a);
    char img[64];
    snprintf(img, sizeof img, "/tmp/xbow-test-state-%d.img", (int)getpid());
    unlink(img);
}
END_TEST

/* Three cases, each test with its own timeout: the example guests, the
 * register storm, the NIC models (the longest: a fresh machine with a NIC at
 * every save point).  Each test takes well under half its timeout in the
 * sanitizer build on a busy 2-core machine. */
int main(void)
{
    Suite *s = suite_create("state");
    check_add_tests(check_case(s, "round-trip", NULL, NULL, 120), state_hello, state_timer,
                    state_serial_irq, state_smp, state_testdev);
    check_add_tests(check_case(s, "register-storm", NULL, NULL, 120), state_register_storm);
    check_add_tests(check_case(s, "nic-round-trip", NULL, NULL, 120), state_nic_hamachi,
                    state_nic_e1000, state_nic_tigon);
    return check_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
