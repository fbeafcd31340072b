/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the QLogic ISP1040B model and the SCSI disk behind it:
 * garbage register writes, mailbox commands with any values, and IOCBs of
 * any type, count, target and CDB in the request queue, on the NICs' fake
 * PCI host with a 64 KB disk image (SCSI ID 1).
 *
 * Each operation is one opcode byte followed by its arguments (little-endian):
 *   0 reg write   off8 value16            1 reg read    off8
 *   2 mailbox     cmd8 mb1..mb7 (16 each), then the clock runs 50 us
 *   3 RAM write   off16 value32           4 time        ticks16 (x64)
 *   5 IOCB        idx8 type8 count8 target8 flags8 nsegs8 cdb 12 bytes, seg len16
 *                 (written at request index idx, one data segment in RAM or not)
 *   6 doorbell    in8 (mailbox 4)         7 ISR         (what qla1280_isr does)
 *   8 bring-up    (chip reset, firmware, queues: what qla1280 does)
 *   9 PCI reset                          10 views
 *  11 bus master  on8
 * Missing argument bytes read as 0.  After the program the clock runs on and
 * invariants are checked (abort on failure): INTA is high exactly when the
 * RISC interrupt is pending and enabled; the queue pointers the firmware
 * keeps are inside its queues; the image keeps its size. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "dev/scsi/isp.h"

#define RAM_SIZE (256u * 1024u)
#define REQ_OFF 0x0000   /* 255 x 64 */
#define RESP_OFF 0x4000  /* 63 x 64 */
#define DATA_OFF 0x10000 /* data buffers */
#define IMG_SIZE (64u * 1024u)
#define MAX_OPS 512

const char fuzz_target[] = "fuzz_isp";

static char img[64];

static void remove_image(void) { unlink(img); }

static uint16_t rd(pci_func *f, unsigned off)
{
    uint64_t v = 0;
    pci_bar_access(f, 0, 1, off & 0xffe, 2, &v, false);
    return (uint16_t)v;
}

static void wr(pci_func *f, unsigned off, uint16_t v)
{
    uint64_t x = v;
    pci_bar_access(f, 0, 1, off & 0xffe, 2, &x, true);
}

static void mailbox(sched *clock, pci_func *f, const uint16_t *mb)
{
    for (unsigned i = 0; i < 8; i++)
        wr(f, ISP_MAILBOX(i), mb[i]);
    wr(f, ISP_HCCR, 0x5000);
    run_for(clock, sched_ns_to_ticks(clock, 50000));
}

static void isr(pci_func *f)
{
    if (rd(f, ISP_SEMAPHORE) & 1)
        wr(f, ISP_SEMAPHORE, 0);
    wr(f, ISP_HCCR, 0x7000);
    wr(f, ISP_MAILBOX(5), rd(f, ISP_MAILBOX(5)));
}

static void bring_up(sched *clock, pci_func *f)
{
    wr(f, ISP_ICTRL, ISP_ICTRL_RESET);
    wr(f, ISP_HCCR, 0xb000);
    wr(f, ISP_ICTRL, ISP_ICTRL_EN_INT | ISP_ICTRL_EN_RISC);
    static const char magic[] = ISP_FW_MAGIC;
    uint16_t words[ISP_FW_WORDS], sum = 0;
    for (unsigned i = 0; i < 8; i++)
        words[i] = (uint16_t)((uint8_t)magic[2 * i] | (uint8_t)magic[2 * i + 1] << 8);
    words[8] = ISP_FW_WORDS;
    for (unsigned i = 0; i < 9; i++)
        sum = (uint16_t)(sum + words[i]);
    words[9] = (uint16_t)-sum;
    for (unsigned i = 0; i < ISP_FW_WORDS; i++) {
        uint16_t mb[8] = {ISP_MBC_WRITE_RAM_WORD, (uint16_t)(0x1000 + i), words[i]};
        mailbox(clock, f, mb);
        isr(f);
    }
    uint16_t ex[8] = {ISP_MBC_EXECUTE_FIRMWARE, 0x1000};
    mailbox(clock, f, ex);
    isr(f);
    uint64_t req = FAKE_HI + REQ_OFF, resp = FAKE_HI + RESP_OFF;
    uint16_t q[8] = {ISP_MBC_INIT_REQUEST_QUEUE_A64,
                     255,
                     (uint16_t)(req >> 16),
                     (uint16_t)req,
                     0,
                     0,
                     (uint16_t)(req >> 48),
                     (uint16_t)(req >> 32)};
    mailbox(clock, f, q);
    isr(f);
    uint16_t p[8] = {ISP_MBC_INIT_RESPONSE_QUEUE_A64,
                     63,
                     (uint16_t)(resp >> 16),
                     (uint16_t)resp,
                     0,
                     0,
                     (uint16_t)(resp >> 48),
                     (uint16_t)(resp >> 32)};
    mailbox(clock, f, p);
    isr(f);
}

