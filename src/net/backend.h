/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal interface of src/net: backend constructors and the helpers they
 * share (option parsing, addresses, checksums, the payload pattern, frame
 * building and parsing).  NICs use net.h only. */
#ifndef XBOW_NET_BACKEND_H
#define XBOW_NET_BACKEND_H

#include "net/net.h"

/* Constructors: `args` is the spec after "kind:" ("" when there is none).
 * On error they return NULL with a message in err. */
typedef net_backend *(*net_backend_ctor)(net_port *p, const char *args, xerr *err);
net_backend *net_sink_new(net_port *p, const char *args, xerr *err);
net_backend *net_echo_new(net_port *p, const char *args, xerr *err);
net_backend *net_gen_new(net_port *p, const char *args, xerr *err);
net_backend *net_tap_new(net_port *p, const char *args, xerr *err);
net_backend *net_socket_new(net_port *p, const char *args, xerr *err);
net_backend *net_vde_new(net_port *p, const char *args, xerr *err);
/* The replay of a host backend (tap, socket, vde) from the record log of
 * p->clock->rr: opens nothing on the host. */
net_backend *net_replay_new(net_port *p, const char *args, xerr *err);
/* The first byte of an RR_NET_DROP record is the direction, with
 * NET_DROP_AT_POLL for a send's drop the port counted at a poll (the
 * writer thread's refusals): a poll applies those and the rx drops, a send
 * the rest. */
#define NET_DROP_AT_POLL 2
static inline bool net_drop_at_poll(uint8_t d0)
{
    return d0 == NET_DIR_RX || (d0 & NET_DROP_AT_POLL);
}
/* What a replayed backend applies from the log (net/replay.c calls them). */
void net_port_rr_link(net_port *p, bool live);
/* libvdeplug 4 dlopen()s its plugins with RTLD_DEEPBIND, which
 * AddressSanitizer refuses by killing the process: ASan builds have no vde. */
#if defined(__SANITIZE_ADDRESS__)
#define NET_HAVE_VDE 0
#else
#define NET_HAVE_VDE 1
#endif

/* A frame from a host backend on its way across the wire (port.c). */
typedef struct net_wire_frame {
    struct net_wire_frame *next;
    uint64_t at; /* virtual time its last byte is through the wire */
    uint32_t len;
    uint8_t data[];
} net_wire_frame;
/* Append a copy of frame, through the wire at `at`, to p's wire queue
 * (counted in wire_frames/wire_bytes); empty the queue. */
net_wire_frame *net_wire_append(net_port *p, uint64_t at, const uint8_t *frame, size_t len);
void net_wire_clear(net_port *p);

/* ---- the writer thread of a host backend (writer.c) ---------------------- */
#define NET_WRITER_FRAMES 256 /* frames queued for the host at most */
#define NET_WRITER_RESULTS 256
typedef struct net_writer net_writer;
/* A frame the host refused: its length, the drop reason xmit gave, errno. */
typedef struct net_writer_result {
    uint32_t len;
    int reason, err;
} net_writer_result;
/* Start a thread that hands queued frames to b->xmit. */
net_writer *net_writer_start(net_backend *b, xerr *err);
/* Queue a copy of frame for descriptor fd; waits while the queue is full. */
void net_writer_put(net_writer *w, int fd, const uint8_t *frame, size_t len);
/* Wait until every queued frame has been handed to the host. */
void net_writer_drain(net_writer *w);
/* The refusals since the last call (at most NET_WRITER_RESULTS into out;
 * *lost: those beyond, without details). */
size_t net_writer_take(net_writer *w, net_writer_result *out, uint64_t *lost);
/* Hand what is queued to the host, end the thread, free w (NULL: nothing). */
void net_writer_stop(net_writer *w);
void net_writer_show(net_writer *w, strbuf *out);
/* Everything queued is out and its refusals are counted (a backend calls it
 * before it closes the descriptor the writer uses). */
void net_port_tx_drain(net_port *p);

/* ---- pcap writer (pcap.c) ---------------------------------------------- */
typedef struct net_pcap net_pcap;
net_pcap *net_pcap_open(const char *path, sched *clock, xerr *err);
/* One record, time stamped with the virtual clock. */
void net_pcap_write(net_pcap *pc, const uint8_t *frame, size_t len);
void net_pcap_flush(net_pcap *pc);
void net_pcap_close(net_pcap *pc);
void net_pcap_show(net_pcap *pc, strbuf *out);

/* ---- options: "key=value,key=value,flag" -------------------------------- */
typedef struct net_opt {
    char key[32];
    char val[128];
    bool has_val;
} net_opt;
/* Next option from *s (advanced past it): 1, or 0 at the end, or -1 with
 * err set on an empty or over-long key or value. */
