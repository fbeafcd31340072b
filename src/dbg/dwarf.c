/* SPDX-License-Identifier: GPL-2.0-or-later */
/* DWARF files, line tables, functions and inlined instances, variables by
 * name and the name index.  See dwarf.h. */
#include "dbg/dwarf_int.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* libdw 0.188's dwarf_getscopes leaks the scope array it was building when
 * a damaged unit makes its second pass fail (it returns -1 and never hands
 * the array over): not ours to free.  LeakSanitizer builds (the sanitizer
 * build, tests/fuzz/fuzz_dwarf) are told so; other builds ignore this.
 * libdw has no frame pointers: the fast unwinder may stop inside it, so
 * its library is named too (everything xbow allocates is freed by xbow). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:dwarf_getscopes\nleak:libdw.so.1\n"; }

/* ---- a map from DIE offsets ------------------------------------------------ */

static size_t hash64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k;
}

void *dw_map_get(const dw_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = hash64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return NULL;
        if (m->keys[i] == key + 1)
            return m->vals[i];
    }
}

void dw_map_put(dw_map *m, uint64_t key, void *val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        dw_map nm = {xcalloc(cap, sizeof *nm.keys), xcalloc(cap, sizeof *nm.vals), 0, cap};
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                dw_map_put(&nm, m->keys[i] - 1, m->vals[i]);
        dw_map_free(m);
        *m = nm;
    }
    size_t i = hash64(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key + 1)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        m->n++;
    m->keys[i] = key + 1;
    m->vals[i] = val;
}

void dw_map_free(dw_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- files ---------------------------------------------------------------------- */

dwarf_db *dwdb_new(void)
{
    elf_version(EV_CURRENT);
    return xcalloc(1, sizeof(dwarf_db));
}

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The entry of key and kind in t, or the empty one where it goes (t grows
 * first, from first_cap entries, to stay at most half full). */
static dw_name *table_slot(dw_names *t, size_t first_cap, const char *key, uint8_t kind)
{
    if ((t->n + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : first_cap;
        dw_name *ne = xcalloc(cap, sizeof *ne);
        for (size_t i = 0; i < t->cap; i++) {
            if (!t->e[i].key)
                continue;
            size_t j = hash_str(t->e[i].key) & (cap - 1);
            while (ne[j].key)
                j = (j + 1) & (cap - 1);
            ne[j] = t->e[i];
        }
        free(t->e);
        t->e = ne;
        t->cap = cap;
    }
    size_t j = hash_str(key) & (t->cap - 1);
    while (t->e[j].key && !(t->e[j].kind == kind && !strcmp(t->e[j].key, key)))
        j = (j + 1) & (t->cap - 1);
    return &t->e[j];
}

static void names_free(dw_names *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free((char *)t->e[i].key);
    free(t->e);
}

static void file_free(dw_file *f)
{
    if (!f)
        return;
    dw_cfi_free(f->cfi);
    if (f->dw)
        dwarf_end(f->dw);
    if (f->elf)
        elf_end(f->elf);
    if (f->fd >= 0)
        close(f->fd);
    free(f->image);
    names_free(&f->names);
    names_free(&f->paths);
    dw_map_free(&f->types);
    ctype_arena_free(f->arena);
    free(f->path);
    free(f);
}

void dwdb_free(dwarf_db *db)
{
    if (!db)
        return;
    for (unsigned i = 0; i < db->n; i++)
        file_free(db->files[i]);
    free(db->files);
    free(db);
}

bool dwdb_empty(const dwarf_db *db) { return !db || !db->n; }
unsigned dwdb_nfiles(const dwarf_db *db) { return db ? db->n : 0; }
const char *dwdb_path(const dwarf_db *db, unsigned i)
{
    return i < db->n ? db->files[i]->path : "";
}
ctype_arena *dw_file_arena(dw_file *f) { return f->arena; }

bool dw_file_be(const dw_file *f)
{
    size_t n;
    const char *id = elf_getident(f->elf, &n);
    return id && n > EI_DATA && id[EI_DATA] == ELFDATA2MSB;
}

/* Walk every unit's DIE and line-table header once, so that a malformed
 * file is refused when it is read, with the reason, rather than failing
 * later in the middle of a step. */
static int validate(dw_file *f, xerr *err)
{
    Dwarf_CU *cu = NULL, *next;
    Dwarf_Die cudie, subdie;
    uint8_t unit_type;
    Dwarf_Half version;
    unsigned n = 0;
    int rc;
    while ((rc = dwarf_get_units(f->dw, cu, &next, &version, &unit_type, &cudie, &subdie)) == 0) {
        cu = next;
        n++;
        if (dwarf_tag(&cudie) < 0) {
            xerr_set(err, "%s: a compilation unit has no readable DIE: %s", f->path,
                     dwarf_errmsg(-1));
            return -1;
        }
    }
    if (rc < 0) {
        xerr_set(err, "%s: malformed DWARF (unit %u): %s", f->path, n, dwarf_errmsg(-1));
        return -1;
    }
    if (!n) {
        xerr_set(err, "%s: no DWARF compilation units", f->path);
        return 0;
    }
    return 1;
}

/* A section by name (.debug_info, or .zdebug_info compressed the GNU way). */
static bool has_section(Elf *elf, const char *name)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return false;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        const char *n;
        if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(elf, shstrndx, sh.sh_name)))
            continue;
        if (!strcmp(n, name) || (n[0] == '.' && n[1] == 'z' && !strcmp(n + 2, name + 1)))
            return true;
    }
    return false;
}

