/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Views: info bridge, info pci, info dma, info irq, info nic, ring.  The decoding
 * lives with the devices (dev_view entries in their declarations); these
 * commands find the devices that offer a view and show it.  `info irq`
 * reads the HUB's and Bridge's interrupt registers by name.
 *
 * `ring` marks the entries that changed since the previous stop.  The
 * command line is one viewer with its own memo (view_memo): a ring view
 * keeps there the whole ring as it first saw it, and when the guest
 * resumes every view in the memo takes the state of that moment, silently.
 * A front end's panes are another viewer with their own memo (see
 * dbg_set_pane_memo), brought up to date at the same moments: neither uses
 * up the other's marks. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"
#include "core/ratemeter.h"

typedef struct views_state {
    view_memo memo;   /* what the command line saw */
    view_memo *panes; /* the front end's, or NULL */
} views_state;

static views_state *vstate(dbg *d) { return DBG_STATE(d, views); }

static void dbg_views_free(dbg *d)
{
    views_state *s = d->views;
    if (!s)
        return;
    view_memo_free(&s->memo);
    free(s);
    d->views = NULL;
}

view_memo *dbg_views_memo(dbg *d) { return &vstate(d)->memo; }

void dbg_set_pane_memo(dbg *d, view_memo *m) { vstate(d)->panes = m; }

/* The NICs' live rates count host time only while the machine runs. */
static void dbg_views_on_stop(dbg *d, int reason)
{
    (void)d;
    (void)reason;
    rate_pause_all();
}

static void dbg_views_on_resume(dbg *d)
{
    rate_resume_all();
    views_state *s = d->views;
    if (!s)
        return;
    view_memo_refresh(&s->memo);
    if (s->panes)
        view_memo_refresh(s->panes);
}

static char *capture(dbg *d, device *dev, const dev_view *v, const char *args)
{
    strbuf b;
    sb_init(&b);
    view_ctx ctx = {.memo = dbg_views_memo(d)};
    v->show(dev, args, &ctx, &b);
    return b.s ? sb_take(&b) : xstrdup("");
}

/* ---- generic view commands ------------------------------------------------- */

static bool class_is(const device *dev, const char *cls)
{
    return strcmp(dev->cls->name, cls) == 0 || strncmp(dev->name, cls, strlen(cls)) == 0;
}

/* Show view `view` of every device that has one. */
static int show_view(dbg *d, const char *view, const char *args, const char *what)
{
    unsigned n = 0;
    for (device *dev = d->m->devices; dev; dev = dev->next) {
        const dev_view *v = dev_view_find(dev, view);
        if (!v)
            continue;
        char *text = capture(d, dev, v, args);
        dbg_printf(d, "%s%s:\n%s", n++ ? "\n" : "", dev->name, text);
        free(text);
    }
    if (!n)
        return dbg_error(d, "No device in this machine shows %s (no \"%s\" view).", what, view);
    return 0;
}

static int cmd_info_bridge(dbg *d, const cmd_args *a)
{
    unsigned n = 0;
    for (device *dev = d->m->devices; dev; dev = dev->next) {
        if (!class_is(dev, "bridge"))
            continue;
        strbuf b;
        sb_init(&b);
        if (dev->cls->nviews) {
            for (unsigned i = 0; i < dev->cls->nviews; i++) {
                const dev_view *v = &dev->cls->views[i];
                if (!strcmp(v->name, "pci") || !strcmp(v->name, "dma"))
                    continue; /* info pci, info dma */
                sb_printf(&b, "%s %s (%s):\n", dev->name, v->name, v->desc ? v->desc : "");
                v->show(dev, "", NULL, &b);
            }
        } else {
            dev_show(dev, &b);
        }
        dbg_puts_sb(d, &b);
        n++;
    }
    if (!n)
        return dbg_error(d, "This machine has no Bridge.");
    return 0;
}

