/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /init for the xbow guest kernel (SGI Origin 200 / IP27 emulator).
 *
 * Mounts proc, sysfs, devtmpfs and a tmpfs on /tmp, prints a banner,
 * configures the network interfaces it finds, optionally runs a command
 * given on the kernel command line, and then offers a tiny shell on the
 * console.  See linux/README.md for the command-line keys:
 *
 *   ip=ADDR[/PREFIX]                         address of eth0
 *   ip=CLIENT:SERVER:GW:NETMASK:HOST:DEV:... kernel-style (DEV defaults to eth0)
 *   ip=off | ip=none                         leave eth0 unconfigured
 *   xbow.ip=ADDR[/PREFIX] | none             eth0 (overrides ip=)
 *   xbow.ipN=ADDR[/PREFIX] | none            ethN
 *   xbow.gw=ADDR                             default route
 *   xbow.mtu=N / xbow.mtuN=N                 MTU of every ethX / of ethN
 *   xbow.run="cmd args; cmd2 && cmd3"        run non-interactively at boot
 *   xbow.after=shell|poweroff|reboot|halt    what to do after xbow.run
 *   xbow.wait=SECONDS                        max wait for the PCI bus (30)
 *
 * Defaults: eth0 10.0.2.15/24, ethN 10.0.(2+N).15/24, lo 127.0.0.1/8.
 */
#include "xlibc.h"

extern char **environ;

#define LINE_MAX_ 1024
#define MAX_ARGS 64
#define MAX_TOKS 128
#define MAX_IFS 16

static char cmdline[4096];
static int test_mode; /* not PID 1: run on a host for testing */
static char iobuf[1 << 18];

/* ------------------------------------------------------------ cmdline */

/* Finds key=value on the kernel command line; returns 1 and copies the
 * value (quotes removed) into out, 0 if absent.  A bare "key" gives "". */
static int cmdline_get(const char *key, char *out, size_t outsz)
{
	const char *p = cmdline;
	size_t klen = strlen(key);
	int found = 0;

	while (*p) {
		const char *tok;
		int inq = 0;
		size_t o = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && (inq || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (*p == '"')
				inq = !inq;
			p++;
		}
		if (strncmp(tok, key, klen) ||
		    (tok[klen] != '=' && tok + klen != p))
			continue;
		/* Last occurrence wins, like the kernel. */
		found = 1;
		if (tok + klen == p) {
			out[0] = 0;
			continue;
		}
		for (tok += klen + 1; tok < p; tok++) {
			if (*tok == '"')
				continue;
			if (o + 1 < outsz)
				out[o++] = *tok;
		}
		out[o] = 0;
	}
	return found;
}

/* ------------------------------------------------------------ networking */

static int sockfd(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = socket(AF_INET, SOCK_DGRAM, 0);
	return fd;
}

static void set_sin(struct sockaddr *sa, uint32_t addr_be)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)sa;

	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = addr_be;
}

static uint32_t sin_addr(const struct sockaddr *sa)
{
	return ((const struct sockaddr_in *)sa)->sin_addr.s_addr;
}

static uint32_t prefix_mask(unsigned pfx)
{
	return htonl(pfx ? 0xffffffffu << (32 - pfx) : 0);
}

static int mask_prefix(uint32_t mask_be)
{
	uint32_t m = ntohl(mask_be);
	int n = 0;

	while (m & 0x80000000u) {
		n++;
		m <<= 1;
	}
	return n;
}

/* "A.B.C.D" or "A.B.C.D/P"; *mask untouched when there is no /P. */
static int parse_addr_pfx(const char *s, uint32_t *addr, uint32_t *mask)
{
	char tmp[32];
	char *slash;
	unsigned long pfx;

	if (strlen(s) >= sizeof(tmp))
		return -1;
	strcpy(tmp, s);
	slash = strchr(tmp, '/');
	if (slash) {
		*slash++ = 0;
		if (xparse_ulong(slash, &pfx) || pfx > 32)
			return -1;
		*mask = prefix_mask((unsigned)pfx);
	}
	return xparse_ip4(tmp, addr);
}

static int ifreq_ioctl(const char *ifname, unsigned long req, struct ifreq *ifr)
{
	if (strlen(ifname) >= IFNAMSIZ) {
		errno = EINVAL;
		return -1;
	}
	strcpy(ifr->ifr_name, ifname);
	return ioctl(sockfd(), req, ifr);
}

/* Applies whatever is set: addr/mask (non-zero), mtu (>0), up (1), down (0). */
static int if_configure(const char *ifname, uint32_t addr, uint32_t mask,
			int mtu, int updown)
{
	struct ifreq ifr;

	if (addr) {
		memset(&ifr, 0, sizeof(ifr));
		set_sin(&ifr.ifr_addr, addr);
		if (ifreq_ioctl(ifname, SIOCSIFADDR, &ifr) < 0) {
			xeprintf("%s: SIOCSIFADDR: %s\n", ifname,
				 xstrerror(errno));
			return -1;
		}
	}
	if (mask) {
		memset(&ifr, 0, sizeof(ifr));
		set_sin(&ifr.ifr_netmask, mask);
		if (ifreq_ioctl(ifname, SIOCSIFNETMASK, &ifr) < 0) {
			xeprintf("%s: SIOCSIFNETMASK: %s\n", ifname,
				 xstrerror(errno));
			return -1;
		}
	}
	if (mtu > 0) {
		memset(&ifr, 0, sizeof(ifr));
		ifr.ifr_mtu = mtu;
		if (ifreq_ioctl(ifname, SIOCSIFMTU, &ifr) < 0) {
			xeprintf("%s: SIOCSIFMTU %d: %s\n", ifname, mtu,
				 xstrerror(errno));
			return -1;
		}
	}
	if (updown >= 0) {
		memset(&ifr, 0, sizeof(ifr));
		if (ifreq_ioctl(ifname, SIOCGIFFLAGS, &ifr) < 0) {
			xeprintf("%s: SIOCGIFFLAGS: %s\n", ifname,
				 xstrerror(errno));
			return -1;
		}
		if (updown)
			ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		else
			ifr.ifr_flags &= ~IFF_UP;
		if (ifreq_ioctl(ifname, SIOCSIFFLAGS, &ifr) < 0) {
			xeprintf("%s: SIOCSIFFLAGS: %s\n", ifname,
				 xstrerror(errno));
			return -1;
		}
	}
	return 0;
}

static int add_default_route(uint32_t gw)
{
	struct rtentry rt;

	memset(&rt, 0, sizeof(rt));
	set_sin(&rt.rt_dst, 0);
	set_sin(&rt.rt_genmask, 0);
	set_sin(&rt.rt_gateway, gw);
	rt.rt_flags = RTF_UP | RTF_GATEWAY;
	if (ioctl(sockfd(), SIOCADDRT, &rt) < 0) {
		xeprintf("route: SIOCADDRT: %s\n", xstrerror(errno));
		return -1;
	}
	return 0;
}