static dw_file *file_new(const char *path)
{
    dw_file *f = xcalloc(1, sizeof *f);
    f->fd = -1;
    f->path = xstrdup(path);
    f->arena = ctype_arena_new();
    return f;
}

static int add(dwarf_db *db, dw_file *f, xerr *err);

int dwdb_add(dwarf_db *db, const char *path, xerr *err)
{
    dw_file *f = file_new(path);
    f->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0) {
        xerr_set(err, "%s: %s", path, strerror(errno));
        file_free(f);
        return -1;
    }
    f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
    return add(db, f, err);
}

int dwdb_add_image(dwarf_db *db, const char *name, const void *data, size_t size, xerr *err)
{
    dw_file *f = file_new(name);
    f->image = xmalloc(size);
    memcpy(f->image, data, size);
    f->elf = elf_memory(f->image, size);
    return add(db, f, err);
}

/* The rest of reading a file: its ELF is open (or failed to open). */
static int add(dwarf_db *db, dw_file *f, xerr *err)
{
    const char *path = f->path;
    if (!f->elf || elf_kind(f->elf) != ELF_K_ELF) {
        xerr_set(err, "%s: not an ELF file%s%s", path, f->elf ? "" : ": ",
                 f->elf ? "" : elf_errmsg(-1));
        file_free(f);
        return -1;
    }
    if (!has_section(f->elf, ".debug_info")) {
        xerr_set(err, "%s has no debugging information", path);
        file_free(f);
        return 0;
    }
    f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
    if (!f->dw) {
        xerr_set(err, "%s: malformed DWARF: %s", path, dwarf_errmsg(-1));
        file_free(f);
        return -1;
    }
    int v = validate(f, err);
    if (v <= 0) {
        file_free(f);
        return v;
    }
    /* The CFI is read now too: a broken .debug_frame is said here, and
     * the rest of the debug information is still used. */
    xerr cerr = {""};
    f->cfi = dw_cfi_load(f->elf, &cerr);
    f->cfi_loaded = true;
    if (!f->cfi && cerr.msg[0])
        xerr_set(err, "%s: %s", path, cerr.msg);
    else
        xerr_clear(err);
    db->files = xrealloc(db->files, (db->n + 1) * sizeof *db->files);
    db->files[db->n++] = f;
    return 1;
}

dw_cfi *dw_file_cfi(dw_file *f) { return f->cfi; }

bool dw_cu_for_pc(dwarf_db *db, uint64_t pc, dw_file **f, Dwarf_Die *cudie)
{
    for (unsigned i = 0; db && i < db->n; i++) {
        if (dwarf_addrdie(db->files[i]->dw, pc, cudie)) {
            *f = db->files[i];
            return true;
        }
    }
    return false;
}

/* dw_attr_u and dw_attr_s: one attribute (through DW_AT_abstract_origin and
 * DW_AT_specification) read as an unsigned or a signed constant; *v is left
 * alone when the DIE has no such constant. */
#define DW_ATTR_CONST(name, type, word, form)                        \
    bool name(Dwarf_Die *die, unsigned at, type *v)                  \
    {                                                                \
        Dwarf_Attribute a;                                           \
        word w;                                                      \
        if (!dwarf_attr_integrate(die, at, &a) || form(&a, &w) != 0) \
            return false;                                            \
        *v = w;                                                      \
        return true;                                                 \
    }
DW_ATTR_CONST(dw_attr_u, uint64_t, Dwarf_Word, dwarf_formudata)
DW_ATTR_CONST(dw_attr_s, int64_t, Dwarf_Sword, dwarf_formsdata)


/* "a/./b" -> "a/b", "a/x/../b" -> "a/b", "//" -> "/". */
static void normalize(char *p)
{
    char *out = p;
    for (char *s = p; *s;) {
        if (s[0] == '/' && s[1] == '/') {
            s++;
        } else if (s[0] == '/' && s[1] == '.' && (s[2] == '/' || !s[2])) {
            s += 2;
        } else if (s[0] == '/' && s[1] == '.' && s[2] == '.' && (s[3] == '/' || !s[3]) && out > p) {
            while (out > p && out[-1] != '/')
                out--;
            if (out > p)
                out--;
            s += 3;
        } else {
            *out++ = *s++;
        }
    }
    *out = 0;
    if (!*p)
        strcpy(p, "/");
}

const char *dw_abs_path(dw_file *f, Dwarf_Die *cudie, const char *name)
{
    if (!name)
        return NULL;
    char buf[4096];
    if (name[0] == '/') {
        snprintf(buf, sizeof buf, "%s", name);
    } else {
        Dwarf_Attribute a;
        const char *comp = cudie ? dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &a)) : NULL;
        if (!comp)
            return name; /* nothing to make it absolute with */
        snprintf(buf, sizeof buf, "%s/%s", comp, name);
    }
    normalize(buf);
    dw_name *e = table_slot(&f->paths, 256, buf, 0);
    if (!e->key) {
        e->key = xstrdup(buf);
        f->paths.n++;
    }
    return e->key;
}

const char *dw_file_name(dw_file *f, Dwarf_Die *cudie, Dwarf_Word idx)
{
    Dwarf_Files *files;
    size_t n;
    if (dwarf_getsrcfiles(cudie, &files, &n) != 0 || idx >= n)
        return NULL;
    return dw_abs_path(f, cudie, dwarf_filesrc(files, idx, NULL, NULL));
}

/* ---- line tables ---------------------------------------------------------------- */

typedef struct row {
    uint64_t addr;
    int line;
    bool stmt, end;
    const char *file;
} row;

