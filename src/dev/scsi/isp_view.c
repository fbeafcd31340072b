/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ISP1040's views: `info scsi` (controller, queues, targets and their
 * images) and `ring isp0 request|response [N]` (the queues' IOCBs decoded).
 * They read guest memory through the host bridge's peek: no DMA counted,
 * no watchpoint fired. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/scsi/isp_priv.h"


static void segs(const uint8_t *p, unsigned n, bool a64, unsigned count, strbuf *out)
{
    for (unsigned i = 0; i < n && i < count; i++) {
        const uint8_t *q = p + i * (a64 ? 12 : 8);
        uint64_t a = a64 ? (uint64_t)le32(q + 4) << 32 | le32(q) : le32(q);
        sb_printf(out, " [0x%llx+%u]", (unsigned long long)a, le32(q + (a64 ? 8 : 4)));
    }
}

/* One IOCB on one line. */
void isp_iocb_format(const uint8_t *e, strbuf *out)
{
    switch (e[0]) {
    case ISP_ET_COMMAND:
    case ISP_ET_COMMAND_A64: {
        bool a64 = e[0] == ISP_ET_COMMAND_A64;
        unsigned flags = le16(e + 12), n = le16(e + 18), len = le16(e + 10);
        sb_printf(out, "%s h=0x%x t=%u%s l=%u ", a64 ? "cmd64" : "cmd", le32(e + 4), e[9] & 0x7f,
                  e[9] & 0x80 ? "(bus1)" : "", e[8]);
        scsi_cdb_format(e + 20, len <= 12 ? len : 12, out);
        sb_printf(out, " %s entries=%u segs=%u",
                  (flags & ISP_CF_DATA_IN)    ? (flags & ISP_CF_DATA_OUT ? "in+out" : "in")
                  : (flags & ISP_CF_DATA_OUT) ? "out"
                                              : "no-data",
                  e[1], n);
        segs(e + (a64 ? 40 : 32), a64 ? 2 : 4, a64, n, out);
        break;
    }
    case ISP_ET_CONTINUE:
    case ISP_ET_CONTINUE_A64: {
        bool a64 = e[0] == ISP_ET_CONTINUE_A64;
        sb_puts(out, a64 ? "cont64" : "cont");
        segs(e + 4, a64 ? 5 : 7, a64, 7, out);
        break;
    }
    case ISP_ET_STATUS:
        sb_printf(out, "status h=0x%x scsi=0x%02x comp=0x%02x state=0x%04x resid=%u", le32(e + 4),
                  le16(e + 8) & 0xff, le16(e + 10), le16(e + 12), le32(e + 20));
        if ((le16(e + 8) & 0xff) == 0x02 && le16(e + 18) >= 14)
            sb_printf(out, " sense=%x/%02x/%02x", e[32 + 2] & 0xf, e[32 + 12], e[32 + 13]);
        break;
    case ISP_ET_MARKER:
        sb_printf(out, "marker t=%u l=%u modifier=%u", e[9] & 0x7f, e[8], e[10]);
        break;
    default: sb_printf(out, "type 0x%02x h=0x%x", e[0], le32(e + 4)); break;
    }
    if (e[3])
        sb_printf(out, " entry_status=0x%02x%s%s%s", e[3], e[3] & ISP_ES_FULL ? " full" : "",
                  e[3] & ISP_ES_BAD_HEADER ? " bad-header" : "",
                  e[3] & ISP_ES_BAD_PAYLOAD ? " bad-payload" : "");
}

static void entry_line(isp *s, bool req, unsigned i, strbuf *out)
{
    uint64_t base = req ? s->req_base : s->resp_base;
    uint8_t e[ISP_IOCB_SIZE];
    sb_printf(out, "  %3u ", i);
    if (pci_dma_peek(&s->f, base + (uint64_t)i * ISP_IOCB_SIZE, e, sizeof e) != 0) {
        sb_puts(out, "(unreadable)");
    } else {
        isp_iocb_format(e, out);
    }
    if (req) {
        if (i == s->req_out)
            sb_puts(out, "  <- out (firmware)");
        if (i == s->mb_in[4])
            sb_puts(out, "  <- in (host)");
    } else {
        if (i == s->resp_in)
            sb_puts(out, "  <- in (firmware)");
        if (i == s->mb_in[5])
            sb_puts(out, "  <- out (host)");
    }
    sb_putc(out, '\n');
}

static const char *risc_name(unsigned r)
{
    static const char *const n[] = {"held in reset", "running its ROM", "running the firmware",
                                    "paused"};
    return r < ARRAY_SIZE(n) ? n[r] : "?";
}

void isp_show_scsi(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    (void)args;
    (void)ctx;
    isp *s = d->priv;
    sb_printf(out, "  QLogic ISP1040B (PCI %04x:%04x rev %u) in Bridge slot %d, one SCSI bus\n",
              ISP_VENDOR, ISP_DEVICE, ISP_REVISION, s->f.slot);
    sb_printf(out, "  RISC %s", risc_name(s->risc));
    if (s->fw_running)
        sb_printf(out, " (xbow firmware %u.%02u.%02u at 0x%04x, features 0x%x%s)",
                  ISP_FW_VERSION_MAJOR, ISP_FW_VERSION_MINOR, ISP_FW_VERSION_SUB, s->fw_start,
                  s->fw_features, s->fw_features & 1 ? ": fast posting" : "");
    sb_printf(out, "; initiator ID %u, selection timeout %u ms\n", s->initiator_id,
              s->sel_timeout_ms);
    sb_printf(out, "  mailbox commands %llu%s, bus resets %llu, INTA %s, RISC_INT %s\n",
              (unsigned long long)s->mbox_count, s->host_int ? " (one posted)" : "",
              (unsigned long long)s->bus_resets, s->irq ? "high" : "low",
              s->risc_int ? "pending" : "clear");
    if (s->req_len)
        sb_printf(out,
                  "  request queue: %u entries at 0x%llx, host in %u, firmware out %u (%u "
                  "waiting)\n",
                  s->req_len, (unsigned long long)s->req_base, s->mb_in[4], s->req_out,
                  s->mb_in[4] < s->req_len
                      ? (unsigned)(s->mb_in[4] + s->req_len - s->req_out) % s->req_len
                      : 0);
    else
        sb_puts(out, "  request queue: not set up\n");
    if (s->resp_len)
        sb_printf(out, "  response queue: %u entries at 0x%llx, firmware in %u, host out %u\n",
                  s->resp_len, (unsigned long long)s->resp_base, s->resp_in, s->mb_in[5]);
    else
        sb_puts(out, "  response queue: not set up\n");
    if (s->resp_pending) {
        sb_printf(out, "  in progress: request %u -> ", s->resp_index);
        isp_iocb_format(s->resp, out);
        sb_putc(out, '\n');
    }
    if (s->req_len) {
        unsigned n = 4, start = (s->req_out + s->req_len - n) % s->req_len;
        sb_puts(out, "  last requests:\n");
        for (unsigned k = 0; k < n; k++)
            entry_line(s, true, (start + k) % s->req_len, out);
    }
    if (s->resp_len) {
        unsigned n = 4, start = (s->resp_in + s->resp_len - n) % s->resp_len;
        sb_puts(out, "  last responses:\n");
        for (unsigned k = 0; k < n; k++)
            entry_line(s, false, (start + k) % s->resp_len, out);
    }
    unsigned nd = 0;
    for (unsigned t = 0; t < ISP_TARGETS; t++) {
        scsi_disk *dk = s->disks[t];
        if (!dk)
            continue;
        if (!nd++)
            sb_puts(out, "  targets:\n");
        uint64_t cmds, rd, wr, blocks = scsi_disk_blocks(dk);
        scsi_disk_counts(dk, &cmds, &rd, &wr);
        sb_printf(out,
                  "    ID %2u: disk %s, %llu blocks (%.1f MB)%s; %llu commands, %llu blocks "
                  "read, %llu written%s%s\n",
                  t, scsi_disk_path(dk), (unsigned long long)blocks,
                  (double)blocks * SCSI_BLOCK / 1e6, scsi_disk_readonly(dk) ? ", read-only" : "",
                  (unsigned long long)cmds, (unsigned long long)rd, (unsigned long long)wr,
                  s->ts[t].ua ? "; unit attention pending" : "",
                  s->ts[t].stopped ? "; stopped" : "");
    }
    if (!nd)
        sb_puts(out, "  targets: none\n");
}

/* "request" / "req", "response" / "resp": 1, 0; else -1. */
static int queue_of(const char *w)
{
    if (!strcmp(w, "request") || !strcmp(w, "req"))
        return 1;
    if (!strcmp(w, "response") || !strcmp(w, "resp"))
        return 0;
    return -1;
}

/* For watch stall and the TUI: requests waiting while the engine idles;
 * responses the host has not taken. */
int isp_ring_state(device *d, const char *ring, ring_state *st)
{
    isp *s = d->priv;
    int q = queue_of(ring);
    if (q < 0)
        return -1;
    memset(st, 0, sizeof *st);
    st->oldest_index = -1;
    uint64_t now = s->clock->now;
    if (q) {
        uint16_t in = s->mb_in[4];
        st->posted = s->req_len && in < s->req_len && in != s->req_out;
        st->idle = !timer_pending(&s->io_timer);
        st->idle_ticks = st->idle && now > s->active_at ? now - s->active_at : 0;
    } else if (s->resp_len) {
        unsigned out = s->mb_in[5] % s->resp_len;
        st->unreclaimed = (s->resp_in + s->resp_len - out) % s->resp_len;
        if (st->unreclaimed) {
            st->oldest_index = (int)out;
            st->unreclaimed_ticks = now > s->unreclaimed_at ? now - s->unreclaimed_at : 0;
        }
        st->idle = true;
    }
    return 0;
}

void isp_show_ring(device *d, const char *args, view_ctx *ctx, strbuf *out)
{
    isp *s = d->priv;
    char which[32] = "";
    unsigned long long count = 0;
    if (args)
        sscanf(args, "%31s %llu", which, &count);
    int q = queue_of(which);
    if (q < 0) {
        sb_printf(out, "%s has two queues: request and response (not \"%s\")\n", d->name, which);
        return;
    }
    bool req = q == 1;
    unsigned len = req ? s->req_len : s->resp_len;
    if (!len) {
        sb_printf(out, "%s %s queue: not set up (no INIT %s QUEUE yet)\n", d->name,
                  req ? "request" : "response", req ? "REQUEST" : "RESPONSE");
        return;
    }
    sb_printf(out, "%s %s queue: %u entries of 64 bytes at 0x%llx\n", d->name,
              req ? "request" : "response", len,
              (unsigned long long)(req ? s->req_base : s->resp_base));
    unsigned n = count && count < len ? (unsigned)count : len, first = 0;
    if (ctx && ctx->rows) { /* a pane's window: follow the firmware's pointer, or stay */
        n = ctx->rows < len ? ctx->rows : len;
        unsigned pos = req ? s->req_out : s->resp_in;
        /* following: the last entries before the pointer, and the pointer's */
        int f = ctx->follow ? (int)pos - (int)n + (n > 2 ? 1 : 0) : ctx->first;
        if (f > (int)(len - n))
            f = (int)(len - n);
        if (f < 0)
            f = 0;
        first = (unsigned)f;
        ctx->first = f;
        ctx->total = len;
    }
    for (unsigned i = first; i < first + n; i++)
        entry_line(s, req, i, out);
}
