/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output files named on the command line: see outfile.h. */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

struct outfile {
    char *path;
    int fd;       /* open for writing, not truncated yet; -1 once handed over */
    bool created; /* did not exist before: removed if never handed over */
    outfile_ready_fn ready;
    void *ctx;
    outfile *next;
};

static bool held;
static outfile *pending; /* held files, in the order they were opened */

/* Truncate and hand over.  Returns 0 or -1. */
static int hand_over(outfile *f, xerr *err)
{
    struct stat st;
    if (fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(f->fd, 0) != 0) {
        xerr_set(err, "%s: %s", f->path, strerror(errno));
        return -1;
    }
    int fd = f->fd;
    f->fd = -1;
    f->created = false;
    return f->ready(f->ctx, fd, err) != 0 ? -1 : 0;
}

static void unlink_pending(outfile *f)
{
    for (outfile **pp = &pending; *pp; pp = &(*pp)->next) {
        if (*pp == f) {
            *pp = f->next;
            return;
        }
    }
}

outfile *outfile_open(const char *path, outfile_ready_fn ready, void *ctx, xerr *err)
{
    outfile *f = xcalloc(1, sizeof *f);
    f->path = xstrdup(path);
    f->ready = ready;
    f->ctx = ctx;
    f->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    f->created = f->fd >= 0;
    if (f->fd < 0 && errno == EEXIST)
        f->fd = open(path, O_WRONLY | O_CLOEXEC);
    if (f->fd < 0) {
        xerr_set(err, "cannot create %s: %s", path, strerror(errno));
        outfile_close(f);
        return NULL;
    }
    if (held) {
        outfile **pp = &pending;
        while (*pp)
            pp = &(*pp)->next;
        *pp = f;
        return f;
    }
    if (hand_over(f, err) != 0) {
        outfile_close(f);
        return NULL;
    }
    return f;
}

void outfile_close(outfile *f)
{
    if (!f)
        return;
    unlink_pending(f);
    if (f->fd >= 0) {
        close(f->fd);
        if (f->created)
            unlink(f->path);
    }
    free(f->path);
    free(f);
}

void outfile_hold(void) { held = true; }

int outfile_release(bool commit, xerr *err)
{
    held = false;
    int rc = 0;
    for (outfile *f = pending; f; f = f->next) {
        if (!commit || rc != 0) {
            close(f->fd);
            if (f->created)
                unlink(f->path);
            f->fd = -1;
            f->created = false;
        } else if (hand_over(f, err) != 0) {
            rc = -1;
        }
    }
    pending = NULL;
    return rc;
}