static const char *flag_names(short f, char *buf, size_t n)
{
	static const struct {
		short bit;
		const char *name;
	} tab[] = {
	    {IFF_UP, "UP"},
	    {IFF_BROADCAST, "BROADCAST"},
	    {IFF_LOOPBACK, "LOOPBACK"},
	    {IFF_POINTOPOINT, "POINTOPOINT"},
	    {IFF_RUNNING, "RUNNING"},
	    {IFF_NOARP, "NOARP"},
	    {IFF_PROMISC, "PROMISC"},
	    {IFF_MULTICAST, "MULTICAST"},
	};
	size_t len = 0, i;

	buf[0] = 0;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (!(f & tab[i].bit))
			continue;
		len += (size_t)xsnprintf(buf + len, n - len, "%s%s",
					 len ? "," : "", tab[i].name);
		if (len >= n)
			break;
	}
	return buf;
}

/* Finds "name:" in /proc/net/dev and returns the 16 counters. */
static int if_counters(const char *ifname, unsigned long c[16])
{
	static char nd[8192];
	char *p;
	size_t l = strlen(ifname);

	if (xread_file("/proc/net/dev", nd, sizeof(nd)) < 0)
		return -1;
	for (p = nd; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *q = p;
		int i;

		while (*q == ' ')
			q++;
		if (strncmp(q, ifname, l) || q[l] != ':')
			continue;
		q += l + 1;
		for (i = 0; i < 16; i++) {
			unsigned long v = 0;

			while (*q == ' ')
				q++;
			while (*q >= '0' && *q <= '9')
				v = v * 10 + (unsigned long)(*q++ - '0');
			c[i] = v;
		}
		return 0;
	}
	return -1;
}

static int if_show(const char *ifname)
{
	struct ifreq ifr;
	char fb[128], a[16], m[16];
	unsigned long c[16];
	short flags;
	int mtu = 0;

	memset(&ifr, 0, sizeof(ifr));
	if (ifreq_ioctl(ifname, SIOCGIFFLAGS, &ifr) < 0) {
		xeprintf("ifconfig: %s: %s\n", ifname, xstrerror(errno));
		return 1;
	}
	flags = ifr.ifr_flags;
	if (ifreq_ioctl(ifname, SIOCGIFMTU, &ifr) == 0)
		mtu = ifr.ifr_mtu;
	xprintf("%s: flags=0x%x<%s> mtu %d\n", ifname,
		(unsigned)(unsigned short)flags,
		flag_names(flags, fb, sizeof(fb)), mtu);
	if (ifreq_ioctl(ifname, SIOCGIFADDR, &ifr) == 0) {
		uint32_t addr = sin_addr(&ifr.ifr_addr), mask = 0;

		if (ifreq_ioctl(ifname, SIOCGIFNETMASK, &ifr) == 0)
			mask = sin_addr(&ifr.ifr_netmask);
		xprintf("        inet %s netmask %s (/%d)\n", xfmt_ip4(addr, a),
			xfmt_ip4(mask, m), mask_prefix(mask));
	}
	if (ifreq_ioctl(ifname, SIOCGIFHWADDR, &ifr) == 0 &&
	    !(flags & IFF_LOOPBACK)) {
		const unsigned char *h =
		    (const unsigned char *)ifr.ifr_hwaddr.sa_data;

		xprintf("        ether %02x:%02x:%02x:%02x:%02x:%02x\n", h[0],
			h[1], h[2], h[3], h[4], h[5]);
	}
	if (if_counters(ifname, c) == 0) {
		xprintf(
		    "        RX packets %lu bytes %lu errors %lu dropped %lu\n",
		    c[1], c[0], c[2], c[3]);
		xprintf(
		    "        TX packets %lu bytes %lu errors %lu dropped %lu\n",
		    c[9], c[8], c[10], c[11]);
	}
	return 0;
}

/* Interface names from /sys/class/net, sorted (shorter first, then strcmp). */
static int list_ifs(char names[][IFNAMSIZ], int max)
{
	char dbuf[2048];
	int fd = open("/sys/class/net", O_RDONLY | O_DIRECTORY);
	int n = 0, i, j;
	long got;

	if (fd < 0)
		return 0;
	while ((got = xgetdents64(fd, dbuf, sizeof(dbuf))) > 0) {
		long off = 0;

		while (off < got) {
			struct xdirent64 *d = (struct xdirent64 *)(dbuf + off);

			off += d->d_reclen;
			if (d->d_name[0] == '.' ||
			    strlen(d->d_name) >= IFNAMSIZ || n >= max)
				continue;
			strcpy(names[n++], d->d_name);
		}
	}
	close(fd);
	for (i = 1; i < n; i++) {
		for (j = i; j > 0; j--) {
			size_t la = strlen(names[j - 1]), lb = strlen(names[j]);
			char t[IFNAMSIZ];

			if (la < lb ||
			    (la == lb && strcmp(names[j - 1], names[j]) <= 0))
				break;
			strcpy(t, names[j]);
			strcpy(names[j], names[j - 1]);
			strcpy(names[j - 1], t);
		}
	}
	return n;
}

/* Whether interface `ifname` is the IOC3's own Ethernet (driver ioc3-eth). */
static int is_onboard_eth(const char *ifname)
{
	static const char key[] = "DRIVER=ioc3-eth\n";
	char path[96], ue[512];
	const char *l;

	xsnprintf(path, sizeof(path), "/sys/class/net/%s/device/uevent",
		  ifname);
	if (xread_file(path, ue, sizeof(ue)) <= 0)
		return 0;
	for (l = ue; *l; l++)
		if ((l == ue || l[-1] == '\n') &&
		    strncmp(l, key, sizeof(key) - 1) == 0)
			return 1;
	return 0;
}

/*
 * ethN numbering: the PCI cards' interfaces first (in the order Linux
 * registered them: slot order), then the IOC3's own Ethernet.  ioc3-eth
 * probes when the 1-wire bus has found its MAC NIC, which can be before or
 * after a card's driver registers, depending on timing; this makes eth0 the
 * first card whenever there is one.  The interfaces are still down here.
 */
