/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ping -- ICMP echo over a raw socket, for the xbow guest.
 *
 *   ping [-c count] [-s size] [-i interval_ms] [-W timeout_ms] HOST
 *
 * Defaults: -c 4, -s 56 payload bytes, -i 1000 ms between requests,
 * -W 2000 ms extra wait for late replies after the last request.
 * Payload: an 8-byte send timestamp (microseconds, big-endian) followed by
 * bytes (i & 0xff) for payload offset i.  Prints iputils-style lines:
 *   64 bytes from 10.0.2.2: icmp_seq=1 ttl=64 time=0.412 ms
 * and a summary:
 *   --- 10.0.2.2 ping statistics ---
 *   4 packets transmitted, 4 received, 0% packet loss
 *   rtt min/avg/max = 0.301/0.402/0.512 ms
 * Exit status: 0 if at least one reply came back, 1 if none, 2 on usage or
 * socket errors.
 */
#include "xlibc.h"

#define MAXPAYLOAD 65000

static unsigned char pkt[MAXPAYLOAD + 64];
static unsigned char rbuf[MAXPAYLOAD + 256];
static unsigned char seen[65536 / 8];

static void usage(void)
{
	xeprintf("usage: ping [-c count] [-s size] [-i interval_ms] [-W "
		 "timeout_ms] HOST\n");
	_exit(2);
}

