/* `vde:PATH`: a port on a VDE switch through libvdeplug.
 *
 * PATH is the switch's directory (`vde_switch -s PATH`); libvdeplug 4 also
 * takes its URLs here (vde:///PATH, vxvde://GROUP, ...).  The data socket
 * carries one frame per datagram; it is made non-blocking, since the
 * classic plugin ignores vde_recv's flags. */
#include "core/log.h"
#include "net/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <libvdeplug.h>
#include <stdio.h>
#include <stdlib.h>

#define VDE_BUF 65536

typedef struct vde {
    net_backend b;
    VDECONN *conn;
    char path[128];
    uint64_t sent, received, send_errors;
    bool logged_error;
    uint8_t buf[VDE_BUF];
} vde;

static void vde_b_send(net_backend *b, const uint8_t *f, size_t len)
{
    vde *v = container_of(b, vde, b);
    ssize_t n = vde_send(v->conn, f, len, 0);
    if (n == (ssize_t)len) {
        v->sent++;
        return;
    }
    v->send_errors++;
    if (n < 0 && errno != EAGAIN && errno != ENOBUFS && !v->logged_error) {
        xlog(LOG_WARN, b->port->name, "vde %s: send: %s", v->path, strerror(errno));
        v->logged_error = true;
    }
    net_port_drop(b->port, NET_DIR_TX, len, NET_DROP_HOST);
}

static void vde_b_poll(net_backend *b)
{
    vde *v = container_of(b, vde, b);
    for (int i = 0; i < NET_POLL_BATCH; i++) {
        ssize_t n = vde_recv(v->conn, v->buf, sizeof v->buf, 0);
        if (n < 0) {
            if (errno != EAGAIN && errno != EINTR && !v->logged_error) {
                xlog(LOG_WARN, b->port->name, "vde %s: recv: %s", v->path, strerror(errno));
                v->logged_error = true;
            }
            return;
        }
        v->received++;
        net_port_host_rx(b->port, v->buf, (size_t)n);
    }
}

static void vde_b_close(net_backend *b)
{
    vde *v = container_of(b, vde, b);
    vde_close(v->conn);
    free(v);
}

static void vde_b_show(net_backend *b, strbuf *out)
{
    vde *v = container_of(b, vde, b);
    sb_printf(out, "  vde       %s: %llu frames sent, %llu received, %llu send errors\n", v->path,
              (unsigned long long)v->sent, (unsigned long long)v->received,
              (unsigned long long)v->send_errors);
}

net_backend *net_vde_new(net_port *p, const char *args, char *err, size_t errlen)
{
    if (!NET_HAVE_VDE)
        return net_fail(err, errlen, "vde",
                        "not available in this AddressSanitizer build (libvdeplug loads its plugins "
                        "with RTLD_DEEPBIND, which ASan rejects)");
    vde *v = calloc(1, sizeof *v);
    if (!v)
        return net_fail(err, errlen, "vde", "out of memory");
    if (!*args || strlen(args) >= sizeof v->path) {
        free(v);
        return net_fail(err, errlen, "vde", "want vde:PATH (the vde_switch directory)");
    }
    strcpy(v->path, args);
    char descr[64];
    snprintf(descr, sizeof descr, "xbow %s", p->name);
    errno = 0;
    v->conn = vde_open(v->path, descr, NULL);
    if (!v->conn) {
        int e = errno;
        net_fail(err, errlen, "vde", "cannot connect to the switch at %s: %s (is `vde_switch -s %s` running?)",
                 args, e ? strerror(e) : "failed", args);
        free(v);
        return NULL;
    }
    int fd = vde_datafd(v->conn);
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
        int e = errno;
        vde_close(v->conn);
        free(v);
        return net_fail(err, errlen, "vde", "fcntl: %s", strerror(e));
    }
    v->b.kind = "vde";
    v->b.send = vde_b_send;
    v->b.poll = vde_b_poll;
    v->b.close = vde_b_close;
    v->b.show = vde_b_show;
    v->b.fd = fd;
    return &v->b;
}