static void order_ifs(void)
{
	char names[MAX_IFS][IFNAMSIZ], want[MAX_IFS][IFNAMSIZ];
	int n = list_ifs(names, MAX_IFS), neth = 0, i, k, pass, moved = 0;
	struct ifreq ifr;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i++)
			if (strncmp(names[i], "eth", 3) == 0 &&
			    is_onboard_eth(names[i]) == pass)
				strcpy(want[neth++], names[i]);
	/* The eth interfaces in their order now (list_ifs sorts eth2 before
	 * eth10), against the order wanted. */
	for (i = 0, k = 0; i < n; i++)
		if (strncmp(names[i], "eth", 3) == 0 &&
		    strcmp(names[i], want[k++]) != 0)
			moved = 1;
	if (!moved)
		return;
	/* Through temporary names, so no rename meets a name in use. */
	for (i = 0; i < neth; i++) {
		memset(&ifr, 0, sizeof(ifr));
		xsnprintf(ifr.ifr_newname, IFNAMSIZ, "xbtmp%d", i);
		if (ifreq_ioctl(want[i], SIOCSIFNAME, &ifr) < 0) {
			xeprintf("xbow-init: %s: SIOCSIFNAME: %s\n", want[i],
				 xstrerror(errno));
			return;
		}
	}
	for (i = 0; i < neth; i++) {
		char tmp[IFNAMSIZ];

		xsnprintf(tmp, sizeof(tmp), "xbtmp%d", i);
		memset(&ifr, 0, sizeof(ifr));
		xsnprintf(ifr.ifr_newname, IFNAMSIZ, "eth%d", i);
		if (ifreq_ioctl(tmp, SIOCSIFNAME, &ifr) < 0)
			xeprintf("xbow-init: %s: SIOCSIFNAME: %s\n", tmp,
				 xstrerror(errno));
		else if (strcmp(want[i], ifr.ifr_newname) != 0)
			xprintf("xbow-init: %s%s is now eth%d (the PCI cards "
				"first, then the IOC3's Ethernet)\n",
				want[i],
				is_onboard_eth(ifr.ifr_newname) ? " (ioc3-eth)"
								: "",
				i);
	}
}

static void net_boot_config(void)
{
	char names[MAX_IFS][IFNAMSIZ];
	char val[256], key[32], a[16];
	uint32_t gw = 0;
	int n = list_ifs(names, MAX_IFS), i, neth = 0;
	unsigned long gmtu = 0;
	/* From ip=: */
	char ip_dev[IFNAMSIZ] = "eth0";
	uint32_t ip_addr = 0, ip_mask = 0;
	int ip_off = 0;

	if_configure("lo", htonl(0x7f000001), prefix_mask(8), 0, 1);

	if (cmdline_get("ip", val, sizeof(val))) {
		if (!strcmp(val, "off") || !strcmp(val, "none")) {
			ip_off = 1;
		} else if (strchr(val, ':')) {
			/* client:server:gw:netmask:hostname:device:autoconf... */
			char *f[7] = {0};
			char *p = val;
			int k;

			for (k = 0; k < 7 && p; k++) {
				f[k] = p;
				p = strchr(p, ':');
				if (p)
					*p++ = 0;
			}
			if (f[0] && *f[0] &&
			    parse_addr_pfx(f[0], &ip_addr, &ip_mask))
				xeprintf(
				    "xbow-init: bad ip= client address '%s'\n",
				    f[0]);
			if (f[2] && *f[2] && xparse_ip4(f[2], &gw))
				gw = 0;
			if (f[3] && *f[3] && xparse_ip4(f[3], &ip_mask))
				ip_mask = 0;
			if (f[4] && *f[4])
				xsys2(SYS_sethostname, f[4], strlen(f[4]));
			if (f[5] && *f[5] && strlen(f[5]) < IFNAMSIZ)
				strcpy(ip_dev, f[5]);
		} else if (parse_addr_pfx(val, &ip_addr, &ip_mask)) {
			xeprintf("xbow-init: bad ip= '%s'\n", val);
			ip_addr = 0;
		}
	}
	if (cmdline_get("xbow.gw", val, sizeof(val)) && xparse_ip4(val, &gw))
		xeprintf("xbow-init: bad xbow.gw '%s'\n", val);
	if (cmdline_get("xbow.mtu", val, sizeof(val)) &&
	    xparse_ulong(val, &gmtu))
		xeprintf("xbow-init: bad xbow.mtu '%s'\n", val);

	for (i = 0; i < n; i++) {
		const char *ifn = names[i];
		unsigned long idx, mtu = gmtu;
		uint32_t addr, mask;
		int skip = 0;

		if (strncmp(ifn, "eth", 3) || xparse_ulong(ifn + 3, &idx))
			continue;
		neth++;
		/* Defaults: 10.0.(2+N).15/24. */
		addr = htonl(0x0a00000fu | (uint32_t)((2 + idx) & 255) << 8);
		mask = prefix_mask(24);
		if (!strcmp(ifn, ip_dev)) {
			if (ip_off)
				skip = 1;
			else if (ip_addr) {
				addr = ip_addr;
				mask = ip_mask ? ip_mask : prefix_mask(24);
			}
		}
		if (idx == 0)
			xsnprintf(key, sizeof(key), "xbow.ip");
		else
			xsnprintf(key, sizeof(key), "xbow.ip%lu", idx);
		if (cmdline_get(key, val, sizeof(val)) ||
		    (idx == 0 && cmdline_get("xbow.ip0", val, sizeof(val)))) {
			uint32_t m = prefix_mask(24);

			if (!strcmp(val, "none") || !strcmp(val, "off")) {
				skip = 1;
			} else if (parse_addr_pfx(val, &addr, &m) == 0) {
				mask = m;
				skip = 0;
			} else {
				xeprintf("xbow-init: bad %s '%s'\n", key, val);
			}
		}
		xsnprintf(key, sizeof(key), "xbow.mtu%lu", idx);
		if (cmdline_get(key, val, sizeof(val)) &&
		    xparse_ulong(val, &mtu))
			xeprintf("xbow-init: bad %s '%s'\n", key, val);
		if (skip) {
			xprintf("xbow-init: %s left unconfigured\n", ifn);
			continue;
		}
		if (if_configure(ifn, addr, mask, (int)mtu, 1) == 0) {
			struct ifreq ifr;
			int cur = 0;

			memset(&ifr, 0, sizeof(ifr));
			if (ifreq_ioctl(ifn, SIOCGIFMTU, &ifr) == 0)
				cur = ifr.ifr_mtu;
			xprintf("xbow-init: %s %s/%d mtu %d up\n", ifn,
				xfmt_ip4(addr, a), mask_prefix(mask), cur);
		} else {
			xprintf("xbow-init: %s configuration FAILED\n", ifn);
		}
	}
	if (!neth)
		xprintf("xbow-init: no ethernet interface found\n");
	if (gw) {
		if (add_default_route(gw) == 0)
			xprintf("xbow-init: default route via %s\n",
				xfmt_ip4(gw, a));
	}
}

/* ------------------------------------------------------------ builtins */

static int b_echo(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		xprintf("%s%s", i > 1 ? " " : "", argv[i]);
	xprintf("\n");
	return 0;
}

static int b_cat(int argc, char **argv)
{
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		ssize_t n;

		if (fd < 0) {
			xeprintf("cat: %s: %s\n", argv[i], xstrerror(errno));
			rc = 1;
			continue;
		}
		while ((n = read(fd, iobuf, sizeof(iobuf))) > 0)
			xwrite_all(1, iobuf, (size_t)n);
		if (n < 0) {
			xeprintf("cat: %s: %s\n", argv[i], xstrerror(errno));
			rc = 1;
		}
		close(fd);
	}
	return rc;
}

