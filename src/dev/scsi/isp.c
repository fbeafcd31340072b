/* SPDX-License-Identifier: GPL-2.0-or-later */
/* QLogic ISP1040B: registers, mailboxes, the modelled firmware and its
 * request/response queues.  See isp.h and docs/storage.md. */
#include "dev/scsi/isp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "dev/scsi/isp_priv.h"

static isp *isp_of(device *d) { return d->priv; }


static uint64_t ns(isp *s, uint64_t n) { return s->clock->now + sched_ns_to_ticks(s->clock, n); }

/* ---- interrupts ------------------------------------------------------------ */

static void update_irq(isp *s)
{
    uint64_t ictrl = DEV_R(s->dev, IR_ICTRL);
    bool level = s->risc_int && (ictrl & ISP_ICTRL_EN_INT) && (ictrl & ISP_ICTRL_EN_RISC);
    if (level == s->irq)
        return;
    s->irq = level;
    EVENT_EMIT(dev_event(s->dev, IEV_IRQ), s->f.initiator, level);
    pci_set_irq(&s->f, 0, level);
}

static void raise_risc_int(isp *s)
{
    s->risc_int = true;
    update_irq(s);
}

/* ---- RISC state ------------------------------------------------------------ */

/* The ROM after a RISC reset and release: product ID in the mailboxes. */
static void rom_ready(isp *s)
{
    s->risc = RISC_ROM;
    s->fw_running = false;
    s->req_len = s->resp_len = 0;
    s->req_out = s->resp_in = 0;
    s->resp_pending = false;
    timer_del(s->clock, &s->io_timer);
    memset(s->mb_out, 0, sizeof s->mb_out);
    s->mb_out[1] = 0x4953; /* "IS" */
    s->mb_out[2] = 0x5020; /* "P " */
    s->mb_out[3] = 0x2020;
    s->mb_out[4] = 0x0001;
}

static void post_async(isp *s, uint16_t code, uint16_t mb1, uint16_t mb2, uint16_t mb6)
{
    s->mb_out[0] = code;
    s->mb_out[1] = mb1;
    s->mb_out[2] = mb2;
    s->mb_out[6] = mb6;
    DEV_R(s->dev, IR_SEMAPHORE) |= 1;
    EVENT_EMIT(dev_event(s->dev, IEV_ASYNC), s->f.initiator, code, mb1, mb2);
    raise_risc_int(s);
}

/* May the firmware use the outgoing mailboxes for an asynchronous event? */
static bool mailbox_free(isp *s)
{
    return !(DEV_R(s->dev, IR_SEMAPHORE) & 1) && !s->host_int && !timer_pending(&s->mbox_timer);
}

/* ---- the request queue ------------------------------------------------- */

static void kick(isp *s, uint64_t delay_ns)
{
    if (!timer_pending(&s->io_timer))
        timer_mod(s->clock, &s->io_timer, ns(s, delay_ns));
}

/* Post the held completion; false if it has to wait (response queue full). */
static bool post_completion(isp *s)
{
    uint8_t *r = s->resp;
    uint32_t handle = le32(r + 4);
    bool plain = r[0] == ISP_ET_STATUS && r[3] == 0 && le16(r + 8) == 0 && le16(r + 10) == 0;
    if ((s->fw_features & 1) && plain && mailbox_free(s)) {
        EVENT_EMIT(dev_event(s->dev, IEV_IOCB_DONE), s->f.initiator, s->resp_index, handle,
                   s->resp_target, 0, 0, 0, true);
        post_async(s, ISP_MBA_FAST_POST, (uint16_t)handle, (uint16_t)(handle >> 16), s->mb_out[6]);
        return true;
    }
    uint16_t host_out = s->mb_in[5];
    if ((s->resp_in + 1) % s->resp_len == host_out % s->resp_len)
        return false; /* full: wait for the host to take entries */
    uint64_t a = s->resp_base + (uint64_t)s->resp_in * ISP_IOCB_SIZE;
    pci_dma_context(&s->f, "isp-status", 1, s->resp_in);
    int rc = pci_dma_write(&s->f, a, r, ISP_IOCB_SIZE, PCI_DMA_WORD);
    pci_dma_context(&s->f, NULL, -1, -1);
    if (rc != PCI_DMA_OK)
        xlog(LOG_WARN, s->dev->name, "response entry %u at 0x%llx: DMA failed", s->resp_in,
             (unsigned long long)a);
    EVENT_EMIT(dev_event(s->dev, IEV_IOCB_DONE), s->f.initiator, s->resp_index, handle,
               s->resp_target, le16(r + 8), le16(r + 10), le32(r + 20), false);
    if (s->resp_in == s->mb_in[5] % s->resp_len)
        s->unreclaimed_at = s->clock->now; /* the oldest the host has not taken */
    s->resp_in = (uint16_t)((s->resp_in + 1) % s->resp_len);
    s->mb_out[5] = s->resp_in;
    raise_risc_int(s);
    return true;
}

/* A response to a request the firmware could not take (bad entry). */
static void refuse(isp *s, const uint8_t *req, uint8_t why)
{
    memset(s->resp, 0, sizeof s->resp);
    s->resp[0] = req[0];
    s->resp[1] = 1;
    s->resp[2] = req[2];
    s->resp[3] = why;
    memcpy(s->resp + 4, req + 4, 4); /* the handle */
    s->resp_target = req[9];
}

static int fetch(isp *s, unsigned index, uint8_t *e)
{
    uint64_t a = s->req_base + (uint64_t)index * ISP_IOCB_SIZE;
    pci_dma_context(&s->f, "isp-request", 0, (int)index);
    int rc = pci_dma_read(&s->f, a, e, ISP_IOCB_SIZE, PCI_DMA_WORD);
    pci_dma_context(&s->f, NULL, -1, -1);
    return rc;
}

/* The data segments of a command and its continuations. */
typedef struct seg {
    uint64_t addr;
    uint32_t len;
} seg;

typedef struct xfer_ctx {
    isp *s;
    seg *segs;
    unsigned nsegs;
} xfer_ctx;