int net_opt_next(const char **s, net_opt *o, const char *who, xerr *err);

bool net_parse_mac(const char *s, uint8_t mac[6]);
bool net_parse_ipv4(const char *s, uint32_t *ip); /* host order */
bool net_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v);
/* "250ns", "10us", "2ms", "1s"; a bare number is microseconds. */
bool net_parse_time_ns(const char *s, uint64_t *ns);
void net_fmt_mac(char out[18], const uint8_t mac[6]);
void net_fmt_ipv4(char out[16], uint32_t ip);
/* Fill err with "<who>: <printf text>" and return NULL (for constructors). */
void *net_fail(xerr *err, const char *who, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* net_fail with "bad option "KEY=VAL" (want WANT)". */
void *net_bad_option(xerr *err, const char *who, const net_opt *o, const char *want);

/* The backend of the built-in peer NAME (sink, echo, gen) on port p: the
 * machine's own, with no host descriptor; its hooks are NAME_send,
 * NAME_close, NAME_show and NAME_state_save/_check/_load. */
#define NET_PEER(name, p)                             \
    ((net_backend){.kind = #name,                     \
                   .port = (p),                       \
                   .fd = -1,                          \
                   .send = name##_send,               \
                   .close = name##_close,             \
                   .show = name##_show,               \
                   .state_save = name##_state_save,   \
                   .state_check = name##_state_check, \
                   .state_load = name##_state_load})

/* ---- Internet checksums -------------------------------------------------- */
/* One's-complement sum of data folded into `sum` (not yet complemented). */
uint32_t net_csum_add(uint32_t sum, const uint8_t *data, size_t len);
uint16_t net_csum_fold(uint32_t sum);     /* complemented 16-bit result */
uint16_t net_csum_fold_sum(uint32_t sum); /* the 16-bit sum itself, not complemented */
/* The TCP/UDP pseudo-header sum for IPv4. */
uint32_t net_csum_pseudo4(uint32_t src, uint32_t dst, uint8_t proto, uint16_t len);

/* ---- frames --------------------------------------------------------------- */
#define ETH_HLEN 14
#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_ARP 0x0806
#define ETHERTYPE_VLAN 0x8100

/* An IPv4 frame taken apart (at most one 802.1Q tag). */
typedef struct net_ipv4 {
    size_t l3;     /* offset of the IP header */
    size_t ihl;    /* IP header length in bytes */
    size_t ip_len; /* IP total length */
    uint8_t proto;
    uint32_t src, dst;
    bool csum_ok;  /* header checksum verifies */
    bool fragment; /* MF set or offset != 0 */
} net_ipv4;
/* Offset of the Ethernet type field's payload and the type (after one VLAN tag). */
size_t net_eth_l3(const uint8_t *f, size_t len, uint16_t *type);
/* True when f is a well-formed IPv4 frame (lengths consistent with len). */
bool net_parse_ipv4_frame(const uint8_t *f, size_t len, net_ipv4 *ip);

typedef struct net_udp {
    size_t off; /* offset of the UDP header */
    uint16_t sport, dport;
    const uint8_t *data; /* payload */
    size_t data_len;
    bool csum_ok; /* checksum verifies or is absent (0) */
} net_udp;
/* True when f is an unfragmented, well-formed IPv4/UDP frame. */
bool net_parse_udp_frame(const uint8_t *f, size_t len, net_ipv4 *ip, net_udp *u);

/* The payload pattern (see net_payload_byte). */
void net_payload_fill(uint8_t *pl, size_t len, uint32_t k);
/* True when pl carries message *k correctly (len >= 4). */
bool net_payload_verify(const uint8_t *pl, size_t len, uint32_t *k);
/* The contribution of a verified payload to net_stats.payload_sum (a sum
 * mod 2^32): FNV-1a (32 bits) over k and the payload length, each 4 bytes
 * big-endian.  A verified payload is fully determined by (k, len), so this
 * costs nothing per byte and still tells runs apart. */
uint32_t net_payload_hash(uint32_t k, size_t len);

typedef struct net_udp_spec {
    uint8_t dst_mac[6], src_mac[6];
    uint32_t src_ip, dst_ip;
    uint16_t sport, dport;
} net_udp_spec;
/* Build a `size`-byte IPv4/UDP frame (size >= 46) carrying message k with
 * correct IP and UDP checksums. */
void net_build_udp(uint8_t *f, size_t size, const net_udp_spec *s, uint32_t k);

#endif
