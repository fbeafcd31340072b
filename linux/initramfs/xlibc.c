/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xlibc.c -- freestanding runtime for the xbow initramfs tools (see xlibc.h
 * for why glibc itself cannot be linked).  MIPS n64 only.
 *
 * Compiled with -fno-builtin and -fno-tree-loop-distribute-patterns so the
 * mem* routines below are not turned into calls to themselves.
 */
#include "xlibc.h"

int main(int argc, char **argv, char **envp);

char **environ;
static int x_errno;

int *__errno_location(void)
{
	return &x_errno;
}

/* ---- process entry --------------------------------------------------------
 * The kernel starts us with $sp pointing at argc, then argv[], NULL, envp[],
 * NULL, auxv.  Code is built non-PIC (-mno-abicalls -G0), so neither $gp nor
 * $t9 need setting up.  The stack is realigned to 16 bytes for the callee.
 */
__asm__(".text\n"
	".globl __start\n"
	".type __start, @function\n"
	".ent __start\n"
	"__start:\n"
	".set push\n"
	".set noreorder\n"
	"	move	$4, $29\n"
	"	daddiu	$29, $29, -32\n"
	"	li	$8, -16\n"
	"	and	$29, $29, $8\n"
	"	jal	xbow_start_c\n"
	"	nop\n"
	"1:	b	1b\n"
	"	nop\n"
	".set pop\n"
	".end __start\n");

void xbow_start_c(long *sp) __attribute__((noreturn, used));
void xbow_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);

	environ = argv + argc + 1;
	_exit(main(argc, argv, environ));
}

/* ---- system calls ------------------------------------------------------- */
long xsyscall(long n, long a, long b, long c, long d, long e, long f)
{
	register long r2 __asm__("$2") = n;
	register long r4 __asm__("$4") = a;
	register long r5 __asm__("$5") = b;
	register long r6 __asm__("$6") = c;
	register long r7 __asm__("$7") = d;
	register long r8 __asm__("$8") = e;
	register long r9 __asm__("$9") = f;

	__asm__ __volatile__("syscall"
			     : "+r"(r2), "+r"(r7)
			     : "r"(r4), "r"(r5), "r"(r6), "r"(r8), "r"(r9)
			     : "$1", "$3", "$10", "$11", "$12", "$13", "$14",
			       "$15", "$24", "$25", "hi", "lo", "memory");
	if (r7) {
		x_errno = (int)r2;
		return -1;
	}
	return r2;
}

ssize_t read(int fd, void *buf, size_t n)
{
	return xsys3(SYS_read, fd, buf, n);
}
ssize_t write(int fd, const void *buf, size_t n)
{
	return xsys3(SYS_write, fd, buf, n);
}
int close(int fd)
{
	return (int)xsys1(SYS_close, fd);
}
int dup2(int a, int b)
{
	return (int)xsys2(SYS_dup2, a, b);
}
pid_t getpid(void)
{
	return (pid_t)xsys0(SYS_getpid);
}
pid_t setsid(void)
{
	return (pid_t)xsys0(SYS_setsid);
}
int kill(pid_t pid, int sig)
{
	return (int)xsys2(SYS_kill, pid, sig);
}
int chdir(const char *p)
{
	return (int)xsys1(SYS_chdir, p);
}
int mkdir(const char *p, mode_t m)
{
	return (int)xsys2(SYS_mkdir, p, m);
}
int mknod(const char *p, mode_t m, dev_t d)
{
	return (int)xsys3(SYS_mknod, p, m, d);
}
void sync(void)
{
	xsys0(SYS_sync);
}
int uname(struct utsname *u)
{
	return (int)xsys1(SYS_uname, u);
}
int klogctl(int type, char *buf, int len)
{
	return (int)xsys3(SYS_syslog, type, buf, len);
}
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	return (int)xsys3(SYS_poll, fds, n, timeout);
}
long xgetdents64(int fd, void *buf, size_t len)
{
	return xsys3(SYS_getdents64, fd, buf, len);
}
pid_t xfork(void)
{
	return (pid_t)xsys0(SYS_fork);
}
pid_t fork(void)
{
	return xfork();
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return (int)xsys3(SYS_open, path, flags, mode);
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	long arg;

	va_start(ap, req);
	arg = va_arg(ap, long);
	va_end(ap);
	return (int)xsys3(SYS_ioctl, fd, req, arg);
}