/* A unit and its line table. */
typedef struct unit {
    dw_file *f;
    Dwarf_Die cu;
    Dwarf_Lines *lines;
    size_t n;
} unit;

static bool unit_lines(dw_file *f, Dwarf_Die *cu, unit *u)
{
    u->f = f;
    u->cu = *cu;
    return dwarf_getsrclines(cu, &u->lines, &u->n) == 0 && u->n;
}

static bool get_row(unit *u, size_t i, row *r)
{
    Dwarf_Line *l = dwarf_onesrcline(u->lines, i);
    Dwarf_Addr a;
    if (!l || dwarf_lineaddr(l, &a) != 0)
        return false;
    r->addr = a;
    if (dwarf_lineno(l, &r->line) != 0)
        r->line = 0;
    if (dwarf_linebeginstatement(l, &r->stmt) != 0)
        r->stmt = true;
    if (dwarf_lineendsequence(l, &r->end) != 0)
        r->end = false;
    r->file = dw_abs_path(u->f, &u->cu, dwarf_linesrc(l, NULL, NULL));
    return true;
}

/* The row for pc in a unit's table (index), -1 if none. */
static long row_at(unit *u, uint64_t pc, row *out)
{
    size_t n = u->n;
    size_t lo = 0, hi = n; /* first row with addr > pc */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        row r;
        if (!get_row(u, mid, &r))
            return -1;
        if (r.addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    long i = (long)lo - 1;
    row r;
    if (!get_row(u, (size_t)i, &r) || r.end || !r.file)
        return -1;
    /* Among rows at the same address prefer a statement. */
    if (!r.stmt) {
        for (long k = i - 1; k >= 0; k--) {
            row p;
            if (!get_row(u, (size_t)k, &p) || p.addr != r.addr || p.end)
                break;
            if (p.stmt && p.line) {
                i = k;
                r = p;
                break;
            }
        }
    }
    *out = r;
    return i;
}

static bool line_in_cu(dw_file *f, Dwarf_Die *cudie, uint64_t pc, dw_line *out)
{
    unit uu, *u = &uu;
    if (!unit_lines(f, cudie, u))
        return false;
    size_t n = u->n;
    row r;
    long i = row_at(u, pc, &r);
    if (i < 0 || !r.line)
        return false;
    out->file = r.file;
    out->line = (unsigned)r.line;
    out->addr = r.addr;
    out->stmt = r.stmt;
    out->end = r.addr + 4;
    for (size_t k = (size_t)i + 1; k < n; k++) {
        row e;
        if (!get_row(u, k, &e))
            break;
        if (e.addr > r.addr) {
            out->end = e.addr;
            break;
        }
    }
    return true;
}

bool dw_line_at(dwarf_db *db, uint64_t pc, dw_line *out)
{
    dw_file *f;
    Dwarf_Die cu;
    return dw_cu_for_pc(db, pc, &f, &cu) && line_in_cu(f, &cu, pc, out);
}

bool dw_path_matches(const char *path, const char *name)
{
    if (!path || !name || !*name)
        return false;
    size_t pl = strlen(path), nl = strlen(name);
    if (nl > pl || strcmp(path + pl - nl, name) != 0)
        return false;
    return nl == pl || path[pl - nl - 1] == '/' || name[0] == '/';
}

/* Call fn for every unit; stop when it returns true. */
static bool for_each_cu(dw_file *f, bool (*fn)(void *ctx, Dwarf_Die *cu), void *ctx)
{
    Dwarf_CU *cu = NULL, *next;
    Dwarf_Die cudie, subdie;
    uint8_t ut;
    Dwarf_Half ver;
    while (dwarf_get_units(f->dw, cu, &next, &ver, &ut, &cudie, &subdie) == 0) {
        cu = next;
        if (fn(ctx, &cudie))
            return true;
    }
    return false;
}

typedef struct file_search {
    dw_file *f;
    const char *name;
    const char *full;
    bool primary_only; /* only the unit's own name (its .c file) */
} file_search;

static bool cu_has_file(void *ctx, Dwarf_Die *cu)
{
    file_search *s = ctx;
    const char *cn = dwarf_diename(cu);
    if (s->primary_only) {
        if (!cn)
            return false;
        /* the unit's name may be relative to its directory: compare tails */
        Dwarf_Files *files;
        size_t n;
        if (!dw_path_matches(cn, s->name) && !dw_path_matches(s->name, cn))
            return false;
        if (dwarf_getsrcfiles(cu, &files, &n) == 0)
            for (size_t i = 0; i < n; i++) {
                const char *p = dw_abs_path(s->f, cu, dwarf_filesrc(files, i, NULL, NULL));
                if (p && dw_path_matches(p, s->name) && dw_path_matches(p, cn)) {
                    s->full = p;
                    return true;
                }
            }
        return false;
    }
    Dwarf_Files *files;
    size_t n;
    if (dwarf_getsrcfiles(cu, &files, &n) != 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char *p = dw_abs_path(s->f, cu, dwarf_filesrc(files, i, NULL, NULL));
        if (p && dw_path_matches(p, s->name)) {
            s->full = p;
            return true;
        }
    }
    return false;
}

bool dw_find_file(dwarf_db *db, const char *file, const char **full)
{
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; db && i < db->n; i++) {
            file_search s = {db->files[i], file, NULL, pass == 0};
            if (for_each_cu(db->files[i], cu_has_file, &s)) {
                *full = s.full;
                return true;
            }
        }
    }
    return false;
}

