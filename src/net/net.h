/* Frame backends: where a NIC's frames go and come from.
 *
 * A NIC owns a net_port.  It hands transmitted frames (Ethernet header to
 * payload, no FCS) to net_port_send(); received frames arrive through the
 * port's rx callback.  The port writes every frame in both directions to a
 * pcap file when asked and keeps the counts, so backends and NICs need no
 * special cases for either.
 *
 * Backends (spec strings):
 *   sink[:verify]              count, verify and drop frames
 *   echo                       answer ARP and ICMP echo, echo UDP back
 *   gen:size=N,rate=PPS,count=N[,dst=MAC][,proto=udp]
 *                              generate frames toward the NIC on the virtual clock
 *   tap:IFNAME                 a Linux tap device
 *   socket:udp:LPORT:HOST:RPORT | socket:unix:PATH (listen) | socket:unix-connect:PATH
 *                              a link to another xbow process
 *   vde:PATH                   a VDE switch (libvdeplug)
 * The payload pattern shared by `gen`, `sink` and the example drivers is in
 * net_payload_byte().
 */
#ifndef XBOW_NET_H
#define XBOW_NET_H

#include "core/event.h"
#include "core/sched.h"
#include "core/strbuf.h"

#define NET_MAX_FRAME 16384

typedef struct net_port net_port;
typedef struct net_backend net_backend;

/* Delivers a received frame to the NIC.  Returns true if the NIC took it,
 * false if it had to drop it (the NIC counts the reason; the port counts
 * the drop too). */
typedef bool (*net_rx_fn)(void *nic, const uint8_t *frame, size_t len);

typedef struct net_stats {
    uint64_t tx_frames, tx_bytes; /* NIC -> backend */
    uint64_t rx_frames, rx_bytes; /* backend -> NIC, accepted */
    uint64_t rx_dropped;          /* backend -> NIC, refused by the NIC */
    uint64_t bad_payload;         /* sink: frames whose payload failed verification */
    uint32_t payload_sum;         /* sink/gen: running checksum of verified payloads */
} net_stats;

struct net_backend {
    const char *kind; /* "sink", "tap", ... */
    net_port *port;
    /* NIC transmitted a frame. */
    void (*send)(net_backend *b, const uint8_t *frame, size_t len);
    /* Pull host-side frames (called periodically on the virtual clock). */
    void (*poll)(net_backend *b);
    void (*close)(net_backend *b);
    void (*show)(net_backend *b, strbuf *out);
    int fd;          /* host file descriptor to poll, -1 if none */
};

struct net_port {
    char name[24];          /* the NIC's name */
    net_backend *backend;
    net_rx_fn rx;
    void *nic;
    void *pcap;             /* pcap writer, NULL if none */
    sched *clock;
    net_stats stats;
    event_src *ev_tx, *ev_rx, *ev_drop;
    timer poll_timer;
};

/* Open a port for NIC `name` with backend `spec`; pcap_path may be NULL. */
net_port *net_port_open(const char *name, const char *spec, const char *pcap_path, sched *clock,
                        event_bus *eb, char *err, size_t errlen);
void net_port_close(net_port *p);
void net_port_attach(net_port *p, net_rx_fn rx, void *nic);
/* NIC -> wire. */
void net_port_send(net_port *p, const uint8_t *frame, size_t len);
/* Backend -> NIC (used by backends); returns what the NIC's rx returned. */
bool net_port_deliver(net_port *p, const uint8_t *frame, size_t len);
void net_port_show(net_port *p, strbuf *out);

/* The verifiable payload: byte i of the payload of message k. */
static inline uint8_t net_payload_byte(uint32_t k, uint32_t i) { return (uint8_t)(k * 7 + i); }

#endif
