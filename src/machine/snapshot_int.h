/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The in-memory form of a snapshot, shared by snapshot.c (taking, checking
 * and loading) and snapfile.c (the file format). */
#ifndef XBOW_SNAPSHOT_INT_H
#define XBOW_SNAPSHOT_INT_H

#include "machine/snapshot.h"

/* A state section: "machine", "cpu0", "dev:bridge", "net:tigon0", "console". */
typedef struct snap_sec {
    char *name;
    uint8_t *data;
    size_t len;
} snap_sec;

/* A RAM block: which pages are not all zero (a bitmap), and those pages. */
typedef struct snap_ram {
    char *name;
    uint64_t size, npages, nstored;
    uint8_t *bitmap; /* (npages + 7) / 8 bytes, bit i of byte i / 8: page i stored */
    uint8_t *pages;  /* nstored pages of RAM_PAGE_SIZE, in page order */
} snap_ram;

struct snapshot {
    char *version; /* the xbow that took it */
    char *config;  /* mconfig_text */
    uint64_t time; /* virtual time */
    unsigned ncpus;
    uint64_t retired[MAX_CPUS];
    snap_sec *secs;
    unsigned nsecs, cap;
    snap_ram *rams;
    unsigned nrams;
};

snapshot *snapshot_alloc(void);
void snapshot_add_sec(snapshot *s, const char *name, uint8_t *data, size_t len);
/* The information fields (time, retired) from the "machine" section:
 * 0, or -1 with why when it is malformed. */
int snapshot_read_info(snapshot *s, xerr *err);
/* A RAM block's bitmap bit. */
static inline bool snap_page_stored(const snap_ram *r, uint64_t pg)
{
    return (r->bitmap[pg >> 3] >> (pg & 7)) & 1;
}

#endif