static int ls_one(const char *dir)
{
	char dbuf[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	long got;

	if (fd < 0) {
		/* Not a directory: print it like ls does for files. */
		fd = open(dir, O_RDONLY);
		if (fd >= 0) {
			close(fd);
			xprintf("%s\n", dir);
			return 0;
		}
		xeprintf("ls: %s: %s\n", dir, xstrerror(errno));
		return 1;
	}
	while ((got = xgetdents64(fd, dbuf, sizeof(dbuf))) > 0) {
		long off = 0;

		while (off < got) {
			struct xdirent64 *d = (struct xdirent64 *)(dbuf + off);
			const char *suffix = "";

			off += d->d_reclen;
			if (d->d_name[0] == '.' &&
			    (!d->d_name[1] ||
			     (d->d_name[1] == '.' && !d->d_name[2])))
				continue;
			switch (d->d_type) {
			case DT_DIR:
				suffix = "/";
				break;
			case DT_LNK:
				suffix = "@";
				break;
			case DT_CHR:
				suffix = " (c)";
				break;
			case DT_BLK:
				suffix = " (b)";
				break;
			case DT_FIFO:
				suffix = "|";
				break;
			case DT_SOCK:
				suffix = "=";
				break;
			default:
				break;
			}
			xprintf("%s%s\n", d->d_name, suffix);
		}
	}
	close(fd);
	return 0;
}

static int b_ls(int argc, char **argv)
{
	int i, rc = 0;

	if (argc < 2)
		return ls_one(".");
	for (i = 1; i < argc; i++) {
		if (argc > 2)
			xprintf("%s:\n", argv[i]);
		rc |= ls_one(argv[i]);
	}
	return rc;
}

static int b_cd(int argc, char **argv)
{
	if (chdir(argc > 1 ? argv[1] : "/") < 0) {
		xeprintf("cd: %s\n", xstrerror(errno));
		return 1;
	}
	return 0;
}

static int b_pwd(int argc, char **argv)
{
	char buf[512];

	(void)argc;
	(void)argv;
	if (!getcwd(buf, sizeof(buf))) {
		xeprintf("pwd: %s\n", xstrerror(errno));
		return 1;
	}
	xprintf("%s\n", buf);
	return 0;
}

static int b_ifconfig(int argc, char **argv)
{
	uint32_t addr = 0, mask = 0;
	unsigned long mtu = 0;
	int updown = -1, i;

	if (argc < 2) {
		char names[MAX_IFS][IFNAMSIZ];
		int n = list_ifs(names, MAX_IFS);

		for (i = 0; i < n; i++)
			if_show(names[i]);
		return 0;
	}
	if (argc == 2)
		return if_show(argv[1]);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "up")) {
			updown = 1;
		} else if (!strcmp(argv[i], "down")) {
			updown = 0;
		} else if (!strcmp(argv[i], "mtu") && i + 1 < argc) {
			if (xparse_ulong(argv[++i], &mtu) || !mtu)
				goto usage;
		} else if (!strcmp(argv[i], "netmask") && i + 1 < argc) {
			if (xparse_ip4(argv[++i], &mask))
				goto usage;
		} else if (parse_addr_pfx(argv[i], &addr, &mask) == 0) {
			if (!mask)
				mask = prefix_mask(24);
			if (updown < 0)
				updown = 1;
		} else {
			goto usage;
		}
	}
	return if_configure(argv[1], addr, mask, (int)mtu, updown) ? 1 : 0;
usage:
	xeprintf("usage: ifconfig [IF [ADDR[/PFX]] [netmask MASK] [mtu N] "
		 "[up|down]]\n");
	return 2;
}

static int b_route(int argc, char **argv)
{
	uint32_t gw;

	if (argc == 1) {
		static char rb[4096];
		char *p, d[16], g[16], m[16];

		if (xread_file("/proc/net/route", rb, sizeof(rb)) < 0)
			return 1;
		xprintf("%-16s %-16s %-16s %s\n", "Destination", "Gateway",
			"Genmask", "Iface");
		p = strchr(rb, '\n');
		while (p && p[1]) {
			char ifn[IFNAMSIZ + 1];
			unsigned long f[4] = {0};
			char *q = ++p;
			int k = 0, j;

			while (*q && *q != '\t' && k < IFNAMSIZ)
				ifn[k++] = *q++;
			ifn[k] = 0;
			/* fields: Destination Gateway Flags RefCnt Use Metric Mask (hex, host order
			 * of the kernel's u32, i.e. network order printed as a number) */
			for (j = 0; j < 7 && *q && *q != '\n'; j++) {
				unsigned long v = 0;

				while (*q == '\t' || *q == ' ')
					q++;
				for (;; q++) {
					char ch = *q;

					if (ch >= '0' && ch <= '9')
						v = v * 16 +
						    (unsigned long)(ch - '0');
					else if (ch >= 'A' && ch <= 'F')
						v = v * 16 +
						    (unsigned long)(ch - 'A' +
								    10);
					else if (ch >= 'a' && ch <= 'f')
						v = v * 16 +
						    (unsigned long)(ch - 'a' +
								    10);
					else
						break;
				}
				if (j == 0)
					f[0] = v;
				else if (j == 1)
					f[1] = v;
				else if (j == 6)
					f[2] = v;
			}
			/* /proc/net/route prints the raw __be32 with %08X. */
			xprintf("%-16s %-16s %-16s %s\n",
				xfmt_ip4((uint32_t)f[0], d),
				xfmt_ip4((uint32_t)f[1], g),
				xfmt_ip4((uint32_t)f[2], m), ifn);
			p = strchr(p, '\n');
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "add") &&
	    !strcmp(argv[2], "default") && xparse_ip4(argv[3], &gw) == 0)
		return add_default_route(gw) ? 1 : 0;
	xeprintf("usage: route [add default GATEWAY]\n");
	return 2;
}

static int b_ps(int argc, char **argv)
{
	char dbuf[4096], path[64], st[512], cl[256];
	int fd = open("/proc", O_RDONLY | O_DIRECTORY);
	long got;

	(void)argc;
	(void)argv;
	if (fd < 0)
		return 1;
	xprintf("%5s %5s S COMMAND\n", "PID", "PPID");
	while ((got = xgetdents64(fd, dbuf, sizeof(dbuf))) > 0) {
		long off = 0;

		while (off < got) {
			struct xdirent64 *d = (struct xdirent64 *)(dbuf + off);
			char *lp, *rp, state = '?';
			unsigned long ppid = 0;
			long n, k;

			off += d->d_reclen;
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			xsnprintf(path, sizeof(path), "/proc/%s/stat",
				  d->d_name);
			if (xread_file(path, st, sizeof(st)) <= 0)
				continue;
			lp = strchr(st, '(');
			rp = NULL;
			for (k = (long)strlen(st) - 1; k >= 0; k--) {
				if (st[k] == ')') {
					rp = st + k;
					break;
				}
			}
			if (!lp || !rp)
				continue;
			*rp = 0;
			if (rp[1] == ' ' && rp[2]) {
				char *q = rp + 4;

				state = rp[2];
				while (*q >= '0' && *q <= '9')
					ppid = ppid * 10 +
					    (unsigned long)(*q++ - '0');
			}
			xsnprintf(path, sizeof(path), "/proc/%s/cmdline",
				  d->d_name);
			n = xread_file(path, cl, sizeof(cl));
			for (k = 0; k < n - 1; k++)
				if (!cl[k])
					cl[k] = ' ';
			if (n > 0)
				xprintf("%5s %5lu %c %s\n", d->d_name, ppid,
					state, cl);
			else
				xprintf("%5s %5lu %c [%s]\n", d->d_name, ppid,
					state, lp + 1);
		}
	}
	close(fd);
	return 0;
}