static int move(void *opaque, uint64_t off, void *buf, uint64_t n, bool to_initiator)
{
    xfer_ctx *x = opaque;
    uint8_t *p = buf;
    for (unsigned i = 0; i < x->nsegs && n; i++) {
        if (off >= x->segs[i].len) {
            off -= x->segs[i].len;
            continue;
        }
        uint64_t k = x->segs[i].len - off;
        if (k > n)
            k = n;
        uint64_t a = x->segs[i].addr + off;
        int rc = to_initiator ? pci_dma_write(&x->s->f, a, p, k, PCI_DMA_BULK)
                              : pci_dma_read(&x->s->f, a, p, k, PCI_DMA_BULK);
        if (rc != PCI_DMA_OK)
            return -1;
        p += k;
        n -= k;
        off = 0;
    }
    return n ? -1 : 0;
}

/* Gather the segments of the command at `index`: its own, then those of its
 * continuation entries.  Returns the number, or -1 (a bad continuation). */
static int gather(isp *s, unsigned index, const uint8_t *e, seg *segs, unsigned max)
{
    bool a64 = e[0] == ISP_ET_COMMAND_A64;
    unsigned count = le16(e + 18), n = 0, entries = e[1] ? e[1] : 1;
    if (count > max)
        return -1;
    unsigned first = a64 ? 2 : 4;
    for (unsigned i = 0; i < first && n < count; i++, n++) {
        const uint8_t *p = e + (a64 ? 40 + 12 * i : 32 + 8 * i);
        segs[n].addr = a64 ? (uint64_t)le32(p + 4) << 32 | le32(p) : le32(p);
        segs[n].len = le32(p + (a64 ? 8 : 4));
    }
    for (unsigned c = 1; c < entries; c++) {
        uint8_t ce[ISP_IOCB_SIZE];
        unsigned ci = (index + c) % s->req_len;
        if (fetch(s, ci, ce) != PCI_DMA_OK)
            return -1;
        bool c64 = ce[0] == ISP_ET_CONTINUE_A64;
        if (!c64 && ce[0] != ISP_ET_CONTINUE)
            return -1;
        unsigned per = c64 ? 5 : 7;
        for (unsigned i = 0; i < per && n < count; i++, n++) {
            const uint8_t *p = ce + 4 + (c64 ? 12 * i : 8 * i);
            segs[n].addr = c64 ? (uint64_t)le32(p + 4) << 32 | le32(p) : le32(p);
            segs[n].len = le32(p + (c64 ? 8 : 4));
        }
    }
    return n == count ? (int)n : -1;
}

/* Execute the command IOCB at `index`; the status waits in s->resp.
 * Returns the virtual time it takes. */
static uint64_t command(isp *s, unsigned index, const uint8_t *e)
{
    uint32_t handle = le32(e + 4);
    uint8_t lun = e[8], tgt = e[9];
    unsigned cdb_len = le16(e + 10), flags = le16(e + 12);
    unsigned entries = e[1] ? e[1] : 1;
    memset(s->resp, 0, sizeof s->resp);
    uint8_t *r = s->resp;
    r[0] = ISP_ET_STATUS;
    r[1] = 1;
    r[2] = e[2];
    put32(r + 4, handle);
    s->resp_target = tgt;

    seg *segs = xmalloc(sizeof(seg) * (2 + 7 * (size_t)entries));
    int nsegs = gather(s, index, e, segs, 2 + 7 * entries);
    uint64_t t = ISP_CMD_NS;
    unsigned id = tgt & 0x7f;
    scsi_disk *d = (tgt & 0x80) || id >= ISP_TARGETS ? NULL : s->disks[id];
    uint8_t cdb[12] = {0};
    if (cdb_len <= 12)
        memcpy(cdb, e + 20, cdb_len);
    uint64_t buflen = 0;
    for (int i = 0; i < nsegs; i++)
        buflen += segs[i].len;
    EVENT_EMIT(dev_event(s->dev, IEV_IOCB_FETCH), s->f.initiator, index, e[0], handle, tgt, lun,
               cdb[0], buflen, (flags >> 5) & 3);
    if (nsegs < 0 || cdb_len == 0 || cdb_len > 12 || (entries > 1 && nsegs == 0)) {
        refuse(s, e, ISP_ES_BAD_PAYLOAD);
        free(segs);
        return t;
    }
    if (!d || id == s->initiator_id) { /* selection timeout */
        put16(r + 10, ISP_CS_INCOMPLETE);
        put16(r + 12, ISP_SF_GOT_BUS);
        free(segs);
        return (uint64_t)s->sel_timeout_ms * 1000000u;
    }
    /* The data phase goes in the direction the IOCB allows, else nowhere. */
    uint8_t dir = (flags >> 5) & 3;
    xfer_ctx xc = {s, segs, (unsigned)nsegs};
    scsi_xfer x = {.len = (dir == 1 || dir == 2) ? buflen : 0, .move = move, .ctx = &xc};
    scsi_result res;
    pci_dma_context(&s->f, "isp-data", -1, (int)index);
    scsi_disk_exec(d, &s->ts[id], lun, cdb, cdb_len, &x, &res);
    pci_dma_context(&s->f, NULL, -1, -1);
    bool wrong_dir = res.wanted && ((res.data_out && dir != 2) || (!res.data_out && dir != 1));
    uint16_t state = ISP_SF_GOT_BUS | ISP_SF_GOT_TARGET | ISP_SF_SENT_CDB | ISP_SF_GOT_STATUS;
    uint16_t comp = ISP_CS_COMPLETE;
    uint32_t resid = 0;
    if (res.moved)
        state |= ISP_SF_TRANSFERRED_DATA;
    if (res.dma_error) {
        comp = ISP_CS_DMA;
        state &= (uint16_t)~ISP_SF_GOT_STATUS;
    } else if (wrong_dir || res.wanted > x.len) {
        comp = ISP_CS_DATA_OVERRUN;
    } else if (res.moved < x.len) {
        comp = ISP_CS_DATA_UNDERRUN;
        resid = (uint32_t)(x.len - res.moved);
    } else if (res.moved) {
        state |= ISP_SF_TRANSFER_CMPL;
    }
    uint16_t status = res.status;
    if (res.status == SCSI_CHECK_CONDITION && !res.dma_error) {
        state |= ISP_SF_GOT_SENSE;
        status |= 0x0200; /* sense valid */
        put16(r + 18, SCSI_SENSE_LEN);
        memcpy(r + 32, res.sense, SCSI_SENSE_LEN);
    }
    put16(r + 8, status);
    put16(r + 10, comp);
    put16(r + 12, state);
    put32(r + 20, resid);
    free(segs);
    return t + res.moved * ISP_NS_PER_BYTE;
}

