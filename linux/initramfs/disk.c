/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * disk -- file and disk tools of the xbow initramfs, one binary called by
 * the name it is run as (the initramfs links each name to it):
 *
 *   md5sum FILE...                 "<32 hex digits>  FILE" per file, as
 *                                  coreutils prints it
 *   dd [if=F] [of=F] [bs=N] [count=N] [skip=N] [seek=N] [conv=fsync]
 *                                  copy blocks (N may end in k, M or G);
 *                                  the summary on stderr as coreutils
 *                                  prints it: records in/out, bytes, time,
 *                                  rate
 *   sync                           sync(2)
 *   umount DIR                     umount(2)
 *   mkdir DIR...                   mkdir(2), mode 0755
 *   disk NAME ARGS...              the same, by name
 */
#include "xlibc.h"

/* ------------------------------------------------------------ md5 (RFC 1321) */

struct md5 {
	uint32_t h[4];
	uint64_t len;
	uint8_t buf[64];
	unsigned n;
};

static const uint32_t md5_k[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
    0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
    0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};
static const uint8_t md5_r[16] = {7, 12, 17, 22, 5, 9,	14, 20,
				  4, 11, 16, 23, 6, 10, 15, 21};

static void md5_init(struct md5 *m)
{
	m->h[0] = 0x67452301;
	m->h[1] = 0xefcdab89;
	m->h[2] = 0x98badcfe;
	m->h[3] = 0x10325476;
	m->len = 0;
	m->n = 0;
}

static void md5_block(struct md5 *m, const uint8_t *p)
{
	uint32_t w[16], a = m->h[0], b = m->h[1], c = m->h[2], d = m->h[3];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		    (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
	for (int i = 0; i < 64; i++) {
		uint32_t f, t;
		int g;

		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) & 15;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) & 15;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) & 15;
		}
		t = a + f + md5_k[i] + w[g];
		unsigned s = md5_r[(i >> 4) * 4 + (i & 3)];
		a = d;
		d = c;
		c = b;
		b = b + (t << s | t >> (32 - s));
	}
	m->h[0] += a;
	m->h[1] += b;
	m->h[2] += c;
	m->h[3] += d;
}

static void md5_update(struct md5 *m, const uint8_t *p, size_t n)
{
	m->len += n;
	while (n) {
		if (m->n == 0 && n >= 64) {
			md5_block(m, p);
			p += 64;
			n -= 64;
			continue;
		}
		size_t k = 64 - m->n < n ? 64 - m->n : n;
		memcpy(m->buf + m->n, p, k);
		m->n += k;
		p += k;
		n -= k;
		if (m->n == 64) {
			md5_block(m, m->buf);
			m->n = 0;
		}
	}
}

static void md5_final(struct md5 *m, uint8_t out[16])
{
	uint64_t bits = m->len * 8;
	uint8_t pad = 0x80, z = 0, l[8];

	md5_update(m, &pad, 1);
	while (m->n != 56)
		md5_update(m, &z, 1);
	for (int i = 0; i < 8; i++)
		l[i] = (uint8_t)(bits >> (8 * i));
	md5_update(m, l, 8);
	for (int i = 0; i < 16; i++)
		out[i] = (uint8_t)(m->h[i / 4] >> (8 * (i % 4)));
}

static char iobuf[1 << 20];

static int md5sum(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		xeprintf("usage: md5sum FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct md5 m;
		uint8_t d[16];
		int fd = open(argv[i], O_RDONLY);
		ssize_t n;

		if (fd < 0) {
			xeprintf("md5sum: %s: %s\n", argv[i], xstrerror(errno));
			rc = 1;
			continue;
		}
		md5_init(&m);
		while ((n = read(fd, iobuf, sizeof(iobuf))) > 0)
			md5_update(&m, (uint8_t *)iobuf, (size_t)n);
		if (n < 0) {
			xeprintf("md5sum: %s: %s\n", argv[i], xstrerror(errno));
			close(fd);
			rc = 1;
			continue;
		}
		close(fd);
		md5_final(&m, d);
		for (int j = 0; j < 16; j++)
			xprintf("%02x", d[j]);
		xprintf("  %s\n", argv[i]);
	}
	return rc;
}

/* ------------------------------------------------------------ dd */

/* N[k|K|M|G] (binary multiples, as dd takes them); 0 on success. */
static int parse_size(const char *s, unsigned long *out)
{
	char num[32];
	size_t n = strlen(s);
	unsigned long mul = 1, v;

	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	switch (num[n - 1]) {
	case 'k':
	case 'K':
		mul = 1024;
		break;
	case 'M':
		mul = 1024 * 1024;
		break;
	case 'G':
		mul = 1024ul * 1024 * 1024;
		break;
	default:
		break;
	}
	if (mul != 1)
		num[n - 1] = 0;
	if (xparse_ulong(num, &v))
		return -1;
	*out = v * mul;
	return 0;
}

static long xlseek(int fd, long off)
{
	return xsys3(SYS_lseek, fd, off, SEEK_SET);
}

