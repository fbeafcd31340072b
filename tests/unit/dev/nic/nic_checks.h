/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The checks the NIC models' unit tests share (Check assertions: the fuzz
 * targets link nic_fake.c, not this). */
#ifndef XBOW_TEST_NIC_CHECKS_H
#define XBOW_TEST_NIC_CHECKS_H

#include <check.h>

#include "nic_fake.h"

/* How many 1514-byte frames a timed run moves. */
#define NIC_TIMED_FRAMES 8

/* A timed run of a model: NIC_TIMED_FRAMES 1514-byte frames moved by raw or
 * per-word payload DMA, sent when tx, else received; the frames as they
 * arrived (on the wire or in host memory) in out, the time the bus was busy
 * in *busy; returns the virtual time the run took. */
typedef uint64_t nic_timed_run(bool per_word, bool tx, uint8_t out[NIC_TIMED_FRAMES][1514],
                               uint64_t *busy);

/* Per-word payload DMA moves the same bytes as raw DMA (frame i is
 * fake_frame(dst, type, k0 + i)), in both directions: the bus is busy more
 * than 5 times as long and the run takes more than 3 times as long (the bus
 * time is waited out). */
static inline void check_per_word_dma_costs(nic_timed_run *run, const uint8_t *dst, uint16_t type,
                                            uint32_t k0)
{
    static uint8_t raw[NIC_TIMED_FRAMES][1514], word[NIC_TIMED_FRAMES][1514];
    uint8_t f[1514];
    for (int tx = 0; tx < 2; tx++) {
        uint64_t busy_raw, busy_word;
        uint64_t t_raw = run(false, tx, raw, &busy_raw);
        uint64_t t_word = run(true, tx, word, &busy_word);
        for (unsigned i = 0; i < NIC_TIMED_FRAMES; i++) {
            fake_frame(f, 1514, dst, type, k0 + i);
            ck_assert_mem_eq(raw[i], f, 1514);
            ck_assert_mem_eq(word[i], f, 1514);
        }
        ck_assert_uint_gt(busy_word, 5 * busy_raw);
        ck_assert_msg(t_word > 3 * t_raw, "%s: raw %llu ticks, per-word %llu ticks",
                      tx ? "tx" : "rx", (unsigned long long)t_raw, (unsigned long long)t_word);
        ck_assert_uint_ge(t_word, busy_word - busy_word / 8); /* the bus time is waited out */
    }
}

#endif