/* The engine: post what is held, then take the next request, if any. */
static void io_run(void *opaque)
{
    isp *s = opaque;
    if (!s->fw_running || !s->req_len || !s->resp_len)
        return;
    s->active_at = s->clock->now;
    if (s->resp_pending) {
        if (!post_completion(s)) {
            kick(s, ISP_CMD_NS); /* the response queue is full: look again later */
            return;
        }
        s->resp_pending = false;
    }
    for (;;) {
        uint16_t in = s->mb_in[4];
        if (in >= s->req_len) {
            xlog(LOG_DEBUG, s->dev->name, "request in-pointer %u outside the queue (%u entries)",
                 in, s->req_len);
            return;
        }
        if (s->req_out == in)
            return;
        uint8_t e[ISP_IOCB_SIZE];
        unsigned index = s->req_out;
        if (fetch(s, index, e) != PCI_DMA_OK) {
            xlog(LOG_WARN, s->dev->name, "request entry %u: DMA failed", index);
            s->req_out = in; /* the firmware gives up on the queue's contents */
            s->mb_out[4] = s->req_out;
            if (mailbox_free(s))
                post_async(s, 0x8003, 0, 0, s->mb_out[6]); /* request transfer error */
            return;
        }
        unsigned entries = e[1] ? e[1] : 1;
        unsigned avail = (in + s->req_len - index) % s->req_len;
        if (e[0] == ISP_ET_MARKER) {
            EVENT_EMIT(dev_event(s->dev, IEV_IOCB_FETCH), s->f.initiator, index, e[0], 0, e[9],
                       e[8], 0, 0, 0);
            s->req_out = (uint16_t)((index + 1) % s->req_len);
            s->mb_out[4] = s->req_out;
            continue; /* markers get no response */
        }
        uint64_t t;
        if (entries > avail) {
            refuse(s, e, ISP_ES_BAD_HEADER); /* continuations the host never posted */
            entries = avail;
            t = ISP_FETCH_NS;
        } else if (e[0] == ISP_ET_COMMAND || e[0] == ISP_ET_COMMAND_A64) {
            t = command(s, index, e);
        } else {
            refuse(s, e, ISP_ES_BAD_HEADER);
            entries = 1;
            t = ISP_FETCH_NS;
        }
        s->resp_index = (uint16_t)index;
        s->req_out = (uint16_t)((index + entries) % s->req_len);
        s->mb_out[4] = s->req_out;
        s->resp_pending = true;
        timer_mod(s->clock, &s->io_timer, ns(s, t));
        return;
    }
}

/* ---- mailbox commands ---------------------------------------------------- */

/* Check the image in RAM at `start`: xbow's magic, its length and a zero
 * sum.  Returns the sum (0 when good) in *sum. */
static bool image_ok(isp *s, uint16_t start, uint16_t *sum)
{
    static const char magic[] = ISP_FW_MAGIC;
    uint16_t acc = 0;
    bool ok = true;
    for (unsigned i = 0; i < 8; i++) {
        uint16_t w = s->ram[(uint16_t)(start + i)];
        if ((uint8_t)w != (uint8_t)magic[2 * i] || (uint8_t)(w >> 8) != (uint8_t)magic[2 * i + 1])
            ok = false;
    }
    unsigned n = s->ram[(uint16_t)(start + 8)];
    if (n < ISP_FW_WORDS || n > 0x1000)
        ok = false, n = ISP_FW_WORDS;
    for (unsigned i = 0; i < n; i++)
        acc = (uint16_t)(acc + s->ram[(uint16_t)(start + i)]);
    *sum = acc;
    return ok && acc == 0;
}

static uint64_t mb_addr(const uint16_t *mb)
{
    return (uint64_t)mb[6] << 48 | (uint64_t)mb[7] << 32 | (uint64_t)mb[2] << 16 | mb[3];
}

/* INIT REQUEST/RESPONSE QUEUE (and their A64 forms): length in mailbox 1,
 * the address in 2-3 (or 2-3 and 6-7), the firmware's own index in mailbox
 * `slot` (4: request out, 5: response in), returned in the same mailbox. */
static uint16_t init_queue(const uint16_t *mb, uint16_t *out, bool a64, unsigned slot,
                           uint64_t *base, uint16_t *len, uint16_t *index)
{
    if (mb[1] < 2 || mb[slot] >= mb[1])
        return ISP_MBS_PARAM_ERR;
    *base = a64 ? mb_addr(mb) : (uint64_t)mb[2] << 16 | mb[3];
    *len = mb[1];
    *index = mb[slot];
    out[slot] = *index;
    return ISP_MBS_OK;
}

/* Abort what is held for target `t` (all targets: -1) with `comp`. */
static void end_held(isp *s, int t, uint16_t comp)
{
    if (!s->resp_pending || s->resp[0] != ISP_ET_STATUS)
        return;
    if (t >= 0 && (s->resp_target & 0x7f) != t)
        return;
    put16(s->resp + 8, 0);
    put16(s->resp + 10, comp);
    put16(s->resp + 18, 0);
}

