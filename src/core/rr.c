/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record/replay log: its format, the writer and the checked reader
 * (the format is described in rr.h, its use in docs/record-replay.md). */
#include "core/rr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "core/outfile.h"

#include <unistd.h>

static const char *const kind_names[RR_NKINDS] = {
    [RR_CONSOLE] = "console",   [RR_NET_FRAME] = "net frame",
    [RR_NET_DROP] = "net drop", [RR_NET_LINK] = "net link",
    [RR_END] = "end",
};

const char *rr_kind_name(int kind)
{
    return kind > 0 && kind < RR_NKINDS && kind_names[kind] ? kind_names[kind] : "?";
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32). */
uint32_t rr_crc32(uint32_t crc, const void *data, size_t len)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    const uint8_t *p = data;
    crc = ~crc;
    while (len--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static rr *rr_alloc(enum rr_mode mode, const char *path)
{
    rr *r = xcalloc(1, sizeof *r);
    r->mode = mode;
    snprintf(r->path, sizeof r->path, "%s", path);
    r->next.data = xmalloc(RR_DATA_MAX);
    return r;
}

static void rr_free(rr *r)
{
    if (!r)
        return;
    if (r->f)
        fclose(r->f);
    outfile_close(r->out);
    free(r->text);
    free(r->next.data);
    free(r);
}

/* ---- recording ------------------------------------------------------------ */

static int log_ready(void *ctx, int fd, xerr *err)
{
    rr *r = ctx;
    r->f = fdopen(fd, "wb");
    if (!r->f) {
        close(fd);
        return xerr_fail(err, "%s: %s", r->path, strerror(errno));
    }
    return 0;
}

rr *rr_record_open(const char *path, xerr *err)
{
    rr *r = rr_alloc(RR_RECORD, path);
    r->out = outfile_open(path, log_ready, r, err);
    if (!r->out) {
        rr_free(r);
        return NULL;
    }
    return r;
}

static void write_fail(rr *r)
{
    if (r->state == RR_FAILED)
        return;
    r->state = RR_FAILED;
    snprintf(r->msg, sizeof r->msg, "writing %s: %s; the recording stops here", r->path,
             strerror(errno ? errno : EIO));
    xlog(LOG_ERROR, "record", "%s", r->msg);
}

int rr_record_begin(rr *r, const char *text, xerr *err)
{
    if (!r->f)
        return xerr_fail(err, "--record %s: the file is not open yet", r->path);
    size_t n = strlen(text);
    if (n > RR_TEXT_MAX)
        return xerr_fail(err, "--record: the header text is too long (%zu bytes)", n);
    uint8_t h[20];
    memcpy(h, RR_MAGIC, 8);
    store_le(h + 8, 4, RR_VERSION);
    store_le(h + 12, 4, n);
    uint32_t crc = rr_crc32(rr_crc32(0, h + 8, 8), text, n);
    store_le(h + 16, 4, crc);
    if (fwrite(h, 1, sizeof h, r->f) != sizeof h || fwrite(text, 1, n, r->f) != n ||
        fflush(r->f) != 0)
        return xerr_fail(err, "--record %s: %s", r->path, strerror(errno));
    r->text = xstrdup(text);
    r->version = RR_VERSION;
    r->file_bytes = sizeof h + n;
    return 0;
}

static void put_at(rr *r, int kind, unsigned channel, uint64_t time, const void *data, size_t len)
{
    if (r->state != RR_RUNNING || !r->text)
        return;
    if (time < r->end_time) {
        /* The run went back (the history) and took a new input in the past:
         * a log's times never go back, so it ends here, readable. */
        r->state = RR_FAILED;
        snprintf(r->msg, sizeof r->msg,
                 "the run went back to time %llu and took a new input there (a change in the "
                 "past): the recording %.200s stops at time %llu",
                 (unsigned long long)time, r->path, (unsigned long long)r->end_time);
        xlog(LOG_WARN, "record", "%s", r->msg);
        return;
    }
    r->end_time = time;
    if (len > RR_DATA_MAX)
        len = RR_DATA_MAX;
    uint8_t h[RR_REC_HEAD], c[4];
    h[0] = (uint8_t)kind;
    h[1] = (uint8_t)channel;
    store_le(h + 2, 2, 0);
    store_le(h + 4, 4, len);
    store_le(h + 8, 8, time);
    store_le(c, 4, rr_crc32(rr_crc32(0, h, sizeof h), data, len));
    if (fwrite(h, 1, sizeof h, r->f) != sizeof h || fwrite(data, 1, len, r->f) != len ||
        fwrite(c, 1, 4, r->f) != 4) {
        write_fail(r);
        return;
    }
    r->file_bytes += sizeof h + len + 4;
    if (kind != RR_END) {
        r->records++;
        r->kind_count[kind]++;
        r->kind_bytes[kind] += len;
    }
}

void rr_put(rr *r, int kind, unsigned channel, const void *data, size_t len)
{
    put_at(r, kind, channel, r->clock ? r->clock->now : 0, data, len);
}

void rr_close(rr *r)
{
    if (!r)
        return;
    if (r->mode == RR_RECORD && r->f) {
        uint8_t n[8];
        store_le(n, 8, r->records);
        /* At the present: the machine may be in its past (the history). */
        uint64_t now = r->clock ? r->clock->now : 0;
        put_at(r, RR_END, 0, now > r->end_time ? now : r->end_time, n, sizeof n);
        if (fclose(r->f) != 0)
            write_fail(r);
        r->f = NULL;
    }
    rr_free(r);
}

/* ---- reading --------------------------------------------------------------- */

/* Read one record at the file's position into *rec: 1, 0 at a clean end of
 * file, -1 for a record cut short (*cut set) or damaged (message in why). */
static int read_rec(FILE *f, rr_rec *rec, bool *cut, char *why, size_t whylen)
{
    uint8_t h[RR_REC_HEAD], c[4];
    size_t n = fread(h, 1, sizeof h, f);
    *cut = false;
    if (n == 0)
        return 0;
    if (n != sizeof h) {
        *cut = true;
        snprintf(why, whylen, "the record is cut short");
        return -1;
    }
    rec->kind = h[0];
    rec->channel = h[1];
    rec->len = (uint32_t)load_le(h + 4, 4);
    rec->time = load_le(h + 8, 8);
    if (rec->len > RR_DATA_MAX) {
        snprintf(why, whylen, "a record of %u bytes (at most %u): the log is damaged", rec->len,
                 RR_DATA_MAX);
        return -1;
    }
    if (fread(rec->data, 1, rec->len, f) != rec->len || fread(c, 1, 4, f) != 4) {
        *cut = true;
        snprintf(why, whylen, "the record is cut short");
        return -1;
    }
    if (rr_crc32(rr_crc32(0, h, sizeof h), rec->data, rec->len) != load_le(c, 4)) {
        snprintf(why, whylen, "checksum mismatch: the log is damaged");
        return -1;
    }
    if (rec->kind == 0 || rec->kind >= RR_NKINDS || load_le(h + 2, 2) != 0) {
        snprintf(why, whylen, "unknown record kind %u: the log is damaged", rec->kind);
        return -1;
    }
    static const uint32_t min_len[RR_NKINDS] = {
        [RR_CONSOLE] = 1, [RR_NET_FRAME] = 4, [RR_NET_DROP] = 14, [RR_NET_LINK] = 1, [RR_END] = 8};
    static const uint32_t max_len[RR_NKINDS] = {[RR_CONSOLE] = 1,
                                                [RR_NET_FRAME] = RR_DATA_MAX,
                                                [RR_NET_DROP] = 14,
                                                [RR_NET_LINK] = 1,
                                                [RR_END] = 8};
    if (rec->len < min_len[rec->kind] || rec->len > max_len[rec->kind]) {
        snprintf(why, whylen, "a %s record of %u bytes: the log is damaged",
                 rr_kind_name(rec->kind), rec->len);
        return -1;
    }
    return 1;
}

rr *rr_replay_open_stream(FILE *f, const char *name, xerr *err)
{
    rr *r = rr_alloc(RR_REPLAY, name);
    r->f = f;
    uint8_t h[20];
    size_t n = fread(h, 1, sizeof h, f);
    if (n < 8 || memcmp(h, RR_MAGIC, 8) != 0) {
        xerr_set(err, "%s: not an xbow record log (no XBOWREC header)", name);
        goto fail;
    }
    if (n != sizeof h) {
        xerr_set(err, "%s: the header is cut short", name);
        goto fail;
    }
    r->version = (uint32_t)load_le(h + 8, 4);
    uint32_t tlen = (uint32_t)load_le(h + 12, 4);
    if (r->version > RR_VERSION || r->version == 0) {
        xerr_set(err,
                 "%s: log format version %u; this xbow reads version %u (record it again, or "
                 "replay it with the xbow that wrote it)",
                 name, r->version, RR_VERSION);
        goto fail;
    }
    if (tlen > RR_TEXT_MAX) {
        xerr_set(err, "%s: a header of %u bytes (at most %u): the log is damaged", name, tlen,
                 RR_TEXT_MAX);
        goto fail;
    }
    r->text = xmalloc(tlen + 1);
    if (fread(r->text, 1, tlen, f) != tlen) {
        xerr_set(err, "%s: the header is cut short", name);
        goto fail;
    }
    r->text[tlen] = 0;
    if (rr_crc32(rr_crc32(0, h + 8, 8), r->text, tlen) != load_le(h + 16, 4)) {
        xerr_set(err, "%s: header checksum mismatch: the log is damaged", name);
        goto fail;
    }
    if (strlen(r->text) != tlen) {
        xerr_set(err, "%s: the header text holds a NUL byte: the log is damaged", name);
        goto fail;
    }
    /* Check every record now: damage is refused before the machine runs. */
    long start = ftell(f);
    uint64_t off = (uint64_t)start;
    char why[160];
    bool was_cut = false;
    for (;;) {
        bool cut;
        int rc = read_rec(f, &r->next, &cut, why, sizeof why);
        if (rc == 0)
            break;
        if (rc < 0 && cut) {
            xlog(LOG_WARN, "replay",
                 "%s: the log ends inside record %llu (at byte %llu): the recording was cut "
                 "short; the replay stops there",
                 name, (unsigned long long)r->total + 1, (unsigned long long)off);
            was_cut = true;
            break;
        }
        if (rc < 0) {
            xerr_set(err, "%s: record %llu (at byte %llu): %s", name,
                     (unsigned long long)r->total + 1, (unsigned long long)off, why);
            goto fail;
        }
        if (r->complete) {
            xerr_set(err,
                     "%s: record %llu (at byte %llu) follows the end record: the log is damaged",
                     name, (unsigned long long)r->total + 2, (unsigned long long)off);
            goto fail;
        }
        /* Inputs are taken between instructions at the time every CPU has
         * reached (device timers): their times never go back. */
        if (r->next.time < r->end_time) {
            xerr_set(err,
                     "%s: record %llu (at byte %llu) is earlier (time %llu) than the one before "
                     "it (%llu): the log is damaged",
                     name, (unsigned long long)r->total + 1, (unsigned long long)off,
                     (unsigned long long)r->next.time, (unsigned long long)r->end_time);
            goto fail;
        }
        if (r->next.kind == RR_END) {
            if (load_le(r->next.data, 8) != r->total) {
                xerr_set(err,
                         "%s: the end record counts %llu records, the log has %llu: the "
                         "log is damaged",
                         name, (unsigned long long)load_le(r->next.data, 8),
                         (unsigned long long)r->total);
                goto fail;
            }
            r->complete = true;
        } else {
            r->total++;
        }
        r->end_time = r->next.time;
        off += RR_REC_HEAD + r->next.len + 4;
    }
    if (was_cut || r->complete)
        ;
    else if (!r->total)
        xlog(LOG_WARN, "replay",
             "%s: the log has no records and no end record: the recording "
             "was cut short",
             name);
    else
        xlog(LOG_WARN, "replay", "%s: the log has no end record (the recording was cut short)",
             name);
    r->file_bytes = off;
    if (start < 0 || fseek(f, start, SEEK_SET) != 0) {
        xerr_set(err, "%s: cannot seek: %s", name, strerror(errno));
        goto fail;
    }
    r->next_off = (uint64_t)start;
    /* Read ahead the first record. */
    bool cut;
    r->have_next =
        r->total || r->complete ? read_rec(f, &r->next, &cut, why, sizeof why) == 1 : false;
    return r;
fail:
    r->f = NULL; /* the caller's */
    rr_free(r);
    return NULL;
}

rr *rr_replay_open(const char *path, xerr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        xerr_set(err, "--replay %s: %s", path, strerror(errno));
        return NULL;
    }
    rr *r = rr_replay_open_stream(f, path, err);
    if (!r)
        fclose(f);
    return r;
}