/* Collecting the rows of FILE:LINE. */
typedef struct line_search {
    dwarf_db *db;
    dw_file *f;
    const char *file;
    unsigned want; /* the line asked for */
    unsigned best; /* the smallest line >= want with code, so far */
    const char *full;
    struct cand {
        uint64_t addr;
        unsigned line;
    } * c;
    size_t n, cap;
    bool primary_only, found_cu;
} line_search;

static bool collect_rows(void *ctx, Dwarf_Die *cu)
{
    line_search *s = ctx;
    if (s->primary_only) {
        const char *cn = dwarf_diename(cu);
        if (!cn || (!dw_path_matches(cn, s->file) && !dw_path_matches(s->file, cn)))
            return false;
    }
    unit uu, *u = &uu;
    if (!unit_lines(s->f, cu, u))
        return false;
    for (size_t i = 0; i < u->n; i++) {
        row r;
        if (!get_row(u, i, &r) || r.end || !r.stmt || r.line <= 0 || (unsigned)r.line < s->want ||
            !dw_path_matches(r.file, s->file))
            continue;
        s->found_cu = true;
        if ((unsigned)r.line > s->best)
            continue;
        if ((unsigned)r.line < s->best) {
            s->best = (unsigned)r.line;
            s->n = 0;
        }
        s->full = r.file;
        if (s->n == s->cap) {
            size_t cap = s->cap ? s->cap * 2 : 16;
            s->c = xrealloc(s->c, cap * sizeof *s->c);
            s->cap = cap;
        }
        s->c[s->n].addr = r.addr;
        s->c[s->n++].line = (unsigned)r.line;
    }
    return false;
}

static int cmp_cand(const void *a, const void *b)
{
    const struct cand *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

unsigned dw_line_addrs(dwarf_db *db, const char *file, unsigned line, uint64_t *addrs, unsigned max,
                       unsigned *line_found, const char **file_found)
{
    line_search s = {db, NULL, file, line, UINT32_MAX, NULL, NULL, 0, 0, true, false};
    for (int pass = 0; pass < 2 && !s.n; pass++) {
        s.primary_only = pass == 0;
        for (unsigned i = 0; db && i < db->n; i++) {
            s.f = db->files[i];
            for_each_cu(db->files[i], collect_rows, &s);
        }
    }
    if (!s.n) {
        free(s.c);
        return 0;
    }
    qsort(s.c, s.n, sizeof *s.c, cmp_cand);
    /* One address per function or inlined copy: the lowest. */
    unsigned k = 0;
    Dwarf_Off seen[64];
    unsigned nseen = 0;
    for (size_t i = 0; i < s.n && k < max; i++) {
        dw_scope sc[8];
        unsigned ns = dw_scopes_at(db, s.c[i].addr, sc, 8);
        Dwarf_Off key = ns ? dwarf_dieoffset(&sc[0].die) : s.c[i].addr;
        bool dup = false;
        for (unsigned j = 0; j < nseen; j++)
            dup |= seen[j] == key;
        if (dup)
            continue;
        if (nseen < ARRAY_SIZE(seen))
            seen[nseen++] = key;
        addrs[k++] = s.c[i].addr;
    }
    *line_found = s.best;
    *file_found = s.full;
    free(s.c);
    return k;
}

/* ---- scopes: functions and inlined instances ----------------------------------- */

static uint64_t range_containing(Dwarf_Die *die, uint64_t pc, uint64_t *hi)
{
    Dwarf_Addr base, start, end;
    ptrdiff_t off = 0;
    uint64_t lo = 0;
    *hi = 0;
    while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
        if (pc >= start && pc < end) {
            *hi = end;
            return start;
        }
        if (!lo || start < lo) {
            lo = start;
            *hi = end;
        }
    }
    return lo;
}

bool dw_scope_has(const dw_scope *s, uint64_t addr)
{
    return dwarf_haspc((Dwarf_Die *)&s->die, addr) == 1;
}

static void fill_scope(Dwarf_Die *cu, Dwarf_Die *die, uint64_t pc, dw_file *f, dw_scope *s)
{
    memset(s, 0, sizeof *s);
    s->f = f;
    s->die = *die;
    s->inlined = dwarf_tag(die) == DW_TAG_inlined_subroutine;
    s->name = dwarf_diename(die);
    if (!s->name)
        s->name = "??";
    s->lo = range_containing(die, pc, &s->hi);
    Dwarf_Addr e;
    s->entry = dwarf_entrypc(die, &e) == 0 ? e : s->lo;
    if (s->inlined) {
        uint64_t idx, ln;
        if (dw_attr_u(die, DW_AT_call_file, &idx))
            s->call_file = dw_file_name(f, cu, idx);
        if (dw_attr_u(die, DW_AT_call_line, &ln))
            s->call_line = (unsigned)ln;
    }
}

unsigned dw_scopes_at(dwarf_db *db, uint64_t pc, dw_scope *out, unsigned max)
{
    dw_file *f;
    Dwarf_Die cu;
    if (!max || !dw_cu_for_pc(db, pc, &f, &cu))
        return 0;
    Dwarf_Die *lex = NULL, *chain = NULL;
    int n = dwarf_getscopes(&cu, pc, &lex);
    unsigned k = 0;
    if (n > 0) {
        int m = dwarf_getscopes_die(&lex[0], &chain);
        for (int i = 0; i < m && k < max; i++) {
            int tag = dwarf_tag(&chain[i]);
            if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
                fill_scope(&cu, &chain[i], pc, f, &out[k++]);
            if (tag == DW_TAG_subprogram)
                break;
        }
    }
    free(lex);
    free(chain);
    return k;
}