static uint16_t ram_dma(isp *s, const uint16_t *mb, uint64_t addr, bool load)
{
    uint16_t start = mb[1], n = mb[4];
    uint8_t *buf = xmalloc((size_t)n * 2 + 1);
    int rc = PCI_DMA_OK;
    pci_dma_context(&s->f, load ? "isp-ram-load" : "isp-ram-dump", -1, -1);
    if (load) {
        rc = pci_dma_read(&s->f, addr, buf, (uint64_t)n * 2, PCI_DMA_BULK);
        for (unsigned i = 0; rc == PCI_DMA_OK && i < n; i++)
            s->ram[(uint16_t)(start + i)] = le16(buf + 2 * i);
    } else {
        for (unsigned i = 0; i < n; i++)
            put16(buf + 2 * i, s->ram[(uint16_t)(start + i)]);
        rc = pci_dma_write(&s->f, addr, buf, (uint64_t)n * 2, PCI_DMA_BULK);
    }
    pci_dma_context(&s->f, NULL, -1, -1);
    free(buf);
    return rc == PCI_DMA_OK ? ISP_MBS_OK : ISP_MBS_HOST_IF_ERR;
}

/* Run one mailbox command: mb is the incoming set, out the outgoing. */
static uint16_t mailbox(isp *s, const uint16_t *mb, uint16_t *out)
{
    uint16_t cmd = mb[0];
    bool rom_cmd = cmd <= ISP_MBC_DUMP_RAM_A64;
    if (!rom_cmd && !s->fw_running)
        return ISP_MBS_INVALID;
    switch (cmd) {
    case ISP_MBC_NOP: return ISP_MBS_OK;
    case ISP_MBC_REGISTER_TEST:
        for (int i = 1; i < 8; i++)
            out[i] = mb[i];
        return ISP_MBS_OK;
    case ISP_MBC_WRITE_RAM_WORD: s->ram[mb[1]] = mb[2]; return ISP_MBS_OK;
    case ISP_MBC_READ_RAM_WORD: out[2] = s->ram[mb[1]]; return ISP_MBS_OK;
    case ISP_MBC_LOAD_RAM:
    case ISP_MBC_DUMP_RAM:
        return ram_dma(s, mb, (uint64_t)mb[2] << 16 | mb[3], cmd == ISP_MBC_LOAD_RAM);
    case ISP_MBC_LOAD_RAM_A64:
    case ISP_MBC_DUMP_RAM_A64: return ram_dma(s, mb, mb_addr(mb), cmd == ISP_MBC_LOAD_RAM_A64);
    case ISP_MBC_VERIFY_CHECKSUM: {
        uint16_t sum;
        if (image_ok(s, mb[1], &sum))
            return ISP_MBS_OK;
        out[1] = sum;
        xlog(LOG_WARN, s->dev->name,
             "VERIFY CHECKSUM at 0x%04x: not xbow's firmware image (sum 0x%04x); "
             "see docs/storage.md, \"Firmware\"",
             mb[1], sum);
        return ISP_MBS_ERROR;
    }
    case ISP_MBC_EXECUTE_FIRMWARE: {
        uint16_t sum;
        if (!image_ok(s, mb[1], &sum)) {
            xlog(LOG_WARN, s->dev->name,
                 "EXECUTE FIRMWARE at 0x%04x: no valid image there; the RISC stays in its ROM",
                 mb[1]);
            return ISP_MBS_ERROR;
        }
        s->risc = RISC_RUNNING;
        s->fw_running = true;
        s->fw_start = mb[1];
        return ISP_MBS_OK;
    }
    case ISP_MBC_ABOUT_FIRMWARE:
        out[1] = s->fw_running ? ISP_FW_VERSION_MAJOR : 0;
        out[2] = s->fw_running ? ISP_FW_VERSION_MINOR : 0;
        out[3] = s->fw_running ? ISP_FW_VERSION_SUB : 0;
        return ISP_MBS_OK;
    case ISP_MBC_INIT_REQUEST_QUEUE:
    case ISP_MBC_INIT_REQUEST_QUEUE_A64:
        return init_queue(mb, out, cmd == ISP_MBC_INIT_REQUEST_QUEUE_A64, 4, &s->req_base,
                          &s->req_len, &s->req_out);
    case ISP_MBC_INIT_RESPONSE_QUEUE:
    case ISP_MBC_INIT_RESPONSE_QUEUE_A64:
        return init_queue(mb, out, cmd == ISP_MBC_INIT_RESPONSE_QUEUE_A64, 5, &s->resp_base,
                          &s->resp_len, &s->resp_in);
    case ISP_MBC_ABORT_COMMAND: {
        uint32_t h = (uint32_t)mb[2] << 16 | mb[3];
        if (!s->resp_pending || le32(s->resp + 4) != h || s->resp[0] != ISP_ET_STATUS)
            return ISP_MBS_ERROR; /* not in the firmware's hands (done already) */
        end_held(s, -1, ISP_CS_ABORTED);
        return ISP_MBS_OK;
    }
    case ISP_MBC_ABORT_DEVICE:
    case ISP_MBC_ABORT_TARGET: {
        unsigned t = (mb[1] >> 8) & 0x7f;
        if (t >= ISP_TARGETS)
            return ISP_MBS_PARAM_ERR;
        end_held(s, (int)t, ISP_CS_ABORTED);
        if (cmd == ISP_MBC_ABORT_TARGET && s->disks[t])
            s->ts[t].ua = 1; /* a bus device reset */
        return ISP_MBS_OK;
    }
    case ISP_MBC_BUS_RESET:
        if (mb[2] > 0)
            return ISP_MBS_PARAM_ERR; /* the 1040 has one bus */
        end_held(s, -1, ISP_CS_RESET);
        for (unsigned t = 0; t < ISP_TARGETS; t++)
            scsi_tstate_reset(&s->ts[t]);
        s->bus_resets++;
        return ISP_MBS_OK;
    case ISP_MBC_GET_TARGET_PARAMS: {
        unsigned t = (mb[1] >> 8) & 0x7f;
        if (t >= ISP_TARGETS)
            return ISP_MBS_PARAM_ERR;
        out[1] = mb[1];
        out[2] = s->tparams[t];
        out[3] = 0; /* asynchronous: the targets do not negotiate (INQUIRY byte 7) */
        out[6] = 0;
        return ISP_MBS_OK;
    }
    case ISP_MBC_SET_TARGET_PARAMS: {
        unsigned t = (mb[1] >> 8) & 0x7f;
        if (t >= ISP_TARGETS)
            return ISP_MBS_PARAM_ERR;
        s->tparams[t] = mb[2];
        out[1] = mb[1];
        out[2] = mb[2];
        out[3] = mb[3];
        return ISP_MBS_OK;
    }
    case ISP_MBC_SET_DEVICE_QUEUE:
        if (((mb[1] >> 8) & 0x7f) >= ISP_TARGETS)
            return ISP_MBS_PARAM_ERR;
        return ISP_MBS_OK;
    case ISP_MBC_SET_INITIATOR_ID:
        if (mb[1] >= ISP_TARGETS)
            return ISP_MBS_PARAM_ERR;
        s->initiator_id = (uint8_t)mb[1];
        out[1] = mb[1];
        return ISP_MBS_OK;
    case ISP_MBC_SET_SELECTION_TIMEOUT:
        s->sel_timeout_ms = mb[1] ? mb[1] : 250;
        out[1] = mb[1];
        out[2] = mb[2];
        return ISP_MBS_OK;
    case ISP_MBC_SET_FIRMWARE_FEATURES:
        s->fw_features = mb[1];
        out[1] = mb[1];
        return ISP_MBS_OK;
    case 0x22: /* get retry count */
    case 0x32: /* set retry count */
    case 0x33: /* tag age limit */
    case 0x34: /* clock rate */
    case 0x35: /* active negation */
    case 0x36: /* async data setup time */
    case 0x37: /* PCI control */
    case 0x3a: /* reset delay */
    case 0x45: /* system parameter */
    case 0x5a: /* data overrun recovery */
        for (int i = 1; i < 4; i++)
            out[i] = mb[i];
        return ISP_MBS_OK;
    default: return ISP_MBS_INVALID;
    }
}

