/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The BaseIO's SCSI: two QLogic ISP1040Bs in Bridge slots 0 and 1 (isp0,
 * isp1), present when the configuration has disks (--disk), each disk an
 * image file at a SCSI ID of its bus.  Kept apart from ip27.c like the
 * NICs: the board calls ip27_plug_scsi() once the Bridge exists and
 * ip27_free_scsi() before it goes away. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/scsi/isp.h"
#include "machine/ip27_priv.h"

int machine_parse_disk(const char *text, disk_config *dc, xerr *err)
{
    memset(dc, 0, sizeof *dc);
    dc->id = -1;
    const char *comma = strchr(text, ',');
    size_t plen = comma ? (size_t)(comma - text) : strlen(text);
    if (plen == 0)
        return xerr_fail(err, "--disk: no image file (want FILE[,bus=0|1][,id=N][,ro])");
    if (plen >= sizeof dc->path)
        return xerr_fail(err, "--disk: the image's path is longer than %zu bytes",
                         sizeof dc->path - 1);
    memcpy(dc->path, text, plen);
    dc->path[plen] = 0;
    while (comma) {
        const char *opt = comma + 1;
        comma = strchr(opt, ',');
        size_t n = comma ? (size_t)(comma - opt) : strlen(opt);
        char word[32];
        if (n >= sizeof word)
            n = sizeof word - 1;
        memcpy(word, opt, n);
        word[n] = 0;
        char *end;
        if (!strcmp(word, "ro")) {
            dc->ro = true;
        } else if (!strncmp(word, "bus=", 4)) {
            long v = strtol(word + 4, &end, 0);
            if (end == word + 4 || *end || v < 0 || v > 1)
                goto bad;
            dc->bus = (int)v;
        } else if (!strncmp(word, "id=", 3)) {
            long v = strtol(word + 3, &end, 0);
            if (end == word + 3 || *end || v < 0 || v > 15 || v == 7)
                return xerr_fail(err,
                                 "--disk %s: id=%s is not a target ID (0-15; 7 is the "
                                 "adapter's own)",
                                 text, word + 3);
            dc->id = (int)v;
        } else {
        bad:
            return xerr_fail(err, "--disk %s: \"%s\" is not bus=0|1, id=N or ro", text, word);
        }
    }
    return 0;
}

int ip27_plug_scsi(ip27 *b, xerr *err)
{
    machine *m = b->m;
    if (!m->cfg.ndisks)
        return 0;
    for (int i = 0; i < 2; i++) {
        char name[8];
        snprintf(name, sizeof name, "isp%d", i);
        b->isps[i] = isp_new(name, &m->events, &m->clock);
        if (ip27_plug_pci(m, i, isp_func(b->isps[i]), err) != 0)
            return -1;
    }
    for (unsigned k = 0; k < m->cfg.ndisks && k < MAX_DISKS; k++) {
        const disk_config *dc = &m->cfg.disks[k];
        isp *s = b->isps[dc->bus];
        int id = dc->id;
        if (id < 0) { /* the lowest free ID from 1, as on an Origin 200's system disk */
            for (int t = 1; t < ISP_TARGETS && id < 0; t++)
                if (t != 7 && !isp_disk(s, (unsigned)t))
                    id = t;
            if (id < 0 && !isp_disk(s, 0))
                id = 0;
            if (id < 0)
                return xerr_fail(err, "--disk %s: bus %d has no free SCSI ID", dc->path, dc->bus);
        }
        xerr e;
        scsi_disk *d = scsi_disk_open(dc->path, dc->ro, &e);
        if (!d)
            return xerr_fail(err, "--disk: %s", e.msg);
        if (isp_attach_disk(s, (unsigned)id, d, &e) != 0) {
            scsi_disk_close(d);
            return xerr_fail(err, "--disk %s: %s", dc->path, e.msg);
        }
    }
    return 0;
}

void ip27_free_scsi(ip27 *b)
{
    /* Their devices stay on the machine's list, which frees them. */
    for (int i = 0; i < 2; i++) {
        isp_free(b->isps[i]);
        b->isps[i] = NULL;
    }
}