static int b_uname(int argc, char **argv)
{
	struct utsname u;

	(void)argc;
	(void)argv;
	if (uname(&u) < 0)
		return 1;
	xprintf("%s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version,
		u.machine);
	return 0;
}

static int b_dmesg(int argc, char **argv)
{
	int n;

	if (argc == 3 && !strcmp(argv[1], "-n")) {
		unsigned long lvl;

		if (xparse_ulong(argv[2], &lvl) ||
		    klogctl(8, NULL, (int)lvl) < 0) {
			xeprintf("dmesg: cannot set console level\n");
			return 1;
		}
		return 0;
	}
	if (argc != 1) {
		xeprintf("usage: dmesg [-n LEVEL]\n");
		return 2;
	}
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, iobuf, (int)sizeof(iobuf));
	if (n < 0) {
		xeprintf("dmesg: %s\n", xstrerror(errno));
		return 1;
	}
	xwrite_all(1, iobuf, (size_t)n);
	return 0;
}

static int b_sleep(int argc, char **argv)
{
	unsigned long s;

	if (argc != 2 || xparse_ulong(argv[1], &s)) {
		xeprintf("usage: sleep SECONDS\n");
		return 2;
	}
	xsleep_ms(s * 1000);
	return 0;
}

static int b_kill(int argc, char **argv)
{
	unsigned long sig = SIGTERM, pid;
	int i = 1, rc = 0;

	if (argc > 2 && argv[1][0] == '-') {
		if (xparse_ulong(argv[1] + 1, &sig))
			goto usage;
		i = 2;
	}
	if (i >= argc)
		goto usage;
	for (; i < argc; i++) {
		if (xparse_ulong(argv[i], &pid) || pid <= 1)
			goto usage;
		if (kill((pid_t)pid, (int)sig) < 0) {
			xeprintf("kill %lu: %s\n", pid, xstrerror(errno));
			rc = 1;
		}
	}
	return rc;
usage:
	xeprintf("usage: kill [-SIGNUM] PID...\n");
	return 2;
}

static int b_mount(int argc, char **argv)
{
	if (argc == 1) {
		char *a[] = {"cat", "/proc/mounts", NULL};

		return b_cat(2, a);
	}
	if (argc == 5 && !strcmp(argv[1], "-t")) {
		if (mount(argv[3], argv[4], argv[2], 0, NULL) < 0) {
			xeprintf("mount: %s\n", xstrerror(errno));
			return 1;
		}
		return 0;
	}
	xeprintf("usage: mount [-t TYPE SOURCE DIR]\n");
	return 2;
}

static int do_reboot(int how, const char *what)
{
	xprintf("xbow-init: %s\n", what);
	if (test_mode) {
		xprintf("xbow-init: test mode, not calling reboot(2)\n");
		return 0;
	}
	sync();
	reboot(how);
	xeprintf("%s: %s\n", what, xstrerror(errno));
	return 1;
}

static int b_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return do_reboot(RB_POWER_OFF, "poweroff");
}

static int b_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return do_reboot(RB_AUTOBOOT, "reboot");
}

static int b_halt(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return do_reboot(RB_HALT_SYSTEM, "halt");
}

static int b_true(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int b_false(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}

static int b_help(int argc, char **argv);

static const struct builtin {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} builtins[] = {
    {"help", b_help, "this list"},
    {"echo", b_echo, "echo ARGS..."},
    {"cat", b_cat, "cat FILE..."},
    {"ls", b_ls, "ls [DIR...]"},
    {"cd", b_cd, "cd [DIR]"},
    {"pwd", b_pwd, "pwd"},
    {"ifconfig", b_ifconfig,
     "ifconfig [IF [ADDR[/PFX]] [netmask M] [mtu N] [up|down]]"},
    {"route", b_route, "route [add default GATEWAY]"},
    {"ps", b_ps, "ps"},
    {"uname", b_uname, "uname"},
    {"dmesg", b_dmesg, "dmesg [-n CONSOLE_LOGLEVEL]"},
    {"sleep", b_sleep, "sleep SECONDS"},
    {"kill", b_kill, "kill [-SIGNUM] PID..."},
    {"mount", b_mount, "mount [-t TYPE SOURCE DIR]"},
    {"true", b_true, "true"},
    {"false", b_false, "false"},
    {"poweroff", b_poweroff, "poweroff (reboot(2) POWER_OFF)"},
    {"reboot", b_reboot, "reboot (reboot(2) RESTART)"},
    {"halt", b_halt, "halt (reboot(2) HALT)"},
};

static int b_help(int argc, char **argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	xprintf("builtins:\n");
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		xprintf("  %s\n", builtins[i].help);
	xprintf("tools in /bin: ttcp, ping (run with no arguments for usage)\n"
		"operators: ';' '&&' '||' and a trailing '&' (background); '> "
		"FILE' '>> FILE'\n");
	return 0;
}

/* ------------------------------------------------------------ execution */

static void reap(int verbose)
{
	int st;
	pid_t p;

	while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
		if (verbose)
			xprintf("[%d] done, status %d\n", (int)p,
				WIFEXITED(st) ? WEXITSTATUS(st)
					      : 128 + WTERMSIG(st));
	}
}