bool rr_header_get(const rr *r, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = r->text; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t ll = eol ? (size_t)(eol - p) : strlen(p);
        if (ll == 6 && !strncmp(p, "config", 6))
            break;
        if (ll > kl + 1 && !strncmp(p, key, kl) && p[kl] == ':') {
            const char *v = p + kl + 1;
            while (*v == ' ')
                v++;
            size_t vl = (size_t)(p + ll - v);
            snprintf(buf, len, "%.*s", (int)vl, v);
            return true;
        }
        if (!strncmp(p, "config:", 7))
            break;
        p = eol ? eol + 1 : p + ll;
    }
    return false;
}

const char *rr_header_config(const rr *r)
{
    const char *p = r->text;
    while (p && *p) {
        if (!strncmp(p, "config:\n", 8))
            return p + 8;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return "";
}

/* ---- replay ----------------------------------------------------------------- */

void rr_attach(rr *r, sched *clock, void (*stop)(void *ctx, const char *msg), void *ctx)
{
    r->clock = clock;
    r->stop = stop;
    r->stop_ctx = ctx;
}

static void replay_stop(rr *r, enum rr_state st)
{
    r->state = st;
    if (r->stop)
        r->stop(r->stop_ctx, r->msg);
}

void rr_fail(rr *r, const char *fmt, ...)
{
    if (r->state != RR_RUNNING)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    replay_stop(r, RR_FAILED);
}

const rr_rec *rr_due(rr *r, int kind, unsigned channel)
{
    if (r->state != RR_RUNNING || !r->have_next)
        return NULL;
    const rr_rec *n = &r->next;
    if (n->kind != kind || n->channel != channel || n->time != r->clock->now)
        return NULL;
    return n;
}

void rr_take(rr *r)
{
    if (!r->have_next)
        return;
    r->records++;
    r->kind_count[r->next.kind]++;
    r->kind_bytes[r->next.kind] += r->next.len;
    r->next_off += RR_REC_HEAD + r->next.len + 4;
    bool cut;
    char why[160];
    /* Checked at open: a record that no longer reads is a file changed since. */
    int rc = read_rec(r->f, &r->next, &cut, why, sizeof why);
    r->have_next = rc == 1;
    if (rc < 0 && r->records < r->total)
        rr_fail(r,
                "replay: record %llu of %s no longer reads (%s): the file changed during the "
                "replay",
                (unsigned long long)r->records + 1, r->path, why);
}

uint64_t rr_deadline(const rr *r)
{
    if (!r || r->mode != RR_REPLAY || r->state != RR_RUNNING)
        return UINT64_MAX;
    if (r->have_next && r->next.kind != RR_END)
        return UINT64_MAX;
    return r->end_time;
}

void rr_check_slow(rr *r, uint64_t now)
{
    if (r->have_next && r->next.kind != RR_END) {
        if (r->next.time >= now)
            return;
        rr_fail(r,
                "replay diverged: the log has a %s input (%u bytes, channel %u) at time %llu, "
                "record %llu of %llu; the machine is at %llu and did not take it",
                rr_kind_name(r->next.kind), r->next.len, r->next.channel,
                (unsigned long long)r->next.time, (unsigned long long)r->records + 1,
                (unsigned long long)r->total, (unsigned long long)now);
        return;
    }
    if (now < r->end_time)
        return;
    if (r->complete)
        snprintf(r->msg, sizeof r->msg,
                 "replay: end of the recording at time %llu (%llu inputs replayed); the machine "
                 "runs on without outside input",
                 (unsigned long long)r->end_time, (unsigned long long)r->records);
    else
        snprintf(r->msg, sizeof r->msg,
                 "replay: the log ends here, at time %llu after %llu inputs, without its end "
                 "record (the recording was cut short); the machine runs on without outside input",
                 (unsigned long long)r->end_time, (unsigned long long)r->records);
    replay_stop(r, RR_DONE);
}

void rr_show(const rr *r, strbuf *out)
{
    if (!r || r->mode == RR_OFF) {
        sb_puts(out, "No recording or replay is active (start xbow with --record FILE or "
                     "--replay FILE).\n");
        return;
    }
    uint64_t now = r->clock ? r->clock->now : 0;
    if (r->mode == RR_RECORD) {
        sb_printf(out, "Recording to %s (log format %u): %s.\n", r->path, r->version,
                  r->state == RR_FAILED ? r->msg : "every input from outside is logged");
        sb_printf(out, "  time      %llu\n", (unsigned long long)now);
        sb_printf(out, "  inputs    %llu logged, %llu bytes written\n",
                  (unsigned long long)r->records, (unsigned long long)r->file_bytes);
    } else {
        const char *st = r->state == RR_RUNNING ? "replaying"
                         : r->state == RR_DONE  ? "replay ended"
                                                : "replay stopped";
        sb_printf(out, "Replaying %s (log format %u, %s): %s.\n", r->path, r->version,
                  r->complete ? "complete" : "no end record: cut short", st);
        if (r->state != RR_RUNNING)
            sb_printf(out, "  %s\n", r->msg);
        sb_printf(out, "  time      %llu (the recording ends at %llu)\n", (unsigned long long)now,
                  (unsigned long long)r->end_time);
        sb_printf(out, "  position  record %llu of %llu (byte %llu of %llu)\n",
                  (unsigned long long)r->records, (unsigned long long)r->total,
                  (unsigned long long)r->next_off, (unsigned long long)r->file_bytes);
        if (r->have_next && r->next.kind != RR_END && r->state == RR_RUNNING)
            sb_printf(out, "  next      %s, channel %u, %u bytes, at time %llu\n",
                      rr_kind_name(r->next.kind), r->next.channel, r->next.len,
                      (unsigned long long)r->next.time);
    }
    if (r->change_warned)
        sb_puts(out,
                "  warning   the debugger changed the machine: from there on the run is not the "
                "recorded one\n");
    for (int k = 1; k < RR_END; k++)
        if (r->kind_count[k])
            sb_printf(out, "  %-9s %llu records, %llu bytes\n", rr_kind_name(k),
                      (unsigned long long)r->kind_count[k], (unsigned long long)r->kind_bytes[k]);
}

void rr_outside_change(rr *r, const char *what)
{
    if (!r || r->mode == RR_OFF || r->change_warned)
        return;
    r->change_warned = true;
    uint64_t now = r->clock ? r->clock->now : 0;
    if (r->mode == RR_RECORD)
        xlog(LOG_WARN, "record",
             "the debugger changed %s at time %llu: the log holds inputs from outside, not the "
             "debugger's changes, so a replay of this recording leaves it from here",
             what, (unsigned long long)now);
    else
        xlog(LOG_WARN, "replay",
             "the debugger changed %s at time %llu: the machine leaves the recorded run from "
             "here, and the replay may stop at the next input it does not take",
             what, (unsigned long long)now);
}

/* ---- the history's log ------------------------------------------------------ */

rr_log *rr_log_new(sched *clock)
{
    rr_log *L = xcalloc(1, sizeof *L);
    L->clock = clock;
    return L;
}

void rr_log_clear(rr_log *L)
{
    for (size_t i = 0; i < L->n; i++)
        free(L->recs[i].data);
    L->first += L->n;
    L->n = 0;
    L->bytes = 0;
    L->feeding = false;
}

void rr_log_free(rr_log *L)
{
    if (!L)
        return;
    rr_log_clear(L);
    free(L->recs);
    free(L);
}

void rr_log_put(rr_log *L, int kind, unsigned stream, const void *data, size_t len)
{
    if (!L || L->feeding)
        return;
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 256;
        L->recs = xrealloc(L->recs, L->cap * sizeof *L->recs);
    }
    rr_rec *r = &L->recs[L->n++];
    r->kind = (uint8_t)kind;
    r->channel = (uint8_t)stream;
    r->len = (uint32_t)len;
    r->time = L->clock->now;
    r->data = xmalloc(len ? len : 1);
    memcpy(r->data, data, len);
    L->bytes += len + sizeof *r;
}

