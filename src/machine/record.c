/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine's side of record and replay (core/rr.h): the log's header
 * (the settings that change a run, the RTC's start, the kernel, the
 * machine configuration) and the replay's checks against it. */
#include "config.h"
#include "machine/record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/rr.h"
#include "core/strbuf.h"
#include "machine/mconfig.h"

/* FNV-1a (64 bits) of a file's bytes: which kernel or PROM ran. */
static int file_hash(const char *path, uint64_t *h, xerr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return xerr_fail(err, "%s: %s", path, strerror(errno));
    uint64_t v = 0xcbf29ce484222325ull;
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < n; i++)
            v = (v ^ buf[i]) * 0x100000001b3ull;
    bool bad = ferror(f);
    fclose(f);
    if (bad)
        return xerr_fail(err, "%s: read error", path);
    *h = v;
    return 0;
}

/* The header text of machine m: "key: value" lines, then the configuration. */
static int header_text(machine *m, const char *kernel, strbuf *out, xerr *err)
{
    sb_printf(out, "xbow-version: %s\n", PACKAGE_VERSION);
    sb_printf(out, "idle-skip: %s\n", m->cfg.idle_skip ? "on" : "off");
    sb_printf(out, "rtc-epoch: %" PRId64 "\n", m->rtc_epoch);
    sb_printf(out, "quantum: %" PRIu64 "\n", m->quantum);
    sb_printf(out, "solo-quantum: %" PRIu64 "\n", m->solo_quantum);
    sb_printf(out, "cpu-hz: %" PRIu64 "\n", m->clock.hz);
    sb_printf(out, "engine: %s\n", m->cfg.engine == CPU_ENGINE_JIT ? "jit" : "interp");
    const char *files[2][2] = {{"kernel", kernel}, {"prom", m->cfg.prom}};
    for (int i = 0; i < 2; i++) {
        uint64_t h;
        if (!files[i][1])
            continue;
        if (file_hash(files[i][1], &h, err) != 0)
            return -1;
        sb_printf(out, "%s-hash: %016" PRIx64 "\n", files[i][0], h);
    }
    sb_puts(out, "config:\n");
    mconfig_text(m, out);
    return 0;
}

/* The settings of the recording that the replay takes over. */
int machine_replay_settings(rr *r, machine_config *cfg, xerr *err)
{
    char v[64];
    if (!rr_header_get(r, "idle-skip", v, sizeof v) || (strcmp(v, "on") && strcmp(v, "off")))
        return xerr_fail(err, "%s: the header has no idle-skip setting: the log is damaged",
                         r->path);
    cfg->idle_skip = !strcmp(v, "on");
    char *end;
    if (!rr_header_get(r, "rtc-epoch", v, sizeof v))
        return xerr_fail(err, "%s: the header has no rtc-epoch: the log is damaged", r->path);
    errno = 0;
    long long e = strtoll(v, &end, 10);
    if (errno || *end || end == v)
        return xerr_fail(err, "%s: bad rtc-epoch \"%s\" in the header", r->path, v);
    cfg->rtc_fixed = false;
    cfg->rtc_epoch_set = true;
    cfg->rtc_epoch = e;
    return 0;
}

int machine_rr_begin(machine *m, rr *r, const char *kernel, xerr *err)
{
    strbuf t;
    sb_init(&t);
    int rc = header_text(m, kernel, &t, err);
    if (rc == 0 && r->mode == RR_RECORD)
        rc = rr_record_begin(r, t.s, err);
    if (rc == 0 && r->mode == RR_REPLAY) {
        /* Every line but the version and the engine (either replays). */
        static const char *const keys[] = {"idle-skip", "rtc-epoch",   "quantum",  "solo-quantum",
                                           "cpu-hz",    "kernel-hash", "prom-hash"};
        for (size_t i = 0; i < ARRAY_SIZE(keys) && rc == 0; i++) {
            char want[128], have[128];
            bool w = rr_header_get(r, keys[i], want, sizeof want);
            rr tmp = {.text = (char *)t.s};
            bool h = rr_header_get(&tmp, keys[i], have, sizeof have);
            if (w != h || (w && strcmp(want, have)))
                rc = xerr_fail(
                    err, "--replay %s: %s differs: the recording has %s, this machine %s%s",
                    r->path, keys[i], w ? want : "none", h ? have : "none",
                    !strcmp(keys[i], "kernel-hash") ? " (give the kernel the recording ran)" : "");
        }
        xerr e;
        if (rc == 0 && mconfig_check(rr_header_config(r), m, &e) != 0)
            rc = xerr_fail(err, "--replay %s: %s (give the options of the recording)", r->path,
                           e.msg);
    }
    sb_free(&t);
    return rc;
}