static void mbox_run(void *opaque)
{
    isp *s = opaque;
    if (!s->host_int || (s->risc != RISC_ROM && s->risc != RISC_RUNNING))
        return; /* cleared meanwhile, or the RISC is held: it runs on release */
    s->host_int = false;
    uint16_t out[8];
    memcpy(out, s->mb_out, sizeof out);
    EVENT_EMIT(dev_event(s->dev, IEV_MBOX_CMD), s->f.initiator, s->mb_in[0], s->mb_in[1],
               s->mb_in[2], s->mb_in[3]);
    out[0] = mailbox(s, s->mb_in, out);
    if (s->fw_running && s->req_len && s->mb_in[0] != ISP_MBC_REGISTER_TEST) {
        out[4] = s->req_out; /* the queue pointers stay live */
        out[5] = s->resp_in;
    }
    memcpy(s->mb_out, out, sizeof out);
    s->mbox_count++;
    DEV_R(s->dev, IR_SEMAPHORE) |= 1;
    EVENT_EMIT(dev_event(s->dev, IEV_MBOX_DONE), s->f.initiator, s->mb_in[0], out[0], out[1],
               out[2]);
    raise_risc_int(s);
    if (s->fw_running && s->req_len)
        kick(s, ISP_FETCH_NS); /* requests posted meanwhile */
}

/* ---- registers -------------------------------------------------------------- */

static void soft_reset(isp *s)
{
    timer_del(s->clock, &s->mbox_timer);
    timer_del(s->clock, &s->io_timer);
    s->host_int = false;
    s->risc_int = false;
    s->risc = RISC_HELD;
    s->fw_running = false;
    s->req_len = s->resp_len = 0;
    s->req_out = s->resp_in = 0;
    s->resp_pending = false;
    memset(s->mb_in, 0, sizeof s->mb_in);
    memset(s->mb_out, 0, sizeof s->mb_out);
    s->mb_out[0] = ISP_MBS_BUSY;
    DEV_R(s->dev, IR_SEMAPHORE) = 0;
    DEV_R(s->dev, IR_ICTRL) = 0; /* the reset bit clears itself */
    DEV_R(s->dev, IR_CFG_1) = 0;
    update_irq(s);
}

static void w_ictrl(device *d, const reg_access *a)
{
    isp *s = isp_of(d);
    if (a->val & ISP_ICTRL_RESET) {
        soft_reset(s);
        return;
    }
    update_irq(s);
}

static uint64_t r_istatus(device *d, const reg_access *a)
{
    isp *s = isp_of(d);
    return (s->risc_int ? ISP_IST_RISC_INT : 0) | (s->irq ? ISP_IST_PCI_INT : 0);
}

static uint64_t r_mailbox(device *d, const reg_access *a) { return isp_of(d)->mb_out[a->idx]; }

static void w_mailbox(device *d, const reg_access *a)
{
    isp *s = isp_of(d);
    s->mb_in[a->idx] = (uint16_t)a->val;
    if (a->idx == 4 && s->fw_running && s->req_len)
        kick(s, ISP_FETCH_NS); /* new requests */
    else if (a->idx == 5) {
        s->unreclaimed_at = s->clock->now; /* (the next one's age is not kept) */
        if (s->resp_pending && s->fw_running)
            kick(s, ISP_FETCH_NS); /* room in the response queue */
    }
}

static uint64_t r_hccr(device *d, const reg_access *a)
{
    isp *s = isp_of(d);
    return (s->host_int ? ISP_HCCR_HOST_INT : 0) | (s->risc == RISC_PAUSED ? 0x20 : 0) |
           (s->risc == RISC_HELD ? 0x40 : 0);
}

