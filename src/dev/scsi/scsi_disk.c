/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A SCSI disk backed by an image file.  See scsi_disk.h. */
#include "dev/scsi/scsi_disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dev.h"

struct scsi_disk {
    char *path;
    int fd;
    bool ro;
    uint64_t blocks;
    uint64_t cmds, rd_blocks, wr_blocks;
};

const state_table scsi_tstate_state;
static const state_decl tstate_decls[] = {
    STATE_INT(scsi_tstate, ua, "UNIT ATTENTION pending (power on, bus reset)"),
    STATE_INT(scsi_tstate, stopped, "stopped by START STOP UNIT"),
    STATE_INT(scsi_tstate, wce, "write cache enabled (mode page 08h)"),
    STATE_BYTES(scsi_tstate, sense, "the last sense data (REQUEST SENSE)"),
};
const state_table scsi_tstate_state = STATE_TABLE(tstate_decls, scsi_tstate);

/* ---- image ------------------------------------------------------------------ */

scsi_disk *scsi_disk_open(const char *path, bool ro, xerr *err)
{
    int fd = open(path, (ro ? O_RDONLY : O_RDWR) | O_CLOEXEC);
    if (fd < 0) {
        xerr_set(err, "disk image %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
        xerr_set(err, "disk image %s: not a regular file or block device", path);
        close(fd);
        return NULL;
    }
    off_t size = S_ISREG(st.st_mode) ? st.st_size : lseek(fd, 0, SEEK_END);
    if (size <= 0 || size % SCSI_BLOCK) {
        xerr_set(err,
                 "disk image %s: %lld bytes is not a whole number of 512-byte blocks "
                 "(truncate -s to a multiple of 512)",
                 path, (long long)size);
        close(fd);
        return NULL;
    }
    if (flock(fd, (ro ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
        xerr_set(err, "disk image %s is in use by another program (%s)", path,
                 errno == EWOULDBLOCK ? "locked" : strerror(errno));
        close(fd);
        return NULL;
    }
    scsi_disk *d = xcalloc(1, sizeof *d);
    d->path = xstrdup(path);
    d->fd = fd;
    d->ro = ro;
    d->blocks = (uint64_t)size / SCSI_BLOCK;
    return d;
}

void scsi_disk_close(scsi_disk *d)
{
    if (!d)
        return;
    close(d->fd); /* releases the lock */
    free(d->path);
    free(d);
}

void scsi_tstate_reset(scsi_tstate *ts)
{
    memset(ts, 0, sizeof *ts);
    ts->ua = 1;
    ts->wce = 1;
}

const char *scsi_disk_path(const scsi_disk *d) { return d->path; }
uint64_t scsi_disk_blocks(const scsi_disk *d) { return d->blocks; }
bool scsi_disk_readonly(const scsi_disk *d) { return d->ro; }
void scsi_disk_counts(const scsi_disk *d, uint64_t *cmds, uint64_t *rd, uint64_t *wr)
{
    *cmds = d->cmds;
    *rd = d->rd_blocks;
    *wr = d->wr_blocks;
}

/* ---- commands ------------------------------------------------------------ */

static const struct {
    uint8_t op;
    const char *name;
} op_names[] = {
    {0x00, "TEST UNIT READY"},
    {0x03, "REQUEST SENSE"},
    {0x08, "READ(6)"},
    {0x0a, "WRITE(6)"},
    {0x12, "INQUIRY"},
    {0x15, "MODE SELECT(6)"},
    {0x1a, "MODE SENSE(6)"},
    {0x1b, "START STOP UNIT"},
    {0x1e, "PREVENT ALLOW MEDIUM REMOVAL"},
    {0x25, "READ CAPACITY(10)"},
    {0x28, "READ(10)"},
    {0x2a, "WRITE(10)"},
    {0x2f, "VERIFY(10)"},
    {0x35, "SYNCHRONIZE CACHE(10)"},
    {0x55, "MODE SELECT(10)"},
    {0x5a, "MODE SENSE(10)"},
    {0x88, "READ(16)"},
    {0x8a, "WRITE(16)"},
    {0x91, "SYNCHRONIZE CACHE(16)"},
    {0x9e, "SERVICE ACTION IN(16)"},
    {0xa0, "REPORT LUNS"},
};

const char *scsi_op_name(uint8_t op)
{
    for (unsigned i = 0; i < ARRAY_SIZE(op_names); i++)
        if (op_names[i].op == op)
            return op_names[i].name;
    return NULL;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }
static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static void put_be64(uint8_t *p, uint64_t v)
{
    put_be32(p, (uint32_t)(v >> 32));
    put_be32(p + 4, (uint32_t)v);
}

/* The CDB's length by its group code (0 for the vendor-specific groups). */
static unsigned cdb_len_of(uint8_t op)
{
    static const uint8_t len[8] = {6, 10, 10, 0, 16, 12, 0, 0};
    return len[op >> 5];
}

/* Block address and count of a READ or WRITE CDB. */
static bool rw_args(const uint8_t *c, uint64_t *lba, uint32_t *n)
{
    switch (c[0]) {
    case 0x08:
    case 0x0a:
        *lba = (uint32_t)(c[1] & 0x1f) << 16 | (uint32_t)c[2] << 8 | c[3];
        *n = c[4] ? c[4] : 256;
        return true;
    case 0x28:
    case 0x2a:
    case 0x2f:
        *lba = be32(c + 2);
        *n = (uint32_t)c[7] << 8 | c[8];
        return true;
    case 0x88:
    case 0x8a:
        *lba = be64(c + 2);
        *n = be32(c + 10);
        return true;
    default: return false;
    }
}

void scsi_cdb_format(const uint8_t *cdb, unsigned len, strbuf *out)
{
    const char *n = len ? scsi_op_name(cdb[0]) : NULL;
    if (n)
        sb_puts(out, n);
    else
        sb_printf(out, "op 0x%02x", len ? cdb[0] : 0);
    uint64_t lba;
    uint32_t cnt;
    if (len >= cdb_len_of(cdb[0]) && cdb_len_of(cdb[0]) && rw_args(cdb, &lba, &cnt))
        sb_printf(out, " lba %llu blocks %u", (unsigned long long)lba, cnt);
    else if (len >= 6 && (cdb[0] == 0x12 || cdb[0] == 0x1a || cdb[0] == 0x03))
        sb_printf(out, " len %u", cdb[4]);
}

typedef struct cmd {
    scsi_disk *d;
    scsi_tstate *ts;
    const uint8_t *cdb;
    const scsi_xfer *x;
    scsi_result *r;
} cmd;

static void check(cmd *c, uint8_t key, uint8_t asc, uint8_t ascq)
{
    scsi_result *r = c->r;
    r->status = SCSI_CHECK_CONDITION;
    memset(r->sense, 0, sizeof r->sense);
    r->sense[0] = 0x70; /* current error, fixed format */
    r->sense[2] = key;
    r->sense[7] = SCSI_SENSE_LEN - 8;
    r->sense[12] = asc;
    r->sense[13] = ascq;
    memcpy(c->ts->sense, r->sense, sizeof r->sense);
}

static void illegal(cmd *c, uint8_t asc) { check(c, SK_ILLEGAL_REQUEST, asc, 0); }

/* Data in: at most `n` bytes of `buf`, bounded by the initiator's buffer
 * (and by the allocation length the caller already applied). */
static void data_in(cmd *c, const void *buf, uint64_t n)
{
    scsi_result *r = c->r;
    r->wanted = n;
    uint64_t k = n < c->x->len ? n : c->x->len;
    if (k && c->x->move(c->x->ctx, 0, (void *)buf, k, true) != 0) {
        r->dma_error = true;
        return;
    }
    r->moved = k;
}

/* Data out into buf (n bytes wanted); false when fewer came. */
static bool data_out(cmd *c, void *buf, uint64_t n)
{
    scsi_result *r = c->r;
    r->wanted = n;
    r->data_out = true;
    uint64_t k = n < c->x->len ? n : c->x->len;
    if (k && c->x->move(c->x->ctx, 0, buf, k, false) != 0) {
        r->dma_error = true;
        return false;
    }
    r->moved = k;
    return k == n;
}

static void inquiry(cmd *c, unsigned lun)
{
    const uint8_t *cdb = c->cdb;
    unsigned alloc = (unsigned)cdb[3] << 8 | cdb[4];
    uint8_t b[96] = {0};
    if (cdb[1] & 1) { /* EVPD */
        if (lun != 0) {
            b[0] = 0x7f;
        } else if (cdb[2] == 0x00) { /* supported pages */
            b[3] = 2;
            b[4] = 0x00;
            b[5] = 0x80;
        } else if (cdb[2] == 0x80) { /* unit serial number */
            b[1] = 0x80;
            b[3] = 8;
            snprintf((char *)b + 4, 9, "%08llx", (unsigned long long)c->d->blocks);
        } else {
            illegal(c, 0x24);
            return;
        }
        data_in(c, b, alloc < 4u + b[3] ? alloc : 4u + b[3]);
        return;
    }
    if (cdb[2]) {
        illegal(c, 0x24); /* a page code without EVPD */
        return;
    }
    if (lun != 0) {
        b[0] = 0x7f; /* no logical unit here */
    } else {
        b[0] = 0x00; /* direct access */
        b[2] = 0x02; /* SCSI-2 */
        b[3] = 0x02; /* response data format 2 */
        b[7] = 0x00; /* no wide, sync or command queueing */
    }
    b[4] = 36 - 5;
    memcpy(b + 8, "SGI     ", 8);
    memcpy(b + 16, "XBOW DISK       ", 16);
    memcpy(b + 32, "0001", 4);
    data_in(c, b, alloc < 36 ? alloc : 36);
}

/* Mode pages: 08h caching, 0Ah control; buf gets the page, returns its length. */
static unsigned mode_page(cmd *c, unsigned page, unsigned pc, uint8_t *p)
{
    bool changeable = pc == 1;
    switch (page) {
    case 0x08:
        memset(p, 0, 20);
        p[0] = 0x08;
        p[1] = 18;
        if (changeable)
            p[2] = 0x04; /* WCE can be changed */
        else
            p[2] = (uint8_t)(c->ts->wce && pc != 2 ? 0x04 : pc == 2 ? 0x04 : 0);
        return 20;
    case 0x0a:
        memset(p, 0, 12);
        p[0] = 0x0a;
        p[1] = 10;
        return 12;
    default: return 0;
    }
}

static void mode_sense(cmd *c, bool ten)
{
    const uint8_t *cdb = c->cdb;
    bool dbd = cdb[1] & 0x08;
    unsigned page = cdb[2] & 0x3f, pc = cdb[2] >> 6;
    unsigned alloc = ten ? (unsigned)cdb[7] << 8 | cdb[8] : cdb[4];
    if (pc == 3) {
        check(c, SK_ILLEGAL_REQUEST, 0x39, 0); /* SAVING PARAMETERS NOT SUPPORTED */
        return;
    }
    uint8_t b[128] = {0};
    unsigned hdr = ten ? 8 : 4, n = hdr;
    uint8_t wp = c->d->ro ? 0x80 : 0;
    if (!dbd) {
        uint64_t blocks = c->d->blocks > 0xffffffffu ? 0xffffffffu : c->d->blocks;
        put_be32(b + n, (uint32_t)blocks);
        put_be32(b + n + 4, SCSI_BLOCK); /* density 0, block length */
        n += 8;
    }
    if (page == 0x3f) {
        n += mode_page(c, 0x08, pc, b + n);
        n += mode_page(c, 0x0a, pc, b + n);
    } else if (page != 0) {
        unsigned k = mode_page(c, page, pc, b + n);
        if (!k) {
            illegal(c, 0x24);
            return;
        }
        n += k;
    }
    if (ten) {
        b[0] = (uint8_t)((n - 2) >> 8);
        b[1] = (uint8_t)(n - 2);
        b[3] = wp;
        b[7] = dbd ? 0 : 8;
    } else {
        b[0] = (uint8_t)(n - 1);
        b[2] = wp;
        b[3] = dbd ? 0 : 8;
    }
    data_in(c, b, alloc < n ? alloc : n);
}

static void mode_select(cmd *c, bool ten)
{
    const uint8_t *cdb = c->cdb;
    unsigned len = ten ? (unsigned)cdb[7] << 8 | cdb[8] : cdb[4];
    if (len == 0)
        return;
    uint8_t b[256];
    if (len > sizeof b) {
        illegal(c, 0x24);
        return;
    }
    if (!data_out(c, b, len)) {
        if (!c->r->dma_error)
            check(c, SK_ILLEGAL_REQUEST, 0x1a, 0); /* PARAMETER LIST LENGTH ERROR */
        return;
    }
    unsigned hdr = ten ? 8 : 4;
    unsigned bdl = ten ? (unsigned)b[6] << 8 | b[7] : b[3];
    unsigned p = hdr + bdl;
    if (len < hdr || p > len) {
        check(c, SK_ILLEGAL_REQUEST, 0x1a, 0);
        return;
    }
    while (p + 2 <= len) {
        unsigned page = b[p] & 0x3f, plen = b[p + 1];
        if (p + 2 + plen > len) {
            check(c, SK_ILLEGAL_REQUEST, 0x26, 0); /* INVALID FIELD IN PARAMETER LIST */
            return;
        }
        if (page == 0x08 && plen >= 1)
            c->ts->wce = (b[p + 2] & 0x04) != 0;
        else if (page != 0x0a) {
            check(c, SK_ILLEGAL_REQUEST, 0x26, 0);
            return;
        }
        p += 2 + plen;
    }
}

#define IO_CHUNK (256u * 1024u)

static void read_write(cmd *c, bool write)
{
    uint64_t lba;
    uint32_t n;
    rw_args(c->cdb, &lba, &n);
    scsi_disk *d = c->d;
    if (lba > d->blocks || n > d->blocks - lba) {
        illegal(c, 0x21); /* LOGICAL BLOCK ADDRESS OUT OF RANGE */
        return;
    }
    if (write && d->ro) {
        check(c, SK_DATA_PROTECT, 0x27, 0); /* WRITE PROTECTED */
        return;
    }
    scsi_result *r = c->r;
    uint64_t bytes = (uint64_t)n * SCSI_BLOCK;
    r->wanted = bytes;
    r->data_out = write;
    uint64_t avail = bytes < c->x->len ? bytes : c->x->len;
    avail -= avail % SCSI_BLOCK; /* whole blocks only */
    uint8_t *buf = xmalloc(avail < IO_CHUNK ? (avail ? avail : 1) : IO_CHUNK);
    uint64_t done = 0;
    while (done < avail) {
        uint64_t k = avail - done < IO_CHUNK ? avail - done : IO_CHUNK;
        off_t pos = (off_t)((lba * SCSI_BLOCK) + done);
        if (write) {
            if (c->x->move(c->x->ctx, done, buf, k, false) != 0) {
                r->dma_error = true;
                break;
            }
            if (pwrite(d->fd, buf, k, pos) != (ssize_t)k) {
                check(c, SK_MEDIUM_ERROR, 0x0c, 0); /* WRITE ERROR */
                break;
            }
            d->wr_blocks += k / SCSI_BLOCK;
        } else {
            ssize_t got = pread(d->fd, buf, k, pos);
            if (got != (ssize_t)k) {
                check(c, SK_MEDIUM_ERROR, 0x11, 0); /* UNRECOVERED READ ERROR */
                break;
            }
            if (c->x->move(c->x->ctx, done, buf, k, true) != 0) {
                r->dma_error = true;
                break;
            }
            d->rd_blocks += k / SCSI_BLOCK;
        }
        done += k;
    }
    r->moved = done;
    free(buf);
}

static void report_luns(cmd *c)
{
    unsigned alloc = be32(c->cdb + 6);
    if (alloc < 16) {
        illegal(c, 0x24);
        return;
    }
    uint8_t b[16] = {0};
    put_be32(b, 8); /* one LUN: 0 */
    data_in(c, b, sizeof b);
}

static void read_capacity(cmd *c, bool sixteen)
{
    uint8_t b[32] = {0};
    uint64_t last = c->d->blocks - 1;
    if (!sixteen) {
        put_be32(b, last > 0xffffffffu ? 0xffffffffu : (uint32_t)last);
        put_be32(b + 4, SCSI_BLOCK);
        data_in(c, b, 8);
        return;
    }
    unsigned alloc = be32(c->cdb + 10);
    put_be64(b, last);
    put_be32(b + 8, SCSI_BLOCK);
    data_in(c, b, alloc < 32 ? alloc : 32);
}

static void request_sense(cmd *c)
{
    unsigned alloc = c->cdb[4];
    uint8_t b[SCSI_SENSE_LEN];
    memcpy(b, c->ts->sense, sizeof b);
    if (b[0] == 0) { /* nothing to report: NO SENSE */
        memset(b, 0, sizeof b);
        b[0] = 0x70;
        b[7] = SCSI_SENSE_LEN - 8;
    }
    memset(c->ts->sense, 0, sizeof c->ts->sense);
    data_in(c, b, alloc < sizeof b ? alloc : sizeof b);
}

void scsi_disk_exec(scsi_disk *d, scsi_tstate *ts, unsigned lun, const uint8_t *cdb,
                    unsigned cdb_len, const scsi_xfer *x, scsi_result *r)
{
    memset(r, 0, sizeof *r);
    cmd c = {d, ts, cdb, x, r};
    d->cmds++;
    if (cdb_len == 0 || cdb_len < cdb_len_of(cdb[0]) || !cdb_len_of(cdb[0])) {
        illegal(&c, cdb_len && cdb_len_of(cdb[0]) ? 0x24 : 0x20);
        return;
    }
    uint8_t op = cdb[0];
    if (op == 0x12) { /* INQUIRY answers every LUN and never reports a UA */
        inquiry(&c, lun);
        return;
    }
    if (op == 0xa0) {
        report_luns(&c);
        return;
    }
    if (lun != 0) {
        illegal(&c, 0x25); /* LOGICAL UNIT NOT SUPPORTED */
        return;
    }
    if (op == 0x03) {
        if (ts->ua) { /* REQUEST SENSE reports (and clears) the unit attention */
            ts->ua = 0;
            check(&c, SK_UNIT_ATTENTION, 0x29, 0);
            memcpy(ts->sense, r->sense, sizeof r->sense);
            memset(r, 0, sizeof *r);
        }
        request_sense(&c);
        return;
    }
    if (ts->ua) {
        ts->ua = 0;
        check(&c, SK_UNIT_ATTENTION, 0x29, 0); /* POWER ON, RESET, OR BUS DEVICE RESET */
        return;
    }
    bool media = op == 0x08 || op == 0x0a || op == 0x28 || op == 0x2a || op == 0x88 || op == 0x8a ||
                 op == 0x2f || op == 0x35 || op == 0x91 || op == 0x00;
    if (media && ts->stopped) {
        check(&c, SK_NOT_READY, 0x04, 0x02); /* INITIALIZING COMMAND REQUIRED */
        return;
    }
    switch (op) {
    case 0x00: /* TEST UNIT READY */
    case 0x1e: /* PREVENT ALLOW MEDIUM REMOVAL: a fixed disk accepts it */ return;
    case 0x08:
    case 0x28:
    case 0x88: read_write(&c, false); return;
    case 0x0a:
    case 0x2a:
    case 0x8a: read_write(&c, true); return;
    case 0x2f: { /* VERIFY(10): the blocks are always readable */
        uint64_t lba;
        uint32_t n;
        rw_args(cdb, &lba, &n);
        if (lba > d->blocks || n > d->blocks - lba)
            illegal(&c, 0x21);
        return;
    }
    case 0x25: read_capacity(&c, false); return;
    case 0x9e:
        if ((cdb[1] & 0x1f) == 0x10)
            read_capacity(&c, true);
        else
            illegal(&c, 0x24);
        return;
    case 0x1a: mode_sense(&c, false); return;
    case 0x5a: mode_sense(&c, true); return;
    case 0x15: mode_select(&c, false); return;
    case 0x55: mode_select(&c, true); return;
    case 0x35:
    case 0x91:
        if (!d->ro && fdatasync(d->fd) != 0)
            check(&c, SK_MEDIUM_ERROR, 0x0c, 0);
        return;
    case 0x1b: /* START STOP UNIT: START bit; LOEJ on a fixed disk does nothing */
        ts->stopped = !(cdb[4] & 1);
        return;
    default:
        illegal(&c, 0x20); /* INVALID COMMAND OPERATION CODE */
        return;
    }
}
