/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Record and replay of the machine's inputs from outside (docs/record-replay.md).
 *
 * A run is deterministic given its inputs: the bytes the console takes, the
 * frames host network backends (tap, socket, vde) hand to a NIC, what those
 * backends could not carry, and the host time the RTC starts from.  With
 * `--record FILE` every such input is written to a log with the virtual
 * time at which the guest took it; with `--replay FILE` the same machine
 * takes them from the log instead of the outside world, and reaches the
 * same state at every instruction.
 *
 * The log (all integers little-endian):
 *   header  "XBOWREC\n", u32 format version, u32 text length, u32 CRC-32
 *           of the version, length and text, then the text: "key: value"
 *           lines (xbow version, settings that change the run, the RTC's
 *           start, the kernel's hash) and, after "config:", the machine
 *           configuration.
 *   records u8 kind, u8 channel, u16 0, u32 data length, u64 virtual time,
 *           the data, u32 CRC-32 of all of it; the last is RR_END.
 * A replay checks the whole log when it opens it; a damaged record or a
 * newer format is refused there, a log that was cut short (no RR_END) is
 * replayed as far as it goes.  During the replay, an input the guest does
 * not take at the time the log says (`rr_check_time`) or the end of the log
 * stops the machine with a message (the stop callback). */
#ifndef XBOW_RR_H
#define XBOW_RR_H

#include <stdio.h>

#include "core/sched.h"
#include "core/strbuf.h"

#define RR_MAGIC "XBOWREC\n"
#define RR_VERSION 1u
#define RR_TEXT_MAX 65536u
#define RR_DATA_MAX 65536u /* the data of one record at most */
#define RR_REC_HEAD 16u

enum rr_mode { RR_OFF, RR_RECORD, RR_REPLAY };

enum rr_kind {
    RR_CONSOLE = 1, /* bytes the console UART took (channel: the console) */
    RR_NET_FRAME,   /* a frame a host backend read: u32 length, then the bytes */
    RR_NET_DROP,    /* a frame the host could not carry: u8 dir (| 2: a sent frame
                        the host refused, counted at a poll: the writer thread's),
                        u8 reason, u32 length, u64 the port's frame count in that
                        direction */
    RR_NET_LINK,    /* a host backend gained or lost its peer: u8 1 or 0 */
    RR_END,         /* the end of the recording: u64 records before it */
    RR_NKINDS
};

typedef struct rr_rec {
    uint8_t kind, channel;
    uint32_t len;
    uint64_t time;
    uint8_t *data; /* len bytes (a buffer of RR_DATA_MAX) */
} rr_rec;

enum rr_state { RR_RUNNING, RR_DONE, RR_FAILED };

typedef struct rr {
    enum rr_mode mode;
    enum rr_state state;
    char path[256];
    FILE *f;
    struct outfile *out; /* recording: the file until it is handed over (core/outfile.h) */
    sched *clock;        /* the machine's: the time of an input is its `now` */
    char *text;          /* the header text */
    uint32_t version;
    uint64_t records; /* written, or consumed by the replay */
    uint64_t kind_count[RR_NKINDS], kind_bytes[RR_NKINDS];
    uint64_t file_bytes; /* written so far / the log's size */
    /* Replay. */
    rr_rec next; /* the next record, read ahead */
    bool have_next;
    uint64_t next_off; /* its offset in the file */
    uint64_t total;    /* records in the log (RR_END excluded) */
    bool complete;     /* the log ends with RR_END */
    uint64_t end_time; /* RR_END's time, or the last record's */
    char msg[384];     /* why the replay stopped (RR_DONE, RR_FAILED) */
    unsigned channels; /* host network backends opened so far (their channel numbers) */
    void (*stop)(void *ctx, const char *msg);
    void *stop_ctx;
    bool input_warned;  /* typed console input ignored: said once */
    bool change_warned; /* rr_outside_change: said once */
} rr;

/* Start a recording: FILE is an output file (core/outfile.h: left as it
 * was until the front end releases its files).  The header is written by
 * rr_record_begin once the machine is built and the files released. */
rr *rr_record_open(const char *path, xerr *err);
int rr_record_begin(rr *r, const char *text, xerr *err);
/* Open a log for replay: the header and every record are checked.  A log
 * that was cut short is accepted (rr.complete false). */
rr *rr_replay_open(const char *path, xerr *err);
/* The same from an open stream (tests, the fuzz target); `name` is for messages. */
rr *rr_replay_open_stream(FILE *f, const char *name, xerr *err);
/* Write RR_END (recording) and close the file. */
void rr_close(rr *r);

/* The value of "key: value" in the header text, copied into buf; false if
 * the key is absent.  rr_header_config gives the text after "config:". */
bool rr_header_get(const rr *r, const char *key, char *buf, size_t len);
const char *rr_header_config(const rr *r);

void rr_attach(rr *r, sched *clock, void (*stop)(void *ctx, const char *msg), void *ctx);
static inline enum rr_mode rr_mode_of(const rr *r) { return r ? r->mode : RR_OFF; }
static inline bool rr_replaying(const rr *r) { return r && r->mode == RR_REPLAY; }
static inline bool rr_recording(const rr *r) { return r && r->mode == RR_RECORD; }

/* Recording: one input taken now. */
void rr_put(rr *r, int kind, unsigned channel, const void *data, size_t len);
/* Replay: the next record if it is `kind` on `channel` and due now (then
 * rr_take consumes it), else NULL. */
const rr_rec *rr_due(rr *r, int kind, unsigned channel);
void rr_take(rr *r);
/* Replay: every CPU has reached `now` (the time device timers fired up
 * to): an input the log has before it was not taken, which is a
 * divergence; at the end of the recording the replay ends.  Both stop the
 * machine through the stop callback.  Cheap: one comparison. */
static inline void rr_check_time(rr *r, uint64_t now);
void rr_check_slow(rr *r, uint64_t now);
/* Replay: the time the machine must not run past in one turn (the end of
 * the recording), UINT64_MAX when none. */
uint64_t rr_deadline(const rr *r);
/* Stop the replay with a message (divergence found by an input point). */
void rr_fail(rr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The debugger changed the machine (memory, a register, a device
 * register): the log does not hold such changes, so the replay of this run
 * (or this replay itself) leaves the log's run from here.  Said once. */
void rr_outside_change(rr *r, const char *what);

/* `info record`. */
void rr_show(const rr *r, strbuf *out);
const char *rr_kind_name(int kind);

uint32_t rr_crc32(uint32_t crc, const void *data, size_t len);

/* ---- the history's log (src/dbg/history.c, docs/time-travel.md) ----------
 *
 * While the history is recorded, every input from outside is kept in
 * memory as the records of a --record log (a console byte the guest took
 * from a --replay log, a host network frame, a drop), plus RR_PUSH: bytes
 * that entered the console's input queue (typed, or read from the host),
 * which is machine state.  Going back restores a snapshot and feeds the
 * records after it back at their times (rr_log_feed) up to the present:
 * the re-execution takes the same inputs, and no input from outside is
 * taken before the present.  Records are numbered from the start of the
 * history (rr_log_end); each input point reads its own stream (the console,
 * or a host network port's number) with its own cursor. */
#define RR_PUSH 32u            /* memory only: bytes queued for the console */
#define RR_STREAM_CONSOLE 255u /* the console's stream; a network port's is its number */

typedef struct rr_log {
    sched *clock;
    rr_rec *recs; /* recs[i] is record first + i */
    size_t n, cap;
    uint64_t first;
    uint64_t bytes;    /* data held */
    uint64_t cuts;     /* inputs it cannot feed (a host peer came or went) */
    bool feeding;      /* the machine is in the past: inputs come from here */
    uint64_t until;    /* feeding: the present (clock time) */
    uint64_t cur[256]; /* feeding: each stream's next record */
    uint64_t diverged; /* feeding: records not taken at their time */
    bool typed_warned;
} rr_log;

rr_log *rr_log_new(sched *clock);
void rr_log_free(rr_log *L);
static inline uint64_t rr_log_end(const rr_log *L) { return L->first + L->n; }
static inline bool rr_log_feeding(const rr_log *L) { return L && L->feeding; }
/* A new input now, on stream (RR_STREAM_CONSOLE or a port's number);
 * nothing while feeding (the input is the one fed). */
void rr_log_put(rr_log *L, int kind, unsigned stream, const void *data, size_t len);
/* Forget every record (the history was cut), or those before `before`. */
void rr_log_clear(rr_log *L);
void rr_log_forget(rr_log *L, uint64_t before);
/* Feed the records from `from` on, until the clock reaches `until`. */
void rr_log_feed(rr_log *L, uint64_t from, uint64_t until);
void rr_log_stop_feed(rr_log *L);
/* Feeding: the next record of the stream (NULL when none is left); take
 * moves past it. */
const rr_rec *rr_log_next(rr_log *L, unsigned stream);
void rr_log_take(rr_log *L, unsigned stream);

static inline void rr_check_time(rr *r, uint64_t now)
{
    if (r && r->mode == RR_REPLAY && r->state == RR_RUNNING &&
        ((r->have_next && r->next.time < now) || !r->have_next || r->next.kind == RR_END))
        rr_check_slow(r, now);
}

#endif
