/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's side of record and replay (core/rr.h, docs/record-replay.md). */
#ifndef XBOW_MACHINE_RECORD_H
#define XBOW_MACHINE_RECORD_H

#include "core/rr.h"
#include "machine/machine.h"

/* Replay: take the recording's settings (idle skip, the RTC's start) into
 * cfg before the machine is built.  -1 with err for a header without them. */
int machine_replay_settings(rr *r, machine_config *cfg, xerr *err);
/* The machine is built and `kernel` (or NULL) loaded: a recording writes
 * its header; a replay checks the machine against the log's (settings,
 * kernel and PROM hashes, configuration) and names the first difference. */
int machine_rr_begin(machine *m, rr *r, const char *kernel, xerr *err);

#endif