static int run_external(char **argv, int background)
{
	static char *const envp[] = {"PATH=/bin:/sbin", "HOME=/", "TERM=vt100",
				     NULL};
	char path[256];
	pid_t pid;
	int st;

	if (strchr(argv[0], '/'))
		xsnprintf(path, sizeof(path), "%s", argv[0]);
	else
		xsnprintf(path, sizeof(path), "/bin/%s", argv[0]);
	pid = xfork();
	if (pid < 0) {
		xeprintf("fork: %s\n", xstrerror(errno));
		return 126;
	}
	if (pid == 0) {
		execve(path, argv, envp);
		if (!strchr(argv[0], '/')) {
			xsnprintf(path, sizeof(path), "/sbin/%s", argv[0]);
			execve(path, argv, envp);
		}
		xeprintf("%s: %s\n", argv[0],
			 errno == ENOENT ? "command not found"
					 : xstrerror(errno));
		_exit(127);
	}
	if (background) {
		xprintf("[%d]\n", (int)pid);
		return 0;
	}
	for (;;) {
		pid_t r = waitpid(pid, &st, 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return 126;
	}
	if (WIFSIGNALED(st)) {
		xprintf("[%s killed by signal %d]\n", argv[0], WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	return WEXITSTATUS(st);
}

/* Runs one simple command (argv already split), handling redirection. */
static int run_simple(int argc, char **argv, int background)
{
	int saved = -1, rc = 127, i;
	size_t b;

	/* Output redirection: "> FILE", ">> FILE", ">FILE", ">>FILE" at the end. */
	for (i = 0; i < argc; i++) {
		const char *t = argv[i], *file = NULL;
		int append = 0;

		if (t[0] != '>')
			continue;
		if (t[1] == '>') {
			append = 1;
			t++;
		}
		if (t[1]) {
			file = t + 1;
		} else if (i + 1 < argc) {
			file = argv[i + 1];
		}
		if (!file) {
			xeprintf("syntax error: redirection without a file\n");
			return 2;
		}
		{
			int fd = open(file,
				      O_WRONLY | O_CREAT |
					  (append ? O_APPEND : O_TRUNC),
				      0644);

			if (fd < 0) {
				xeprintf("%s: %s\n", file, xstrerror(errno));
				return 1;
			}
			if (saved < 0)
				saved = (int)xsys1(SYS_dup, 1);
			dup2(fd, 1);
			close(fd);
		}
		argc = i; /* drop the redirection (and anything after it) */
		argv[argc] = NULL;
		break;
	}
	if (argc == 0) {
		rc = 0;
		goto out;
	}
	for (b = 0; b < sizeof(builtins) / sizeof(builtins[0]); b++) {
		if (!strcmp(argv[0], builtins[b].name)) {
			rc = builtins[b].fn(argc, argv);
			goto out;
		}
	}
	rc = run_external(argv, background);
out:
	if (saved >= 0) {
		dup2(saved, 1);
		close(saved);
	}
	return rc;
}

enum {
	T_WORD,
	T_SEMI,
	T_AND,
	T_OR,
	T_BG
};

/* Splits a line into words and operators; quotes "..." and '...' group. */
static int tokenize(char *line, char **tok, int *type, int max)
{
	char *r = line, *w = line;
	int n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r')
			r++;
		if (!*r || *r == '#')
			break;
		if (n >= max - 1)
			return -1;
		if (*r == ';' || *r == '&' || *r == '|') {
			if (r[0] == '&' && r[1] == '&') {
				type[n] = T_AND;
				r += 2;
			} else if (r[0] == '|' && r[1] == '|') {
				type[n] = T_OR;
				r += 2;
			} else if (r[0] == ';') {
				type[n] = T_SEMI;
				r++;
			} else if (r[0] == '&') {
				type[n] = T_BG;
				r++;
			} else {
				return -2; /* pipes are not supported */
			}
			tok[n++] = NULL;
			continue;
		}
		tok[n] = w;
		type[n] = T_WORD;
		n++;
		while (*r && *r != ' ' && *r != '\t' && *r != '\n' &&
		       *r != '\r' && *r != ';' && *r != '&' && *r != '|') {
			if (*r == '"' || *r == '\'') {
				char q = *r++;

				while (*r && *r != q)
					*w++ = *r++;
				if (*r)
					r++;
			} else {
				*w++ = *r++;
			}
		}
		/* Terminate the word in place (w never overtakes r).  run_line()
		 * has put spaces around operators, so *r is a blank or NUL here. */
		{
			char c = *r;

			*w = 0;
			if (c && w == r)
				r++;
		}
		w = r;
	}
	tok[n] = NULL;
	return n;
}

/* Runs a full line: words and ; && || & operators. */
static int run_line(char *line_in)
{
	static char line[LINE_MAX_ * 2];
	char *tok[MAX_TOKS];
	int type[MAX_TOKS];
	char *argv[MAX_ARGS + 1];
	int n, i, status = 0, skip = 0;
	size_t len = strlen(line_in), o = 0, k;

	/* Put spaces around operators so tokenize() can always terminate words. */
	for (k = 0; k < len && o + 4 < sizeof(line); k++) {
		char c = line_in[k];

		if (c == '"' || c == '\'') {
			char q = c;

			line[o++] = line_in[k++];
			while (k < len && line_in[k] != q &&
			       o + 4 < sizeof(line))
				line[o++] = line_in[k++];
			if (k < len)
				line[o++] = line_in[k];
			continue;
		}
		if (c == ';' || c == '&' || c == '|') {
			line[o++] = ' ';
			line[o++] = c;
			if (k + 1 < len && line_in[k + 1] == c && c != ';')
				line[o++] = line_in[++k];
			line[o++] = ' ';
			continue;
		}
		line[o++] = c;
	}
	line[o] = 0;

	n = tokenize(line, tok, type, MAX_TOKS);
	if (n == -2) {
		xeprintf("pipes are not supported\n");
		return 2;
	}
	if (n < 0) {
		xeprintf("line too long\n");
		return 2;
	}
	for (i = 0; i < n;) {
		int argc = 0, bg = 0, op = T_SEMI;

		while (i < n && type[i] == T_WORD && argc < MAX_ARGS)
			argv[argc++] = tok[i++];
		argv[argc] = NULL;
		if (i < n && type[i] != T_WORD)
			op = type[i++];
		if (op == T_BG)
			bg = 1;
		if (!skip && argc)
			status = run_simple(argc, argv, bg);
		skip = 0;
		if (op == T_AND && status != 0)
			skip = 1;
		if (op == T_OR && status == 0)
			skip = 1;
	}
	return status;
}

/* ------------------------------------------------------------ boot */

/* Calls fn(dir, name, ctx) for every entry of dir whose name starts with
 * prefix ("" for every entry but . and ..); returns how many there were, or
 * -1 if dir cannot be read. */
static int for_each_entry(const char *dir, const char *prefix,
			  void (*fn)(const char *dir, const char *name,
				     void *ctx),
			  void *ctx)
{
	char dbuf[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY), n = 0;
	long got;

	if (fd < 0)
		return -1;
	while ((got = xgetdents64(fd, dbuf, sizeof(dbuf))) > 0) {
		long off = 0;

		while (off < got) {
			struct xdirent64 *d = (struct xdirent64 *)(dbuf + off);

			off += d->d_reclen;
			if (d->d_name[0] == '.' ||
			    strncmp(d->d_name, prefix, strlen(prefix)))
				continue;
			n++;
			if (fn)
				fn(dir, d->d_name, ctx);
		}
	}
	close(fd);
	return n;
}

/* Whether the device dir/name has a driver bound (sysfs "driver" link). */
static int has_driver(const char *dir, const char *name)
{
	char path[256];
	int fd;

	xsnprintf(path, sizeof(path), "%s/%s/driver", dir, name);
	fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

struct signature {
	uint32_t h;
	int with_driver;
};

static void signature_add(const char *dir, const char *name, void *ctx)
{
	struct signature *sg = ctx;
	const char *c;

	for (c = name; *c; c++)
		sg->h = (sg->h ^ (unsigned char)*c) * 16777619u;
	if (sg->with_driver && has_driver(dir, name))
		sg->h = (sg->h ^ 1u) * 16777619u;
	sg->h = (sg->h ^ 0xffu) * 16777619u;
}

/* FNV-1a over the entry names of a directory (and, for PCI devices, whether a
 * driver is bound); *count gets the number of entries. */
static uint32_t dir_signature(const char *dir, int with_driver, int *count)
{
	struct signature sg = {2166136261u, with_driver};
	int n = for_each_entry(dir, "", signature_add, &sg);

	*count = n < 0 ? 0 : n;
	return n < 0 ? 0 : sg.h;
}

/* What the retries did (of the Bridge, of ioc3-eth), reported once the
 * console is ours. */
struct reprobe {
	char name[64]; /* the device last asked for */
	int count, err, asked;
};
static struct reprobe bridge_rp, eth_rp;

/* An unbound device: ask the driver core to probe it again.  Writing a
 * device's name to /sys/bus/platform/drivers_probe runs device_attach() on
 * it (drivers_probe_store, drivers/base/bus.c). */
static void reprobe_unbound(const char *dir, const char *name, void *ctx)
{
	struct reprobe *rp = ctx;
	int fd;

	if (has_driver(dir, name))
		return; /* bound: nothing to retry */
	xsnprintf(rp->name, sizeof(rp->name), "%s", name);
	rp->count++;
	fd = open("/sys/bus/platform/drivers_probe", O_WRONLY);
	if (fd < 0 || write(fd, name, strlen(name)) < 0)
		rp->err = errno;
	if (fd >= 0)
		close(fd);
	rp->asked++;
}

/*
 * Linux 6.1 can lose the Bridge probe for good (docs/linux.md, "A boot race
 * in Linux's w1 core"): registering the DS2505's w1 slave device retries the
 * deferred probes before the slave's family driver has registered the nvmem
 * device the Bridge reads, and nothing retries them once it has.  So when the
 * EEPROM's nvmem device ("bridge-<addr>-0b-<id>") has been there for
 * REPROBE_MS and there is still no PCI device, probe every unbound
 * xtalk-bridge platform device again, and again every REPROBE_MS.  A Bridge
 * probe that is merely in progress (it reads 64 bytes over the 1-wire bus,
 * about 100 ms) takes less than that; and a retry of a device that is bound
 * by then is skipped.  Returns the number of retries asked for.
 */
#define REPROBE_MS 250
static int retry_lost_bridge_probe(int npci, uint64_t now,
				   uint64_t *eeprom_since, uint64_t *last_retry)
{
	if (npci > 0)
		return 0;
	if (for_each_entry("/sys/bus/nvmem/devices", "bridge-", NULL, NULL) <=
	    0) {
		*eeprom_since = 0;
		return 0;
	}
	if (!*eeprom_since)
		*eeprom_since = now;
	if (now - *eeprom_since < REPROBE_MS * 1000u ||
	    (*last_retry && now - *last_retry < REPROBE_MS * 1000u))
		return 0;
	*last_retry = now;
	bridge_rp.asked = 0;
	for_each_entry("/sys/bus/platform/devices", "xtalk-bridge",
		       reprobe_unbound, &bridge_rp);
	return bridge_rp.asked;
}

/*
 * The same race can lose the probe of the IOC3's Ethernet (ioc3-eth), which
 * defers until the IOC3's 1-wire MAC NIC is readable through nvmem
 * ("ioc3-<addr>-91-<id>").  So when that nvmem device has been there for
 * REPROBE_MS, probe every unbound ioc3-eth platform device again, and again
 * every REPROBE_MS; a bound one is skipped.  Returns the retries asked for.
 */
static int retry_lost_eth_probe(uint64_t now, uint64_t *nic_since,
				uint64_t *last_retry)
{
	if (for_each_entry("/sys/bus/nvmem/devices", "ioc3-", NULL, NULL) <=
	    0) {
		*nic_since = 0;
		return 0;
	}
	if (!*nic_since)
		*nic_since = now;
	if (now - *nic_since < REPROBE_MS * 1000u ||
	    (*last_retry && now - *last_retry < REPROBE_MS * 1000u))
		return 0;
	*last_retry = now;
	eth_rp.asked = 0;
	for_each_entry("/sys/bus/platform/devices", "ioc3-eth", reprobe_unbound,
		       &eth_rp);
	return eth_rp.asked;
}

/*
 * The Bridge probe (and with it the PCI bus, the IOC3 serial port ttyS0 and
 * the NICs) waits for the Bridge's DS2505 to be found by the 1-wire search,
 * which runs asynchronously in the w1 kernel thread.  An initramfs /init is
 * started without wait_for_device_probe(), so PCI may appear after we start.
 * Wait until at least one PCI device exists and the set of PCI devices, their
 * driver bindings, the network interfaces and the active consoles have been
 * stable for 500 ms, or until xbow.wait seconds (default 30) have passed.
 * Meanwhile, retry a Bridge or ioc3-eth probe Linux lost (above).
 * Returns the time waited in ms, or -1 on timeout.
 */
static long wait_for_devices(void)
{
	char val[32], act[128];
	unsigned long limit_s = 30;
	uint64_t t0 = xnow_us(), stable_since = t0, eeprom_since = 0,
		 last_retry = 0, nic_since = 0, last_eth_retry = 0;
	uint32_t last = 0;
	int first = 1;

	if (cmdline_get("xbow.wait", val, sizeof(val)) &&
	    xparse_ulong(val, &limit_s))
		limit_s = 30;
	for (;;) {
		int npci, nnet, ncon = 0;
		uint32_t sig = dir_signature("/sys/bus/pci/devices", 1, &npci);
		uint64_t now = xnow_us();
		const char *c;

		sig ^= dir_signature("/sys/class/net", 0, &nnet) * 31u;
		if (xread_file("/sys/class/tty/console/active", act,
			       sizeof(act)) > 0)
			for (c = act; *c; c++)
				sig = (sig ^ (unsigned char)*c) * 16777619u,
				ncon++;
		if (first || sig != last) {
			last = sig;
			stable_since = now;
			first = 0;
		}
		/* Settled: PCI devices, nothing new for 500 ms, and a console
		 * to talk on (the IOC3's UART registers only after the devices
		 * in the slots before it have probed: qla1280 in slots 0 and 1
		 * resets its SCSI bus and scans it first). */
		if (npci > 0 && ncon > 0 && now - stable_since >= 500000)
			return (long)((now - t0) / 1000);
		retry_lost_bridge_probe(npci, now, &eeprom_since, &last_retry);
		retry_lost_eth_probe(now, &nic_since, &last_eth_retry);
		if (now - t0 >= (uint64_t)limit_s * 1000000u)
			return -1;
		xsleep_ms(50);
	}
}

static void mount_fs(const char *src, const char *dir, const char *type,
		     unsigned long fl)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, fl, NULL) < 0 && errno != EBUSY)
		xeprintf("xbow-init: mount %s on %s: %s\n", type, dir,
			 xstrerror(errno));
}

