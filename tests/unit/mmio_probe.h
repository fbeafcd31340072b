/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A test double for an MMIO region (tests/unit/core, cpu, dev/sgi): it
 * counts the accesses and records the last one.  A read of size bytes
 * returns the top size bytes of 0x1122334455667788 (4 bytes: 0x11223344). */
#ifndef XBOW_TEST_MMIO_PROBE_H
#define XBOW_TEST_MMIO_PROBE_H

#include "core/bus.h"

#define MMIO_PROBE_PATTERN 0x1122334455667788ull

typedef struct mmio_probe {
    unsigned reads, writes, size; /* accesses so far; the last one's size */
    uint64_t off, val;            /* the last one's offset; the last value written */
    int initiator;                /* the last one's initiator */
} mmio_probe;

static inline int mmio_probe_read(void *o, const bus_op *op, uint64_t off, uint64_t *val)
{
    mmio_probe *p = o;
    p->reads++;
    p->off = off;
    p->size = op->size;
    p->initiator = op->initiator;
    *val = MMIO_PROBE_PATTERN >> (8 * (8 - op->size));
    return BUS_OK;
}

static inline int mmio_probe_write(void *o, const bus_op *op, uint64_t off, uint64_t val)
{
    mmio_probe *p = o;
    p->writes++;
    p->off = off;
    p->val = val;
    p->size = op->size;
    p->initiator = op->initiator;
    return BUS_OK;
}

static const mmio_ops mmio_probe_ops = {mmio_probe_read, mmio_probe_write};

#endif
