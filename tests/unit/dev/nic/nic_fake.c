/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test doubles for the NIC models.  See nic_fake.h. */
#include "nic_fake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint8_t *fake_ptr(fake_host *h, uint64_t addr, uint64_t len)
{
    uint64_t off;
    if (addr >= FAKE_HI && addr - FAKE_HI < h->size)
        off = addr - FAKE_HI;
    else if (addr >= FAKE_LO && addr - FAKE_LO < h->size)
        off = addr - FAKE_LO;
    else
        return NULL;
    if (len > h->size - off)
        return NULL;
    return h->ram + off;
}

static int host_dma(void *host, pci_func *f, uint64_t addr, void *buf, uint64_t len, bool write,
                    int kind)
{
    (void)f;
    fake_host *h = host;
    if (kind == PCI_DMA_WORD) {
        h->word_ops++;
        h->word_bytes += len;
    } else {
        h->bulk_ops++;
        h->bulk_bytes += len;
    }
    if (write && h->nwlog < ARRAY_SIZE(h->wlog))
        h->wlog[h->nwlog++] = addr;
    uint8_t *p = fake_ptr(h, addr, len);
    if (!p) {
        h->aborts++;
        return PCI_DMA_ABORT;
    }
    if (write)
        memcpy(p, buf, len);
    else
        memcpy(buf, p, len);
    return PCI_DMA_OK;
}

static int host_peek(void *host, pci_func *f, uint64_t addr, void *buf, uint64_t len)
{
    (void)f;
    fake_host *h = host;
    uint8_t *p = fake_ptr(h, addr, len);
    h->peeks++;
    if (!p)
        return PCI_DMA_ABORT;
    memcpy(buf, p, len);
    return PCI_DMA_OK;
}

static void host_irq(void *host, pci_func *f, int pin, bool level)
{
    (void)f;
    (void)pin;
    fake_host *h = host;
    h->level = level;
    if (h->nirq < ARRAY_SIZE(h->irqlog)) {
        h->irqlog[h->nirq].time = h->clock->now;
        h->irqlog[h->nirq].level = level;
        h->nirq++;
    }
}

static const pci_host_ops fake_ops = {host_dma, host_irq, host_peek};

void fake_host_init(fake_host *h, sched *clock, uint64_t size)
{
    memset(h, 0, sizeof *h);
    h->ram = calloc(1, size);
    h->size = size;
    h->clock = clock;
}

void fake_host_free(fake_host *h)
{
    free(h->ram);
    h->ram = NULL;
}

void fake_host_plug(fake_host *h, pci_func *f)
{
    f->host_ops = &fake_ops;
    f->host = h;
    f->slot = 3;
    f->initiator = 7;
    pci_config_write(f, 4, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
}

void fake_w32(fake_host *h, uint64_t addr, uint32_t v)
{
    uint8_t *p = fake_ptr(h, addr, 4);
    if (p)
        store_le(p, 4, v);
}

uint32_t fake_r32(fake_host *h, uint64_t addr)
{
    uint8_t *p = fake_ptr(h, addr, 4);
    return p ? (uint32_t)load_le(p, 4) : 0xdeadbeef;
}

void fake_w64(fake_host *h, uint64_t addr, uint64_t v)
{
    uint8_t *p = fake_ptr(h, addr, 8);
    if (p)
        store_le(p, 8, v);
}

unsigned fake_irq_rises(const fake_host *h)
{
    unsigned n = 0;
    for (unsigned i = 0; i < h->nirq; i++)
        n += h->irqlog[i].level;
    return n;
}

/* ---- the wire ------------------------------------------------------------- */

static void wire_send(net_backend *b, const uint8_t *frame, size_t len)
{
    fake_wire *w = container_of(b, fake_wire, be);
    w->total++;
    if (w->nframes < FAKE_MAX_FRAMES) {
        w->frames[w->nframes] = malloc(len ? len : 1);
        memcpy(w->frames[w->nframes], frame, len);
        w->lens[w->nframes] = (uint32_t)len;
        w->nframes++;
    }
}

void fake_wire_attach(fake_wire *w, nic *n, sched *clock)
{
    memset(w, 0, sizeof *w);
    w->be.kind = "fake";
    w->be.port = &w->port;
    w->be.send = wire_send;
    w->be.fd = -1;
    snprintf(w->port.name, sizeof w->port.name, "%s", n->dev->name);
    w->port.backend = &w->be;
    w->port.clock = clock;
    nic_attach_port(n, &w->port);
}

void fake_wire_free(fake_wire *w)
{
    for (unsigned i = 0; i < w->nframes; i++)
        free(w->frames[i]);
    w->nframes = 0;
}

bool fake_wire_deliver(fake_wire *w, const uint8_t *frame, size_t len)
{
    return net_port_deliver(&w->port, frame, len);
}

uint16_t fake_csum(const uint8_t *p, uint32_t len, uint32_t sum)
{
    for (uint32_t i = 0; i + 1 < len; i += 2)
        sum += (uint32_t)p[i] << 8 | p[i + 1];
    if (len & 1)
        sum += (uint32_t)p[len - 1] << 8;
    while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
    return (uint16_t)sum;
}

void fake_frame(uint8_t *f, uint32_t len, const uint8_t *dst, uint16_t type, uint32_t k)
{
    memcpy(f, dst, 6);
    memcpy(f + 6, "\x02\x00\x00\x00\x00\x01", 6);
    f[12] = (uint8_t)(type >> 8);
    f[13] = (uint8_t)type;
    for (uint32_t i = 14; i < len; i++)
        f[i] = net_payload_byte(k, i);
}

void fake_arp_request(uint8_t *f, const uint8_t mac[6])
{
    static const uint8_t body[] = {0x08, 0x06, 0, 1, 0x08, 0, 6, 4, 0, 1};
    static const uint8_t ips[] = {10, 0, 2, 15, 0, 0, 0, 0, 0, 0, 10, 0, 2, 2};
    memset(f, 0, FAKE_ARP_LEN);
    memset(f, 0xff, 6);
    memcpy(f + 6, mac, 6);
    memcpy(f + 12, body, sizeof body);
    memcpy(f + 22, mac, 6);
    memcpy(f + 28, ips, sizeof ips);
}

void run_for(sched *s, uint64_t ticks) { sched_run_until(s, s->now + ticks); }

bool nic_rig_open(nic_rig *r, const char *model, const char *name, const nic_opts *o, uint64_t ram,
                  bool wire, xerr *err)
{
    memset(r, 0, sizeof *r);
    sched_init(&r->clock, 0);
    event_bus_init(&r->eb, &r->clock.now);
    r->f = nic_create(model, name, o, &r->clock, &r->eb, err);
    if (!r->f)
        return false;
    r->n = nic_from_pci(r->f);
    fake_host_init(&r->host, &r->clock, ram);
    fake_host_plug(&r->host, r->f);
    if (wire)
        fake_wire_attach(&r->wire, r->n, &r->clock);
    return true;
}

void nic_rig_close(nic_rig *r)
{
    nic_destroy(r->f);
    fake_wire_free(&r->wire);
    fake_host_free(&r->host);
    event_bus_free(&r->eb);
}
