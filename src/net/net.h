/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Frame backends: where a NIC's frames go and come from.
 *
 * A NIC owns a net_port.  It hands transmitted frames (Ethernet header to
 * payload, no FCS) to net_port_send(); received frames arrive through the
 * port's rx callback.  The port writes every frame in both directions to a
 * pcap file when asked and keeps the counts, so backends and NICs need no
 * special cases for either.
 *
 * Backends (spec strings; docs/networking.md has the details):
 *   sink[:verify|noverify][,port=N]
 *                              count and drop frames, verify the UDP payload pattern
 *   echo[:ip=A.B.C.D][,mac=M][,mask=N][,latency=T]
 *                              answer ARP and ICMP echo, echo UDP back
 *   gen:size=N,rate=PPS,count=N[,dst=MAC][,proto=udp][,start=T|tx]...
 *                              generate frames toward the NIC on the virtual clock
 *   tap:IFNAME                 a Linux tap device
 *   socket:udp:LPORT:HOST:RPORT | socket:unix:PATH (listen) | socket:unix-connect:PATH
 *                              a link to another xbow process
 *   vde:PATH                   a VDE switch (libvdeplug)
 * The built-in peers (sink, echo, gen) run on the virtual clock and are
 * deterministic; host backends are polled every NET_POLL_NS of virtual time.
 * The payload pattern shared by `gen`, `sink` and the example drivers is in
 * net_payload_byte().
 */
#ifndef XBOW_NET_H
#define XBOW_NET_H

#include "core/event.h"
#include "core/sched.h"
#include "core/strbuf.h"

#define NET_MAX_FRAME 16384
#define NET_MIN_FRAME 60             /* shortest frame on the wire without FCS */
#define NET_POLL_NS 100000ull        /* host backends are polled every 100 us of virtual time */
#define NET_PACE_MAX_NS 100000000ull /* a poll of an idle machine waits at most 100 ms */
#define NET_POLL_BATCH 64            /* frames read from a host backend per poll at most */
/* Frames from a host backend cross the wire at 1 Gb/s: each takes its length
 * plus FCS, preamble and inter-frame gap (4 + 8 + 12 bytes) at 8 ns a byte.
 * A backend reads no more than the wire carries until the next poll
 * (net_port_host_room): the rest waits on the host (the tap's queue, the
 * socket's buffer, the VDE reader's ring), where the host counts what it
 * cannot hold, as a switch would.  The wire queue's bounds are a backstop. */
#define NET_WIRE_QUEUE_FRAMES 4096
#define NET_WIRE_QUEUE_BYTES (8u << 20)

typedef struct net_port net_port;
typedef struct net_backend net_backend;

/* Delivers a received frame to the NIC.  Returns true if the NIC took it,
 * false if it had to drop it (the NIC counts the reason; the port counts
 * the drop too). */
typedef bool (*net_rx_fn)(void *nic, const uint8_t *frame, size_t len);
/* Whether the NIC lets its link partner send (802.3x flow control: false
 * while it has sent XOFF).  A pure query: no side effects. */
typedef bool (*net_ready_fn)(void *nic);

/* Direction and reason of a dropped frame (the `net.drop` event fields). */
enum net_dir { NET_DIR_TX, NET_DIR_RX };
enum net_drop_reason {
    NET_DROP_REFUSED, /* the NIC's rx refused it (ring full, filter, disabled) */
    NET_DROP_NO_NIC,  /* no NIC attached to the port */
    NET_DROP_LENGTH,  /* shorter than an Ethernet header or longer than NET_MAX_FRAME */
    NET_DROP_HOST,    /* the host could not take it (I/O error, buffer full) */
    NET_DROP_NO_PEER, /* socket backend with nobody at the other end */
    NET_DROP_QUEUE,   /* a queue is full (echo's replies, the wire queue of a host backend) */
    NET_NDROP_REASONS
};
typedef struct net_stats {
    uint64_t tx_frames, tx_bytes; /* NIC -> backend */
    uint64_t tx_dropped;          /* NIC -> backend, the backend could not carry it */
    uint64_t rx_frames, rx_bytes; /* backend -> NIC, accepted */
    uint64_t rx_dropped;          /* backend -> NIC, refused by the NIC or malformed */
    uint64_t bad_payload;         /* sink: frames whose payload failed verification */
    uint32_t payload_sum; /* sink/gen: running checksum of verified payloads (docs/networking.md) */
    uint64_t own_src;     /* backend -> NIC frames whose source is the NIC's own address */
    uint64_t wire_max;    /* most frames ever waiting in the wire queue */
    uint64_t rx_host;     /* frames a host backend read (they cross the wire, then are
                             rx_frames or rx_dropped: info nic shows the sum) */
    uint64_t rx_drops[NET_NDROP_REASONS]; /* rx_dropped by reason */
} net_stats;

const char *net_drop_reason_name(int reason);

struct net_backend {
    const char *kind; /* "sink", "tap", ... */
    net_port *port;
    /* NIC transmitted a frame (a backend without xmit). */
    void (*send)(net_backend *b, const uint8_t *frame, size_t len);
    /* A host backend's output (tap, socket): hand one frame to descriptor
     * fd without blocking; -1 when the host took it, else the drop reason
     * (enum net_drop_reason) with errno in *err.  It runs on the port's
     * writer thread (src/net/writer.c), so it touches nothing but fd and
     * counters of its own that it updates atomically. */
    int (*xmit)(net_backend *b, int fd, const uint8_t *frame, size_t len, int *err);
    int tx_fd; /* the descriptor xmit writes to, -1 while there is no peer */
    /* Pull host-side frames (called periodically on the virtual clock). */
    void (*poll)(net_backend *b);
    void (*close)(net_backend *b);
    void (*show)(net_backend *b, strbuf *out);
    int fd; /* host file descriptor to poll, -1 if none */
    /* Snapshots: the backend's own state (a built-in peer's counters,
     * sequence and queued frames); NULL for a backend outside the machine. */
    void (*state_save)(net_backend *b, strbuf *out);
    int (*state_check)(net_backend *b, const uint8_t *img, size_t len, xerr *err);
    void (*state_load)(net_backend *b, const uint8_t *img, size_t len);
    /* A replay of a host backend (net/replay.c): fd is 0 while the recorded
     * backend had a descriptor, but no host descriptor; the port polls it
     * on the virtual clock without asking the host. */
    bool replayed;
};