static void check(isp *s, fake_host *h)
{
    device *d = isp_device(s);
    pci_func *f = isp_func(s);
    unsigned id, idx;
    if (dev_reg_lookup(d, "ISTATUS", &id, &idx))
        fuzz_fail("no ISTATUS");
    uint64_t ist = dev_peek(d, id, idx);
    if (dev_reg_lookup(d, "ICTRL", &id, &idx))
        fuzz_fail("no ICTRL");
    uint64_t ictrl = dev_peek(d, id, idx);
    bool want =
        (ist & ISP_IST_RISC_INT) && (ictrl & ISP_ICTRL_EN_INT) && (ictrl & ISP_ICTRL_EN_RISC);
    if (want != h->level || want != f->irq_level[0])
        fuzz_fail("INTA does not follow the enabled RISC interrupt");
    strbuf b;
    sb_init(&b);
    const dev_view *v = dev_view_find(d, "scsi");
    v->show(d, "", NULL, &b);
    sb_free(&b);
    struct stat st;
    if (stat(img, &st) != 0 || st.st_size != IMG_SIZE)
        fuzz_fail("the disk image changed size");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!img[0]) {
        snprintf(img, sizeof img, "/tmp/xbow-fuzz-isp-%d.img", (int)getpid());
        int fd = open(img, O_RDWR | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || ftruncate(fd, IMG_SIZE) != 0)
            fuzz_fail("cannot create the disk image");
        close(fd);
        atexit(remove_image);
    }
    fuzz_reader r = {data, size};
    sched clock;
    event_bus eb;
    fake_host host;
    strbuf evtext;
    sb_init(&evtext);
    sched_init(&clock, XBOW_CPU_HZ);
    event_bus_init(&eb, &clock.now);
    fake_host_init(&host, &clock, RAM_SIZE);
    isp *s = isp_new("isp0", &eb, &clock);
    pci_func *f = isp_func(s);
    fake_host_plug(&host, f);
    fuzz_format_events(&eb, "isp0.*", &evtext);
    xerr e;
    scsi_disk *dk = scsi_disk_open(img, false, &e);
    if (!dk || isp_attach_disk(s, 1, dk, &e) != 0)
        fuzz_fail(e.msg);
    for (unsigned op = 0; op < MAX_OPS && r.left; op++) {
        switch ((unsigned)fuzz_take(&r, 1) % 12) {
        case 0: {
            unsigned off = (unsigned)fuzz_take(&r, 1);
            wr(f, off, (uint16_t)fuzz_take(&r, 2));
            break;
        }
        case 1: rd(f, (unsigned)fuzz_take(&r, 1)); break;
        case 2: {
            uint16_t mb[8];
            mb[0] = (uint16_t)fuzz_take(&r, 1);
            for (unsigned i = 1; i < 8; i++)
                mb[i] = (uint16_t)fuzz_take(&r, 2);
            mailbox(&clock, f, mb);
            break;
        }
        case 3: {
            uint64_t off = fuzz_take(&r, 2) % (RAM_SIZE - 4);
            fake_w32(&host, FAKE_HI + off, (uint32_t)fuzz_take(&r, 4));
            break;
        }
        case 4: run_for(&clock, fuzz_take(&r, 2) * 64); break;
        case 5: {
            unsigned idx = (unsigned)fuzz_take(&r, 1) % 255;
            uint8_t *p = fake_ptr(&host, FAKE_HI + REQ_OFF + idx * 64ull, 64);
            memset(p, 0, 64);
            p[0] = (uint8_t)fuzz_take(&r, 1);
            p[1] = (uint8_t)fuzz_take(&r, 1);
            store_le(p + 4, 2, op);
            p[9] = (uint8_t)fuzz_take(&r, 1);
            p[12] = (uint8_t)fuzz_take(&r, 1);
            p[18] = (uint8_t)fuzz_take(&r, 1);
            p[10] = 12;
            for (unsigned i = 0; i < 12; i++)
                p[20 + i] = (uint8_t)fuzz_take(&r, 1);
            uint64_t a = FAKE_HI + DATA_OFF + (op & 7) * 0x4000ull;
            if (p[18] & 0x80)
                a = 0x7000000000ull; /* nowhere */
            store_le(p + 40, 4, (uint32_t)a);
            store_le(p + 44, 4, (uint32_t)(a >> 32));
            store_le(p + 48, 4, (uint32_t)fuzz_take(&r, 2));
            p[18] &= 0x7f;
            break;
        }
        case 6:
            wr(f, ISP_MAILBOX(4), (uint16_t)fuzz_take(&r, 1));
            run_for(&clock, sched_ns_to_ticks(&clock, 200000));
            break;
        case 7: isr(f); break;
        case 8: bring_up(&clock, f); break;
        case 9:
            pci_func_reset(f);
            fake_host_plug(&host, f);
            break;
        case 10: {
            strbuf b;
            sb_init(&b);
            const dev_view *v = dev_view_find(isp_device(s), "ring");
            v->show(isp_device(s), fuzz_take(&r, 1) & 1 ? "request 8" : "response", NULL, &b);
            sb_free(&b);
            break;
        }
        case 11:
            if (fuzz_take(&r, 1) & 1)
                f->command |= PCI_CMD_MASTER;
            else
                f->command &= (uint16_t)~PCI_CMD_MASTER;
            break;
        }
        check(s, &host);
    }
    run_for(&clock, sched_ns_to_ticks(&clock, 1000000));
    check(s, &host);
    device *d = isp_device(s);
    isp_free(s);
    device_free(d);
    fake_host_free(&host);
    event_bus_free(&eb);
    sb_free(&evtext);
    return 0;
}
