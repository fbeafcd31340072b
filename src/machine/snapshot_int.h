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
    uint64_t *refs; /* snapshots sharing data (the history's, when it did not
                       change between them); NULL: this one only */
} snap_sec;

/* One stored RAM page.  Snapshots of the history share the pages that did
 * not change between them (snapshot_take_since): refs counts the
 * snapshots holding it, the last one frees it. */
typedef struct snap_page {
    uint64_t refs;
    uint8_t data[RAM_PAGE_SIZE];
} snap_page;

/* A RAM block: which pages are not all zero (a bitmap), and those pages. */
typedef struct snap_ram {
    char *name;
    uint64_t size, npages, nstored;
    uint8_t *bitmap;   /* (npages + 7) / 8 bytes, bit i of byte i / 8: page i stored */
    snap_page **pages; /* nstored pages, in page order */
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
    size_t own_bytes; /* host memory it allocated (pages shared with an older one excluded) */
};

snapshot *snapshot_alloc(void);
/* A new page (one reference), NULL when the host has no memory for it. */
snap_page *snap_page_new(void);
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
