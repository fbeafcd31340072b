/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdb's remote serial protocol (RSP), the framing only: packets
 * "$data#cs", acknowledgements, the Ctrl-C byte, hex and the binary
 * escape.  Pure code, no I/O: the stub (gdbstub.c) feeds the decoder the
 * bytes it reads and sends what the encoder builds; the fuzz target
 * (tests/fuzz/fuzz_gdb.c) feeds it anything. */
#ifndef XBOW_RSP_H
#define XBOW_RSP_H

#include "core/common.h"
#include "core/strbuf.h"

/* The largest packet we take or send (advertised as PacketSize in
 * qSupported; gdb then never sends more). */
#define RSP_MAX_PACKET 16384

enum rsp_event {
    RSP_NONE = 0,     /* nothing yet (in the middle of a packet, or a byte ignored) */
    RSP_PACKET,       /* a whole packet with a good checksum: buf, len */
    RSP_ACK,          /* '+' */
    RSP_NAK,          /* '-': resend the last reply */
    RSP_INTERRUPT,    /* 0x03 outside a packet: stop the target */
    RSP_BAD_CHECKSUM, /* a whole packet whose checksum did not match */
    RSP_TOO_LONG,     /* a whole packet longer than RSP_MAX_PACKET (data dropped) */
};

enum rsp_state { RSP_ST_IDLE, RSP_ST_DATA, RSP_ST_CS1, RSP_ST_CS2 };

typedef struct rsp_decoder {
    enum rsp_state state;
    uint8_t sum; /* of the data so far */
    uint8_t cs;  /* the checksum as sent */
    size_t len;
    bool overflow;
    uint64_t garbage;  /* bytes seen outside packets that mean nothing */
    uint64_t restarts; /* packets abandoned for a '$' inside them */
    /* The packet's data as sent (still escaped), NUL-terminated. */
    char buf[RSP_MAX_PACKET + 1];
} rsp_decoder;

void rsp_init(rsp_decoder *d);
/* Feed one byte; returns an rsp_event. */
int rsp_feed(rsp_decoder *d, uint8_t byte);

/* "$data#cs" for len bytes of data (already escaped if binary). */
void rsp_frame(strbuf *out, const char *data, size_t len);
/* Append n bytes as binary data with '#', '$', '}' and '*' escaped. */
void rsp_escape(strbuf *out, const uint8_t *p, size_t n);
/* Undo the escape in place: returns the length of the data, or -1 when it
 * ends in the middle of an escape. */
long rsp_unescape(uint8_t *p, size_t n);

/* Append bytes as two lower-case hex digits each. */
void rsp_hex(strbuf *out, const uint8_t *p, size_t n);
void rsp_hex_str(strbuf *out, const char *s);
/* Decode exactly 2n hex digits into n bytes; -1 if any is not hex. */
int rsp_unhex(const char *s, uint8_t *out, size_t n);
/* A hex number at *s (1 to 16 digits), advancing *s past it; -1 if there is
 * none or it does not fit in 64 bits. */
int rsp_parse_hex(const char **s, uint64_t *v);

#endif
