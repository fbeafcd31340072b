/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for reading DWARF (src/dbg/dwarf*.c over libdw): the debug
 * sections of a real program (the test guest, examples/dbgtest/dbgtest.elf,
 * built with -g) with bytes the input chooses replaced, then the queries
 * the debugger makes when it stops, steps and prints: lines, scopes,
 * prologues, variables and their locations, types and their C names, the
 * CFI unwinder, FILE:LINE.  A damaged file must be refused with an error
 * or answer in some way; it must never crash, hang or leak.
 *
 * Input: a query seed (8 bytes), then records of 4 bytes: a debug section
 * (mod the number of them), a 16-bit offset into it (mod its size), a
 * byte to store there. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "dbg/dwarf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *image;
static size_t image_size;

typedef struct section {
    size_t off, size;
} section;
static section secs[32];
static unsigned nsecs;
static uint64_t text_lo, text_hi;

static uint64_t be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* The test guest and where its .debug_* sections and .text are. */
static void load_guest(void)
{
    const char *top = getenv("top_builddir");
    char path[1024];
    snprintf(path, sizeof path, "%s/examples/dbgtest/dbgtest.elf", top ? top : ".");
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("SKIP: the test guest is not built (%s)\n", path);
        exit(77);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    image = malloc((size_t)n);
    if (!image || fread(image, 1, (size_t)n, f) != (size_t)n)
        abort();
    fclose(f);
    image_size = (size_t)n;
    uint64_t shoff = be(image + 0x28, 8);
    unsigned shentsize = (unsigned)be(image + 0x3a, 2), shnum = (unsigned)be(image + 0x3c, 2);
    unsigned shstrndx = (unsigned)be(image + 0x3e, 2);
    const uint8_t *strsh = image + shoff + (uint64_t)shstrndx * shentsize;
    uint64_t stroff = be(strsh + 0x18, 8);
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *sh = image + shoff + (uint64_t)i * shentsize;
        const char *name = (const char *)image + stroff + be(sh, 4);
        uint64_t off = be(sh + 0x18, 8), sz = be(sh + 0x20, 8);
        if (!strncmp(name, ".debug_", 7) && nsecs < 32 && sz)
            secs[nsecs++] = (section){(size_t)off, (size_t)sz};
        if (!strcmp(name, ".text")) {
            text_lo = be(sh + 0x10, 8);
            text_hi = text_lo + sz;
        }
    }
    if (!nsecs || !text_lo)
        abort();
}

/* Memory the unwinder and locations read: a fixed pattern, some of it
 * unreadable. */
static int mem_read(void *ctx, uint64_t addr, void *buf, unsigned len)
{
    (void)ctx;
    if ((addr >> 12) % 7 == 3)
        return -1;
    for (unsigned i = 0; i < len; i++)
        ((uint8_t *)buf)[i] = (uint8_t)((addr + i) * 0x9d);
    return 0;
}

typedef struct query {
    const dw_regs *frame;
    const dw_mem *mem;
    unsigned n;
} query;

static bool var_cb(void *ctx, const dw_var *v)
{
    query *q = ctx;
    dw_value val;
    xerr err;
    dw_var_location(v, q->frame, q->mem, &val, &err);
    strbuf b;
    sb_init(&b);
    const ctype *t = dw_var_type(v);
    ctype_ptype(t, &b);
    /* follow pointers a few levels, as print and ptype do */
    for (unsigned k = 0; k < 4 && t; k++)
        t = ctype_target(ctype_strip(t));
    sb_free(&b);
    return ++q->n < 64;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!image)
        load_guest();
    if (size < 8)
        return 0;
    uint8_t *img = malloc(image_size);
    if (!img)
        return 0;
    memcpy(img, image, image_size);
    uint64_t seed = be(data, 8);
    for (size_t i = 8; i + 4 <= size; i += 4) {
        const section *s = &secs[data[i] % nsecs];
        size_t off = (size_t)be(data + i + 1, 2) % s->size;
        img[s->off + off] = data[i + 3];
    }
    dwarf_db *db = dwdb_new();
    xerr err;
    if (dwdb_add_image(db, "fuzz.elf", img, image_size, &err) > 0) {
        dw_mem mem = {NULL, mem_read};
        uint64_t span = (text_hi - text_lo) / 4;
        for (unsigned k = 0; k < 6; k++) {
            uint64_t pc = text_lo + 4 * ((seed >> (10 * k)) % span);
            dw_line l;
            dw_line_at(db, pc, &l);
            dw_scope sc[8];
            unsigned ns = dw_scopes_at(db, pc, sc, 8);
            for (unsigned j = 0; j < ns; j++) {
                const char *file;
                unsigned line;
                dw_decl(&sc[j], &file, &line);
                dw_return_type(&sc[j]);
                dw_scope_has(&sc[j], pc + 4);
            }
            dw_post_prologue(db, pc);
            dw_cu_info cu;
            dw_cu_at(db, pc, &cu);
            dw_regs in, out;
            memset(&in, 0, sizeof in);
            in.pc = pc;
            in.valid = 0xffffffffu;
            for (unsigned r = 0; r < 32; r++)
                in.r[r] = 0xa800000000031000ull + r * 8;
            in.exact_pc = true;
            dw_cfi_unwind(db, &in, &out, &mem, &err);
            in.caller = &out;
            query q = {&in, &mem, 0};
            dw_vars_at(db, pc, seed & 1, DW_ARGS | DW_LOCALS, var_cb, &q);
            dw_var v;
            dw_var_lookup(db, pc, 0, "counter", &v);
        }
        uint64_t addrs[8];
        unsigned found;
        const char *full;
        dw_line_addrs(db, "dbgtest.c", (unsigned)(seed % 90), addrs, 8, &found, &full);
        const char *names[] = {"struct hamachi_desc", "u64", "char", "irq_fn", "enum nosuch"};
        for (unsigned k = 0; k < 5; k++) {
            strbuf b;
            sb_init(&b);
            ctype_ptype(dw_type_lookup(db, text_lo, names[k]), &b);
            sb_free(&b);
        }
        dw_function_type(db, "middle");
    }
    dwdb_free(db);
    free(img);
    return 0;
}
