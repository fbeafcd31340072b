/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Echo test: ping the `echo` peer (10.0.2.2).  ARP for its address, then
 * COUNT ICMP echo requests of SIZE bytes with the payload pattern, one at a
 * time; each reply must carry the same identifier, sequence and payload.
 *   xbow --batch --nic tigon2 --net echo --append "count=10 size=98" tigon_echo.elf */
#include "tg.h"

static u8 peer[6];
static volatile int have_peer;
static volatile u32 replies, bad, want_seq, sum;
static volatile u64 reply_bytes;
static u32 psize;

static void rx(const u8 *f, u32 len, u32 flags)
{
    (void)flags;
    if (len >= 42 && get16(f + 12) == 0x0806 && get16(f + 20) == 2 && /* ARP reply */
        get16(f + 28) == (IP_PEER >> 16) && get16(f + 30) == (IP_PEER & 0xffff)) {
        memcpy(peer, f + 22, 6);
        have_peer = 1;
        return;
    }
    if (len < 42 || get16(f + 12) != 0x0800 || f[23] != 1 || f[34] != 0) /* ICMP echo reply */
        return;
    const u8 *icmp = f + 34, *pl = icmp + 8;
    u32 iplen = get16(f + 16), n = iplen - 28;
    int ok = iplen + 14 <= len && n == psize && get16(icmp + 4) == 0x7462 &&
             get16(icmp + 6) == want_seq && tg_csum(icmp, iplen - 20, 0) == 0xffff &&
             payload_ok(pl, 4, n, want_seq);
    if (ok) {
        replies++;
        reply_bytes += len;
        sum += payload_hash(want_seq, n);
    } else {
        bad++;
    }
}

int main(int argc, char **argv)
{
    static u8 f[1514];
    u32 count = arg_num(argc, argv, "count", 10);
    u32 size = arg_range(argc, argv, "tigon-echo", "size", 98, 60, 1514);
    if (!size)
        return 1;
    psize = size - 42;
    if (tg_open(0, rx))
        return 1;
    const u8 *me = tg_mac();
    memset(f, 0, 60);
    memset(f, 0xff, 6);
    memcpy(f + 6, me, 6);
    put16(f + 12, 0x0806);
    put16(f + 14, 1);
    put16(f + 16, 0x0800);
    f[18] = 6;
    f[19] = 4;
    put16(f + 20, 1); /* who has 10.0.2.2, tell 10.0.2.15 */
    memcpy(f + 22, me, 6);
    put32(f + 28, IP_ME);
    put32(f + 38, IP_PEER);
    tg_send(f, 60);
    u64 end = tg_ms_now() + 500;
    while (!have_peer && tg_ms_now() < end)
        ;
    if (!have_peer) {
        printf("tigon-echo: no ARP reply from 10.0.2.2\n");
        return 1;
    }
    printf("tigon-echo: 10.0.2.2 is at %02x:%02x:%02x:%02x:%02x:%02x\n", peer[0], peer[1],
           peer[2], peer[3], peer[4], peer[5]);
    u32 sent = 0;
    for (u32 seq = 0; seq < count; seq++) {
        u8 *ip = f + 14, *icmp = ip + 20, *pl = icmp + 8;
        memcpy(f, peer, 6);
        put16(f + 12, 0x0800);
        ip_header(ip, size - 14, seq, 0, 1, IP_ME, IP_PEER);
        memset(icmp, 0, 8);
        icmp[0] = 8; /* echo request */
        put16(icmp + 4, 0x7462);
        put16(icmp + 6, seq);
        put32(pl, seq);
        for (u32 i = 4; i < psize; i++)
            pl[i] = payload_byte(seq, i);
        put16(icmp + 2, (u16)~tg_csum(icmp, 8 + psize, 0));
        want_seq = seq;
        u32 before = replies;
        tg_send(f, size);
        sent++;
        end = tg_ms_now() + 100;
        while (replies == before && tg_ms_now() < end)
            ;
    }
    printf("tigon-echo: %u requests, %u replies (%lu bytes), %u bad, payload sum 0x%08x\n", sent,
           replies, reply_bytes, bad, sum);
    tg_close();
    return replies == sent && !bad ? 0 : 1;
}
