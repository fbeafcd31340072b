/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/elf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

#define EM_MIPS 8
#define PT_LOAD 1
#define SHT_SYMTAB 2
#define STT_OBJECT 1
#define STT_FUNC 2

bool elf_vaddr_to_bus(uint64_t v, uint64_t *out)
{
    /* 32-bit compatibility segments (sign-extended). */
    if (v >= 0xffffffff80000000ull && v < 0xffffffffa0000000ull) {
        *out = BUS_CAC(v & 0x1fffffff);
        return true;
    }
    if (v >= 0xffffffffa0000000ull && v < 0xffffffffc0000000ull) {
        *out = BUS_UNC(0, v & 0x1fffffff);
        return true;
    }
    /* XKPHYS: bits 61:59 are the cache attribute; 2 (uncached) and 7
     * (uncached accelerated) are uncached, and for them bits 58:57 are the
     * uncached attribute.  The CPU's rule (src/cpu/tlb.c). */
    if ((v >> 62) == 2) {
        unsigned cca = (v >> 59) & 7;
        bool unc = cca == 2 || cca == 7;
        uint64_t pa = v & BUS_PA_MASK;
        uint64_t mid = (v >> 40) & 0x7ffff; /* bits 58:40 */
        if (unc)
            mid &= ~(3ull << 17); /* 58:57 = uncached attribute */
        if (mid)
            return false;
        *out = unc ? BUS_UNC((v >> 57) & 3, pa) : BUS_CAC(pa);
        return true;
    }
    return false;
}

const char *mips_segment_name(uint64_t v)
{
    if (v < 0x80000000ull)
        return "KUSEG";
    if (v < (1ull << 44))
        return "XKUSEG";
    if (v >= 0x4000000000000000ull && v < 0x4000100000000000ull)
        return "XKSSEG";
    if ((v >> 62) == 2)
        return "XKPHYS";
    if (v >= 0xc000000000000000ull && v < 0xc00000ff80000000ull)
        return "XKSEG";
    if (v >= 0xffffffff80000000ull)
        return v < 0xffffffffa0000000ull   ? "KSEG0"
               : v < 0xffffffffc0000000ull ? "KSEG1"
               : v < 0xffffffffe0000000ull ? "KSSEG"
                                           : "KSEG3";
    return NULL;
}

typedef struct rd {
    const uint8_t *p;
    size_t size;
    bool is64;
} rd;

static uint64_t get(const rd *r, size_t off, unsigned n) { return load_be(r->p + off, n); }