static int dd(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	unsigned long bs = 512, count = ~0ul, skip = 0, seek = 0;
	int fsync_at_end = 0, ifd = 0, ofd = 1;
	unsigned long full_in = 0, part_in = 0, full_out = 0, part_out = 0;
	uint64_t bytes = 0, t0, us;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		unsigned long *v = NULL;

		if (!strncmp(a, "if=", 3))
			in = a + 3;
		else if (!strncmp(a, "of=", 3))
			out = a + 3;
		else if (!strncmp(a, "bs=", 3))
			v = &bs;
		else if (!strncmp(a, "count=", 6))
			v = &count;
		else if (!strncmp(a, "skip=", 5))
			v = &skip;
		else if (!strncmp(a, "seek=", 5))
			v = &seek;
		else if (!strcmp(a, "conv=fsync"))
			fsync_at_end = 1;
		else {
			xeprintf("dd: unknown operand %s\n", a);
			return 2;
		}
		if (v && parse_size(strchr(a, '=') + 1, v)) {
			xeprintf("dd: invalid number in %s\n", a);
			return 2;
		}
	}
	if (bs == 0 || bs > sizeof(iobuf)) {
		xeprintf("dd: bs must be 1..%lu\n",
			 (unsigned long)sizeof(iobuf));
		return 2;
	}
	if (in && (ifd = open(in, O_RDONLY)) < 0) {
		xeprintf("dd: %s: %s\n", in, xstrerror(errno));
		return 1;
	}
	if (out && (ofd = open(out, O_WRONLY | O_CREAT, 0644)) < 0) {
		xeprintf("dd: %s: %s\n", out, xstrerror(errno));
		return 1;
	}
	if (skip && xlseek(ifd, (long)(skip * bs)) < 0) {
		xeprintf("dd: skip: %s\n", xstrerror(errno));
		return 1;
	}
	if (seek && xlseek(ofd, (long)(seek * bs)) < 0) {
		xeprintf("dd: seek: %s\n", xstrerror(errno));
		return 1;
	}
	t0 = xnow_us();
	while (full_in + part_in < count) {
		ssize_t n = read(ifd, iobuf, bs);

		if (n < 0) {
			xeprintf("dd: read: %s\n", xstrerror(errno));
			return 1;
		}
		if (n == 0)
			break;
		if ((unsigned long)n == bs)
			full_in++;
		else
			part_in++;
		if (xwrite_all(ofd, iobuf, (size_t)n)) {
			xeprintf("dd: write: %s\n", xstrerror(errno));
			return 1;
		}
		if ((unsigned long)n == bs)
			full_out++;
		else
			part_out++;
		bytes += (uint64_t)n;
	}
	if (fsync_at_end && xsys1(SYS_fsync, ofd) < 0) {
		xeprintf("dd: fsync: %s\n", xstrerror(errno));
		return 1;
	}
	us = xnow_us() - t0;
	if (us == 0)
		us = 1;
	/* Rate in kB/s (decimal, as dd prints MB/s) with one decimal. */
	uint64_t r10 = bytes * 10 / us; /* tenths of MB/s */
	xeprintf("%lu+%lu records in\n%lu+%lu records out\n", full_in, part_in,
		 full_out, part_out);
	xeprintf("%lu bytes copied, %lu.%06lu s, %lu.%lu MB/s\n",
		 (unsigned long)bytes, (unsigned long)(us / 1000000),
		 (unsigned long)(us % 1000000), (unsigned long)(r10 / 10),
		 (unsigned long)(r10 % 10));
	if (in)
		close(ifd);
	if (out)
		close(ofd);
	return 0;
}

/* ------------------------------------------------------------ small ones */

static int do_sync(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	sync();
	return 0;
}

static int do_umount(int argc, char **argv)
{
	if (argc != 2) {
		xeprintf("usage: umount DIR\n");
		return 2;
	}
	if (xsys2(SYS_umount2, argv[1], 0) < 0) {
		xeprintf("umount: %s: %s\n", argv[1], xstrerror(errno));
		return 1;
	}
	return 0;
}

static int do_mkdir(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		xeprintf("usage: mkdir DIR...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (mkdir(argv[i], 0755) < 0) {
			xeprintf("mkdir: %s: %s\n", argv[i], xstrerror(errno));
			rc = 1;
		}
	return rc;
}

static const struct tool {
	const char *name;
	int (*fn)(int, char **);
} tools[] = {
    {"md5sum", md5sum},	   {"dd", dd},		{"sync", do_sync},
    {"umount", do_umount}, {"mkdir", do_mkdir},
};

int main(int argc, char **argv)
{
	const char *name = argc > 0 ? argv[0] : "disk";
	const char *slash;

	while ((slash = strchr(name, '/')))
		name = slash + 1;
	if (!strcmp(name, "disk")) {
		argc--;
		argv++;
		if (argc < 1) {
			xeprintf("usage: disk md5sum|dd|sync|umount|mkdir "
				 "ARGS...\n");
			return 2;
		}
		name = argv[0];
	}
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(name, tools[i].name))
			return tools[i].fn(argc, argv);
	xeprintf("disk: no tool named %s\n", name);
	return 2;
}