static uint16_t in_cksum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t sum = 0;

	while (len > 1) {
		sum += (uint32_t)(p[0] << 8 | p[1]);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += (uint32_t)(p[0] << 8);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static void fmt_ms(char *out, size_t n, uint64_t us)
{
	xsnprintf(out, n, "%lu.%03lu", (unsigned long)(us / 1000),
		  (unsigned long)(us % 1000));
}

int main(int argc, char **argv)
{
	unsigned long count = 4, size = 56, interval = 1000, linger = 2000;
	unsigned long sent = 0, received = 0, dups = 0;
	uint64_t rtt_min = ~0ull, rtt_max = 0, rtt_sum = 0, start;
	const char *host = NULL;
	struct sockaddr_in dst;
	uint16_t ident = (uint16_t)(getpid() & 0xffff);
	char abuf[16], t1[24], t2[24], t3[24];
	int fd, i;

	for (i = 1; i < argc; i++) {
		unsigned long *p = NULL;

		if (!strcmp(argv[i], "-c"))
			p = &count;
		else if (!strcmp(argv[i], "-s"))
			p = &size;
		else if (!strcmp(argv[i], "-i"))
			p = &interval;
		else if (!strcmp(argv[i], "-W"))
			p = &linger;
		else if (argv[i][0] == '-' || host)
			usage();
		else {
			host = argv[i];
			continue;
		}
		if (++i >= argc || xparse_ulong(argv[i], p))
			usage();
	}
	if (!host || !count || count > 65535 || size < 8 || size > MAXPAYLOAD)
		usage();

	memset(&dst, 0, sizeof(dst));
	dst.sin_family = AF_INET;
	if (xparse_ip4(host, &dst.sin_addr.s_addr)) {
		xeprintf("ping: bad address '%s' (dotted quad expected)\n",
			 host);
		return 2;
	}
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (fd < 0) {
		xeprintf("ping: socket: %s\n", xstrerror(errno));
		return 2;
	}
	xfmt_ip4(dst.sin_addr.s_addr, abuf);
	xprintf("PING %s: %lu data bytes\n", abuf, size);

	start = xnow_us();
	for (;;) {
		uint64_t now = xnow_us();
		uint64_t deadline;
		int timeout;

		/* Send the next request when it is due. */
		if (sent < count && now >= start + sent * interval * 1000u) {
			struct icmphdr *ic = (struct icmphdr *)pkt;
			unsigned char *pl = pkt + sizeof(*ic);
			unsigned long k;

			memset(ic, 0, sizeof(*ic));
			ic->type = ICMP_ECHO;
			ic->un.echo.id = htons(ident);
			ic->un.echo.sequence = htons((uint16_t)(sent + 1));
			for (k = 0; k < 8; k++)
				pl[k] = (unsigned char)(now >> (56 - 8 * k));
			for (k = 8; k < size; k++)
				pl[k] = (unsigned char)k;
			ic->checksum = in_cksum(pkt, sizeof(*ic) + size);
			if (sendto(fd, pkt, sizeof(*ic) + size, 0,
				   (struct sockaddr *)&dst, sizeof(dst)) < 0)
				xeprintf("ping: sendto: %s\n",
					 xstrerror(errno));
			sent++;
			continue;
		}
		if (sent >= count && received >= count)
			break;
		deadline = sent < count
		    ? start + sent * interval * 1000u
		    : start + (count - 1) * interval * 1000u + linger * 1000u;
		if (now >= deadline) {
			if (sent >= count)
				break;
			continue;
		}
		timeout = (int)((deadline - now + 999) / 1000);
		{
			struct pollfd pfd = {fd, POLLIN, 0};
			int pr = poll(&pfd, 1, timeout);
			struct iphdr *ip;
			struct icmphdr *ic;
			unsigned hl, seq;
			ssize_t n;
			uint64_t sent_us = 0, rtt;
			unsigned long k;

			if (pr <= 0)
				continue;
			n = recvfrom(fd, rbuf, sizeof(rbuf), 0, NULL, NULL);
			if (n < (ssize_t)sizeof(struct iphdr))
				continue;
			ip = (struct iphdr *)rbuf;
			hl = ip->ihl * 4u;
			if (n < (ssize_t)(hl + sizeof(*ic) + 8))
				continue;
			ic = (struct icmphdr *)(rbuf + hl);
			if (ic->type != ICMP_ECHOREPLY ||
			    ntohs(ic->un.echo.id) != ident)
				continue;
			if (ip->saddr != dst.sin_addr.s_addr)
				continue;
			seq = ntohs(ic->un.echo.sequence);
			for (k = 0; k < 8; k++)
				sent_us =
				    sent_us << 8 | rbuf[hl + sizeof(*ic) + k];
			now = xnow_us();
			rtt = now >= sent_us ? now - sent_us : 0;
			fmt_ms(t1, sizeof(t1), rtt);
			if (seen[seq / 8] & (1u << (seq % 8))) {
				dups++;
				xprintf("%ld bytes from %s: icmp_seq=%u ttl=%u "
					"time=%s ms (DUP!)\n",
					(long)(n - hl), abuf, seq, ip->ttl, t1);
				continue;
			}
			seen[seq / 8] |= (unsigned char)(1u << (seq % 8));
			received++;
			rtt_sum += rtt;
			if (rtt < rtt_min)
				rtt_min = rtt;
			if (rtt > rtt_max)
				rtt_max = rtt;
			xprintf("%ld bytes from %s: icmp_seq=%u ttl=%u time=%s "
				"ms\n",
				(long)(n - hl), abuf, seq, ip->ttl, t1);
		}
	}
	xprintf("--- %s ping statistics ---\n", abuf);
	xprintf("%lu packets transmitted, %lu received, ", sent, received);
	if (dups)
		xprintf("+%lu duplicates, ", dups);
	xprintf("%lu%% packet loss, time %lums\n",
		sent ? (sent - received) * 100 / sent : 0,
		(unsigned long)((xnow_us() - start) / 1000));
	if (received) {
		fmt_ms(t1, sizeof(t1), rtt_min);
		fmt_ms(t2, sizeof(t2), rtt_sum / received);
		fmt_ms(t3, sizeof(t3), rtt_max);
		xprintf("rtt min/avg/max = %s/%s/%s ms\n", t1, t2, t3);
	}
	return received ? 0 : 1;
}