static bool in_file(size_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

static int parse(const uint8_t *data, size_t size, elf_image *img, xerr *err, bool adopt);

int elf_parse(const uint8_t *data, size_t size, elf_image *img, xerr *err)
{
    return parse(data, size, img, err, false);
}

/* adopt: data is a read-only mapping of the file that img keeps (no copy). */
static int parse(const uint8_t *data, size_t size, elf_image *img, xerr *err, bool adopt)
{
    memset(img, 0, sizeof *img);
    if (size < 16 || memcmp(data, "\177ELF", 4) != 0)
        return xerr_fail(err, "not an ELF file (bad magic)");
    if (data[4] != 1 && data[4] != 2)
        return xerr_fail(err, "unknown ELF class %u", data[4]);
    if (data[5] == 1)
        return xerr_fail(err, "little-endian ELF; the R10000 here is big-endian");
    if (data[5] != 2)
        return xerr_fail(err, "unknown ELF data encoding %u", data[5]);
    if (data[6] != 1)
        return xerr_fail(err, "unknown ELF version %u", data[6]);
    rd r = {data, size, data[4] == 2};
    size_t ehsize = r.is64 ? 64 : 52;
    if (size < ehsize)
        return xerr_fail(err, "truncated ELF header (%zu of %zu bytes)", size, ehsize);
    unsigned type = (unsigned)get(&r, 16, 2), machine = (unsigned)get(&r, 18, 2);
    if (machine != EM_MIPS)
        return xerr_fail(err, "wrong architecture: e_machine %u, not MIPS (8)", machine);
    if (type != 2)
        return xerr_fail(err, "not an executable (e_type %u)", type);
    uint64_t entry = r.is64 ? get(&r, 24, 8) : (uint64_t)sext32(get(&r, 24, 4));
    uint64_t phoff = r.is64 ? get(&r, 32, 8) : get(&r, 28, 4);
    unsigned phentsize = (unsigned)get(&r, r.is64 ? 54 : 42, 2);
    unsigned phnum = (unsigned)get(&r, r.is64 ? 56 : 44, 2);
    unsigned want = r.is64 ? 56 : 32;
    if (phnum == 0)
        return xerr_fail(err, "no program headers");
    if (phentsize != want)
        return xerr_fail(err, "bad program header size %u (want %u)", phentsize, want);
    if (!in_file(size, phoff, (uint64_t)phnum * phentsize))
        return xerr_fail(err, "truncated: program headers run past the end of the file");
    img->is64 = r.is64;
    img->entry = entry;
    img->segs = xcalloc(phnum, sizeof *img->segs);
    for (unsigned i = 0; i < phnum; i++) {
        size_t ph = phoff + (size_t)i * phentsize;
        if (get(&r, ph, 4) != PT_LOAD)
            continue;
        elf_segment s;
        if (r.is64) {
            s.flags = (uint32_t)get(&r, ph + 4, 4);
            s.offset = get(&r, ph + 8, 8);
            s.vaddr = get(&r, ph + 16, 8);
            s.filesz = get(&r, ph + 32, 8);
            s.memsz = get(&r, ph + 40, 8);
        } else {
            s.offset = get(&r, ph + 4, 4);
            s.vaddr = (uint64_t)sext32(get(&r, ph + 8, 4));
            s.filesz = get(&r, ph + 16, 4);
            s.memsz = get(&r, ph + 20, 4);
            s.flags = (uint32_t)get(&r, ph + 24, 4);
        }
        if (s.filesz > s.memsz) {
            elf_free(img);
            return xerr_fail(err,
                             "segment %u: file size 0x%" PRIx64 " exceeds memory size 0x%" PRIx64,
                             i, s.filesz, s.memsz);
        }
        if (!in_file(size, s.offset, s.filesz)) {
            elf_free(img);
            return xerr_fail(err, "truncated: segment %u runs past the end of the file", i);
        }
        if (s.memsz > (1ull << 32)) {
            elf_free(img);
            return xerr_fail(err, "segment %u: implausible size 0x%" PRIx64, i, s.memsz);
        }
        if (!elf_vaddr_to_bus(s.vaddr, &s.bus_addr) ||
            !elf_vaddr_to_bus(s.vaddr + (s.memsz ? s.memsz - 1 : 0), &(uint64_t){0})) {
            elf_free(img);
            return xerr_fail(err,
                             "segment %u at 0x%016" PRIx64 " is in a mapped segment; only KSEG0, "
                             "KSEG1 and XKPHYS can be loaded",
                             i, s.vaddr);
        }
        img->segs[img->nsegs++] = s;
    }
    if (img->nsegs == 0) {
        elf_free(img);
        return xerr_fail(err, "no loadable segments");
    }
    if (adopt) {
        img->data = (uint8_t *)data;
        img->mapped = true;
        img->size = size;
        return 0;
    }
    img->data = malloc(size); /* as large as the file the user named */
    if (!img->data) {
        elf_free(img);
        return xerr_fail(err, "out of memory");
    }
    memcpy(img->data, data, size);
    img->size = size;
    return 0;
}

int elf_read_file(const char *path, elf_image *img, xerr *err)
{
    memset(img, 0, sizeof *img);
    FILE *f = fopen(path, "rb");
    if (!f)
        return xerr_fail(err, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return xerr_fail(err, "%s: is a directory, not an ELF file", path);
    }
    /* A regular file is mapped, not read: a kernel with its debug
     * information is tens of MB, and reading and copying it cost more host
     * time than booting it. */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size <= SIZE_MAX) {
        size_t size = (size_t)st.st_size;
        void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
        if (map != MAP_FAILED) {
            fclose(f);
            xerr e;
            if (parse(map, size, img, &e, true) != 0) {
                munmap(map, size);
                return xerr_fail(err, "%s: %s", path, e.msg);
            }
            return 0;
        }
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 16;
            uint8_t *n = realloc(buf, cap);
            if (!n) {
                free(buf);
                fclose(f);
                return xerr_fail(err, "%s: out of memory", path);
            }
            buf = n;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    bool ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        free(buf);
        return xerr_fail(err, "%s: read error", path);
    }
    xerr e;
    int rc = elf_parse(buf, len, img, &e);
    free(buf);
    if (rc)
        return xerr_fail(err, "%s: %s", path, e.msg);
    return 0;
}

void elf_free(elf_image *img)
{
    free(img->segs);
    if (img->mapped)
        munmap(img->data, img->size);
    else
        free(img->data);
    memset(img, 0, sizeof *img);
}