static void w_hccr(device *d, const reg_access *a)
{
    isp *s = isp_of(d);
    switch ((a->val >> 12) & 0xf) {
    case ISP_HC_RESET_RISC:
        rom_ready(s);
        s->risc = RISC_HELD;
        s->mb_out[0] = ISP_MBS_BUSY;
        break;
    case ISP_HC_LINUX_RESET: rom_ready(s); break;
    case ISP_HC_PAUSE_RISC:
        if (s->risc != RISC_HELD)
            s->risc = RISC_PAUSED;
        break;
    case ISP_HC_RELEASE_RISC:
        if (s->risc == RISC_HELD)
            rom_ready(s);
        else if (s->risc == RISC_PAUSED)
            s->risc = s->fw_running ? RISC_RUNNING : RISC_ROM;
        if (s->host_int && !timer_pending(&s->mbox_timer))
            timer_mod(s->clock, &s->mbox_timer, ns(s, ISP_MBOX_NS));
        if (s->fw_running && s->req_len)
            kick(s, ISP_FETCH_NS);
        break;
    case ISP_HC_SET_HOST_INT:
        s->host_int = true;
        timer_mod(s->clock, &s->mbox_timer, ns(s, ISP_MBOX_NS));
        break;
    case ISP_HC_CLR_HOST_INT: s->host_int = false; break;
    case ISP_HC_CLR_RISC_INT:
        s->risc_int = false;
        update_irq(s);
        if (s->resp_pending && s->fw_running)
            kick(s, ISP_FETCH_NS); /* a fast post may have waited for the mailboxes */
        break;
    default: /* disable BIOS, single step, breakpoints: nothing to model */ break;
    }
}

static void w_semaphore(device *d, const reg_access *a)
{
    isp *s = isp_of(d);
    if (s->resp_pending && s->fw_running && !(a->val & 1))
        kick(s, ISP_FETCH_NS);
}

static const char *const hccr_cmds[] = {
    "none",     "reset",    "pause",     "release",  "step", "set-host",
    "clr-host", "clr-risc", "bp-enable", "bios-off", "10",   "reset+release",
    "12",       "13",       "14",        "15",       NULL};
static const reg_field f_hccr[] = {{"CMD", 12, 4, hccr_cmds},
                                   {"HOST_INT", 7, 1, NULL},
                                   {"HELD", 6, 1, NULL},
                                   {"PAUSED", 5, 1, NULL}};
static const reg_field f_ictrl[] = {
    {"EN_RISC", 2, 1, NULL}, {"EN_INT", 1, 1, NULL}, {"RESET", 0, 1, NULL}};
static const reg_field f_istatus[] = {{"RISC_INT", 2, 1, NULL}, {"PCI_INT", 1, 1, NULL}};
static const reg_field f_cfg1[] = {
    {"FIFO", 4, 3, NULL}, {"BURST", 2, 1, NULL}, {"SXP", 0, 1, NULL}};

/* clang-format off */
static const reg_decl isp_regs[] = {
    [IR_ID_L] = {.name = "ID_L", .offset = ISP_ID_L, .width = 2, .rules = R_RO,
                 .reset = ISP_VENDOR, .desc = "ID low"},
    [IR_ID_H] = {.name = "ID_H", .offset = ISP_ID_H, .width = 2, .rules = R_RO,
                 .reset = ISP_DEVICE, .desc = "ID high"},
    [IR_CFG_0] = {.name = "CFG_0", .offset = ISP_CFG_0, .width = 2, .rules = R_RO,
                  .reset = ISP_REVISION, .desc = "chip revision (5: ISP1040B)"},
    [IR_CFG_1] = {.name = "CFG_1", .offset = ISP_CFG_1, .width = 2, REG_FIELDS(f_cfg1),
                  .desc = "bus configuration: burst, FIFO threshold"},
    [IR_ICTRL] = {.name = "ICTRL", .offset = ISP_ICTRL, .width = 2, .wmask = 0x0307,
                  REG_FIELDS(f_ictrl), .write = w_ictrl,
                  .desc = "interface control: soft reset, interrupt enables"},
    [IR_ISTATUS] = {.name = "ISTATUS", .offset = ISP_ISTATUS, .width = 2,
                    .rules = R_RO | R_NOSTORE | R_PURE, REG_FIELDS(f_istatus), .read = r_istatus,
                    .desc = "interrupt status"},
    [IR_SEMAPHORE] = {.name = "SEMAPHORE", .offset = ISP_SEMAPHORE, .width = 2, .wmask = 1,
                      .write = w_semaphore,
                      .desc = "bit 0: the RISC posted mailbox status (host writes 0)"},
    [IR_NVRAM] = {.name = "NVRAM", .offset = ISP_NVRAM, .width = 2, .wmask = 0x7,
                  .desc = "NVRAM bit-bang lines (no NVRAM fitted: data in reads 0)"},
    [IR_FLASH_DATA] = {.name = "FLASH_DATA", .offset = 0x10, .width = 2,
                       .desc = "flash BIOS data (no flash)"},
    [IR_FLASH_ADDR] = {.name = "FLASH_ADDR", .offset = 0x12, .width = 2,
                       .desc = "flash BIOS address"},
    [IR_CDMA_CFG] = {.name = "CDMA_CFG", .offset = 0x20, .width = 2,
                     .desc = "command DMA configuration"},
    [IR_CDMA_CTRL] = {.name = "CDMA_CTRL", .offset = 0x22, .width = 2,
                      .desc = "command DMA control"},
    [IR_DDMA_CFG] = {.name = "DDMA_CFG", .offset = 0x40, .width = 2,
                     .desc = "data DMA configuration"},
    [IR_DDMA_CTRL] = {.name = "DDMA_CTRL", .offset = 0x42, .width = 2,
                      .desc = "data DMA control"},
    [IR_MAILBOX] = {.name = "MAILBOX", .offset = ISP_MAILBOX(0), .width = 2, .count = 8,
                    .stride = 2, .rules = R_NOSTORE | R_PURE, .read = r_mailbox,
                    .write = w_mailbox,
                    .desc = "mailboxes: writes go to the RISC, reads come from it"},
    [IR_HCCR] = {.name = "HCCR", .offset = ISP_HCCR, .width = 2, .rules = R_NOSTORE | R_PURE,
                 REG_FIELDS(f_hccr), .read = r_hccr, .write = w_hccr,
                 .desc = "host command and control (bits 15:12 a command)"},
    [IR_GPIO_DATA] = {.name = "GPIO_DATA", .offset = 0xcc, .width = 2, .desc = "GPIO data"},
    [IR_GPIO_ENABLE] = {.name = "GPIO_ENABLE", .offset = 0xce, .width = 2,
                        .desc = "GPIO direction"},
    [IR_PINS] = {.name = "SCSI_PINS", .offset = 0xf2, .width = 2, .rules = R_RO,
                 .desc = "SCSI control pins (bus free: 0)"},
};
/* clang-format on */
DEV_REGS_CHECK(isp_regs, IR_NREGS);

