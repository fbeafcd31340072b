/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The capture writer: classic libpcap files (not pcapng), LINKTYPE_ETHERNET,
 * with nanosecond time stamps taken from the virtual clock, so that two runs
 * with the same inputs give byte-identical captures.
 *
 * File layout (every field little-endian, whatever the host):
 *   global header: magic 0xa1b23c4d (the nanosecond variant of 0xa1b2c3d4),
 *                  version 2.4, thiszone 0, sigfigs 0, snaplen, network 1
 *   per frame:     ts_sec, ts_nsec, incl_len, orig_len, then the bytes
 * Virtual time 0 is the epoch (1970-01-01 00:00:00 UTC in readers).
 * Records are buffered; they are written out at most FLUSH_NS of virtual
 * time after they were captured, on net_pcap_flush() and at close. */
#include "core/log.h"
#include "core/outfile.h"
#include "net/backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_SNAPLEN 65535u
#define LINKTYPE_ETHERNET 1u
#define FLUSH_NS 10000000ull /* 10 ms of virtual time */

struct net_pcap {
    FILE *f; /* NULL until the file is handed over (core/outfile.h) */
    outfile *out;
    sched *clock;
    timer flush_timer;
    uint64_t records, bytes;
    bool failed;
    char path[256];
    char buf[1 << 16]; /* stdio buffer (glibc ignores the size without one) */
};

static void pcap_error(net_pcap *pc, const char *what)
{
    if (!pc->failed)
        xlog(LOG_ERROR, "pcap", "%s %s: %s; capture stopped after %llu frames", what, pc->path,
             strerror(errno), (unsigned long long)pc->records);
    pc->failed = true;
}

static void put32(uint8_t *p, uint32_t v) { store_le(p, 4, v); }

static void flush_timer_fn(void *opaque) { net_pcap_flush(opaque); }

/* The file is ours (truncated): write the global header. */
static int pcap_ready(void *ctx, int fd, xerr *err)
{
    net_pcap *pc = ctx;
    pc->f = fdopen(fd, "wb");
    if (!pc->f) {
        close(fd);
        net_fail(err, "pcap", "cannot write %s: %s", pc->path, strerror(errno));
        return -1;
    }
    setvbuf(pc->f, pc->buf, _IOFBF, sizeof pc->buf);
    uint8_t h[24];
    put32(h, PCAP_MAGIC_NS);
    store_le(h + 4, 2, 2);
    store_le(h + 6, 2, 4);
    put32(h + 8, 0);
    put32(h + 12, 0);
    put32(h + 16, PCAP_SNAPLEN);
    put32(h + 20, LINKTYPE_ETHERNET);
    if (fwrite(h, sizeof h, 1, pc->f) != 1 || fflush(pc->f) != 0) {
        net_fail(err, "pcap", "cannot write %s: %s", pc->path, strerror(errno));
        fclose(pc->f);
        pc->f = NULL;
        return -1;
    }
    return 0;
}

net_pcap *net_pcap_open(const char *path, sched *clock, xerr *err)
{
    net_pcap *pc = xcalloc(1, sizeof *pc);
    if (strlen(path) >= sizeof pc->path) {
        free(pc);
        return net_fail(err, "pcap", "file name too long");
    }
    strcpy(pc->path, path);
    pc->clock = clock;
    timer_init(&pc->flush_timer, "pcap-flush", flush_timer_fn, pc);
    xerr why;
    pc->out = outfile_open(path, pcap_ready, pc, &why);
    if (!pc->out) {
        if (!strncmp(why.msg, "pcap: ", 6))
            xerr_set(err, "%s", why.msg);
        else
            net_fail(err, "pcap", "%s", why.msg);
        free(pc);
        return NULL;
    }
    return pc;
}

void net_pcap_write(net_pcap *pc, const uint8_t *frame, size_t len)
{
    if (pc->failed || !pc->f)
        return;
    uint64_t ns = sched_ticks_to_ns(pc->clock, pc->clock->now);
    uint32_t incl = len > PCAP_SNAPLEN ? PCAP_SNAPLEN : (uint32_t)len;
    uint8_t h[16];
    put32(h, (uint32_t)(ns / 1000000000ull));
    put32(h + 4, (uint32_t)(ns % 1000000000ull));
    put32(h + 8, incl);
    put32(h + 12, (uint32_t)len);
    if (fwrite(h, sizeof h, 1, pc->f) != 1 || (incl && fwrite(frame, incl, 1, pc->f) != 1)) {
        pcap_error(pc, "cannot write");
        return;
    }
    pc->records++;
    pc->bytes += len;
    if (!timer_pending(&pc->flush_timer))
        timer_mod(pc->clock, &pc->flush_timer,
                  pc->clock->now + sched_ns_to_ticks(pc->clock, FLUSH_NS));
}

void net_pcap_flush(net_pcap *pc)
{
    timer_del(pc->clock, &pc->flush_timer);
    if (pc->f && !pc->failed && fflush(pc->f) != 0)
        pcap_error(pc, "cannot write");
}

void net_pcap_close(net_pcap *pc)
{
    if (!pc)
        return;
    net_pcap_flush(pc);
    if (pc->f && fclose(pc->f) != 0 && !pc->failed)
        pcap_error(pc, "cannot close");
    outfile_close(pc->out);
    free(pc);
}

void net_pcap_show(net_pcap *pc, strbuf *out)
{
    sb_printf(out, "  capture   %s: %llu frames, %llu bytes%s\n", pc->path,
              (unsigned long long)pc->records, (unsigned long long)pc->bytes,
              pc->failed ? " (stopped after a write error)" : "");
}
