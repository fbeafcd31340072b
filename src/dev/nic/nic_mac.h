/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Receive address filtering shared by the NIC models (docs/architecture.md):
 * station address(es), broadcast, multicast by CAM (Hamachi, 64 entries)
 * or hash table (8254x, up to 4096 bits), all-multicast, promiscuous. */
#ifndef XBOW_NIC_MAC_H
#define XBOW_NIC_MAC_H

#include "dev/nic/nic.h"

#define NIC_MAC_STATIONS 16
#define NIC_MAC_CAM 64
#define NIC_MAC_HASH_BITS 4096

typedef struct nic_mac_filter {
    uint8_t station[NIC_MAC_STATIONS][6];
    bool station_valid[NIC_MAC_STATIONS];
    bool unicast;   /* accept frames to a valid station address */
    bool broadcast; /* accept ff:ff:ff:ff:ff:ff */
    bool cam;       /* accept multicast matching a valid CAM entry */
    bool hash;      /* accept multicast (and, with hash_unicast, unicast) whose hash bit is set */
    bool hash_unicast;
    bool all_multi;
    bool promisc;
    uint8_t cam_addr[NIC_MAC_CAM][6];
    bool cam_valid[NIC_MAC_CAM];
    uint32_t hash_table[NIC_MAC_HASH_BITS / 32];
    unsigned hash_bits; /* table size in bits (power of two) */
    /* Bit index of an address in the hash table (model-specific); NULL = the
     * top bits of the little-endian Ethernet CRC. */
    unsigned (*hash_fn)(const uint8_t *mac, const void *ctx);
    const void *hash_ctx;
} nic_mac_filter;

void nic_mac_filter_reset(nic_mac_filter *f);
/* Its state, for the models that embed one (STATE_PART). */
extern const state_table nic_mac_filter_state;
/* Verdict for a destination address: enum nic_match (NONE = refuse). */
int nic_mac_match(const nic_mac_filter *f, const uint8_t *dst);
/* Ethernet CRC-32 (reflected, as on the wire; FCS = ~crc in LE order). */
uint32_t nic_crc32(const uint8_t *p, size_t len);
/* Describe the filter for views. */
void nic_mac_show(const nic_mac_filter *f, strbuf *out);

/* ---- station addresses (the factory MAC a NIC's EEPROM holds) ---------- */

/* Why mac cannot be a NIC's station address ("a multicast address", "the
 * all-zero address"), or NULL if it can. */
const char *nic_station_problem(const uint8_t mac[6]);
/* The default station address of a NIC: locally administered unicast
 * 02:58:42:xx:yy:zz, where xx:yy:zz are 24 bits of FNV-1a over the model
 * name, the PCI slot, the backend spec (NULL or "" count as "sink") and
 * `seed` (more of the machine's configuration, here the guest's command
 * line; NULL = none).  The same configuration always gives the same address;
 * two machines on one wire differ as soon as any of these does. */
void nic_default_mac(const char *model, unsigned slot, const char *net, const char *seed,
                     uint8_t mac[6]);

#endif