static int cmd_info_pci(dbg *d, const cmd_args *a) { return show_view(d, "pci", "", "PCI"); }
static int cmd_info_scsi(dbg *d, const cmd_args *a)
{
    return show_view(d, "scsi", "", "SCSI (no --disk: no SCSI controllers)");
}
static int cmd_info_dma(dbg *d, const cmd_args *a)
{
    return show_view(d, "dma", a->text[0], "DMA counters");
}

/* ---- info nic ---------------------------------------------------------------------- */

static int cmd_info_nic(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0] && *a->text[0] ? a->text[0] : NULL;
    unsigned n = 0;
    for (device *dev = d->m->devices; dev; dev = dev->next) {
        const dev_view *v = dev_view_find(dev, "rates");
        if (!v || (name && strcmp(dev->name, name) != 0))
            continue;
        char *text = capture(d, dev, v, "");
        dbg_printf(d, "%s%s", n++ ? "\n" : "", text);
        free(text);
    }
    if (n)
        return 0;
    if (name)
        return dbg_error(d, "No NIC named \"%s\" (see \"info devices\").", name);
    return dbg_error(d, "This machine has no NIC (see --nic).");
}

/* ---- ring ---------------------------------------------------------------------- */

static int cmd_ring(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0];
    device *dev = machine_find_device(d->m, name);
    if (!dev)
        return dbg_error(d, "No device named \"%s\" (see \"info devices\").", name);
    const dev_view *v = dev_view_find(dev, "ring");
    if (!v)
        return dbg_error(d, "%s has no rings to show (no \"ring\" view).", name);
    /* RING [N]: N (an expression) by the rule for counts; the view gets it
     * as a plain number and never shows past the ring's end. */
    char view_args[64];
    uint64_t count = a->num[2];
    if (count > UINT32_MAX)
        count = UINT32_MAX; /* more than any ring: the whole ring */
    snprintf(view_args, sizeof view_args, count ? "%.32s %llu" : "%.32s", a->text[1],
             (unsigned long long)count);
    char *text = capture(d, dev, v, view_args);
    dbg_puts(d, text);
    free(text);
    return 0;
}

/* ---- info irq ---------------------------------------------------------------------- */

static bool reg_value(device *dev, const char *name, uint64_t *v)
{
    unsigned id, idx;
    if (dev_reg_lookup(dev, name, &id, &idx) != 0)
        return false;
    *v = dev_peek(dev, id, idx);
    return true;
}

static void bit_list(uint64_t v, unsigned base, strbuf *b)
{
    bool any = false;
    for (unsigned i = 0; i < 64; i++) {
        if (v & (1ull << i)) {
            sb_printf(b, "%s%u", any ? " " : "", base + i);
            any = true;
        }
    }
    if (!any)
        sb_puts(b, "-");
}

static void hub_irq(device *hub, strbuf *b)
{
    uint64_t pend[2], mask[2][2];
    static const char *const mnames[2][2] = {{"PI_INT_MASK0_A", "PI_INT_MASK1_A"},
                                             {"PI_INT_MASK0_B", "PI_INT_MASK1_B"}};
    if (!reg_value(hub, "PI_INT_PEND0", &pend[0]) || !reg_value(hub, "PI_INT_PEND1", &pend[1])) {
        sb_printf(b, "%s: no PI_INT_PEND0/1 registers\n", hub->name);
        return;
    }
    sb_printf(b, "%s (HUB PI) levels pending: ", hub->name);
    bit_list(pend[0], 0, b);
    sb_puts(b, " |");
    bit_list(pend[1], 64, b);
    sb_putc(b, '\n');
    for (int s = 0; s < 2; s++) {
        if (!reg_value(hub, mnames[s][0], &mask[s][0]) ||
            !reg_value(hub, mnames[s][1], &mask[s][1]))
            continue;
        sb_printf(b, "  CPU %c enabled: ", 'A' + s);
        bit_list(mask[s][0], 0, b);
        sb_puts(b, " |");
        bit_list(mask[s][1], 64, b);
        sb_printf(b, "\n  CPU %c pending and enabled: ", 'A' + s);
        bit_list(pend[0] & mask[s][0], 0, b);
        sb_puts(b, " |");
        bit_list(pend[1] & mask[s][1], 64, b);
        sb_printf(b, "  -> IP2 %s, IP3 %s\n", (pend[0] & mask[s][0]) ? "up" : "down",
                  (pend[1] & mask[s][1]) ? "up" : "down");
    }
    uint64_t rt;
    for (int s = 0; s < 2; s++)
        if (reg_value(hub, s ? "PI_RT_PEND_B" : "PI_RT_PEND_A", &rt))
            sb_printf(b, "  RT timer %c pending: %s\n", 'A' + s, rt ? "yes (IP4)" : "no");
}