static const event_field ev_mbox_cmd[] = {{"cmd", EVF_HEX, NULL, NULL},
                                          {"mb1", EVF_HEX, NULL, NULL},
                                          {"mb2", EVF_HEX, NULL, NULL},
                                          {"mb3", EVF_HEX, NULL, NULL}};
static const event_field ev_mbox_done[] = {{"cmd", EVF_HEX, NULL, NULL},
                                           {"status", EVF_HEX, NULL, NULL},
                                           {"mb1", EVF_HEX, NULL, NULL},
                                           {"mb2", EVF_HEX, NULL, NULL}};
static const char *const dir_names[] = {"none", "in", "out", "both", NULL};
static const event_field ev_fetch[] = {
    {"index", EVF_DEC, NULL, NULL},  {"type", EVF_HEX, NULL, NULL},
    {"handle", EVF_HEX, NULL, NULL}, {"target", EVF_DEC, NULL, NULL},
    {"lun", EVF_DEC, NULL, NULL},    {"op", EVF_HEX, NULL, NULL},
    {"len", EVF_DEC, NULL, NULL},    {"dir", EVF_ENUM, dir_names, NULL}};
static const event_field ev_done[] = {
    {"index", EVF_DEC, NULL, NULL},  {"handle", EVF_HEX, NULL, NULL},
    {"target", EVF_DEC, NULL, NULL}, {"scsi_status", EVF_HEX, NULL, NULL},
    {"comp", EVF_HEX, NULL, NULL},   {"resid", EVF_DEC, NULL, NULL},
    {"fast", EVF_BOOL, NULL, NULL}};
static const event_field ev_async[] = {
    {"code", EVF_HEX, NULL, NULL}, {"mb1", EVF_HEX, NULL, NULL}, {"mb2", EVF_HEX, NULL, NULL}};
static const event_field ev_irq[] = {{"level", EVF_BOOL, NULL, NULL}};
static const event_decl isp_events[IEV_COUNT] = {
    [IEV_MBOX_CMD] = {"mbox.cmd", "the RISC took a mailbox command", ev_mbox_cmd,
                      ARRAY_SIZE(ev_mbox_cmd)},
    [IEV_MBOX_DONE] = {"mbox.done", "a mailbox command finished (status in mailbox 0)",
                       ev_mbox_done, ARRAY_SIZE(ev_mbox_done)},
    [IEV_IOCB_FETCH] = {"iocb.fetch", "the firmware read a request IOCB", ev_fetch,
                        ARRAY_SIZE(ev_fetch)},
    [IEV_IOCB_DONE] = {"iocb.done",
                       "a command completed: status IOCB written or completion fast-posted",
                       ev_done, ARRAY_SIZE(ev_done)},
    [IEV_ASYNC] = {"async", "an asynchronous event in the mailboxes", ev_async,
                   ARRAY_SIZE(ev_async)},
    [IEV_IRQ] = {"irq", "INTA raised or lowered", ev_irq, ARRAY_SIZE(ev_irq)},
};

static void hw_reset(isp *s)
{
    timer_del(s->clock, &s->mbox_timer);
    timer_del(s->clock, &s->io_timer);
    for (unsigned i = 0; i < IR_NREGS; i++)
        for (unsigned k = 0; k < (isp_regs[i].count ? isp_regs[i].count : 1u); k++)
            if (!(isp_regs[i].rules & R_NOSTORE))
                *dev_rv(s->dev, i, k) = isp_regs[i].reset;
    memset(s->ram, 0, sizeof s->ram);
    s->irq = false;
    soft_reset(s);
    s->initiator_id = 7;
    s->sel_timeout_ms = 250;
    s->fw_features = 0;
    s->fw_start = 0;
    memset(s->tparams, 0, sizeof s->tparams);
    for (unsigned t = 0; t < ISP_TARGETS; t++)
        scsi_tstate_reset(&s->ts[t]);
    s->mbox_count = s->bus_resets = 0;
    s->active_at = s->unreclaimed_at = 0;
    s->resp_index = 0;
    s->resp_target = 0;
    memset(s->resp, 0, sizeof s->resp);
    s->req_base = s->resp_base = 0;
    rom_ready(s); /* power on: the ROM runs */
}

static void dev_reset(device *d) { pci_func_reset(&isp_of(d)->f); }

