/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ttcp -- UDP throughput tool in the spirit of the classic ttcp, for the
 * xbow guest.
 *
 *   ttcp -t [-l msgsize] [-n count] [-p port] [-d usec] HOST    transmit
 *   ttcp -r [-l msgsize] [-n count] [-p port] [-w sec]          receive
 *
 * Defaults: -l 1024, -n 1024 (transmit; receive: unlimited), -p 5001; the
 * receiver checks message lengths (otherlen=) only when -l is given, and
 * gives up after -w 30 seconds without traffic.
 *
 * Protocol (documented so a host-side peer can implement it):
 *  - Data datagrams are exactly `msgsize` bytes (5 <= msgsize <= 65507).
 *    Byte i of data message k (k = 0, 1, ...) is (k*7 + i) & 0xff.  The
 *    receiver can therefore check every message alone: byte[i] must equal
 *    (byte[0] + i) & 0xff, and k mod 256 = byte[0] * 183 mod 256 (183 is the
 *    inverse of 7 mod 256), which reveals loss and reordering.
 *  - Sentinels are datagrams of 4 bytes or less ("ttcp").  The transmitter
 *    sends one before the data and four after it.  The receiver starts the
 *    clock at the first datagram of either kind and stops at the first
 *    sentinel that follows data (or after -n data messages, or after -w
 *    seconds without traffic).
 *  - The checksum is the sum of all payload bytes of all data messages,
 *    modulo 2^32, printed as 0x%08x.  For n messages of l bytes without
 *    loss both sides print the same value, which a peer can compute as
 *    sum over k < n, i < l of ((k*7 + i) & 0xff).
 *
 * Each side ends with one report line:
 *   ttcp-t: msgs=N bytes=B time_us=T rate_kBps=R rate_Mbps=M.mmm cksum=0xXXXXXXXX
 *   ttcp-r: msgs=N bytes=B time_us=T rate_kBps=R rate_Mbps=M.mmm cksum=0xXXXXXXXX bad=E seqerr=S
 * (kBps = 1000 bytes/s).  Exit status 0 on success; the receiver exits 1 if
 * no data arrived or a message failed the pattern check.
 */
#include "xlibc.h"

#define MAXMSG 65507

static unsigned char buf[MAXMSG + 1];

static void usage(void)
{
	xeprintf(
	    "usage: ttcp -t [-l msgsize] [-n count] [-p port] [-d usec] HOST\n"
	    "       ttcp -r [-l msgsize] [-n count] [-p port] [-w sec]\n");
	_exit(2);
}

static void report(const char *who, unsigned long msgs, uint64_t bytes,
		   uint64_t us, uint32_t cksum)
{
	uint64_t kbps, mbps_milli;

	if (!us)
		us = 1;
	kbps = bytes * 1000u / us; /* bytes/us * 1e6 / 1e3 */
	mbps_milli = bytes * 8000u / us; /* Mbit/s * 1000 */
	xprintf("%s: msgs=%lu bytes=%lu time_us=%lu rate_kBps=%lu "
		"rate_Mbps=%lu.%03lu "
		"cksum=0x%08x",
		who, msgs, (unsigned long)bytes, (unsigned long)us,
		(unsigned long)kbps, (unsigned long)(mbps_milli / 1000),
		(unsigned long)(mbps_milli % 1000), (unsigned)cksum);
}

static void fill(unsigned char *p, unsigned long len, unsigned long k)
{
	unsigned base = (unsigned)(k * 7u);
	unsigned long i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(base + i);
}

static uint32_t sum_bytes(const unsigned char *p, unsigned long len)
{
	uint32_t s = 0;
	unsigned long i;

	for (i = 0; i < len; i++)
		s += p[i];
	return s;
}

static int transmit(const char *host, unsigned port, unsigned long len,
		    unsigned long count, unsigned long delay_us)
{
	struct sockaddr_in sa;
	uint64_t t0, t1, bytes = 0;
	uint32_t cksum = 0;
	unsigned long k, nobufs = 0;
	int fd, i;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	if (xparse_ip4(host, &sa.sin_addr.s_addr)) {
		xeprintf("ttcp: bad address '%s' (dotted quad expected)\n",
			 host);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		xeprintf("ttcp: socket: %s\n", xstrerror(errno));
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		xeprintf("ttcp: connect: %s\n", xstrerror(errno));
		return 1;
	}
	xprintf("ttcp-t: msgsize=%lu count=%lu port=%u -> %s\n", len, count,
		port, host);

	t0 = xnow_us();
	(void)!write(fd, "ttcp", 4); /* start sentinel */
	for (k = 0; k < count; k++) {
		fill(buf, len, k);
		for (;;) {
			ssize_t n = write(fd, buf, len);

			if (n == (ssize_t)len)
				break;
			if (n < 0 && (errno == ENOBUFS || errno == EAGAIN)) {
				nobufs++;
				xsleep_ms(1);
				continue;
			}
			if (n < 0 && (errno == ECONNREFUSED || errno == EINTR))
				continue; /* ICMP port unreachable from an earlier datagram */
			xeprintf("ttcp: write: %s\n",
				 n < 0 ? xstrerror(errno) : "short write");
			return 1;
		}
		bytes += len;
		cksum += sum_bytes(buf, len);
		if (delay_us) {
			struct timespec ts = {(time_t)(delay_us / 1000000),
					      (long)(delay_us % 1000000) *
						  1000L};
			nanosleep(&ts, NULL);
		}
	}
	t1 = xnow_us();
	for (i = 0; i < 4; i++) { /* end sentinels */
		(void)!write(fd, "ttcp", 4);
		xsleep_ms(1);
	}
	close(fd);
	report("ttcp-t", count, bytes, t1 - t0, cksum);
	xprintf(" nobufs=%lu\n", nobufs);
	return 0;
}

