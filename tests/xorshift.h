/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tests' pseudo-random numbers: Marsaglia's xorshift64 (13, 7, 17), the
 * same sequence on every machine for a given seed (never 0). */
#ifndef XBOW_TEST_XORSHIFT_H
#define XBOW_TEST_XORSHIFT_H

#include <stdint.h>

/* Advances *state and returns its new value. */
static inline uint64_t xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
