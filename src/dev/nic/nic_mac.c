/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Receive address filtering.  See nic_mac.h. */
#include "dev/nic/nic_mac.h"

static const uint8_t bcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

void nic_mac_filter_reset(nic_mac_filter *f)
{
    unsigned (*fn)(const uint8_t *, const void *) = f->hash_fn;
    const void *ctx = f->hash_ctx;
    unsigned bits = f->hash_bits;
    memset(f, 0, sizeof *f);
    f->hash_fn = fn;
    f->hash_ctx = ctx;
    f->hash_bits = bits;
}

/* Byte-at-a-time table (the 8254x stores every received frame's FCS). */
static uint32_t crc_table[256];

static void crc_table_init(void)
{
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & -(c & 1));
        crc_table[b] = c;
    }
}

uint32_t nic_crc32(const uint8_t *p, size_t len)
{
    if (!crc_table[1])
        crc_table_init();
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++)
        crc = (crc >> 8) ^ crc_table[(crc ^ p[i]) & 0xff];
    return ~crc;
}

static bool hash_hit(const nic_mac_filter *f, const uint8_t *dst)
{
    unsigned bits = f->hash_bits ? f->hash_bits : 64;
    if (bits > NIC_MAC_HASH_BITS)
        bits = NIC_MAC_HASH_BITS;
    unsigned bit;
    if (f->hash_fn) {
        bit = f->hash_fn(dst, f->hash_ctx) % bits;
    } else {
        unsigned w = 0;
        while ((1u << w) < bits)
            w++;
        bit = w ? (nic_crc32(dst, 6) >> (32 - w)) : 0;
    }
    return (f->hash_table[bit / 32] >> (bit % 32)) & 1;
}

int nic_mac_match(const nic_mac_filter *f, const uint8_t *dst)
{
    if (dst[0] & 1) {
        if (memcmp(dst, bcast, 6) == 0) {
            if (f->broadcast)
                return NIC_MATCH_BROADCAST;
        } else {
            if (f->all_multi)
                return NIC_MATCH_MULTICAST;
            if (f->cam)
                for (unsigned i = 0; i < NIC_MAC_CAM; i++)
                    if (f->cam_valid[i] && memcmp(f->cam_addr[i], dst, 6) == 0)
                        return NIC_MATCH_MULTICAST;
            if (f->hash && hash_hit(f, dst))
                return NIC_MATCH_MULTICAST;
        }
    } else {
        if (f->unicast)
            for (unsigned i = 0; i < NIC_MAC_STATIONS; i++)
                if (f->station_valid[i] && memcmp(f->station[i], dst, 6) == 0)
                    return NIC_MATCH_STATION;
        if (f->hash && f->hash_unicast && hash_hit(f, dst))
            return NIC_MATCH_STATION;
    }
    return f->promisc ? NIC_MATCH_PROMISC : NIC_MATCH_NONE;
}

static void put_mac(const uint8_t *m, strbuf *out)
{
    sb_printf(out, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

/* The valid entries of an address table, a line each. */
static void put_macs(const char *what, const uint8_t (*mac)[6], const bool *valid, unsigned n,
                     strbuf *out)
{
    for (unsigned i = 0; i < n; i++) {
        if (!valid[i])
            continue;
        sb_printf(out, "  %s %u ", what, i);
        put_mac(mac[i], out);
        sb_putc(out, '\n');
    }
}

void nic_mac_show(const nic_mac_filter *f, strbuf *out)
{
    sb_printf(out, "  filter:%s%s%s%s%s%s\n", f->unicast ? " unicast" : "",
              f->broadcast ? " broadcast" : "", f->cam ? " multicast-cam" : "",
              f->hash ? " multicast-hash" : "", f->all_multi ? " all-multicast" : "",
              f->promisc ? " promiscuous" : "");
    put_macs("station", f->station, f->station_valid, NIC_MAC_STATIONS, out);
    put_macs("cam", f->cam_addr, f->cam_valid, NIC_MAC_CAM, out);
}

const char *nic_station_problem(const uint8_t mac[6])
{
    static const uint8_t zero[6];
    if (mac[0] & 1) {
        if (memcmp(mac, bcast, 6) == 0)
            return "the broadcast address";
        return "a multicast address (bit 0 of the first byte is set)";
    }
    if (memcmp(mac, zero, 6) == 0)
        return "the all-zero address";
    return NULL;
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

void nic_default_mac(const char *model, unsigned slot, const char *net, const char *seed,
                     uint8_t mac[6])
{
    uint8_t s = (uint8_t)slot;
    if (!net || !*net)
        net = "sink";
    if (!seed)
        seed = "";
    /* Each string with its terminating NUL, so ("ab", "c") differs from ("a", "bc"). */
    uint64_t h = fnv1a(0xcbf29ce484222325ull, model, strlen(model) + 1);
    h = fnv1a(h, &s, 1);
    h = fnv1a(h, net, strlen(net) + 1);
    h = fnv1a(h, seed, strlen(seed) + 1);
    h ^= h >> 32;
    const uint8_t m[6] = {0x02, 0x58, 0x42, (uint8_t)(h >> 16), (uint8_t)(h >> 8), (uint8_t)h};
    memcpy(mac, m, 6);
}

static const state_decl nic_mac_filter_decls[] = {
    STATE_BYTES(nic_mac_filter, station, "station addresses"),
    STATE_BOOLS(nic_mac_filter, station_valid, "which are valid"),
    STATE_BOOL(nic_mac_filter, unicast, "accept a valid station address"),
    STATE_BOOL(nic_mac_filter, broadcast, "accept broadcast"),
    STATE_BOOL(nic_mac_filter, cam, "accept multicast matching the CAM"),
    STATE_BOOL(nic_mac_filter, hash, "accept by hash"),
    STATE_BOOL(nic_mac_filter, hash_unicast, "unicast by hash too"),
    STATE_BOOL(nic_mac_filter, all_multi, "accept every multicast"),
    STATE_BOOL(nic_mac_filter, promisc, "accept everything"),
    STATE_BYTES(nic_mac_filter, cam_addr, "CAM entries"),
    STATE_BOOLS(nic_mac_filter, cam_valid, "which are valid"),
    STATE_INTS(nic_mac_filter, hash_table, "the hash table"),
    STATE_WIRING(nic_mac_filter, hash_fn, "the model's hash: set by the model"),
    STATE_WIRING(nic_mac_filter, hash_ctx, "its argument: set by the model"),
};
const state_table nic_mac_filter_state = STATE_TABLE(nic_mac_filter_decls, nic_mac_filter);
