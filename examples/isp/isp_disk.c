/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small driver for the QLogic ISP1040B (xbow --disk FILE): brings the
 * chip up as Linux's qla1280 does (reset, register test, xbow's firmware
 * image word by word, checksum, execute, 64-bit queues, bus reset,
 * marker), then talks to the disk at SCSI ID 1 with command IOCBs:
 * INQUIRY, TEST UNIT READY (the unit attention first), READ CAPACITY, a
 * WRITE(10) of 8 blocks at block 5 and a READ(10) of them back into another
 * buffer (`rbuf`, the buffer a DMA watchpoint can watch), and a command to
 * an absent ID.  Completions come by interrupt through the Bridge. */
#include "xbow.h"

#define BRIDGE_DEV_SWAP_PMU 0x00100000u
#define BRIDGE_DEV_SWAP_DIR 0x00080000u
#define PCI64_ATTR_BAR 0x0100000000000000ul
#define LEVEL 34 /* HUB level of the controller's INTA */

/* Registers in BAR1, 16 bits, through the word-values PIO lanes. */
enum { ICTRL = 0x08, ISTATUS = 0x0a, SEMA = 0x0c, MBOX0 = 0x70, HCCR = 0xc0 };
static u64 regs;
static u16 rd(u32 o) { return *(volatile u16 *)(regs + (o ^ 2)); }
static void wr(u32 o, u16 v) { *(volatile u16 *)(regs + (o ^ 2)) = v; }

/* The queues and the buffers, PCI byte streams (little-endian fields). */
#define REQ_N 16
#define RESP_N 8
static u8 req[REQ_N][64] __attribute__((aligned(64)));
static u8 resp[RESP_N][64] __attribute__((aligned(64)));
static u8 wbuf[4096] __attribute__((aligned(512)));
u8 rbuf[4096] __attribute__((aligned(512)));
static u8 small[64] __attribute__((aligned(64)));
static unsigned req_in, resp_out;

static u64 pa_of(const void *p) { return (u64)p - CAC_BASE; }
static u64 bus_of(const void *p) { return (u64)HUB_WIDGET << 60 | PCI64_ATTR_BAR | pa_of(p); }
static void put16(u8 *p, u16 v)
{
    p[0] = (u8)v;
    p[1] = (u8)(v >> 8);
}
static void put32(u8 *p, u32 v)
{
    put16(p, (u16)v);
    put16(p + 2, (u16)(v >> 16));
}
static u16 get16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }
static u32 get32(const u8 *p) { return get16(p) | (u32)get16(p + 2) << 16; }

/* What the interrupt handler took. */
static volatile int mbox_done, fast_done;
static volatile u16 mbox_out[8];
static volatile u32 fast_handle;
static volatile int irqs;

static void isp_irq(int level, void *arg)
{
    (void)level;
    (void)arg;
    irqs++;
    wr(ICTRL, 0);
    if (rd(SEMA) & 1) {
        for (int i = 0; i < 8; i++)
            mbox_out[i] = rd(MBOX0 + 2 * i);
        wr(SEMA, 0);
        wr(HCCR, 0x7000);
        if (mbox_out[0] == 0x8020) {
            fast_handle = mbox_out[1] | (u32)mbox_out[2] << 16;
            fast_done = 1;
        } else if (mbox_out[0] < 0x8000) {
            mbox_done = 1;
        }
    } else {
        wr(HCCR, 0x7000);
    }
    wr(ICTRL, 0x6);
}

static u16 mailbox(u16 m0, u16 m1, u16 m2, u16 m3, u16 m4, u16 m6, u16 m7)
{
    u16 in[8] = {m0, m1, m2, m3, m4, 0, m6, m7};
    for (int i = 0; i < 8; i++)
        if (i != 5)
            wr(MBOX0 + 2 * i, in[i]);
    mbox_done = 0;
    wr(HCCR, 0x5000);
    while (!mbox_done)
        ;
    return mbox_out[0];
}

/* One command IOCB (type 9, one data segment); waits for its completion and
 * returns the SCSI status | completion status << 8, 0 for a fast post. */
static u8 last_sense[18];
static u32 cmd(int target, const u8 *cdb, int len, int dir, void *buf, u32 n)
{
    static u32 handle = 1;
    u8 *e = req[req_in];
    memset(e, 0, 64);
    e[0] = 9;
    e[1] = 1;
    put32(e + 4, handle);
    e[9] = (u8)target;
    put16(e + 10, (u16)len);
    put16(e + 12, (u16)(dir == 1 ? 0x20 : dir == 2 ? 0x40 : 0));
    put16(e + 16, 10);
    put16(e + 18, n ? 1 : 0);
    memcpy(e + 20, cdb, (size_t)len);
    u64 a = bus_of(buf);
    put32(e + 40, (u32)a);
    put32(e + 44, (u32)(a >> 32));
    put32(e + 48, n);
    req_in = (req_in + 1) % REQ_N;
    fast_done = 0;
    wr(MBOX0 + 8, (u16)req_in);
    for (;;) {
        if (fast_done && fast_handle == handle)
            break;
        if (rd(MBOX0 + 10) != resp_out) { /* the firmware's response in-pointer */
            const u8 *r = resp[resp_out];
            u32 res = (u32)(get16(r + 8) & 0xff) | (u32)get16(r + 10) << 8;
            memcpy(last_sense, r + 32, sizeof last_sense);
            if (get32(r + 4) != handle)
                printf("isp: response for handle %u, not %u\n", get32(r + 4), handle);
            resp_out = (resp_out + 1) % RESP_N;
            wr(MBOX0 + 10, (u16)resp_out);
            handle++;
            return res;
        }
    }
    handle++;
    return 0;
}

