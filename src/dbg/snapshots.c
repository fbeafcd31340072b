/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Snapshots from the command line: snapshot save/load/delete, info
 * snapshots and info state-hash.  A snapshot is either a file (any path) or
 * kept in memory under a name (-m NAME); `snapshot load NAME` takes the
 * in-memory one, or the file when there is no such name, and refuses to
 * guess when both exist.  The machine work is src/machine/snapshot.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "dbg/dbg_int.h"
#include "machine/snapshot.h"

typedef struct snap_entry {
    char *name;
    snapshot *s;
    double save_s; /* host seconds it took */
    struct snap_entry *next;
} snap_entry;

typedef struct snap_state {
    snap_entry *list; /* in the order they were saved */
    unsigned next_auto;
} snap_state;

static snap_state *sstate(dbg *d) { return DBG_STATE(d, snaps); }

static void snaps_free(dbg *d)
{
    snap_state *st = d->snaps;
    if (!st)
        return;
    while (st->list) {
        snap_entry *e = st->list;
        st->list = e->next;
        snapshot_free(e->s);
        free(e->name);
        free(e);
    }
    free(st);
    d->snaps = NULL;
}

static snap_entry *find(dbg *d, const char *name)
{
    for (snap_entry *e = sstate(d)->list; e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

static double host_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "-m NAME", "-m", "-f FILE" or "FILE": *mem says which, *name the rest. */
typedef enum { WHERE_ANY, WHERE_MEM, WHERE_FILE } where;

static where split(const char *text, const char **name)
{
    if (strncmp(text, "-m", 2) == 0 && (text[2] == 0 || text[2] == ' ' || text[2] == '\t')) {
        *name = dbg_skip_ws(text + 2);
        return WHERE_MEM;
    }
    if (strncmp(text, "-f", 2) == 0 && (text[2] == 0 || text[2] == ' ' || text[2] == '\t')) {
        *name = dbg_skip_ws(text + 2);
        return WHERE_FILE;
    }
    *name = text;
    return WHERE_ANY;
}

static bool good_name(const char *n)
{
    if (!*n || strlen(n) > 64)
        return false;
    for (const char *p = n; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.'))
            return false;
    return true;
}

static void describe(dbg *d, const char *what, const char *name, const snapshot *s, double secs)
{
    char t[32];
    dbg_format_time(snapshot_time(s), d->m->clock.hz, t, sizeof t);
    dbg_printf(
        d, "%s %s: time %s (tick %llu), cpu0 at %llu instructions, %llu RAM pages (%.3f s)\n", what,
        name, t, (unsigned long long)snapshot_time(s), (unsigned long long)snapshot_retired(s, 0),
        (unsigned long long)snapshot_ram_pages(s), secs);
}

static int cmd_snapshot_save(dbg *d, const cmd_args *a)
{
    const char *name;
    where w = split(a->text[0], &name);
    snap_state *st = sstate(d);
    char autoname[16];
    if (w == WHERE_MEM && !*name) {
        do
            snprintf(autoname, sizeof autoname, "s%u", ++st->next_auto);
        while (find(d, autoname));
        name = autoname;
    }
    if (!*name)
        return dbg_usage_error(d, "snapshot save", "give a file, or -m NAME for one in memory");
    if (w == WHERE_MEM && !good_name(name))
        return dbg_error(d,
                         "snapshot save: \"%s\" is not a snapshot name (letters, digits, "
                         "'_', '-' and '.', at most 64).",
                         name);
    double t0 = host_seconds();
    snapshot *s = snapshot_take(d->m);
    if (w != WHERE_MEM) {
        xerr err;
        int rc = snapshot_write(s, name, &err);
        double secs = host_seconds() - t0;
        if (rc == 0)
            describe(d, "Saved snapshot", name, s, secs);
        snapshot_free(s);
        return rc == 0 ? 0 : dbg_error(d, "snapshot save: %s", err.msg);
    }
    double secs = host_seconds() - t0;
    snap_entry *e = find(d, name);
    bool replaced = e != NULL;
    if (e) {
        snapshot_free(e->s);
    } else {
        e = xcalloc(1, sizeof *e);
        e->name = xstrdup(name);
        snap_entry **pp = &st->list;
        while (*pp)
            pp = &(*pp)->next;
        *pp = e;
    }
    e->s = s;
    e->save_s = secs;
    describe(d, replaced ? "Replaced in-memory snapshot" : "Saved in-memory snapshot", name, s,
             secs);
    return 0;
}

static int load(dbg *d, const char *what, const char *name, const snapshot *s, double t0)
{
    xerr err;
    if (snapshot_restore(d->m, s, &err) != 0)
        return dbg_error(d, "snapshot load: %s: %s", name, err.msg);
    d->m->clock.changes++; /* the history cannot re-execute across it */
    d->frame = 0;
    d->cur_cpu = 0;
    d->killed = false;
    describe(d, what, name, s, host_seconds() - t0);
    if (dbg_cpu(d))
        dbg_show_location(d, dbg_cpu(d));
    return 0;
}

static int cmd_snapshot_load(dbg *d, const cmd_args *a)
{
    const char *name;
    where w = split(a->text[0], &name);
    if (!*name)
        return dbg_usage_error(d, "snapshot load", "give a file or the name of a snapshot");
    snap_entry *e = w == WHERE_FILE ? NULL : find(d, name);
    struct stat sb;
    bool file = w != WHERE_MEM && stat(name, &sb) == 0;
    if (w == WHERE_MEM && !e)
        return dbg_error(d,
                         "snapshot load: no snapshot named \"%s\" in memory (see \"info "
                         "snapshots\").",
                         name);
    if (w == WHERE_ANY && e && file)
        return dbg_error(d,
                         "snapshot load: \"%s\" is both a snapshot in memory and a file: say "
                         "-m %s or -f %s.",
                         name, name, name);
    double t0 = host_seconds();
    if (e)
        return load(d, "Loaded in-memory snapshot", name, e->s, t0);
    if (w == WHERE_ANY && !file)
        return dbg_error(d, "snapshot load: no snapshot named \"%s\" in memory and no such file.",
                         name);
    xerr err;
    snapshot *s = snapshot_read(name, &err);
    if (!s)
        return dbg_error(d, "snapshot load: %s", err.msg);
    int rc = load(d, "Loaded snapshot", name, s, t0);
    snapshot_free(s);
    return rc;
}

static int cmd_snapshot_delete(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0];
    snap_state *st = sstate(d);
    for (snap_entry **pp = &st->list; *pp; pp = &(*pp)->next) {
        snap_entry *e = *pp;
        if (strcmp(e->name, name) == 0) {
            *pp = e->next;
            snapshot_free(e->s);
            free(e->name);
            free(e);
            return 0;
        }
    }
    return dbg_error(d,
                     "snapshot delete: no snapshot named \"%s\" in memory (see \"info "
                     "snapshots\").",
                     name);
}

static int cmd_info_snapshots(dbg *d, const cmd_args *a)
{
    (void)a;
    snap_state *st = sstate(d);
    if (!st->list) {
        dbg_puts(d, "No snapshots in memory.\n");
        return 0;
    }
    dbg_printf(d, "%-16s %14s %18s %10s %10s\n", "Name", "Time", "cpu0 insns", "RAM pages",
               "Memory");
    size_t total = 0;
    for (snap_entry *e = st->list; e; e = e->next) {
        char t[32];
        dbg_format_time(snapshot_time(e->s), d->m->clock.hz, t, sizeof t);
        size_t bytes = snapshot_bytes(e->s);
        total += bytes;
        dbg_printf(d, "%-16s %14s %18llu %10llu %7.1f MB\n", e->name, t,
                   (unsigned long long)snapshot_retired(e->s, 0),
                   (unsigned long long)snapshot_ram_pages(e->s), (double)bytes / (1 << 20));
    }
    dbg_printf(d, "%-16s %14s %18s %10s %7.1f MB\n", "total", "", "", "",
               (double)total / (1 << 20));
    return 0;
}

static void part_line(void *ctx, const char *name, uint64_t h)
{
    dbg_printf(ctx, "  %-24s %016llx\n", name, (unsigned long long)h);
}

static int cmd_info_state_hash(dbg *d, const cmd_args *a)
{
    const char *opt = a->text[0];
    bool parts = false;
    if (*opt) {
        if (strcmp(opt, "-v") != 0 && strcmp(opt, "parts") != 0)
            return dbg_usage_error(d, "info state-hash", "the only option is -v");
        parts = true;
    }
    machine *m = d->m;
    dbg_printf(d, "state hash %016llx at tick %llu", (unsigned long long)machine_state_hash(m),
               (unsigned long long)m->clock.now);
    for (unsigned i = 0; i < m->ncpus; i++)
        dbg_printf(d, ", cpu%u %llu insns", i, (unsigned long long)cpu_retired(m->cpus[i]));
    dbg_puts(d, "\n");
    if (parts)
        machine_state_hash_parts(m, part_line, d);
    return 0;
}

#include "dbg/snapshots.cmds.h"

const dbg_module dbg_snapshot_module = {
    .name = "snapshot",
    .commands = DBG_COMMANDS("Snapshots", snapshot_commands),
    .free = snaps_free,
};