static char console_name[64] = "none"; /* the tty /init's stdio is on */

static void setup_console(void)
{
	char act[128], dev[160], *last, *p;
	unsigned char termios_buf[256];
	int fd;

	/* stdin open but not a terminal (e.g. a pipe in a container test):
	 * keep the stdio we were given. */
	if (ioctl(0, TCGETS, termios_buf) < 0 && errno == ENOTTY)
		return;
	if (xread_file("/sys/class/tty/console/active", act, sizeof(act)) <= 0)
		goto ctty;
	/* The last name listed is the one /dev/console refers to. */
	for (p = act + strlen(act); p > act && (p[-1] == '\n' || p[-1] == ' ');
	     p--)
		p[-1] = 0;
	last = act;
	for (p = act; *p; p++)
		if (*p == ' ')
			last = p + 1;
	if (!*last)
		goto ctty;
	xsnprintf(dev, sizeof(dev), "/dev/%s", last);
	fd = open(dev, O_RDWR | O_NOCTTY);
	if (fd < 0)
		goto ctty;
	dup2(fd, 0);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	xsnprintf(console_name, sizeof(console_name), "%s", last);
ctty:
	setsid();
	ioctl(0, TIOCSCTTY, 1);
}

static void banner(void)
{
	struct utsname u;
	static char b[8192];
	unsigned long ncpu = 0, memkb = 0;
	int npci = 0;
	char *p;

	if (xread_file("/proc/cpuinfo", b, sizeof(b)) > 0) {
		for (p = b; (p = strchr(p, '\n')) != NULL; p++)
			if (!strncmp(p + 1, "processor", 9))
				ncpu++;
		if (!strncmp(b, "processor", 9))
			ncpu++;
	}
	if (xread_file("/proc/meminfo", b, sizeof(b)) > 0 &&
	    !strncmp(b, "MemTotal:", 9)) {
		for (p = b + 9; *p == ' '; p++)
			;
		while (*p >= '0' && *p <= '9')
			memkb = memkb * 10 + (unsigned long)(*p++ - '0');
	}
	uname(&u);
	if (!test_mode)
		dir_signature("/sys/bus/pci/devices", 0, &npci);
	xprintf("\n"
		"xbow-init: xbow initramfs on %s %s %s (%s)\n"
		"xbow-init: cpus=%lu memory=%lukB pci=%d console=%s\n",
		u.sysname, u.release, u.machine, u.version, ncpu, memkb, npci,
		test_mode ? "stdio" : console_name);
}