char *getcwd(char *buf, size_t size)
{
	return xsys2(SYS_getcwd, buf, size) < 0 ? NULL : buf;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return (int)xsys3(SYS_execve, path, argv, envp);
}

void _exit(int status)
{
	for (;;)
		xsys1(SYS_exit_group, status);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	return (pid_t)xsys4(SYS_wait4, pid, status, options, 0);
}

int mount(const char *src, const char *dst, const char *type,
	  unsigned long flags, const void *data)
{
	return (int)xsys5(SYS_mount, src, dst, type, flags, data);
}

int reboot(int howto)
{
	/* LINUX_REBOOT_MAGIC1 / LINUX_REBOOT_MAGIC2 */
	return (int)xsys4(SYS_reboot, 0xfee1dead, 672274793, howto, 0);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)xsys2(SYS_nanosleep, req, rem);
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return (int)xsys2(SYS_clock_gettime, clk, ts);
}

int socket(int domain, int type, int proto)
{
	return (int)xsys3(SYS_socket, domain, type, proto);
}

int bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	return (int)xsys3(SYS_bind, fd, sa, len);
}

int connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	return (int)xsys3(SYS_connect, fd, sa, len);
}

ssize_t sendto(int fd, const void *buf, size_t n, int flags,
	       const struct sockaddr *sa, socklen_t len)
{
	return xsys6(SYS_sendto, fd, buf, n, flags, sa, len);
}

ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *sa,
		 socklen_t *len)
{
	return xsys6(SYS_recvfrom, fd, buf, n, flags, sa, len);
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	return (int)xsys5(SYS_setsockopt, fd, level, name, val, len);
}

/* ---- memory and strings ------------------------------------------------- */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strcpy(char *d, const char *s)
{
	char *r = d;

	while ((*d++ = *s++))
		;
	return r;
}

/* gcc may emit calls to abort() for __builtin_trap-less paths. */
void abort(void)
{
	kill(getpid(), SIGABRT);
	_exit(127);
}

/* ---- formatted output --------------------------------------------------- */
struct obuf {
	char *p;
	size_t size, len;
};

static void ob_putc(struct obuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->p[o->len] = c;
	o->len++;
}

static void ob_pad(struct obuf *o, char c, int n)
{
	while (n-- > 0)
		ob_putc(o, c);
}

int xvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct obuf o = {buf, size, 0};

	for (; *fmt; fmt++) {
		char tmp[24], *s;
		int left = 0, zero = 0, width = 0, lng = 0, len, neg = 0;
		unsigned long long v;
		unsigned base = 10;
		const char *digits = "0123456789abcdef";

		if (*fmt != '%') {
			ob_putc(&o, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = 1;
			else if (*fmt == '0')
				zero = 1;
			else
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		while (*fmt == 'l' || *fmt == 'z') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case '\0':
			fmt--;
			continue;
		case '%':
			ob_putc(&o, '%');
			continue;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			tmp[1] = 0;
			s = tmp;
			goto out_str;
		case 's':
			s = va_arg(ap, char *);
			if (!s)
				s = "(null)";
		out_str:
			len = (int)strlen(s);
			if (!left)
				ob_pad(&o, ' ', width - len);
			while (*s)
				ob_putc(&o, *s++);
			if (left)
				ob_pad(&o, ' ', width - len);
			continue;
		case 'p':
			v = (unsigned long)va_arg(ap, void *);
			base = 16;
			ob_putc(&o, '0');
			ob_putc(&o, 'x');
			break;
		case 'd':
		case 'i': {
			long long sv = lng ? va_arg(ap, long) : va_arg(ap, int);

			neg = sv < 0;
			v = neg ? (unsigned long long)-sv
				: (unsigned long long)sv;
			break;
		}
		case 'X':
			digits = "0123456789ABCDEF";
			/* fall through */
		case 'x':
			base = 16;
			/* fall through */
		case 'u':
			v = lng ? va_arg(ap, unsigned long)
				: va_arg(ap, unsigned int);
			break;
		default:
			ob_putc(&o, '%');
			ob_putc(&o, *fmt);
			continue;
		}
		s = tmp + sizeof(tmp);
		*--s = 0;
		do {
			*--s = digits[v % base];
			v /= base;
		} while (v);
		len = (int)strlen(s) + neg;
		if (left) {
			if (neg)
				ob_putc(&o, '-');
			while (*s)
				ob_putc(&o, *s++);
			ob_pad(&o, ' ', width - len);
		} else if (zero) {
			if (neg)
				ob_putc(&o, '-');
			ob_pad(&o, '0', width - len);
			while (*s)
				ob_putc(&o, *s++);
		} else {
			ob_pad(&o, ' ', width - len);
			if (neg)
				ob_putc(&o, '-');
			while (*s)
				ob_putc(&o, *s++);
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int xsnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = xvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static int xvdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = xvsnprintf(buf, sizeof(buf), fmt, ap);

	if (n > (int)sizeof(buf) - 1)
		n = (int)sizeof(buf) - 1;
	return xwrite_all(fd, buf, (size_t)n) ? -1 : n;
}

int xdprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = xvdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int xprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = xvdprintf(1, fmt, ap);
	va_end(ap);
	return n;
}

int xeprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = xvdprintf(2, fmt, ap);
	va_end(ap);
	return n;
}

