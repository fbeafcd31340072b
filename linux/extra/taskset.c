/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * taskset -- run a command on a set of CPUs, for the xbow guest.
 *
 *   taskset MASK CMD [ARG...]
 *
 * MASK is hexadecimal (0x optional): bit N lets the command run on CPU N.
 * The process sets its own affinity (sched_setaffinity(0, ...)) and execs
 * CMD (a path, or a name looked up in /bin then /sbin, as /init's shell
 * does); the children it forks inherit the mask.
 *
 * It is not part of the initramfs (a tool there changes the kernel's build
 * key: linux/build.sh): linux/bench.sh builds it with the initramfs tools'
 * flags and puts it on an ext2 disk that the guest mounts, the way a user of
 * the real machine installs a tool (LINUX_BENCH=duplex, DUPLEX_PIN).
 */
#include "xlibc.h"

int main(int argc, char **argv, char **envp)
{
	unsigned long mask = 0;
	const char *s;
	char path[256];

	if (argc < 3) {
		xeprintf("usage: taskset MASK CMD [ARG...]\n");
		return 2;
	}
	s = argv[1];
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s) {
		xeprintf("taskset: bad mask '%s'\n", argv[1]);
		return 2;
	}
	for (; *s; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else {
			xeprintf("taskset: bad mask '%s'\n", argv[1]);
			return 2;
		}
		if (mask >> 60) {
			xeprintf("taskset: mask '%s' too long\n", argv[1]);
			return 2;
		}
		mask = mask << 4 | (unsigned long)d;
	}
	if (xsys3(SYS_sched_setaffinity, 0, sizeof(mask), &mask) < 0) {
		xeprintf("taskset: sched_setaffinity %s: %s\n", argv[1],
			 xstrerror(errno));
		return 1;
	}
	if (strchr(argv[2], '/')) {
		execve(argv[2], argv + 2, envp);
	} else {
		xsnprintf(path, sizeof(path), "/bin/%s", argv[2]);
		execve(path, argv + 2, envp);
		xsnprintf(path, sizeof(path), "/sbin/%s", argv[2]);
		execve(path, argv + 2, envp);
	}
	xeprintf("taskset: %s: %s\n", argv[2], xstrerror(errno));
	return 127;
}
