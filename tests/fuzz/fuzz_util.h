/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared pieces of the fuzz targets: the reader that takes the arguments
 * of an operation from the input, the event sink that exercises the
 * formatters, and the abort on a broken invariant. */
#ifndef XBOW_FUZZ_UTIL_H
#define XBOW_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/event.h"
#include "core/strbuf.h"
#include "../unit/dev/nic/nic_fake.h"

/* The target's name for messages; each target defines it. */
extern const char fuzz_target[];

typedef struct fuzz_reader {
    const uint8_t *p;
    size_t left;
} fuzz_reader;

/* The next n bytes, little-endian; missing bytes read as 0. */
uint64_t fuzz_take(fuzz_reader *r, unsigned n);

/* Subscribe to the events matching glob and format the first ones of each
 * run into text (the formatters are fuzzed too; all of them would make the
 * run slow). */
void fuzz_format_events(event_bus *eb, const char *glob, strbuf *text);

/* Report a broken invariant and abort, as libFuzzer expects. */
_Noreturn void fuzz_fail(const char *what);

/* Fill frame with len (mod NET_MAX_FRAME + 40) bytes of a pattern from
 * seed, addressed by dst & 3 (0 station, 1 broadcast, 2 multicast, 3 the
 * pattern); returns that length and counts in *badlen the frames the port
 * will refuse for their length. */
unsigned fuzz_nic_frame(uint8_t *frame, unsigned len, const uint8_t station[6], unsigned dst,
                        unsigned seed, uint64_t *badlen);

/* The invariants of a NIC behind a fake wire and host once the clock has
 * run on (fuzz_fail on a broken one): every frame offered is delivered,
 * counted as dropped with a reason, or still queued; every frame sent
 * reached the wire; INTA matches the enabled pending causes.  Returns the
 * NIC's Rx drops. */
uint64_t fuzz_check_nic(const nic *n, const fake_wire *w, const fake_host *h, uint64_t offered,
                        uint64_t badlen);

/* A NIC model on a fake host (RAM_size bytes of RAM) and a fake wire, its
 * events formatted into evtext: what the Hamachi and e1000 targets run. */
typedef struct fuzz_nic_rig {
    NIC_RIG;
    strbuf evtext;
    const uint8_t *station;
} fuzz_nic_rig;

/* Create the model (nic_create) named name with the station address,
 * plugged into the host and the wire (fuzz_fail when the model cannot be
 * made). */
void fuzz_nic_open(fuzz_nic_rig *g, const char *model, const char *name, size_t ram_size,
                   const uint8_t station[6]);
/* Destroy the NIC and free the rig. */
void fuzz_nic_close(fuzz_nic_rig *g);
/* The end of a run: the clock runs on 100 us for the engines to settle,
 * the invariants are checked (fuzz_check_nic), FUZZ_VERBOSE prints the
 * counts, and the rig is closed. */
void fuzz_nic_finish(fuzz_nic_rig *g, uint64_t offered, uint64_t badlen);

/* The operations the Hamachi and e1000 targets share, numbered alike in
 * both input programs: 2 a word of host RAM (off16 mod the RAM's size - 4,
 * value32), 6 bus master (on8), 7 PCI reset, 8 views (which8:
 * the view is which mod the class's views, the argument the two bits of
 * which from bit view_bits; the Rx and Tx ring states and the device
 * summary are read too), 9 DMA mode (per_word8).  Returns false, taking
 * nothing, for another op. */
bool fuzz_nic_op(fuzz_nic_rig *g, unsigned op, fuzz_reader *r, unsigned view_bits);

/* The input program of the Hamachi and IOC3 targets on the rig: up to
 * max_ops ops, each a code (a byte mod nops) and its operands: the shared
 * ones (fuzz_nic_op with view_bits 2, fuzz_nic_wire_op with run_scale 4),
 * the model's own through model_op; then fuzz_nic_finish (the invariants,
 * the rig closed). */
void fuzz_nic_program(fuzz_nic_rig *g, fuzz_reader *r, unsigned max_ops, unsigned nops,
                      void (*model_op)(fuzz_nic_rig *g, unsigned code, fuzz_reader *r));

/* The wire's operations of the Hamachi and IOC3 targets, numbered alike in
 * both: 4 run (t16: t * run_scale ticks), 5 a frame (len16 dst8 seed8: one
 * frame of fuzz_nic_frame for the station), 11 frames (count8 len16 dst8
 * seed8: count frames, seeds seed, seed + 1 ...).  Frames offered are
 * added to *offered, those the port refuses for their length to *badlen.
 * Returns false, taking nothing, for another op. */
bool fuzz_nic_wire_op(fuzz_nic_rig *g, unsigned op, fuzz_reader *r, unsigned run_scale,
                      uint64_t *offered, uint64_t *badlen);

#endif
