/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine configuration as a stable text: what a snapshot or a
 * recording was made on, so that it is only loaded or replayed on the same
 * machine.
 *
 * One "key value" line per property, in a fixed order: the board, the CPUs,
 * the memory of each node, each PCI slot's card (model, name, MAC, and
 * whether its network peer is built in or outside the machine), and the
 * options that change what the guest sees (idle skip, the NIC DMA mode, the
 * PROM).  What does not change the machine is left out: the execution
 * engine, the serial backend, capture files, the on-reset policy, which
 * host interface an outside peer uses. */
#ifndef XBOW_MCONFIG_H
#define XBOW_MCONFIG_H

#include "core/common.h"
#include "core/strbuf.h"
#include "machine/machine.h"

#define MCONFIG_VERSION 1

/* Append the configuration text of m to out (lines ending in '\n'). */
void mconfig_text(const machine *m, strbuf *out);
/* Compare a stored configuration text with the running machine: 0 when
 * they describe the same machine, else -1 with a one-line message naming
 * the first difference ("cpus: the file has 2, this machine 1"). */
int mconfig_check(const char *stored, const machine *m, xerr *err);

#endif
