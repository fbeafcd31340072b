/* SPDX-License-Identifier: GPL-2.0-or-later */ /* e1000 transmit: `count` UDP frames of `size` bytes (60..16384 without the
 * FCS; 9000 is a jumbo frame) to whatever is on the cable (xbow's `sink`
 * verifies them), carrying the payload pattern of gen/sink.  The IP and UDP
 * checksums are left to the NIC (context descriptor + POPTS IXSM|TXSM).
 * Prints the frames, bytes and payload sum it sent.
 *   xbow --nic e1000 --net sink --append "size=9000 count=100" tx.elf */
#include "e1000drv.h"

static const u8 peer_mac[6] = {0x02, 0x78, 0x62, 0x6f, 0x77, 0x02};
static const u8 my_ip[4] = {10, 0, 2, 15}, peer_ip[4] = {10, 0, 2, 2};

/* Ethernet + IPv4 + UDP around the pattern of message k; the checksum
 * fields hold what the NIC needs: 0 for IP, the pseudo-header sum (with
 * the length) for UDP. */
static void build(u8 *f, const u8 *src, unsigned size, u32 k)
{
    unsigned ip_len = size - 14, udp_len = ip_len - 20, plen = udp_len - 8;
    memcpy(f, peer_mac, 6);
    memcpy(f + 6, src, 6);
    f[12] = 0x08;
    f[13] = 0x00;
    u8 *ip = f + 14, *udp = ip + 20, *pl = udp + 8;
    memset(ip, 0, 28);
    ip[0] = 0x45;
    ip[2] = (u8)(ip_len >> 8);
    ip[3] = (u8)ip_len;
    ip[4] = (u8)(k >> 8);
    ip[5] = (u8)k;
    ip[8] = 64;
    ip[9] = 17;
    memcpy(ip + 12, my_ip, 4);
    memcpy(ip + 16, peer_ip, 4);
    udp[0] = udp[2] = 0x00;
    udp[1] = udp[3] = 9; /* discard */
    udp[4] = (u8)(udp_len >> 8);
    udp[5] = (u8)udp_len;
    u16 seed = csum_fold(csum_add(17 + udp_len, ip + 12, 8));
    udp[6] = (u8)(seed >> 8);
    udp[7] = (u8)seed;
    payload_fill(pl, plen, k);
}

int main(int argc, char **argv)
{
    unsigned size = arg_range(argc, argv, "e1000-tx", "size", 1514, 60, 16384);
    e1000 *d = size ? e1000_open("e1000-tx", 2048) : NULL;
    if (!d)
        return 1;
    unsigned count = (unsigned)arg_num(argc, argv, "count", 100);
    e1000_tx_context(d, 14, 34, 40); /* IP at 14, UDP checksum at 34+6 */
    u64 bytes = 0;
    u32 sum = 0;
    u64 t0 = rt_count();
    for (u32 k = 0; k < count; k++) {
        unsigned b = k % 16;
        /* A buffer is reused only once its descriptor is done. */
        if (k >= 16)
            while (((d->tx_tail + E1000_NTX - d->tx_clean) % E1000_NTX) > 12) {
                unsigned c = d->tx_clean;
                if (le32(d->tx[c].w[3]) & 1)
                    d->tx_clean = (c + 1) % E1000_NTX;
            }
        build(d->txb[b], d->mac, size, k);
        e1000_send(d, b, size, 0x3); /* POPTS: IXSM | TXSM */
        bytes += size;
        sum += payload_hash(k, size - 42);
    }
    e1000_tx_wait(d);
    u64 us = (rt_count() - t0) * 1000000 / RT_HZ;
    printf("e1000-tx: sent %u frames, %lu bytes, payload sum 0x%08x in %lu us\n", count, bytes,
           sum, us);
    printf("e1000-tx: NIC counters GPTC %u\n", er32(d, GPTC));
    return 0;
}
