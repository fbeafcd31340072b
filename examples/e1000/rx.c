/* SPDX-License-Identifier: GPL-2.0-or-later */ /* e1000 receive: `count` frames from xbow's `gen` peer, by interrupt
 * (RXT0 through the Bridge pin of the slot to a HUB level), each checked
 * against the payload pattern; the NIC's checksum status is counted too.
 * A first frame tells gen (start=tx) that the driver is ready.  Prints the
 * frames, bytes and payload sum it received.  It stops after 10 s of virtual
 * time, or with wait=MS after MS ms without a receive interrupt.
 *   xbow --nic e1000 --net gen:size=1514,rate=20000,count=200,start=tx \
 *        --append "count=200" rx.elf */
#include "e1000drv.h"

#define LEVEL 21 /* a HUB interrupt level */

static volatile unsigned irqs, rxt0;

static void nic_irq(int level, void *arg)
{
    (void)level;
    e1000 *d = arg;
    u32 icr = er32(d, ICR); /* reading clears the causes: INTA drops */
    irqs++;
    if (icr & 0x80)
        rxt0++;
}

/* The UDP payload of a frame (IPv4, no options), or NULL. */
static const u8 *udp_payload(const u8 *f, unsigned len, unsigned *plen)
{
    if (len < 42 || f[12] != 0x08 || f[13] != 0x00 || f[14] != 0x45 || f[23] != 17)
        return NULL;
    unsigned ulen = (unsigned)f[38] << 8 | f[39];
    if (ulen < 8 || 34 + ulen > len)
        return NULL;
    *plen = ulen - 8;
    return f + 42;
}

int main(int argc, char **argv)
{
    unsigned count = (unsigned)arg_num(argc, argv, "count", 100);
    unsigned jumbo = (unsigned)arg_num(argc, argv, "jumbo", 0);
    u64 wait = arg_num(argc, argv, "wait", 0) * (RT_HZ / 1000);
    e1000 *d = e1000_open("e1000-rx", jumbo ? E1000_BUF : 2048);
    if (!d)
        return 1;
    irq_init();
    bridge_irq_route(d->slot, LEVEL); /* INTA of slot n drives Bridge pin n */
    irq_connect(LEVEL, nic_irq, d);
    irq_enable();
    ew32(d, RDTR, 20); /* 20.48 us of quiet before RXT0 */
    ew32(d, IMS, 0x80); /* RXT0 */
    /* "Ready": a broadcast frame starts gen (start=tx). */
    static const u8 bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    u8 *f = d->txb[0];
    memset(f, 0, 60);
    memcpy(f, bcast, 6);
    memcpy(f + 6, d->mac, 6);
    f[12] = 0x88;
    f[13] = 0xb5; /* local experimental EtherType */
    e1000_send(d, 0, 60, 0);
    unsigned frames = 0, bad = 0, csum_checked = 0, csum_bad = 0;
    u64 bytes = 0;
    u32 sum = 0;
    u64 deadline = rt_count() + 10ull * RT_HZ; /* 10 s of virtual time */
    while (frames < count && rt_count() < deadline) {
        unsigned seen = rxt0;
        unsigned len;
        u32 st;
        u8 *p;
        while ((p = e1000_recv(d, &len, &st)) != NULL) {
            unsigned plen;
            const u8 *pl = udp_payload(p, len, &plen);
            u32 k = 0;
            int ok = pl && plen >= 4;
            if (ok) {
                k = get32(pl);
                ok = payload_ok(pl, 4, plen, k);
            }
            if (ok) {
                frames++;
                bytes += len;
                sum += payload_hash(k, plen);
            } else {
                bad++;
            }
            if (!(st & 0x04) && (st & 0x20)) { /* TCPCS without IXSM */
                csum_checked++;
                if (st & (0x20u << 8))
                    csum_bad++;
            }
            e1000_rx_done(d);
        }
        u64 quiet = rt_count();
        while (rxt0 == seen && frames < count && rt_count() < deadline)
            if (wait && rt_count() - quiet > wait)
                deadline = 0; /* the sender is done or the NIC dropped the rest */
    }
    irq_disable();
    printf("e1000-rx: received %u frames, %lu bytes, payload sum 0x%08x (%u not matching the "
           "pattern)\n", frames, bytes, sum, bad);
    printf("e1000-rx: %u interrupts (%u RXT0); UDP checksums checked by the NIC %u, bad %u\n",
           irqs, rxt0, csum_checked, csum_bad);
    printf("e1000-rx: NIC counters GPRC %u MPC %u RNBC %u\n", er32(d, GPRC), er32(d, MPC),
           er32(d, RNBC));
    return frames == count ? 0 : 1;
}