static void bridge_irq(device *br, strbuf *b)
{
    uint64_t st, en, mode = 0, devs = 0;
    if (!reg_value(br, "INT_STATUS", &st) || !reg_value(br, "INT_ENABLE", &en)) {
        sb_printf(b, "%s: no INT_STATUS/INT_ENABLE registers\n", br->name);
        return;
    }
    reg_value(br, "INT_MODE", &mode);
    reg_value(br, "INT_DEVICE", &devs);
    sb_printf(b, "%s pins (INT_STATUS 0x%08llx, INT_ENABLE 0x%08llx):\n", br->name,
              (unsigned long long)st, (unsigned long long)en);
    sb_puts(b, "  pin level enabled clear-pkt device HUB-level\n");
    for (unsigned pin = 0; pin < 8; pin++) {
        uint64_t addr = 0;
        char rn[16];
        snprintf(rn, sizeof rn, "INT_ADDR(%u)", pin);
        bool have = reg_value(br, rn, &addr);
        sb_printf(b, "  %-3u %-5s %-7s %-9s %-6llu ", pin, (st >> pin) & 1 ? "high" : "low",
                  (en >> pin) & 1 ? "yes" : "no", (mode >> pin) & 1 ? "yes" : "no",
                  (unsigned long long)((devs >> (3 * pin)) & 7));
        if (have)
            sb_printf(b, "%llu\n", (unsigned long long)(addr & 0xff));
        else
            sb_puts(b, "?\n");
    }
    if (st >> 8)
        sb_printf(b, "  error sources pending: 0x%06llx\n", (unsigned long long)(st >> 8));
}

static int cmd_info_irq(dbg *d, const cmd_args *a)
{
    strbuf b;
    sb_init(&b);
    unsigned n = 0;
    for (device *dev = d->m->devices; dev; dev = dev->next) {
        if (class_is(dev, "hub")) {
            hub_irq(dev, &b);
            n++;
        } else if (class_is(dev, "bridge")) {
            bridge_irq(dev, &b);
            n++;
        }
    }
    for (unsigned i = 0; i < d->m->ncpus; i++) {
        cpu *c = d->m->cpus[i];
        uint64_t sr = cpu_cp0(c, 12), cause = cpu_cp0(c, 13);
        sb_printf(&b, "cpu%u: Cause.IP 0x%02llx, Status.IM 0x%02llx, IE %llu, EXL %llu, ERL %llu\n",
                  i, (unsigned long long)((cause >> 8) & 0xff),
                  (unsigned long long)((sr >> 8) & 0xff), (unsigned long long)(sr & 1),
                  (unsigned long long)((sr >> 1) & 1), (unsigned long long)((sr >> 2) & 1));
    }
    if (!n)
        sb_puts(&b, "(no HUB or Bridge in this machine)\n");
    return dbg_puts_sb(d, &b);
}

#include "dbg/views.cmds.h"

const dbg_module dbg_views_module = {
    .name = "views",
    .commands = DBG_COMMANDS("Devices", view_commands),
    .on_stop = dbg_views_on_stop,
    .on_resume = dbg_views_on_resume,
    .free = dbg_views_free,
};
