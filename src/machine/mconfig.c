/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine configuration as a stable text (see mconfig.h). */
#include "machine/mconfig.h"

#include <stdio.h>
#include <string.h>

#include "dev/nic/nic.h"
#include "machine/ip27_priv.h"
#include "net/backend.h"

/* A NIC's peer: a built-in one (sink, echo, gen, with its options) is part
 * of the machine (its state is the machine's); any other is input from
 * outside, whichever host interface it uses. */
static const char *peer_kind(const nic *n)
{
    static const char *const builtin[] = {"sink", "echo", "gen"};
    if (!n->port)
        return "none";
    for (unsigned i = 0; i < ARRAY_SIZE(builtin); i++)
        if (strcmp(n->port->backend->kind, builtin[i]) == 0)
            return n->port->spec;
    return "outside";
}

void mconfig_text(const machine *m, strbuf *out)
{
    const ip27 *b = m->board;
    sb_printf(out, "mconfig %d\n", MCONFIG_VERSION);
    sb_puts(out, "board ip27\n");
    sb_printf(out, "cpus %u\n", m->ncpus);
    sb_printf(out, "nodes %u\n", b->nnodes);
    for (unsigned i = 0; i < b->nnodes; i++)
        sb_printf(out, "node%u.mem %llu MB\n", i,
                  (unsigned long long)(b->nodes[i].ram ? b->nodes[i].ram->size >> 20 : 0));
    for (unsigned i = 0; i < b->nnics; i++) {
        pci_func *f = b->nics[i];
        const nic *n = nic_from_pci(f);
        char mac[18];
        net_fmt_mac(mac, n->mac);
        sb_printf(out, "nic%u %s %s slot %u mac %s peer %s\n", i, m->cfg.nics[i].model, f->name,
                  3 + i, mac, peer_kind(n));
    }
    sb_printf(out, "testdev %s\n", m->cfg.test_device ? "on" : "off");
    sb_printf(out, "nic-dma %s\n", m->cfg.nic_dma_per_word ? "per-word" : "bulk");
    sb_printf(out, "idle-skip %s\n", m->cfg.idle_skip ? "on" : "off");
    if (b->has_user_prom)
        sb_printf(out, "prom user %zu bytes\n", b->user_prom_size);
    else
        sb_puts(out, "prom synthetic\n");
}

/* The key of a line (up to the first space) and the line's length. */
static size_t line_len(const char *s)
{
    const char *e = strchr(s, '\n');
    return e ? (size_t)(e - s) : strlen(s);
}

static size_t key_len(const char *s, size_t len)
{
    const char *sp = memchr(s, ' ', len);
    return sp ? (size_t)(sp - s) : len;
}

/* The line of `text` whose key is the key of `line`, or NULL. */
static const char *find_key(const char *text, const char *line, size_t klen)
{
    for (const char *p = text; *p;) {
        size_t n = line_len(p);
        if (key_len(p, n) == klen && memcmp(p, line, klen) == 0)
            return p;
        p += n + (p[n] == '\n');
    }
    return NULL;
}

static int differ(xerr *err, const char *key, size_t klen, const char *file, size_t fl,
                  const char *here, size_t hl)
{
    xerr_set(err,
             "machine configuration differs: %.*s: the file has %s%.*s%s, this machine %s%.*s%s",
             (int)klen, key, file ? "\"" : "", file ? (int)fl : 4, file ? file : "none",
             file ? "\"" : "", here ? "\"" : "", here ? (int)hl : 4, here ? here : "none",
             here ? "\"" : "");
    return -1;
}

int mconfig_check(const char *stored, const machine *m, xerr *err)
{
    strbuf cur;
    sb_init(&cur);
    mconfig_text(m, &cur);
    int rc = 0;
    /* Every line of either side must be on the other, in the same order. */
    const char *a = stored, *b = cur.s;
    while (rc == 0 && (*a || *b)) {
        size_t al = line_len(a), bl = line_len(b);
        if (al == bl && memcmp(a, b, al) == 0) {
            a += al + (a[al] == '\n');
            b += bl + (b[bl] == '\n');
            continue;
        }
        size_t ak = key_len(a, al), bk = key_len(b, bl);
        if (*a && ak == bk && memcmp(a, b, ak) == 0) {
            rc = differ(err, a, ak, a + ak + (ak < al), al - ak - (ak < al), b + bk + (bk < bl),
                        bl - bk - (bk < bl));
        } else if (*a && !find_key(cur.s, a, ak)) {
            rc = differ(err, a, ak, a + ak + (ak < al), al - ak - (ak < al), NULL, 0);
        } else if (*b) {
            const char *o = find_key(stored, b, bk);
            size_t ol = o ? line_len(o) : 0;
            rc = differ(err, b, bk, o ? o + bk + (bk < ol) : NULL, o ? ol - bk - (bk < ol) : 0,
                        b + bk + (bk < bl), bl - bk - (bk < bl));
        } else {
            rc = differ(err, a, ak, a + ak + (ak < al), al - ak - (ak < al), NULL, 0);
        }
    }
    sb_free(&cur);
    return rc;
}