static const state_decl isp_state[] = {
    STATE_PART(isp, f, pci_func_state, "its PCI configuration header and INTA"),
    STATE_WIRING(isp, dev, "the register block: isp_new"),
    STATE_WIRING(isp, clock, "the machine's clock"),
    STATE_WIRING(isp, disks, "the disks of --disk (the images are not saved)"),
    STATE_TIMER(isp, mbox_timer, "the mailbox command in progress completes"),
    STATE_TIMER(isp, io_timer, "the request engine's next step"),
    STATE_INTS(isp, mb_in, "incoming mailboxes (written by the host)"),
    STATE_INTS(isp, mb_out, "outgoing mailboxes (read by the host)"),
    STATE_BOOL(isp, host_int, "HCCR host interrupt: a mailbox command is posted"),
    STATE_BOOL(isp, risc_int, "RISC interrupt pending"),
    STATE_LINE(isp, irq, "INTA as driven"),
    STATE_INT(isp, risc, "RISC state (held, ROM, running, paused)"),
    STATE_BOOL(isp, fw_running, "the modelled firmware runs"),
    STATE_INT(isp, fw_start, "where the firmware was started"),
    STATE_INT(isp, fw_features, "firmware feature word (bit 0: fast posting)"),
    STATE_INT(isp, initiator_id, "the adapter's own SCSI ID"),
    STATE_INT(isp, sel_timeout_ms, "selection timeout"),
    STATE_INTS(isp, tparams, "target parameters (SET TARGET PARAMETERS mailbox 2)"),
    STATE_PARTS(isp, ts, scsi_tstate_state, "each target's unit attention, mode and sense"),
    STATE_INT(isp, req_base, "request queue address"),
    STATE_INT(isp, req_len, "request queue entries (0: not set up)"),
    STATE_INT(isp, req_out, "request queue out-pointer (next entry to fetch)"),
    STATE_INT(isp, resp_base, "response queue address"),
    STATE_INT(isp, resp_len, "response queue entries (0: not set up)"),
    STATE_INT(isp, resp_in, "response queue in-pointer (next entry to write)"),
    STATE_BOOL(isp, resp_pending, "a completion waits to be posted"),
    STATE_BYTES(isp, resp, "the response entry that waits"),
    STATE_INT(isp, resp_index, "the request index it answers"),
    STATE_INT(isp, resp_target, "its target byte"),
    STATE_INT(isp, mbox_count, "mailbox commands run"),
    STATE_INT(isp, bus_resets, "SCSI bus resets"),
    STATE_INT(isp, active_at, "when the request engine last worked (watch stall)"),
    STATE_INT(isp, unreclaimed_at, "when the oldest untaken response was posted"),
    STATE_BYTES(isp, ram, "RISC RAM (the loaded firmware image)"),
};

static const dev_view isp_views[] = {
    {"scsi", "controller, queues, targets (info scsi)", isp_show_scsi},
    {"ring", "request or response queue decoded (ring isp0 request)", isp_show_ring},
};

static const device_class isp_class = {
    .name = "isp1040",
    .desc = "QLogic ISP1040B SCSI host adapter",
    DEV_REGS(isp_regs),
    .reg_space = ISP_IO_SIZE,
    .little_endian = true,
    DEV_EVENTS(isp_events),
    DEV_VIEWS(isp_views),
    .ring_state = isp_ring_state,
    DEV_STATE(isp_state, isp),
    .reset = dev_reset,
};

static int bar_check(unsigned bar, uint64_t off, unsigned size)
{
    if (bar > 1 || off + size > (bar == 0 ? ISP_IO_SIZE : ISP_MEM_SIZE))
        return -1;
    return 0;
}

static int bar_read(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t *val)
{
    if (bar_check(bar, off, size))
        return BUS_ERROR;
    if (off >= ISP_IO_SIZE) { /* the rest of the 4 KB window decodes nothing */
        *val = 0;
        return BUS_OK;
    }
    return pci_func_reg_access(f, who, off, size, val, false);
}

static int bar_write(pci_func *f, int who, unsigned bar, uint64_t off, unsigned size, uint64_t val)
{
    if (bar_check(bar, off, size))
        return BUS_ERROR;
    if (off >= ISP_IO_SIZE)
        return BUS_OK;
    return pci_func_reg_access(f, who, off, size, &val, true);
}

static void pci_reset(pci_func *f) { hw_reset(f->opaque); }

static void pci_show(pci_func *f, strbuf *out)
{
    isp *s = f->opaque;
    unsigned n = 0;
    for (unsigned t = 0; t < ISP_TARGETS; t++)
        n += s->disks[t] != NULL;
    sb_printf(out, "    SCSI: %u disk%s; firmware %s\n", n, n == 1 ? "" : "s",
              s->fw_running ? "running" : "not started");
}

static const pci_func_ops isp_ops = {
    .bar_read = bar_read, .bar_write = bar_write, .reset = pci_reset, .show = pci_show};

isp *isp_new(const char *name, event_bus *eb, sched *clock)
{
    isp *s = xcalloc(1, sizeof *s);
    s->clock = clock;
    pci_func_init(&s->f, name, &isp_ops, s);
    s->f.vendor_id = ISP_VENDOR;
    s->f.device_id = ISP_DEVICE;
    s->f.subsys_vendor = ISP_VENDOR; /* not AMI: qla1280 skips AMI boards */
    s->f.subsys_id = 0x0001;
    s->f.class_code = 0x010000; /* mass storage, SCSI */
    s->f.revision = ISP_REVISION;
    s->f.int_pin = 1;
    s->f.bars[0] = (pci_bar){ISP_IO_SIZE, PCI_BAR_IO};
    s->f.bars[1] = (pci_bar){ISP_MEM_SIZE, PCI_BAR_MEM};
    s->dev = device_new(&isp_class, name, s, eb, clock);
    s->f.dev = s->dev;
    timer_init(&s->mbox_timer, name, mbox_run, s);
    timer_init(&s->io_timer, name, io_run, s);
    device_reset(s->dev);
    return s;
}

void isp_free(isp *s)
{
    if (!s)
        return;
    timer_del(s->clock, &s->mbox_timer);
    timer_del(s->clock, &s->io_timer);
    for (unsigned t = 0; t < ISP_TARGETS; t++)
        scsi_disk_close(s->disks[t]);
    free(s);
}

pci_func *isp_func(isp *s) { return &s->f; }
device *isp_device(isp *s) { return s->dev; }

int isp_attach_disk(isp *s, unsigned id, scsi_disk *d, xerr *err)
{
    if (id >= ISP_TARGETS || id == 7) {
        xerr_set(err, "%s: SCSI ID %u is not a target ID (0-15, 7 is the adapter's)", s->dev->name,
                 id);
        return -1;
    }
    if (s->disks[id]) {
        xerr_set(err, "%s: SCSI ID %u already has %s", s->dev->name, id,
                 scsi_disk_path(s->disks[id]));
        return -1;
    }
    s->disks[id] = d;
    return 0;
}

scsi_disk *isp_disk(isp *s, unsigned id) { return id < ISP_TARGETS ? s->disks[id] : NULL; }