/* xbow's firmware image: the words of docs/storage.md, "Firmware". */
static const u16 fw[9] = {'X' | 'B' << 8, 'O' | 'W' << 8, 'I' | 'S' << 8, 'P' | '1' << 8,
                          '0' | '4' << 8, '0' | 'H' << 8, 'L' | 'E' << 8, 0, 10};

int main(void)
{
    int slot = pci_find(0x1077, 0x1020);
    if (slot < 0) {
        printf("isp: no ISP1040 (start xbow with --disk FILE)\n");
        return 0;
    }
    regs = IO_BASE + (pci_cfg_read(slot, 0x14, 4) & ~0xfu);
    pci_cfg_write(slot, 0x04, 2, pci_cfg_read(slot, 0x04, 2) | 0x4); /* bus master */
    u32 dev = bridge_read(BRIDGE_DEVICE(slot));
    bridge_write(BRIDGE_DEVICE(slot), dev | BRIDGE_DEV_SWAP_DIR | BRIDGE_DEV_SWAP_PMU);
    printf("isp: slot %d, BAR1 at 0x%lx, revision %u\n", slot, regs, rd(0x04));
    irq_init();
    bridge_irq_route(slot, LEVEL);
    irq_connect(LEVEL, isp_irq, NULL);
    irq_enable();

    wr(ICTRL, 1); /* soft reset */
    wr(HCCR, 0xb000);
    while (rd(MBOX0) == 4)
        ;
    printf("isp: product id %04x %04x %04x %04x\n", rd(MBOX0 + 2), rd(MBOX0 + 4), rd(MBOX0 + 6),
           rd(MBOX0 + 8));
    wr(ICTRL, 0x6);
    u16 sum = 0;
    for (int i = 0; i < 10; i++) {
        u16 w = i < 9 ? fw[i] : (u16)-sum;
        sum = (u16)(sum + w);
        mailbox(0x04, (u16)(0x1000 + i), w, 0, 0, 0, 0);
    }
    printf("isp: verify checksum %04x, execute %04x\n", mailbox(0x07, 0x1000, 0, 0, 0, 0, 0),
           mailbox(0x02, 0x1000, 0, 0, 0, 0, 0));
    u64 rq = bus_of(req), rs = bus_of(resp);
    u16 s1 = mailbox(0x52, REQ_N, (u16)(rq >> 16), (u16)rq, 0, (u16)(rq >> 48), (u16)(rq >> 32));
    wr(MBOX0 + 10, 0); /* the response queue's out-pointer */
    u16 s2 = mailbox(0x53, RESP_N, (u16)(rs >> 16), (u16)rs, 0, (u16)(rs >> 48), (u16)(rs >> 32));
    printf("isp: queues %04x %04x, features %04x, bus reset %04x\n", s1, s2,
           mailbox(0x4a, 1, 0, 0, 0, 0, 0), mailbox(0x18, 0, 0, 0, 0, 0, 0));
    u8 *m = req[req_in]; /* marker: sync all */
    memset(m, 0, 64);
    m[0] = 4;
    m[1] = 1;
    m[10] = 2;
    req_in = (req_in + 1) % REQ_N;
    wr(MBOX0 + 8, (u16)req_in);

    const u8 inq[6] = {0x12, 0, 0, 0, 36, 0};
    u32 r = cmd(1, inq, 6, 1, small, 36);
    small[36] = 0;
    printf("isp: INQUIRY %x: type %u, \"%s\"\n", r, small[0], (char *)small + 8);
    const u8 tur[6] = {0};
    r = cmd(1, tur, 6, 0, small, 0);
    printf("isp: TEST UNIT READY %x, sense key %x asc %02x\n", r, last_sense[2] & 0xf,
           last_sense[12]);
    r = cmd(1, tur, 6, 0, small, 0);
    printf("isp: TEST UNIT READY %x\n", r);
    const u8 rc[10] = {0x25};
    r = cmd(1, rc, 10, 1, small, 8);
    u32 last = (u32)small[0] << 24 | (u32)small[1] << 16 | (u32)small[2] << 8 | small[3];
    printf("isp: READ CAPACITY %x: %u blocks of %u bytes\n", r, last + 1,
           (u32)small[6] << 8 | small[7]);
    for (int i = 0; i < 4096; i++)
        wbuf[i] = (u8)(i * 7 + 3);
    const u8 w10[10] = {0x2a, 0, 0, 0, 0, 5, 0, 0, 8, 0};
    r = cmd(1, w10, 10, 2, wbuf, 4096);
    printf("isp: WRITE(10) %x\n", r);
    const u8 r10[10] = {0x28, 0, 0, 0, 0, 5, 0, 0, 8, 0};
    r = cmd(1, r10, 10, 1, rbuf, 4096);
    int bad = -1;
    for (int i = 0; i < 4096 && bad < 0; i++)
        if (rbuf[i] != wbuf[i])
            bad = i;
    printf("isp: READ(10) %x: %s\n", r, bad < 0 ? "the 4096 bytes read back" : "MISMATCH");
    r = cmd(4, tur, 6, 0, small, 0);
    printf("isp: ID 4: completion %x (selection timeout)\n", r >> 8);
    printf("isp: done, %d interrupts\n", irqs);
    return 0;
}
