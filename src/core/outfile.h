/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output files the user names on the command line (--pcap FILE, --serial
 * file:PATH).  A mistake anywhere on the command line (a later option, a
 * kernel that does not load) must leave such files as they were, so while
 * the front end holds output files (outfile_hold) opening one only checks
 * it can be written: it is opened without truncation (created if missing)
 * and handed to its owner, truncated, by outfile_release(true) once
 * everything is valid; outfile_release(false) or closing it before then
 * leaves it untouched (and removes it if it did not exist).  Without a hold
 * (the debugger's commands, tests) a file is truncated and handed over at
 * once. */
#ifndef XBOW_OUTFILE_H
#define XBOW_OUTFILE_H

#include "core/common.h"

typedef struct outfile outfile;
/* Called with the file's descriptor, open for writing at offset 0 and empty;
 * the owner owns it from then on, also when it fails.  Returns 0, or -1
 * after filling err. */
typedef int (*outfile_ready_fn)(void *ctx, int fd, xerr *err);

/* Open PATH for writing.  Returns NULL with err filled if it cannot be
 * written; else a handle (after ready() already ran, without a hold). */
outfile *outfile_open(const char *path, outfile_ready_fn ready, void *ctx, xerr *err);
/* The owner is done with a file (at any time): before its release it is
 * left as it was.  NULL is allowed. */
void outfile_close(outfile *f);

void outfile_hold(void);
/* Hand every held file to its owner (true; returns -1 with err filled if
 * one failed) or leave them all as they were (false). */
int outfile_release(bool commit, xerr *err);

#endif