bool dw_function_at(dwarf_db *db, uint64_t pc, dw_scope *out)
{
    dw_scope s[16];
    unsigned n = dw_scopes_at(db, pc, s, 16);
    if (!n || s[n - 1].inlined)
        return false;
    *out = s[n - 1];
    return true;
}

uint64_t dw_post_prologue(dwarf_db *db, uint64_t entry)
{
    dw_file *f;
    Dwarf_Die cu;
    dw_scope fn;
    if (!dw_cu_for_pc(db, entry, &f, &cu) || !dw_function_at(db, entry, &fn))
        return entry;
    unit uu, *u = &uu;
    if (!unit_lines(f, &cu, u))
        return entry;
    size_t n = u->n;
    row r;
    long i = row_at(u, entry, &r);
    if (i < 0)
        return entry;
    /* The first row at the entry has the line that opens the function (its
     * "{"); the body starts at the first statement of another line, which
     * optimized code often puts at the entry itself (rows 22, 23, 22 at
     * one address: the prologue is scheduled into the body). */
    while (i > 0) {
        row p;
        if (!get_row(u, (size_t)i - 1, &p) || p.addr != entry || p.end)
            break;
        i--;
        r = p;
    }
    uint64_t hi = fn.hi;
    for (size_t k = (size_t)i; k < n; k++) {
        row e;
        if (!get_row(u, k, &e) || e.end || e.addr >= hi)
            break;
        if (e.stmt && e.line && e.line != r.line)
            return e.addr;
    }
    return entry;
}

bool dw_decl(dw_scope *s, const char **file, unsigned *line)
{
    int l = 0;
    Dwarf_Die cu;
    const char *fl = dwarf_decl_file(&s->die);
    if (fl && dwarf_diecu(&s->die, &cu, NULL, NULL))
        fl = dw_abs_path(s->f, &cu, fl);
    if (!fl || dwarf_decl_line(&s->die, &l) != 0)
        return false;
    *file = fl;
    *line = (unsigned)l;
    return true;
}

const ctype *dw_return_type(dw_scope *s)
{
    Dwarf_Attribute a;
    Dwarf_Die t;
    if (!dwarf_attr_integrate(&s->die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
        return NULL;
    return dw_type_of(s->f, &t);
}

bool dw_cu_at(dwarf_db *db, uint64_t pc, dw_cu_info *out)
{
    dw_file *f;
    Dwarf_Die cu;
    if (!dw_cu_for_pc(db, pc, &f, &cu))
        return false;
    memset(out, 0, sizeof *out);
    Dwarf_Attribute a;
    out->name = dwarf_diename(&cu);
    out->comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
    out->producer = dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &a));
    out->lang = dwarf_srclang(&cu);
    Dwarf_Half ver = 0;
    uint8_t ut, as, os;
    uint64_t id;
    Dwarf_Die cd, sd;
    if (dwarf_cu_info(cu.cu, &ver, &ut, &cd, &sd, &id, &as, &os) == 0)
        out->version = ver;
    return true;
}

/* ---- variables -------------------------------------------------------------------- */

static bool is_var(int tag) { return tag == DW_TAG_variable || tag == DW_TAG_formal_parameter; }

/* A variable that occupies storage or has a value (not an extern
 * declaration of something defined elsewhere). */
static bool has_value(Dwarf_Die *d)
{
    return dwarf_hasattr_integrate(d, DW_AT_location) ||
           dwarf_hasattr_integrate(d, DW_AT_const_value);
}

/* The physical nesting at pc (lexical blocks, inlined calls, the
 * function, the unit), innermost first, in *sc (to free), and the unit
 * in *cu; *first: where the search starts, `skip` inlined calls being
 * left out with their blocks.  Returns how many (0: none; *f NULL: pc is
 * in no unit). */
static int scopes_at(dwarf_db *db, uint64_t pc, unsigned skip, dw_file **f, Dwarf_Die *cu,
                     Dwarf_Die **sc, int *first)
{
    *sc = NULL;
    *first = 0;
    if (!dw_cu_for_pc(db, pc, f, cu)) {
        *f = NULL;
        return 0;
    }
    Dwarf_Die *lex = NULL;
    int nl = dwarf_getscopes(cu, pc, &lex);
    int n = nl > 0 ? dwarf_getscopes_die(&lex[0], sc) : 0;
    free(lex);
    int i = 0;
    for (unsigned k = 0; k < skip && i < n; i++)
        k += dwarf_tag(&(*sc)[i]) == DW_TAG_inlined_subroutine;
    *first = i;
    return n;
}

unsigned dw_vars_at(dwarf_db *db, uint64_t pc, unsigned skip, unsigned which,
                    bool (*fn)(void *ctx, const dw_var *v), void *ctx)
{
    dw_file *f;
    Dwarf_Die cu, *sc;
    int i;
    int n = scopes_at(db, pc, skip, &f, &cu, &sc, &i);
    unsigned count = 0;
    bool go = true;
    for (; i < n && go; i++) {
        int tag = dwarf_tag(&sc[i]);
        if (tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit)
            break;
        Dwarf_Die c;
        if (dwarf_child(&sc[i], &c) == 0) {
            do {
                int t = dwarf_tag(&c);
                if (!is_var(t))
                    continue;
                bool param = t == DW_TAG_formal_parameter;
                if (!(which & (param ? DW_ARGS : DW_LOCALS)))
                    continue;
                const char *name = dwarf_diename(&c);
                if (!name)
                    continue;
                dw_var v = {f, c, name, param, (unsigned)i, NULL, 0};
                count++;
                if (!fn(ctx, &v)) {
                    go = false;
                    break;
                }
            } while (dwarf_siblingof(&c, &c) == 0);
        }
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
            break; /* the function's own scope ends the search */
    }
    free(sc);
    return count;
}