int elf_load(const elf_image *img, bus *b, xerr *err)
{
    static const uint8_t zeros[4096];
    for (unsigned i = 0; i < img->nsegs; i++) {
        const elf_segment *s = &img->segs[i];
        if (s->filesz && bus_poke(b, s->bus_addr, img->data + s->offset, s->filesz) != BUS_OK)
            return xerr_fail(
                err, "segment %u (0x%016" PRIx64 ", 0x%" PRIx64 " bytes) does not fit in memory", i,
                s->vaddr, s->memsz);
        for (uint64_t o = s->filesz; o < s->memsz;) {
            uint64_t n = s->memsz - o < sizeof zeros ? s->memsz - o : sizeof zeros;
            if (bus_poke(b, s->bus_addr + o, zeros, n) != BUS_OK)
                return xerr_fail(err,
                                 "segment %u (0x%016" PRIx64 ", 0x%" PRIx64
                                 " bytes) does not fit in memory",
                                 i, s->vaddr, s->memsz);
            o += n;
        }
    }
    return 0;
}

int elf_symbols(const elf_image *img, symtab *st, xerr *err)
{
    rd r = {img->data, img->size, img->is64};
    uint64_t shoff = r.is64 ? get(&r, 40, 8) : get(&r, 32, 4);
    unsigned shentsize = (unsigned)get(&r, r.is64 ? 58 : 46, 2);
    unsigned shnum = (unsigned)get(&r, r.is64 ? 60 : 48, 2);
    if (shoff == 0 || shnum == 0)
        return 0; /* stripped */
    if (shentsize != (r.is64 ? 64u : 40u))
        return xerr_fail(err, "bad section header size %u", shentsize);
    if (!in_file(r.size, shoff, (uint64_t)shnum * shentsize))
        return xerr_fail(err, "truncated: section headers run past the end of the file");
    int count = 0;
    for (unsigned i = 0; i < shnum; i++) {
        size_t sh = shoff + (size_t)i * shentsize;
        if (get(&r, sh + 4, 4) != SHT_SYMTAB)
            continue;
        uint64_t off = r.is64 ? get(&r, sh + 24, 8) : get(&r, sh + 16, 4);
        uint64_t size = r.is64 ? get(&r, sh + 32, 8) : get(&r, sh + 20, 4);
        unsigned link = (unsigned)get(&r, sh + (r.is64 ? 40 : 24), 4);
        uint64_t entsize = r.is64 ? get(&r, sh + 56, 8) : get(&r, sh + 36, 4);
        if (entsize != (r.is64 ? 24u : 16u) || !in_file(r.size, off, size))
            return xerr_fail(err, "corrupt symbol table section %u", i);
        if (link >= shnum)
            return xerr_fail(err, "symbol table %u links to missing section %u", i, link);
        size_t lsh = shoff + (size_t)link * shentsize;
        uint64_t stroff = r.is64 ? get(&r, lsh + 24, 8) : get(&r, lsh + 16, 4);
        uint64_t strsize = r.is64 ? get(&r, lsh + 32, 8) : get(&r, lsh + 20, 4);
        if (!in_file(r.size, stroff, strsize) || strsize == 0)
            return xerr_fail(err, "corrupt string table for symbol table %u", i);
        const char *strs = (const char *)r.p + stroff;
        for (uint64_t e = off; e + entsize <= off + size; e += entsize) {
            uint32_t name = (uint32_t)get(&r, e, 4);
            unsigned info = r.is64 ? r.p[e + 4] : r.p[e + 12];
            unsigned shndx = (unsigned)get(&r, e + (r.is64 ? 6 : 14), 2);
            uint64_t value = r.is64 ? get(&r, e + 8, 8) : (uint64_t)sext32(get(&r, e + 4, 4));
            uint64_t ssize = r.is64 ? get(&r, e + 16, 8) : get(&r, e + 8, 4);
            unsigned stype = info & 15;
            if (shndx == 0 || (stype != STT_FUNC && stype != STT_OBJECT && stype != 0))
                continue;
            if (name >= strsize || memchr(strs + name, 0, strsize - name) == NULL)
                return xerr_fail(err, "symbol name offset 0x%x outside the string table", name);
            const char *nm = strs + name;
            if (!*nm || (stype == 0 && (nm[0] == '$' || nm[0] == '.')))
                continue;
            if (symtab_add(st, nm, value, ssize, stype == STT_FUNC ? 'T' : stype ? 'D' : '?') == 0)
                count++;
        }
    }
    symtab_sort(st);
    return count;
}
