/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the snapshot reader and loader (src/machine/snapfile.c,
 * snapshot.c and the state images of CPUs, devices and ports): a real
 * snapshot of the Tigon2 echo guest, damaged as the input says, is read
 * and loaded into a machine of the same configuration, which then runs a
 * little.  A damaged file must be refused with a one-line error and leave
 * the machine's state hash as it was; an accepted one must load and run;
 * nothing may crash, hang or leak.
 *
 * Input: a mode byte, then records.  Mode even: the file's bytes, records
 * of 3 bytes {16-bit offset (mod the file's size), byte}; mode odd: the
 * sections' decompressed data (reaching the parsers of the CPU, device,
 * port and RAM images behind the checksums), records of 4 bytes {section
 * (mod their number), 16-bit offset (mod its length), byte}; a record whose
 * byte is 0xff and offset 0xffff cuts the file or section there instead. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/log.h"
#include "machine/snapshot_int.h"
#include "../unit/machine/example_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static machine *m;
static uint8_t *file;
static size_t file_len;
static snapshot *base;

static void setup(void)
{
    const char *top = getenv("top_builddir");
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/tigon/tigon_echo.elf", top ? top : ".");
    if (access(path, R_OK) != 0) {
        printf("SKIP: the guest is not built (%s)\n", path);
        exit(77);
    }
    log_set_level(LOG_ERROR);
    machine_config cfg = example_config(1, false, "tigon2", "echo", NULL);
    cfg.mem_mb = 32;
    xerr err;
    m = machine_new(&cfg, &err);
    if (!m || machine_load_kernel(m, path, &err) != 0) {
        fprintf(stderr, "fuzz_snapshot: %s\n", err.msg);
        abort();
    }
    machine_run(m, 400000); /* firmware up, frames on the wire */
    base = snapshot_take(m);
    char tmp[] = "/tmp/fuzz-snapshot-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0 || snapshot_write(base, tmp, &err) != 0)
        abort();
    close(fd);
    FILE *f = fopen(tmp, "rb");
    fseek(f, 0, SEEK_END);
    file_len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    file = xmalloc(file_len);
    if (fread(file, 1, file_len, f) != file_len)
        abort();
    fclose(f);
    unlink(tmp);
}

/* A deep copy of base whose sections the caller may damage. */
static snapshot *copy_base(void)
{
    snapshot *s = snapshot_alloc();
    s->version = xstrdup(base->version);
    s->config = xstrdup(base->config);
    s->time = base->time;
    s->ncpus = base->ncpus;
    for (unsigned i = 0; i < base->nsecs; i++) {
        uint8_t *d = xmalloc(base->secs[i].len + 1);
        memcpy(d, base->secs[i].data, base->secs[i].len);
        snapshot_add_sec(s, base->secs[i].name, d, base->secs[i].len);
    }
    s->nrams = base->nrams;
    s->rams = xcalloc(s->nrams, sizeof *s->rams);
    for (unsigned i = 0; i < s->nrams; i++) {
        const snap_ram *r = &base->rams[i];
        snap_ram *c = &s->rams[i];
        *c = *r;
        c->name = xstrdup(r->name);
        size_t bml = (r->npages + 7) / 8 + 1;
        c->bitmap = xmalloc(bml);
        memcpy(c->bitmap, r->bitmap, bml);
        c->pages = xmalloc((r->nstored + 1) * sizeof *c->pages);
        for (uint64_t k = 0; k < r->nstored; k++) {
            c->pages[k] = r->pages[k];
            c->pages[k]->refs++; /* shared, as the history's snapshots */
        }
    }
    return s;
}

static void try_load(snapshot *s, const char *err_msg)
{
    uint64_t h = machine_state_hash(m);
    xerr err;
    if (!s) {
        if (!err_msg[0] || strchr(err_msg, '\n'))
            abort(); /* an error must be one line */
        return;
    }
    if (snapshot_restore(m, s, &err) != 0) {
        if (!err.msg[0] || strchr(err.msg, '\n') || machine_state_hash(m) != h)
            abort(); /* refused: one line, and nothing changed */
        return;
    }
    machine_run(m, 3000); /* whatever it loaded must run */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!m)
        setup();
    if (size < 1)
        return 0;
    unsigned mode = data[0] & 1;
    data++;
    size--;
    if (mode == 0) {
        uint8_t *b = xmalloc(file_len);
        memcpy(b, file, file_len);
        size_t len = file_len;
        for (size_t i = 0; i + 3 <= size; i += 3) {
            size_t off = (size_t)(data[i] | data[i + 1] << 8);
            if (off == 0xffff && data[i + 2] == 0xff) {
                len = len ? (size_t)(data[i] * 7919u) % len : 0;
                continue;
            }
            if (len)
                b[off % len] = data[i + 2];
        }
        xerr err;
        err.msg[0] = 0;
        snapshot *s = snapshot_parse(b, len, &err);
        try_load(s, err.msg);
        snapshot_free(s);
        free(b);
        return 0;
    }
    snapshot *s = copy_base();
    for (size_t i = 0; i + 4 <= size; i += 4) {
        snap_sec *sec = &s->secs[data[i] % s->nsecs];
        size_t off = (size_t)(data[i + 1] | data[i + 2] << 8);
        if (off == 0xffff && data[i + 3] == 0xff) {
            sec->len = sec->len ? (size_t)(data[i] * 7919u) % sec->len : 0;
            continue;
        }
        if (sec->len)
            sec->data[off % sec->len] = data[i + 3];
    }
    try_load(s, "");
    snapshot_free(s);
    return 0;
}