/* ---- enumerators ----------------------------------------------------------------- */

/* The enumerator NAME of the enum type DIE, as a dw_var with the value
 * the enum's ctype has for it (signed or not as the enum is). */
static bool enum_member(dw_file *f, Dwarf_Die *type, const char *name, unsigned depth, dw_var *out)
{
    Dwarf_Die e;
    if (dwarf_tag(type) != DW_TAG_enumeration_type || dwarf_hasattr(type, DW_AT_declaration) ||
        dwarf_child(type, &e) != 0)
        return false;
    do {
        const char *n = dwarf_diename(&e);
        if (dwarf_tag(&e) != DW_TAG_enumerator || !n || strcmp(n, name) != 0)
            continue;
        const ctype *t = dw_type_of(f, type);
        const ctype *st = ctype_strip(t);
        for (unsigned k = 0; st && st->kind == CT_ENUM && k < st->nenums; k++) {
            if (!strcmp(st->enums[k].name, name)) {
                *out = (dw_var){f, e, st->enums[k].name, false, depth, t, st->enums[k].value};
                return true;
            }
        }
        return false;
    } while (dwarf_siblingof(&e, &e) == 0);
    return false;
}

/* NAME declared directly in a scope (a unit, a function, a block): a
 * variable or parameter (in a unit, one with storage or a value, not an
 * extern declaration), or an enumerator of an enum declared there.  An
 * inlined or out-of-line instance has its enums in the abstract function
 * or block it is a copy of. */