int main(int argc, char **argv)
{
	static char line[LINE_MAX_];
	static char val[LINE_MAX_];
	long waited = 0;

	/* Run as anything but PID 1 (e.g. under qemu-user on a build host),
	 * /init touches nothing global: no mounts, no console or network setup,
	 * no reboot(2); the command line comes from argv[1] and EOF exits. */
	test_mode = getpid() != 1;
	if (test_mode) {
		if (argc > 1 && strlen(argv[1]) < sizeof(cmdline))
			strcpy(cmdline, argv[1]);
		xprintf("xbow-init: not PID 1, test mode\n");
	} else {
		mount_fs("proc", "/proc", "proc",
			 MS_NOSUID | MS_NODEV | MS_NOEXEC);
		mount_fs("sysfs", "/sys", "sysfs",
			 MS_NOSUID | MS_NODEV | MS_NOEXEC);
		mount_fs("devtmpfs", "/dev", "devtmpfs", MS_NOSUID);
		mount_fs("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV);
		xread_file("/proc/cmdline", cmdline, sizeof(cmdline));
		/* Testing hook: run as PID 1 in a container with a fake cmdline. */
		for (char **e = environ; *e; e++)
			if (!strncmp(*e, "XBOW_CMDLINE=", 13) &&
			    strlen(*e + 13) < sizeof(cmdline))
				strcpy(cmdline, *e + 13);
		waited = wait_for_devices();
		setup_console();
		chdir("/");
	}

	banner();
	if (waited < 0)
		xprintf("xbow-init: WARNING: no stable PCI bus after xbow.wait "
			"seconds "
			"(Bridge 1-wire NIC not readable?)\n");
	else if (!test_mode)
		xprintf("xbow-init: waited %ld ms for PCI devices to settle\n",
			waited);
	if (bridge_rp.count)
		xprintf("xbow-init: %s was left unprobed with its 1-wire "
			"EEPROM present (Linux's "
			"deferred-probe race); asked the kernel to probe it "
			"again, %d time%s%s%s\n",
			bridge_rp.name, bridge_rp.count,
			bridge_rp.count > 1 ? "s" : "",
			bridge_rp.err ? ": " : "",
			bridge_rp.err ? xstrerror(bridge_rp.err) : "");
	if (eth_rp.count)
		xprintf("xbow-init: %s was left unprobed with its 1-wire MAC "
			"NIC present (the same race); asked the kernel to "
			"probe it again, %d time%s%s%s\n",
			eth_rp.name, eth_rp.count, eth_rp.count > 1 ? "s" : "",
			eth_rp.err ? ": " : "",
			eth_rp.err ? xstrerror(eth_rp.err) : "");
	xprintf("xbow-init: cmdline: %s", cmdline);
	if (!strchr(cmdline, '\n'))
		xprintf("\n");
	if (!test_mode) {
		order_ifs();
		net_boot_config();
	}

	if (cmdline_get("xbow.run", val, sizeof(val)) && val[0]) {
		int st;
		char after[32] = "shell";

		xprintf("XBOW-RUN-BEGIN %s\n", val);
		st = run_line(val);
		reap(0);
		xprintf("XBOW-RUN-END status=%d\n", st);
		cmdline_get("xbow.after", after, sizeof(after));
		if (!strcmp(after, "poweroff"))
			do_reboot(RB_POWER_OFF, "poweroff");
		else if (!strcmp(after, "reboot"))
			do_reboot(RB_AUTOBOOT, "reboot");
		else if (!strcmp(after, "halt"))
			do_reboot(RB_HALT_SYSTEM, "halt");
	}

	xprintf("xbow-init: shell ready; type 'help'\n");
	for (;;) {
		ssize_t n;

		reap(1);
		xprintf("# ");
		n = read(0, line, sizeof(line) - 1);
		if (n < 0) {
			if (errno != EINTR)
				xsleep_ms(1000);
			continue;
		}
		if (n == 0) { /* ^D on a tty; end of input otherwise */
			unsigned char tb[256];

			xprintf("\n");
			if (test_mode)
				return 0;
			if (ioctl(0, TCGETS, tb) < 0)
				xsleep_ms(1000); /* not a tty: do not spin */
			continue;
		}
		line[n] = 0;
		/* A tty delivers one line per read; a pipe (test mode) may not. */
		{
			char *p = line, *nl;

			while ((nl = strchr(p, '\n')) != NULL) {
				*nl = 0;
				run_line(p);
				p = nl + 1;
			}
			if (*p)
				run_line(p);
		}
	}
}
