/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-machine snapshots: every CPU, all RAM, every device's declared
 * state, the scheduler's pending timers, the NICs' ports and built-in
 * peers, the console's pending input, the board's own state.
 *
 * A snapshot is taken from a stopped machine (snapshot_take) and kept in
 * memory (RAM as the pages that are not all zero) or written to a file
 * (snapfile.c: a versioned header with the machine configuration, then
 * sections compressed with zlib and checked with crc32).  Loading checks
 * everything against the running machine first (configuration, every
 * section, every device's image) and changes nothing on an error.  Not in a
 * snapshot: the debugger's state (breakpoints, watchpoints, displays,
 * symbols), host-side backends (tap file descriptors, capture files) and
 * the console's host terminal; see docs/snapshots.md. */
#ifndef XBOW_SNAPSHOT_H
#define XBOW_SNAPSHOT_H

#include "machine/machine.h"

#define SNAPSHOT_FORMAT_VERSION 1

typedef struct snapshot snapshot;

/* Everything about the stopped machine m. */
snapshot *snapshot_take(machine *m);
/* The same, sharing with `base` the RAM pages not written since the
 * dirty-page tracking started (snapshot_track): base must hold the RAM as
 * it was then.  With base NULL, a full snapshot_take.  The history's
 * snapshots cost only what changed between them. */
snapshot *snapshot_take_since(machine *m, const snapshot *base);
/* Start the dirty-page tracking of m's RAM now (bus.h, PF_CLEAN): from
 * here every write marks its page.  snapshot_untrack stops it. */
void snapshot_track(machine *m);
void snapshot_untrack(machine *m);
/* Compare s's RAM with m's: 0 when equal, else the first page that
 * differs (its block and offset) in *block and *off, and 1.  For the
 * history's check (set history-check): a page written without being
 * marked dirty shows here. */
int snapshot_ram_diff(machine *m, const snapshot *s, unsigned *block, uint64_t *off);
void snapshot_free(snapshot *s);
/* Free s and say how many bytes of host memory went (pages still held by
 * another snapshot stay). */
size_t snapshot_release(snapshot *s);
/* Whether s can be loaded into m: 0, or -1 with a one-line reason. */
int snapshot_check(machine *m, const snapshot *s, xerr *err);
/* Load s into m (checked first: on an error m is untouched). */
int snapshot_restore(machine *m, const snapshot *s, xerr *err);
/* The same when the dirty-page tracking runs from base (snapshot_track
 * after taking or restoring base): the pages not written since that s
 * shares with base are not copied. */
int snapshot_restore_since(machine *m, const snapshot *s, const snapshot *base, xerr *err);

/* What `info snapshots` shows. */
uint64_t snapshot_time(const snapshot *s);                /* virtual time (ticks) */
uint64_t snapshot_retired(const snapshot *s, unsigned i); /* CPU i's instructions */
size_t snapshot_bytes(const snapshot *s);                 /* host memory it holds */
size_t snapshot_own_bytes(const snapshot *s);   /* of that, what it allocated (not shared) */
uint64_t snapshot_ram_pages(const snapshot *s); /* RAM pages stored (not all zero) */
const char *snapshot_config(const snapshot *s); /* machine configuration text */

/* A hash of the whole machine state: what snapshot_take would save (CPUs,
 * RAM, devices, scheduler, ports, console input).  Two machines with the
 * same hash are in the same state. */
uint64_t machine_state_hash(machine *m);
/* The parts of that hash, one call per section ("cpu0", "dev:bridge",
 * "ram:node0" ...), for finding where two runs differ. */
void machine_state_hash_parts(machine *m, void (*fn)(void *ctx, const char *name, uint64_t h),
                              void *ctx);

/* Files (snapfile.c). */
int snapshot_write(const snapshot *s, const char *path, xerr *err);
snapshot *snapshot_read(const char *path, xerr *err);
/* A file's bytes already in memory (the fuzz target). */
snapshot *snapshot_parse(const uint8_t *buf, size_t len, xerr *err);

#endif
