/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xlibc.h -- the tiny freestanding runtime of the xbow initramfs tools.
 *
 * Why not glibc: Debian's libc6-dev-mips64-cross is built for MIPS64r2
 * (every object in libc.a carries the mips64r2 flag, and a static "hello"
 * already uses dext/ins/seb/wsbh/rotr/dclz/mul).  The R10000 of an Origin 200
 * is MIPS IV and takes a Reserved Instruction exception on those, and Linux
 * does not emulate them, so a glibc-linked /init would die with SIGILL.
 *
 * So the tools are compiled with -march=r10000 -ffreestanding -nostdlib and
 * link only against xlibc.c: raw n64 syscalls plus the few helpers we need.
 * The cross glibc's *headers* are still used for types and constants (they
 * are plain declarations and match the kernel ABI on n64); its prototypes
 * double as the declarations of the functions implemented in xlibc.c.
 * build.sh disassembles the results and refuses any non-MIPS-IV opcode.
 *
 * stdio.h is deliberately not used: output goes through xprintf() and
 * friends so that gcc cannot turn calls into puts()/putchar() that do not
 * exist here.
 */
#ifndef XBOW_XLIBC_H
#define XBOW_XLIBC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>

#if !defined(__mips64) || _MIPS_SIM != _ABI64
#error "xlibc supports only the MIPS n64 ABI"
#endif

/* ---- raw system calls (n64: number in $2, args in $4..$9, error flag in $7) */
long xsyscall(long n, long a, long b, long c, long d, long e, long f);
#define xsys0(n) xsyscall((n), 0, 0, 0, 0, 0, 0)
#define xsys1(n, a) xsyscall((n), (long)(a), 0, 0, 0, 0, 0)
#define xsys2(n, a, b) xsyscall((n), (long)(a), (long)(b), 0, 0, 0, 0)
#define xsys3(n, a, b, c) \
	xsyscall((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define xsys4(n, a, b, c, d) \
	xsyscall((n), (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define xsys5(n, a, b, c, d, e) \
	xsyscall((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
#define xsys6(n, a, b, c, d, e, f)                                           \
	xsyscall((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), \
		 (long)(f))

/* getdents64(2) record (the kernel's struct linux_dirent64); glibc 2.36
 * declares neither it nor getdents64() without _GNU_SOURCE. */
struct xdirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};
long xgetdents64(int fd, void *buf, size_t len);
/* fork() through the raw syscall. */
pid_t xfork(void);

/* ---- formatted output: %[-0][width][l|ll|z]{d,i,u,x,X,s,c,p,%} -------- */
int xvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int xsnprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int xdprintf(int fd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int xeprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int xputs(const char *s); /* writes s and a newline to fd 1 */
const char *xstrerror(int err);

/* ---- small helpers ------------------------------------------------------ */
/* Parses a decimal (or 0x hex) unsigned number; returns 0 on success. */
int xparse_ulong(const char *s, unsigned long *out);
/* Dotted quad to network-order address; returns 0 on success. */
int xparse_ip4(const char *s, uint32_t *out_be);
/* Network-order address to dotted quad in buf (>= 16 bytes). */
char *xfmt_ip4(uint32_t addr_be, char *buf);
/* Monotonic time in microseconds. */
uint64_t xnow_us(void);
void xsleep_ms(unsigned long ms);
/* Reads a whole small file into buf (NUL-terminated); returns length or -1. */
long xread_file(const char *path, char *buf, size_t size);
/* Writes all of buf; returns 0 or -1. */
int xwrite_all(int fd, const void *buf, size_t len);

#endif
