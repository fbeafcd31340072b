/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The common NIC events in enum nic_event order (nic.h): the first entries
 * of every NIC model's event table.  Included inside an event_decl
 * initializer, after nic.h; no include guard. */
NIC_EVDECL("doorbell", "the host wrote a doorbell / command register", doorbell),
    NIC_EVDECL("tx.desc-fetch", "the device read a Tx descriptor", fetch),
    NIC_EVDECL("tx.desc-done", "the device wrote a Tx descriptor back (status word last)", done),
    NIC_EVDECL("rx.desc-fetch", "the device read an Rx descriptor", fetch),
    NIC_EVDECL("rx.desc-done", "the device wrote an Rx descriptor back (status word last)", done),
    NIC_EVDECL("tx.frame", "a frame went to the wire (no FCS)", txframe),
    NIC_EVDECL("tx.drop", "a transmit frame was dropped (reason)", drop),
    NIC_EVDECL("rx.frame", "a received frame was delivered to host memory", rxframe),
    NIC_EVDECL("rx.drop", "a received frame was dropped (reason)", drop),
    NIC_EVDECL("irq.raise", "interrupt causes became pending and enabled", irq),
    NIC_EVDECL("irq.lower", "enabled interrupt causes were cleared", irq),
    NIC_EVDECL("dma.error", "a DMA failed (master/target abort, bus mastering off)", dmaerr),
    NIC_EVDECL("coal.fire", "the interrupt coalescer decided to interrupt", coal),
    NIC_EVDECL("link", "the link went up or down", link),
