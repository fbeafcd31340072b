/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gigabit NICs of the machine configuration (--nic MODEL ...) in the
 * Bridge's PCI slots 3 to 7, in order, named <prefix><k> (tigon0, hamachi0,
 * tigon1 ...).  Kept apart from ip27.c: the board calls ip27_plug_nics()
 * once the Bridge exists and ip27_free_nics() before it goes away. */
#include <stdio.h>
#include <string.h>

#include "dev/nic/nic.h"
#include "dev/nic/nic_mac.h"
#include "net/backend.h"
#include "machine/ip27_priv.h"

#define IP27_FIRST_NIC_SLOT 3

/* Two NICs of one machine with one address would answer for each other. */
static int same_mac_as_earlier(ip27 *b, const nic *n, xerr *err)
{
    for (unsigned j = 0; j + 1 < b->nnics; j++) {
        const nic *o = nic_from_pci(b->nics[j]);
        if (memcmp(o->mac, n->mac, 6) == 0) {
            char m[18];
            net_fmt_mac(m, n->mac);
            xerr_set(err, "%s and %s would both have the MAC %s: give them different --mac",
                     o->pci.name, n->pci.name, m);
            return -1;
        }
    }
    return 0;
}

int ip27_plug_nics(ip27 *b, xerr *err)
{
    machine *m = b->m;
    for (unsigned i = 0; i < m->cfg.nnics && i < MAX_NICS; i++) {
        const nic_config *nc = &m->cfg.nics[i];
        const nic_model *nm = nic_model_find(nc->model);
        if (!nm) {
            xerr_set(err, "unknown NIC model \"%s\" (known: %s)", nc->model, nic_model_list());
            return -1;
        }
        unsigned k = 0; /* instance number among NICs of the same prefix */
        for (unsigned j = 0; j < i; j++) {
            const nic_model *o = nic_model_find(m->cfg.nics[j].model);
            k += o && strcmp(o->ops->prefix, nm->ops->prefix) == 0;
        }
        char name[24];
        snprintf(name, sizeof name, "%s%u", nm->ops->prefix, k);
        unsigned slot = IP27_FIRST_NIC_SLOT + i;
        nic_opts o = {.net = nc->net,
                      .pcap = nc->pcap[0] ? nc->pcap : NULL,
                      .dma_per_word = m->cfg.nic_dma_per_word != 0,
                      .mac = nc->mac_set ? nc->mac : NULL,
                      .slot = slot,
                      .mac_seed = m->cfg.append};
        pci_func *f = nic_create(nc->model, name, &o, &m->clock, &m->events, err);
        if (!f)
            return -1;
        b->nics[b->nnics++] = f;
        if (same_mac_as_earlier(b, nic_from_pci(f), err) ||
            ip27_plug_pci(m, (int)slot, f, err) != 0)
            return -1;
    }
    return 0;
}

void ip27_ioc3_mac(ip27 *b, uint8_t mac[6])
{
    const nic_config *nc = &b->m->cfg.ioc3;
    if (nc->mac_set) {
        memcpy(mac, nc->mac, 6);
        return;
    }
    nic_default_mac("ioc3-eth", IP27_IOC3_SLOT, nc->net[0] ? nc->net : "none", b->m->cfg.append,
                    mac);
    mac[0] = 0x08; /* Silicon Graphics' OUI, as on real boards */
    mac[1] = 0x00;
    mac[2] = 0x69;
}

int ip27_make_ioc3_eth(ip27 *b, xerr *err)
{
    machine *m = b->m;
    const nic_config *nc = &m->cfg.ioc3;
    const char *net = nc->net[0] ? nc->net : "none";
    if (nc->pcap[0] && strcmp(net, "none") == 0) {
        xerr_set(err, "--ioc3-pcap needs --ioc3-net SPEC: the on-board Ethernet is unplugged");
        return -1;
    }
    nic_opts o = {.net = net,
                  .pcap = nc->pcap[0] ? nc->pcap : NULL,
                  .dma_per_word = m->cfg.nic_dma_per_word != 0,
                  .mac = b->ioc3_mac,
                  .mac_from = "--ioc3-mac",
                  .slot = IP27_IOC3_SLOT,
                  .mac_seed = m->cfg.append};
    pci_func *f = nic_create("ioc3-eth", "ioc3_eth0", &o, &m->clock, &m->events, err);
    if (!f)
        return -1;
    nic_from_pci(f)->mac_given = nc->mac_set; /* else: the default in the 1-wire NIC */
    b->ioc3_eth = f;
    ioc3_attach_eth(b->ioc3, f);
    int id = initiator_register(&m->bus, f->name, INIT_DEVICE, -1);
    if (id < 0) {
        xerr_set(err, "cannot register %s as a bus initiator", f->name);
        return -1;
    }
    f->initiator = id;
    f->dev->initiator = id;
    machine_add_device(m, f->dev);
    return 0;
}

static void free_nic(machine *m, pci_func *f)
{
    /* The NIC frees its own device: take it off the machine's list. */
    for (device **pp = &m->devices; *pp; pp = &(*pp)->next)
        if (*pp == f->dev) {
            *pp = f->dev->next;
            break;
        }
    nic_destroy(f);
}

void ip27_free_nics(ip27 *b)
{
    machine *m = b->m;
    if (b->ioc3_eth) {
        ioc3_attach_eth(b->ioc3, NULL);
        free_nic(m, b->ioc3_eth);
        b->ioc3_eth = NULL;
    }
    for (unsigned i = 0; i < b->nnics; i++)
        free_nic(m, b->nics[i]);
    b->nnics = 0;
}

bool machine_nic_model_known(const char *model) { return nic_model_find(model) != NULL; }

const char *machine_nic_models(void) { return nic_model_list(); }

int machine_parse_station_mac(const char *text, uint8_t mac[6], xerr *err)
{
    if (!net_parse_mac(text, mac)) {
        xerr_set(err, "\"%s\" is not a MAC address (want six hex bytes such as 02:00:00:00:00:01)",
                 text);
        return -1;
    }
    const char *why = nic_station_problem(mac);
    if (why) {
        xerr_set(err, "%s is %s, not a station address (want a unicast one)", text, why);
        return -1;
    }
    return 0;
}
