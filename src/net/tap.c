/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tap:IFNAME`: a Linux tap device (/dev/net/tun, IFF_TAP | IFF_NO_PI).
 *
 * An existing persistent tap (`ip tuntap add dev IF mode tap user $USER`)
 * needs no privilege to attach to; creating one needs CAP_NET_ADMIN.  One
 * read() or write() carries exactly one Ethernet frame without FCS. */
#include "core/log.h"
#include "net/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define TAP_BUF 65536

typedef struct tap {
    net_backend b;
    char ifname[IFNAMSIZ];
    uint64_t reads;
    _Atomic uint64_t writes, write_errors; /* xmit's: the writer thread's */
    bool logged_error;
    uint8_t buf[TAP_BUF];
} tap;

/* One write is one frame; the host kernel delivers it (up to a receiving
 * socket of the host) in the writer's context.  EAGAIN/ENOBUFS: the host's
 * queue is full; EIO: the interface is down (the port logs other errors). */
static int tap_xmit(net_backend *b, int fd, const uint8_t *f, size_t len, int *err)
{
    tap *t = container_of(b, tap, b);
    ssize_t n = write(fd, f, len);
    if (n == (ssize_t)len) {
        atomic_fetch_add_explicit(&t->writes, 1, memory_order_relaxed);
        return -1;
    }
    *err = n < 0 ? errno : 0;
    atomic_fetch_add_explicit(&t->write_errors, 1, memory_order_relaxed);
    return NET_DROP_HOST;
}

static void tap_poll(net_backend *b)
{
    tap *t = container_of(b, tap, b);
    for (int i = 0; i < NET_POLL_BATCH && net_port_host_room(b->port); i++) {
        ssize_t n = read(b->fd, t->buf, sizeof t->buf);
        if (n < 0) {
            if (errno != EAGAIN && errno != EINTR && !t->logged_error) {
                xlog(LOG_WARN, b->port->name, "tap %s: read: %s", t->ifname, strerror(errno));
                t->logged_error = true;
            }
            return;
        }
        t->reads++;
        net_port_host_rx(b->port, t->buf, (size_t)n);
    }
}

static void tap_close(net_backend *b)
{
    close(b->fd);
    free(container_of(b, tap, b));
}

static void tap_show(net_backend *b, strbuf *out)
{
    tap *t = container_of(b, tap, b);
    sb_printf(out, "  tap       %s (fd %d): %llu frames read, %llu written, %llu write errors\n",
              t->ifname, b->fd, (unsigned long long)t->reads,
              (unsigned long long)atomic_load_explicit(&t->writes, memory_order_relaxed),
              (unsigned long long)atomic_load_explicit(&t->write_errors, memory_order_relaxed));
}

static const char *attach_hint(int e)
{
    switch (e) {
    case EPERM:
    case EACCES:
        return " (creating a tap needs CAP_NET_ADMIN: run as root, or create it first with "
               "`ip tuntap add dev IF mode tap user $USER`)";
    case EBUSY: return " (another process has it open)";
    case EINVAL: return " (an interface of that name exists and is not a tap device)";
    default: return "";
    }
}

net_backend *net_tap_new(net_port *p, const char *args, xerr *err)
{
    if (!*args)
        return net_fail(err, "tap", "want tap:IFNAME");
    if (strlen(args) >= IFNAMSIZ || strchr(args, '/') || strchr(args, ' '))
        return net_fail(err, "tap", "bad interface name \"%s\" (at most %d characters)", args,
                        IFNAMSIZ - 1);
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return net_fail(err, "tap", "cannot open /dev/net/tun: %s%s", strerror(e),
                        e == ENOENT || e == ENODEV ? " (no tun driver: modprobe tun)"
                        : e == EACCES || e == EPERM
                            ? " (needs root, or read-write access to /dev/net/tun)"
                            : "");
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    strcpy(ifr.ifr_name, args);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        int e = errno;
        close(fd);
        return net_fail(err, "tap", "cannot attach to %s: %s%s", args, strerror(e), attach_hint(e));
    }
    tap *t = xcalloc(1, sizeof *t);
    memcpy(t->ifname, ifr.ifr_name, IFNAMSIZ);
    t->ifname[IFNAMSIZ - 1] = 0;
    t->b.kind = "tap";
    t->b.xmit = tap_xmit;
    t->b.tx_fd = fd;
    t->b.poll = tap_poll;
    t->b.close = tap_close;
    t->b.show = tap_show;
    t->b.fd = fd;
    return &t->b;
}