static int receive(unsigned port, unsigned long len, unsigned long count,
		   unsigned long wait_s)
{
	struct sockaddr_in sa;
	uint64_t t0 = 0, tlast = 0, bytes = 0;
	uint32_t cksum = 0;
	unsigned long msgs = 0, bad = 0, seqerr = 0, other_len = 0;
	int fd, started = 0, one = 1;
	int rcvbuf = 1 << 20;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		xeprintf("ttcp: socket: %s\n", xstrerror(errno));
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		xeprintf("ttcp: bind port %u: %s\n", port, xstrerror(errno));
		return 1;
	}
	xprintf(
	    "ttcp-r: msgsize=%lu count=%lu port=%u waiting (timeout %lus)\n",
	    len, count, port, wait_s);

	for (;;) {
		struct pollfd pfd = {fd, POLLIN, 0};
		int pr = poll(&pfd, 1, (int)(wait_s * 1000));
		ssize_t n;

		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			if (pr == 0)
				xprintf("ttcp-r: timeout after %lus without "
					"traffic\n",
					wait_s);
			break;
		}
		n = recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			xeprintf("ttcp: recv: %s\n", xstrerror(errno));
			break;
		}
		tlast = xnow_us();
		if (!started) {
			started = 1;
			t0 = tlast;
		}
		if (n <= 4) { /* sentinel */
			if (msgs)
				break;
			continue;
		}
		{
			unsigned char b0 = buf[0];
			unsigned long i;
			int ok = 1;

			for (i = 1; i < (unsigned long)n; i++) {
				if (buf[i] != (unsigned char)(b0 + i)) {
					ok = 0;
					break;
				}
			}
			if (!ok)
				bad++;
			if ((unsigned char)(b0 * 183u) != (unsigned char)msgs)
				seqerr++;
			if (len && (unsigned long)n != len)
				other_len++;
		}
		msgs++;
		bytes += (uint64_t)n;
		cksum += sum_bytes(buf, (unsigned long)n);
		if (count && msgs >= count)
			break;
	}
	close(fd);
	report("ttcp-r", msgs, bytes, started ? tlast - t0 : 0, cksum);
	xprintf(" bad=%lu seqerr=%lu otherlen=%lu\n", bad, seqerr, other_len);
	return (msgs && !bad) ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned long len = 1024, count = 0, port = 5001, delay_us = 0,
		      wait_s = 0;
	int mode = 0, count_set = 0, len_set = 0, i;
	const char *host = NULL;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long *dst = NULL;

		if (!strcmp(a, "-t") || !strcmp(a, "-r")) {
			mode = a[1];
			continue;
		}
		if (!strcmp(a, "-l"))
			dst = &len, len_set = 1;
		else if (!strcmp(a, "-n"))
			dst = &count, count_set = 1;
		else if (!strcmp(a, "-p"))
			dst = &port;
		else if (!strcmp(a, "-d"))
			dst = &delay_us;
		else if (!strcmp(a, "-w"))
			dst = &wait_s;
		else if (a[0] == '-')
			usage();
		else if (!host) {
			host = a;
			continue;
		} else
			usage();
		if (++i >= argc || xparse_ulong(argv[i], dst))
			usage();
	}
	if (!mode || (len_set && (len < 5 || len > MAXMSG)) || port == 0 ||
	    port > 65535)
		usage();
	if (mode == 't') {
		if (!host)
			usage();
		if (!count_set)
			count = 1024;
		return transmit(host, (unsigned)port, len, count, delay_us);
	}
	if (host)
		usage();
	if (!wait_s)
		wait_s = 30;
	/* The receiver checks message lengths only when -l is given. */
	return receive((unsigned)port, len_set ? len : 0, count, wait_s);
}
