/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interrupt coalescing on the virtual clock, one engine per direction,
 * shared by the NIC models (docs/architecture.md, "NIC models").
 *
 * A model reports each *qualifying* completion (Hamachi: a descriptor with
 * DescIntr; 8254x: one with RS/IDE...) with nic_coal_event().  The engine
 * decides when to interrupt:
 *   - count:    `count` completions are pending (0 = no count threshold);
 *   - gap:      no further completion for `gap` ticks after the last one;
 *   - latency:  `latency` ticks have passed since the first pending one;
 *   - and never sooner than `min_ival` ticks after the previous interrupt
 *     (a decision inside that window is deferred to its end).
 * A zero timer is disabled.  With count, gap and latency all zero there is
 * no coalescing: every completion interrupts at once ("immediate").  Each
 * decision calls the model's fire() (which asserts its cause bit) and
 * publishes <nic>.coal.fire with the reason.
 */
#ifndef XBOW_NIC_COALESCE_H
#define XBOW_NIC_COALESCE_H

#include "dev/nic/nic.h"

enum nic_coal_reason {
    NIC_COAL_IMMEDIATE,
    NIC_COAL_COUNT,
    NIC_COAL_GAP,
    NIC_COAL_LATENCY,
    NIC_COAL_FORCED
};

typedef struct nic_coal {
    nic *n;
    enum nic_ring_id ring; /* for the event */
    void (*fire)(nic *n, int ring);
    /* Parameters (ticks). */
    uint32_t count;
    uint64_t gap, latency, min_ival;
    /* State. */
    unsigned pending;     /* qualifying completions not yet signalled */
    uint64_t first, last; /* times of the first and last pending one */
    uint64_t last_fire;
    bool fired_once;
    int deferred; /* reason waiting for min_ival, -1 = none */
    timer gap_t, lat_t, ival_t;
    uint64_t fires[NIC_COAL_FORCED + 1];
} nic_coal;

void nic_coal_init(nic_coal *c, nic *n, int ring, void (*fire)(nic *n, int ring));
/* Its state, for the models that embed one (STATE_PART). */
extern const state_table nic_coal_state;
void nic_coal_fini(nic_coal *c);
/* Forget pending work and timers (chip reset). */
void nic_coal_reset(nic_coal *c);
/* New parameters (ticks); pending work is re-evaluated at once. */
void nic_coal_config(nic_coal *c, uint32_t count, uint64_t gap, uint64_t latency,
                     uint64_t min_ival);
/* One qualifying completion. */
void nic_coal_event(nic_coal *c);
/* Interrupt now if anything is pending (e.g. Tigon COAL_NOW). */
void nic_coal_flush(nic_coal *c);

#endif