struct net_port {
    char name[24];  /* the NIC's name */
    char spec[160]; /* the backend spec it was opened with */
    net_backend *backend;
    net_rx_fn rx;
    net_ready_fn ready; /* NULL: the NIC never pauses its partner */
    void *nic;
    void *pcap; /* pcap writer, NULL if none */
    sched *clock;
    net_stats stats;
    event_src *ev_tx, *ev_rx, *ev_drop;
    timer poll_timer;
    uint64_t poll_ticks; /* host backend poll period in ticks */
    uint8_t mac[6];      /* the NIC's station address, if mac_known */
    bool mac_known;
    /* Frames from a host backend on their way across the wire. */
    struct net_wire_frame *wire_head, *wire_tail;
    unsigned wire_frames;
    size_t wire_bytes;
    uint64_t wire_free_at; /* virtual time the last queued frame is through */
    timer wire_timer;
    /* Record/replay (core/rr.h, clock->rr) of a host backend: its channel in
     * the log, whether the backend's own code is running (what it drops
     * then is an input), whether it had a descriptor when last seen. */
    bool rr_host;
    unsigned rr_channel;
    bool rr_in_backend, rr_live;
    bool rr_in_poll; /* ... and it runs at a poll (a send's drop counted there) */
    uint8_t *rr_buf;
    /* The writer thread of a backend with xmit (NULL: xmit runs on the
     * emulation thread); whether a refusal's errno was logged. */
    struct net_writer *writer;
    bool tx_err_logged;
    char hp_send[32], hp_poll[32]; /* host profile sections: "NIC (send)", "NIC (poll)" */
    /* A host backend (tap, socket, vde): its inputs go to the history's log
     * (clock->hist) as stream hist_stream, and come from it while it feeds. */
    bool host;
    unsigned hist_stream;
};

/* Open a port for NIC `name` with backend `spec`; pcap_path may be NULL,
 * eb may be NULL (no events). */
net_port *net_port_open(const char *name, const char *spec, const char *pcap_path, sched *clock,
                        event_bus *eb, xerr *err);
void net_port_close(net_port *p);
void net_port_attach(net_port *p, net_rx_fn rx, void *nic);
/* The NIC's flow control (802.3x PAUSE): host backends, the link partners
 * that honour it, read nothing while ready(nic) is false.  The built-in
 * peers do not pause (a traffic generator ignores PAUSE). */
void net_port_set_ready(net_port *p, net_ready_fn ready);
/* The NIC's station address, for peers that address it (gen's default
 * destination).  Without it the port learns the source address of the
 * first unicast-sourced frame the NIC sends. */
void net_port_set_mac(net_port *p, const uint8_t mac[6]);
/* NIC -> wire. */
void net_port_send(net_port *p, const uint8_t *frame, size_t len);
/* Backend -> NIC (used by backends); returns what the NIC's rx returned.
 * Frames shorter than NET_MIN_FRAME are zero-padded as a sender would. */
bool net_port_deliver(net_port *p, const uint8_t *frame, size_t len);
/* A frame a host backend read (tap, socket, vde): it reaches the NIC when
 * it has crossed the 1 Gb/s wire after the frames before it, never in a
 * burst faster than a wire carries (a host reads many frames at one poll).
 * Dropped with NET_DROP_QUEUE when the wire queue is full. */
void net_port_host_rx(net_port *p, const uint8_t *frame, size_t len);
/* Whether a host backend should read another frame at this poll: true while
 * the frames on the wire are through before the next poll, so the backend
 * reads at the wire's rate and leaves the rest where the host keeps it, and
 * while the NIC has not paused its link partner (net_port_set_ready).
 * A frame it reads is never dropped by the port for want of room. */
bool net_port_host_room(const net_port *p);
/* Count a frame a backend had to drop (dir: enum net_dir). */
void net_port_drop(net_port *p, int dir, size_t len, int reason);
/* Write buffered capture records out (the debugger calls it when the
 * machine stops; the port also does it periodically and at close). */
void net_port_flush(net_port *p);
/* Snapshots (netstate.c): the port's state (counters, frames on the wire,
 * its timers) and its backend's.  check: whether img can be loaded into p
 * (0, or -1 with why); load checks again and changes nothing on an error. */
void net_port_state_save(net_port *p, strbuf *out);
int net_port_state_check(net_port *p, const void *img, size_t len, xerr *err);
int net_port_state_load(net_port *p, const void *img, size_t len, xerr *err);
/* `info net`: backend, counters, capture. */
void net_port_show(net_port *p, strbuf *out);

/* The verifiable payload: byte i of the payload of message k.  A UDP
 * payload of message k is k as 4 bytes big-endian, then net_payload_byte(k, i)
 * for i = 4 .. len-1. */
static inline uint8_t net_payload_byte(uint32_t k, uint32_t i) { return (uint8_t)(k * 7 + i); }

#endif
