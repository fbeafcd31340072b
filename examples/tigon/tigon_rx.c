/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Receive test: frames from the `gen` peer, each payload checked against
 * the pattern of docs/networking.md.  The driver says "ready" by sending one
 * frame (gen's start=tx), then counts until COUNT frames arrived, 2 s of
 * virtual time passed, or (with wait=MS) MS ms passed without a new frame.
 * Prints frames, bytes, good payloads, payload sum.
 *   xbow --batch --nic tigon2 --net gen:size=1514,rate=20000,count=200,start=tx \
 *        --append "count=200" tigon_rx.elf     (add jumbo=1 for sizes > 1514) */
#include "tg.h"

static volatile u32 frames, good, bad, sum;
static volatile u64 bytes;

static void rx(const u8 *f, u32 len, u32 flags)
{
    (void)flags;
    u32 k, plen;
    frames++;
    bytes += len;
    if (tg_check_udp(f, len, &k, &plen)) {
        good++;
        sum += payload_hash(k, plen);
    } else {
        bad++;
    }
}

int main(int argc, char **argv)
{
    static const u8 bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    static u8 hello[60];
    u32 count = arg_num(argc, argv, "count", 100);
    if (tg_open(arg_num(argc, argv, "jumbo", 0) != 0, rx))
        return 1;
    tg_build_udp(hello, 60, bcast, 0xffffffffu); /* "ready": gen starts now */
    tg_send(hello, 60);
    u32 wait = arg_num(argc, argv, "wait", 0), seen = 0;
    u64 end = tg_ms_now() + 2000, quiet = tg_ms_now();
    while (frames < count && tg_ms_now() < end) {
        if (frames != seen) {
            seen = frames;
            quiet = tg_ms_now();
        } else if (wait && tg_ms_now() - quiet > wait) {
            break; /* the sender is done or the NIC dropped the rest */
        }
    }
    rt_delay_us(1000); /* anything beyond COUNT would show up now */
    printf("tigon-rx: received %u frames, %lu bytes, %u good payloads, %u bad, payload sum 0x%08x\n",
           frames, bytes, good, bad, sum);
    printf("tigon-rx: %u interrupts, %u events, %u errors\n", tg_stats_get()->irqs,
           tg_stats_get()->events, tg_stats_get()->errors);
    tg_close();
    return frames == count && !bad ? 0 : 1;
}