static bool scope_name(dw_file *f, Dwarf_Die *scope, const char *name, unsigned depth, bool vars,
                       bool enums, dw_var *out)
{
    int st = dwarf_tag(scope);
    bool is_unit = st == DW_TAG_compile_unit || st == DW_TAG_partial_unit;
    Dwarf_Die c;
    if (dwarf_child(scope, &c) == 0) {
        do {
            int t = dwarf_tag(&c);
            if (t == DW_TAG_enumeration_type) {
                if (enums && enum_member(f, &c, name, depth, out))
                    return true;
                continue;
            }
            if (!vars || !(is_unit ? t == DW_TAG_variable : is_var(t)))
                continue;
            const char *n = dwarf_diename(&c);
            if (n && !strcmp(n, name) && (!is_unit || has_value(&c))) {
                *out = (dw_var){f, c, n, t == DW_TAG_formal_parameter, depth, NULL, 0};
                return true;
            }
        } while (dwarf_siblingof(&c, &c) == 0);
    }
    Dwarf_Attribute a;
    Dwarf_Die origin;
    if (!is_unit && dwarf_attr(scope, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
        return enums && scope_name(f, &origin, name, depth, false, true, out);
    return false;
}

bool dw_var_lookup(dwarf_db *db, uint64_t pc, unsigned skip, const char *name, dw_var *out)
{
    /* The innermost scope that declares it, up to the function, then the
     * unit (C allows one of a variable and an enumerator in a scope). */
    dw_file *f;
    Dwarf_Die cu, *sc;
    int i;
    int n = scopes_at(db, pc, skip, &f, &cu, &sc, &i);
    bool found = false;
    for (; i < n && !found; i++) {
        int tag = dwarf_tag(&sc[i]);
        if (tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit)
            break;
        found = scope_name(f, &sc[i], name, (unsigned)i, true, true, out);
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine)
            break; /* the function's own scope ends the search */
    }
    free(sc);
    if (found)
        return true;
    /* A unit has many enums: look through them only for a name that is
     * an enumerator somewhere (one look in the index). */
    bool enumerator = false;
    for (unsigned k = 0; db && k < db->n && !enumerator; k++)
        enumerator = dw_index_find(db->files[k], name, NK_ENUMERATOR) != NULL;
    if (f && scope_name(f, &cu, name, 0, true, enumerator, out))
        return true;
    for (unsigned k = 0; db && k < db->n; k++) {
        const dw_name *nm = dw_index_find(db->files[k], name, NK_VAR);
        Dwarf_Die d;
        if (nm && dwarf_offdie(db->files[k]->dw, nm->off, &d)) {
            *out = (dw_var){db->files[k], d, dwarf_diename(&d), false, 0, NULL, 0};
            return true;
        }
    }
    /* Another unit's enumerator (a header's enum the unit at pc lacks). */
    for (unsigned k = 0; db && enumerator && k < db->n; k++) {
        const dw_name *nm = dw_index_find(db->files[k], name, NK_ENUMERATOR);
        Dwarf_Die d;
        if (nm && dwarf_offdie(db->files[k]->dw, nm->off, &d) &&
            enum_member(db->files[k], &d, name, 0, out))
            return true;
    }
    return false;
}

const ctype *dw_var_type(const dw_var *v)
{
    if (v->enum_type)
        return v->enum_type;
    Dwarf_Attribute a;
    Dwarf_Die t;
    Dwarf_Die d = v->die;
    if (!dwarf_attr_integrate(&d, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
        return NULL;
    return dw_type_of(v->f, &t);
}

int dw_var_location(const dw_var *v, const dw_regs *frame, const dw_mem *mem, dw_value *out,
                    xerr *err)
{
    Dwarf_Die d = v->die;
    Dwarf_Attribute a;
    memset(out, 0, sizeof *out);
    if (v->enum_type) { /* its value as its enum reads it (sign-extended) */
        out->kind = DWV_VALUE;
        out->value = (uint64_t)v->enum_value;
        return 0;
    }
    if (dwarf_attr_integrate(&d, DW_AT_const_value, &a)) {
        Dwarf_Sword sv;
        Dwarf_Word uv;
        Dwarf_Block blk;
        if (dwarf_formsdata(&a, &sv) == 0) {
            out->kind = DWV_VALUE;
            out->value = (uint64_t)sv;
        } else if (dwarf_formudata(&a, &uv) == 0) {
            out->kind = DWV_VALUE;
            out->value = uv;
        } else if (dwarf_formblock(&a, &blk) == 0 && blk.length <= 8) {
            out->kind = DWV_VALUE;
            for (size_t i = 0; i < blk.length; i++)
                out->value = out->value << 8 | blk.data[i];
        } else {
            xerr_set(err, "a constant xbow cannot read");
            return -1;
        }
        return 0;
    }
    if (!dwarf_attr(&d, DW_AT_location, &a) && !dwarf_attr_integrate(&d, DW_AT_location, &a)) {
        out->kind = DWV_OPTIMIZED_OUT;
        return 0;
    }
    Dwarf_Op *ops;
    size_t nops;
    uint64_t pc = dw_lookup_pc(frame);
    int n = dwarf_getlocation_addr(&a, pc, &ops, &nops, 1);
    if (n < 0) {
        xerr_set(err, "bad location: %s", dwarf_errmsg(-1));
        return -1;
    }
    if (n == 0 || nops == 0) {
        out->kind = DWV_OPTIMIZED_OUT;
        return 0;
    }
    /* The frame base of the function the variable belongs to. */
    uint64_t fb = 0;
    bool have_fb = false;
    Dwarf_Die *sc = NULL;
    Dwarf_Die cu;
    int ns = dwarf_diecu(&d, &cu, NULL, NULL) ? dwarf_getscopes_die(&d, &sc) : 0;
    for (int i = 0; i < ns; i++) {
        if (dwarf_tag(&sc[i]) != DW_TAG_subprogram)
            continue;
        Dwarf_Attribute fa;
        Dwarf_Op *fops;
        size_t nf;
        if (dwarf_attr_integrate(&sc[i], DW_AT_frame_base, &fa) &&
            dwarf_getlocation_addr(&fa, pc, &fops, &nf, 1) == 1) {
            dw_value fv;
            if (dw_eval_ops(v->f, &fa, fops, nf, frame, mem, 0, false, &fv, NULL) == 0) {
                if (fv.kind == DWV_MEM || fv.kind == DWV_VALUE) {
                    fb = fv.kind == DWV_MEM ? fv.addr : fv.value;
                    have_fb = true;
                } else if (fv.kind == DWV_REG) {
                    fb = fv.value;
                    have_fb = true;
                }
            }
        }
        break;
    }
    free(sc);
    return dw_eval_ops(v->f, &a, ops, nops, frame, mem, fb, have_fb, out, err);
}

/* ---- the name index --------------------------------------------------------------- */

static void index_put(dw_file *f, const char *key, Dwarf_Off off, uint8_t kind)
{
    dw_name *e = table_slot(&f->names, 4096, key, kind);
    if (e->key)
        return; /* the first definition wins */
    *e = (dw_name){xstrdup(key), off, kind};
    f->names.n++;
}

/* What a type's name is prefixed with in the index: "struct ", "union ",
 * "enum ", nothing for typedefs and base types; NULL for other tags. */
static const char *type_key_prefix(int tag)
{
    switch (tag) {
    case DW_TAG_structure_type: return "struct ";
    case DW_TAG_union_type: return "union ";
    case DW_TAG_enumeration_type: return "enum ";
    case DW_TAG_typedef:
    case DW_TAG_base_type: return "";
    default: return NULL;
    }
}

static bool index_cu(void *ctx, Dwarf_Die *cu)
{
    dw_file *f = ctx;
    Dwarf_Die c;
    if (dwarf_child(cu, &c) != 0)
        return false;
    do {
        int tag = dwarf_tag(&c);
        const char *name = dwarf_diename(&c);
        if (!name)
            continue;
        const char *prefix = type_key_prefix(tag);
        char key[256];
        if (prefix && *prefix) {
            if (dwarf_hasattr(&c, DW_AT_declaration))
                continue;
            snprintf(key, sizeof key, "%s%s", prefix, name);
            index_put(f, key, dwarf_dieoffset(&c), NK_TYPE);
        } else if (prefix) {
            index_put(f, name, dwarf_dieoffset(&c), NK_TYPE);
        } else if (tag == DW_TAG_variable && has_value(&c)) {
            /* a file's static must not hide another file's global: both
             * are indexed, externals first is not knowable here */
            index_put(f, name, dwarf_dieoffset(&c), NK_VAR);
        } else if (tag == DW_TAG_subprogram &&
                   (dwarf_hasattr(&c, DW_AT_low_pc) || dwarf_hasattr(&c, DW_AT_ranges) ||
                    dwarf_hasattr(&c, DW_AT_inline))) {
            index_put(f, name, dwarf_dieoffset(&c), NK_FUNC); /* code, or inlined only */
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return false;
}

/* The enumerators of a unit's top-level enums, named or not. */
static bool index_enumerators_cu(void *ctx, Dwarf_Die *cu)
{
    dw_file *f = ctx;
    Dwarf_Die c, e;
    if (dwarf_child(cu, &c) != 0)
        return false;
    do {
        if (dwarf_tag(&c) != DW_TAG_enumeration_type || dwarf_hasattr(&c, DW_AT_declaration) ||
            dwarf_child(&c, &e) != 0)
            continue;
        do {
            const char *n = dwarf_diename(&e);
            if (dwarf_tag(&e) == DW_TAG_enumerator && n)
                index_put(f, n, dwarf_dieoffset(&c), NK_ENUMERATOR);
        } while (dwarf_siblingof(&e, &e) == 0);
    } while (dwarf_siblingof(&c, &c) == 0);
    return false;
}

void dw_index(dw_file *f)
{
    if (f->indexed)
        return;
    f->indexed = true;
    for_each_cu(f, index_cu, f);
}

const dw_name *dw_index_find(dw_file *f, const char *key, unsigned kinds)
{
    dw_index(f);
    if ((kinds & NK_ENUMERATOR) && !f->enumerators_indexed) {
        f->enumerators_indexed = true; /* a pass of its own: most lookups need none */
        for_each_cu(f, index_enumerators_cu, f);
    }
    if (!f->names.cap)
        return NULL;
    for (size_t j = hash_str(key) & (f->names.cap - 1); f->names.e[j].key;
         j = (j + 1) & (f->names.cap - 1))
        if ((f->names.e[j].kind & kinds) && !strcmp(f->names.e[j].key, key))
            return &f->names.e[j];
    return NULL;
}

bool dw_find_type_die(dw_file *f, const char *key, Dwarf_Die *out)
{
    const dw_name *n = dw_index_find(f, key, NK_TYPE);
    return n && dwarf_offdie(f->dw, n->off, out);
}

/* A type named in the unit itself (its own definition of struct foo wins
 * over another unit's). */
static bool cu_type(Dwarf_Die *cu, const char *key, Dwarf_Die *out)
{
    Dwarf_Die c;
    if (dwarf_child(cu, &c) != 0)
        return false;
    do {
        const char *name = dwarf_diename(&c), *prefix = type_key_prefix(dwarf_tag(&c));
        if (!name || !prefix || dwarf_hasattr(&c, DW_AT_declaration))
            continue;
        size_t pl = strlen(prefix);
        if (!strncmp(key, prefix, pl) && !strcmp(key + pl, name)) {
            *out = c;
            return true;
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return false;
}

const ctype *dw_type_lookup(dwarf_db *db, uint64_t pc, const char *name)
{
    char key[256];
    /* "struct  foo" -> "struct foo" */
    size_t k = 0;
    for (const char *s = name; *s && k + 1 < sizeof key; s++)
        if (!(*s == ' ' && (k == 0 || key[k - 1] == ' ')))
            key[k++] = *s;
    while (k && key[k - 1] == ' ')
        k--;
    key[k] = 0;
    dw_file *f;
    Dwarf_Die cu, d;
    if (dw_cu_for_pc(db, pc, &f, &cu) && cu_type(&cu, key, &d))
        return dw_type_of(f, &d);
    for (unsigned i = 0; db && i < db->n; i++)
        if (dw_find_type_die(db->files[i], key, &d))
            return dw_type_of(db->files[i], &d);
    return NULL;
}

typedef struct inl_search {
    const char *name;
    uint64_t *addrs;
    unsigned max, n;
} inl_search;

static int inl_instance(Dwarf_Die *inst, void *arg)
{
    inl_search *s = arg;
    Dwarf_Addr e;
    if (s->n >= s->max)
        return DWARF_CB_ABORT;
    if (dwarf_entrypc(inst, &e) == 0) {
        for (unsigned i = 0; i < s->n; i++)
            if (s->addrs[i] == e)
                return DWARF_CB_OK;
        s->addrs[s->n++] = e;
    }
    return DWARF_CB_OK;
}

static bool inl_cu(void *ctx, Dwarf_Die *cu)
{
    inl_search *s = ctx;
    Dwarf_Die c;
    if (dwarf_child(cu, &c) != 0)
        return false;
    do {
        const char *n;
        if (dwarf_tag(&c) == DW_TAG_subprogram && dwarf_hasattr(&c, DW_AT_inline) &&
            (n = dwarf_diename(&c)) && !strcmp(n, s->name))
            dwarf_func_inline_instances(&c, inl_instance, s);
    } while (dwarf_siblingof(&c, &c) == 0 && s->n < s->max);
    return s->n >= s->max;
}

unsigned dw_inline_entries(dwarf_db *db, const char *name, uint64_t *addrs, unsigned max)
{
    inl_search s = {name, addrs, max, 0};
    for (unsigned i = 0; db && i < db->n && s.n < max; i++)
        for_each_cu(db->files[i], inl_cu, &s);
    return s.n;
}

const ctype *dw_function_type(dwarf_db *db, const char *name)
{
    for (unsigned i = 0; db && i < db->n; i++) {
        const dw_name *nm = dw_index_find(db->files[i], name, NK_FUNC);
        Dwarf_Die d;
        if (nm && dwarf_offdie(db->files[i]->dw, nm->off, &d))
            return dw_type_of(db->files[i], &d);
    }
    return NULL;
}

bool dw_name_known(dwarf_db *db, uint64_t pc, const char *name)
{
    dw_var v;
    if (dw_var_lookup(db, pc, 0, name, &v) || dw_var_lookup(db, pc, 1, name, &v))
        return true;
    for (unsigned i = 0; db && i < db->n; i++)
        if (dw_index_find(db->files[i], name, NK_VAR | NK_FUNC | NK_ENUMERATOR))
            return true;
    return false;
}