void rr_log_forget(rr_log *L, uint64_t before)
{
    if (before <= L->first)
        return;
    size_t k = before - L->first < L->n ? (size_t)(before - L->first) : L->n;
    for (size_t i = 0; i < k; i++) {
        L->bytes -= L->recs[i].len + sizeof L->recs[i];
        free(L->recs[i].data);
    }
    memmove(L->recs, L->recs + k, (L->n - k) * sizeof *L->recs);
    L->n -= k;
    L->first += k;
}

void rr_log_feed(rr_log *L, uint64_t from, uint64_t until)
{
    L->feeding = true;
    L->until = until;
    if (from < L->first)
        from = L->first;
    for (unsigned i = 0; i < ARRAY_SIZE(L->cur); i++)
        L->cur[i] = from;
}

void rr_log_stop_feed(rr_log *L) { L->feeding = false; }

const rr_rec *rr_log_next(rr_log *L, unsigned stream)
{
    stream &= 0xff;
    for (uint64_t i = L->cur[stream]; i < rr_log_end(L); i++) {
        const rr_rec *r = &L->recs[i - L->first];
        if (r->channel == stream) {
            L->cur[stream] = i;
            return r;
        }
    }
    L->cur[stream] = rr_log_end(L);
    return NULL;
}

void rr_log_take(rr_log *L, unsigned stream)
{
    stream &= 0xff;
    if (L->cur[stream] < rr_log_end(L))
        L->cur[stream]++;
}