int xputs(const char *s)
{
	if (xwrite_all(1, s, strlen(s)) || xwrite_all(1, "\n", 1))
		return -1;
	return 0;
}

int xwrite_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

const char *xstrerror(int err)
{
	static char other[24];

	switch (err) {
	case EPERM:
		return "Operation not permitted";
	case ENOENT:
		return "No such file or directory";
	case EINTR:
		return "Interrupted system call";
	case EIO:
		return "I/O error";
	case ENXIO:
		return "No such device or address";
	case E2BIG:
		return "Argument list too long";
	case ENOEXEC:
		return "Exec format error";
	case EBADF:
		return "Bad file descriptor";
	case ECHILD:
		return "No child processes";
	case EAGAIN:
		return "Resource temporarily unavailable";
	case ENOMEM:
		return "Out of memory";
	case EACCES:
		return "Permission denied";
	case EFAULT:
		return "Bad address";
	case EBUSY:
		return "Device or resource busy";
	case EEXIST:
		return "File exists";
	case ENODEV:
		return "No such device";
	case ENOTDIR:
		return "Not a directory";
	case EISDIR:
		return "Is a directory";
	case EINVAL:
		return "Invalid argument";
	case ENOTTY:
		return "Inappropriate ioctl for device";
	case ENOSPC:
		return "No space left on device";
	case EPIPE:
		return "Broken pipe";
	case ERANGE:
		return "Result out of range";
	case ENOSYS:
		return "Function not implemented";
	case EMSGSIZE:
		return "Message too long";
	case EPROTONOSUPPORT:
		return "Protocol not supported";
	case EAFNOSUPPORT:
		return "Address family not supported";
	case EADDRINUSE:
		return "Address in use";
	case EADDRNOTAVAIL:
		return "Address not available";
	case ENETDOWN:
		return "Network is down";
	case ENETUNREACH:
		return "Network is unreachable";
	case ENOBUFS:
		return "No buffer space available";
	case ETIMEDOUT:
		return "Timed out";
	case ECONNREFUSED:
		return "Connection refused";
	case EHOSTUNREACH:
		return "No route to host";
	default:
		xsnprintf(other, sizeof(other), "errno %d", err);
		return other;
	}
}

/* ---- helpers ------------------------------------------------------------ */
int xparse_ulong(const char *s, unsigned long *out)
{
	unsigned long v = 0;
	unsigned base = 10;

	if (!s || !*s)
		return -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -1;
	}
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

int xparse_ip4(const char *s, uint32_t *out_be)
{
	uint32_t a = 0;
	int part;

	for (part = 0; part < 4; part++) {
		unsigned v = 0;
		int digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (!digits || v > 255)
			return -1;
		a = (a << 8) | v;
		if (part < 3) {
			if (*s != '.')
				return -1;
			s++;
		}
	}
	if (*s)
		return -1;
	*out_be = htonl(a);
	return 0;
}

char *xfmt_ip4(uint32_t addr_be, char *buf)
{
	uint32_t a = ntohl(addr_be);

	xsnprintf(buf, 16, "%u.%u.%u.%u", (a >> 24) & 255, (a >> 16) & 255,
		  (a >> 8) & 255, a & 255);
	return buf;
}

uint64_t xnow_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void xsleep_ms(unsigned long ms)
{
	struct timespec ts = {(time_t)(ms / 1000),
			      (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

long xread_file(const char *path, char *buf, size_t size)
{
	long total = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((size_t)total + 1 < size) {
		ssize_t n = read(fd, buf + total, size - 1 - (size_t)total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = 0;
	return total;
}
