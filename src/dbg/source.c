/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Source files and lines: the debugger's DWARF state (d->src), reading
 * source files, list, info line, info source, directory, the source line
 * in stop reports and FILE:LINE locations.  See source.h. */
#include <ctype.h>
#include <dwarf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "dbg/source.h"
#include "dbg/srcview.h"

typedef struct src_file {
    char *name; /* as the debug information names it */
    char *path; /* where it was found, NULL: not found */
    char *data;
    char **lines;
    unsigned n;
} src_file;

typedef struct src_state {
    dwarf_db *db;
    char *pending; /* the kernel's path: read on first use */
    src_file *files;
    unsigned nfiles;
    char **dirs; /* directory: where to look for sources */
    unsigned ndirs;
    /* list: the file and the lines shown last */
    char *list_file;
    unsigned list_first, list_last;
    uint64_t list_stop;  /* d->stop_count when list_* was set ... */
    unsigned list_frame; /* ... and the selected frame */
    bool listed;
    /* the function of the last stop report */
    uint64_t last_scope;
    int last_cpu;
    /* inlined calls step entered at this stop (dbg_src_hidden) */
    unsigned unhidden;
    uint64_t unhide_stop, unhide_pc;
    int unhide_cpu;
} src_state;

static src_state *state(dbg *d)
{
    if (!d->src)
        DBG_STATE(d, src)->last_cpu = -1;
    return d->src;
}

static void files_free(src_state *s)
{
    for (unsigned i = 0; i < s->nfiles; i++) {
        free(s->files[i].name);
        free(s->files[i].path);
        free(s->files[i].data);
        free(s->files[i].lines);
    }
    free(s->files);
    s->files = NULL;
    s->nfiles = 0;
}

static void dbg_src_free(dbg *d)
{
    src_state *s = d->src;
    if (!s)
        return;
    dwdb_free(s->db);
    free(s->pending);
    files_free(s);
    for (unsigned i = 0; i < s->ndirs; i++)
        free(s->dirs[i]);
    free(s->dirs);
    free(s->list_file);
    free(s);
    d->src = NULL;
}

static bool already_loaded(src_state *s, const char *path)
{
    char *rp = realpath(path, NULL);
    bool same = false;
    for (unsigned i = 0; rp && s->db && i < dwdb_nfiles(s->db); i++) {
        char *q = realpath(dwdb_path(s->db, i), NULL);
        same |= q && !strcmp(q, rp);
        free(q);
    }
    free(rp);
    return same;
}

static int load(dbg *d, src_state *s, const char *path, bool quiet)
{
    if (!s->db)
        s->db = dwdb_new();
    if (already_loaded(s, path))
        return 1;
    xerr err;
    int k = dwdb_add(s->db, path, &err);
    if (k < 0)
        return dbg_error(d, "%s; no source-level debugging with it.", err.msg);
    if (k > 0 && err.msg[0])
        dbg_printf(d, "warning: %s; frames are found from the prologues there.\n", err.msg);
    if (k == 0 && !quiet)
        dbg_printf(d, "(No debugging symbols found in %s.)\n", path);
    return k;
}

int dbg_src_load(dbg *d, const char *path, bool quiet)
{
    src_state *s = state(d);
    if (quiet && !s->pending && !s->db) { /* the kernel: read when first needed */
        s->pending = xstrdup(path);
        return 1;
    }
    return load(d, s, path, quiet);
}

dwarf_db *dbg_dwarf(dbg *d)
{
    src_state *s = d->src;
    if (!s)
        return NULL;
    if (s->pending) {
        char *p = s->pending;
        s->pending = NULL;
        load(d, s, p, true);
        free(p);
    }
    return dwdb_empty(s->db) ? NULL : s->db;
}

/* ---- source files ------------------------------------------------------- */

static const char *base_name(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

static char *read_file(const char *path, size_t *len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > 64 * 1024 * 1024)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = xmalloc((size_t)st.st_size + 1); /* at most 64 MB: above */
    size_t n = fread(buf, 1, (size_t)st.st_size, f);
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Find the file: where the debug information says, then in the
 * directories of "directory" (the path, then its last components). */
static char *locate(src_state *s, const char *name)
{
    struct stat st;
    if (name[0] == '/' && stat(name, &st) == 0 && S_ISREG(st.st_mode))
        return xstrdup(name);
    for (unsigned i = 0; i < s->ndirs; i++) {
        for (const char *tail = name; tail; tail = strchr(tail + 1, '/')) {
            const char *t = *tail == '/' ? tail + 1 : tail;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", s->dirs[i], t);
            if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
                return xstrdup(p);
        }
    }
    if (name[0] != '/' && stat(name, &st) == 0 && S_ISREG(st.st_mode))
        return xstrdup(name);
    return NULL;
}

static src_file *get_file(dbg *d, const char *name)
{
    src_state *s = state(d);
    if (!name)
        return NULL;
    for (unsigned i = 0; i < s->nfiles; i++)
        if (!strcmp(s->files[i].name, name))
            return s->files[i].path ? &s->files[i] : NULL;
    s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof *s->files);
    src_file *f = &s->files[s->nfiles++];
    memset(f, 0, sizeof *f);
    f->name = xstrdup(name);
    f->path = locate(s, name);
    size_t len = 0;
    if (f->path && !(f->data = read_file(f->path, &len))) {
        free(f->path);
        f->path = NULL;
    }
    if (!f->path)
        return NULL;
    unsigned n = 0;
    for (size_t i = 0; i < len; i++)
        n += f->data[i] == '\n';
    n += len && f->data[len - 1] != '\n';
    f->lines = xcalloc(n + 1, sizeof *f->lines);
    char *p = f->data;
    for (unsigned k = 0; k < n; k++) {
        f->lines[k] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        if (nl > p && nl[-1] == '\r')
            nl[-1] = 0;
        p = nl + 1;
    }
    f->n = n;
    return f;
}

const char *dbg_src_text(dbg *d, const char *file, unsigned n)
{
    src_file *f = get_file(d, file);
    return f && n >= 1 && n <= f->n ? f->lines[n - 1] : NULL;
}

unsigned dbg_src_nlines(dbg *d, const char *file)
{
    src_file *f = get_file(d, file);
    return f ? f->n : 0;
}

const char *dbg_src_path(dbg *d, const char *file)
{
    src_file *f = get_file(d, file);
    return f ? f->path : NULL;
}

/* ---- where the CPU is ------------------------------------------------------- */

/* Inlined calls starting at pc (innermost first, contiguous); *call_file
 * and *call_line: where the outermost of them was called. */
static unsigned entry_inlines(dwarf_db *db, uint64_t pc, const char **call_file,
                              unsigned *call_line)
{
    dw_scope sc[16];
    unsigned n = dw_scopes_at(db, pc, sc, 16), k = 0;
    while (k < n && sc[k].inlined && sc[k].entry == pc) {
        if (call_file) {
            *call_file = sc[k].call_file;
            *call_line = sc[k].call_line;
        }
        k++;
    }
    return k;
}

static bool unhide_key(dbg *d, src_state *s, cpu *c)
{
    return s->unhide_stop == d->stop_count && s->unhide_cpu == cpu_index(c) &&
           s->unhide_pc == cpu_pc(c);
}

unsigned dbg_src_hidden(dbg *d, cpu *c)
{
    src_state *s = d->src;
    dwarf_db *db = dbg_dwarf(d);
    if (!s || !db || !c)
        return 0;
    unsigned k = entry_inlines(db, cpu_pc(c), NULL, NULL);
    unsigned un = unhide_key(d, s, c) ? s->unhidden : 0;
    return k > un ? k - un : 0;
}

bool dbg_src_enter_inline(dbg *d, cpu *c)
{
    src_state *s = d->src;
    if (!dbg_src_hidden(d, c))
        return false;
    if (!unhide_key(d, s, c)) {
        s->unhidden = 0;
        s->unhide_stop = d->stop_count;
        s->unhide_cpu = cpu_index(c);
        s->unhide_pc = cpu_pc(c);
    }
    s->unhidden++;
    return true;
}

bool dbg_src_current(dbg *d, const char **file, unsigned *line)
{
    cpu *c = dbg_cpu(d);
    src_frame sf;
    if (!c || !dbg_dwarf(d) || !dbg_src_selected(d, c, &sf) || !sf.file)
        return false;
    *file = sf.file;
    *line = sf.line;
    return true;
}

void dbg_src_line_text(dbg *d, const char *file, unsigned line, strbuf *out)
{
    const char *t = dbg_src_text(d, file, line);
    if (t)
        sb_printf(out, "%u\t%s\n", line, t);
    else
        sb_printf(out, "%u\tin %s\n", line, file);
}

static uint64_t scope_key(const src_frame *sf)
{
    return sf->has_scope ? dwarf_dieoffset((Dwarf_Die *)&sf->scope.die) + 1 : 0;
}

void dbg_src_seen(dbg *d, cpu *c)
{
    src_state *s = d->src;
    src_frame sf[1];
    if (!s || !dbg_dwarf(d) || !dbg_src_frames(d, c, sf, 1))
        return;
    s->last_scope = scope_key(&sf[0]);
    s->last_cpu = cpu_index(c);
}

void dbg_src_report(dbg *d, cpu *c, bool header, strbuf *out)
{
    dwarf_db *db = dbg_dwarf(d);
    src_state *s = d->src;
    if (!db || !c || !s)
        return;
    src_frame sf[1];
    if (!dbg_src_frames(d, c, sf, 1) || !sf[0].file)
        return;
    uint64_t key = scope_key(&sf[0]);
    if (header || key != s->last_scope || cpu_index(c) != s->last_cpu) {
        strbuf h;
        sb_init(&h);
        dw_line l;
        /* in the middle of a line, gdb names the address too */
        if (dw_line_at(db, sf[0].pc, &l) && l.addr != sf[0].pc)
            sb_printf(&h, "0x%016llx in ", (unsigned long long)sf[0].pc);
        if (dbg_src_describe(d, c, &sf[0], &h))
            sb_printf(out, "%s\n", h.s);
        sb_free(&h);
    }
    s->last_scope = key;
    s->last_cpu = cpu_index(c);
    dbg_src_line_text(d, sf[0].file, sf[0].line, out);
}

/* ---- locations: FILE:LINE, LINE, FUNCTION ----------------------------------- */

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

static bool is_identifier(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
            return false;
    return true;
}

/* The file of main(): gdb's default source file before the program runs. */
static const char *main_file(dbg *d)
{
    const symbol *m = d->m ? symtab_lookup_name(&d->m->syms, "main") : NULL;
    dw_line l;
    return m && dw_line_at(dbg_dwarf(d), m->addr, &l) ? l.file : NULL;
}

static bool started(dbg *d)
{
    for (unsigned i = 0; d->m && i < d->m->ncpus; i++)
        if (cpu_retired(d->m->cpus[i]))
            return true;
    return false;
}

/* The file of the current position: the lines listed last, else the pc's
 * (main's before the guest has run). */
static const char *current_file(dbg *d)
{
    src_state *s = state(d);
    const char *f;
    unsigned l;
    if (s && s->listed && s->list_file && s->list_stop == d->stop_count &&
        s->list_frame == d->frame)
        return s->list_file;
    if (!started(d) && (f = main_file(d)))
        return f;
    if (dbg_src_current(d, &f, &l))
        return f;
    return s && s->list_file ? s->list_file : NULL;
}

/* A function the debug information has: its entry from the symbol table
 * (or the DWARF index), and whether the DWARF covers it. */
static bool function_entry(dbg *d, const char *name, uint64_t *entry)
{
    const symbol *sym = d->m ? symtab_lookup_name(&d->m->syms, name) : NULL;
    dw_scope fn;
    if (sym && sym->type == 'T' && dw_function_at(dbg_dwarf(d), sym->addr, &fn)) {
        *entry = sym->addr;
        return true;
    }
    return false;
}

static int line_spec(dbg *d, const char *file, unsigned line, uint64_t *addrs, unsigned max,
                     unsigned *n, const char *text)
{
    unsigned found;
    const char *full;
    *n = dw_line_addrs(dbg_dwarf(d), file, line, addrs, max, &found, &full);
    if (!*n) {
        const char *f2;
        if (!dw_find_file(dbg_dwarf(d), file, &f2))
            return dbg_error(d, "No source file named %s.", file);
        return dbg_error(d, "Line %u in \"%s\" has no code (nor does any line after it).", line,
                         text);
    }
    return 1;
}

/* A line number the user typed (all digits): one that does not fit is an
 * error, not a number cut to 32 bits. */
static int line_num(dbg *d, const char *s, unsigned *out)
{
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno || v > INT_MAX)
        return dbg_error(d, "Line number %s out of range.", s);
    *out = (unsigned)v;
    return 0;
}

int dbg_src_location(dbg *d, const char *text, uint64_t *addrs, unsigned max, unsigned *n)
{
    *n = 0;
    dwarf_db *db = dbg_dwarf(d);
    if (!db || !*text || *text == '*')
        return 0;
    const char *colon = strrchr(text, ':');
    if (colon && colon > text && all_digits(colon + 1) && !strchr(text, ' ') &&
        strncmp(text, "p:", 2) != 0) {
        char file[1024];
        snprintf(file, sizeof file, "%.*s", (int)(colon - text), text);
        unsigned ln = 0;
        if (line_num(d, colon + 1, &ln) != 0)
            return -1;
        return line_spec(d, file, ln, addrs, max, n, text);
    }
    if (all_digits(text)) {
        const char *f = current_file(d);
        if (!f)
            return dbg_error(d, "No current source file: give FILE:%s.", text);
        unsigned ln = 0;
        if (line_num(d, text, &ln) != 0)
            return -1;
        return line_spec(d, f, ln, addrs, max, n, text);
    }
    uint64_t entry;
    if (is_identifier(text) && !strchr(text, '.') && function_entry(d, text, &entry)) {
        addrs[0] = dw_post_prologue(db, entry);
        *n = 1;
        return 1;
    }
    /* a function the compiler only inlined: each copy, as gdb does */
    if (is_identifier(text) && !strchr(text, '.') &&
        !(d->m && symtab_lookup_name(&d->m->syms, text)) &&
        (*n = dw_inline_entries(db, text, addrs, max)))
        return 1;
    return 0;
}

bool dbg_src_at(dbg *d, uint64_t addr, char *buf, size_t len)
{
    dwarf_db *db = dbg_dwarf(d);
    dw_line l;
    if (!db || !dw_line_at(db, addr, &l))
        return false;
    /* at the start of inlined calls: the line that calls them (gdb) */
    const char *cf = NULL;
    unsigned cl = 0;
    if (entry_inlines(db, addr, &cf, &cl) && cf) {
        l.file = cf;
        l.line = cl;
    }
    snprintf(buf, len, "file %s, line %u.", base_name(l.file), l.line);
    return true;
}

/* ---- list --------------------------------------------------------------------- */

static int show_lines(dbg *d, const char *file, unsigned first, unsigned last)
{
    src_state *s = state(d);
    src_file *f = get_file(d, file);
    if (!f)
        return dbg_error(d, "%s: cannot find the source file (see \"directory\").", file);
    if (first < 1)
        first = 1;
    if (first > f->n)
        return dbg_error(d, "Line number %u out of range; \"%s\" has %u lines.", first,
                         base_name(file), f->n);
    if (last > f->n)
        last = f->n;
    strbuf b;
    sb_init(&b);
    for (unsigned i = first; i <= last; i++)
        sb_printf(&b, "%u\t%s\n", i, f->lines[i - 1]);
    dbg_puts(d, b.s ? b.s : "");
    sb_free(&b);
    if (s->list_file != file) {
        free(s->list_file);
        s->list_file = xstrdup(file);
    }
    s->list_first = first;
    s->list_last = last;
    s->list_stop = d->stop_count;
    s->list_frame = d->frame;
    s->listed = true;
    return 0;
}

/* A list argument: FILE:LINE, LINE, FUNCTION, *ADDR -> file and line. */
static int list_point(dbg *d, const char *arg, const char **file, unsigned *line, bool *func)
{
    dwarf_db *db = dbg_dwarf(d);
    *func = false;
    if (*arg == '*') {
        xval v;
        if (dbg_eval(d, arg + 1, &v))
            return -1;
        dw_line l;
        if (!dw_line_at(db, xval_address(&v), &l))
            return dbg_error(d, "No line number information available for address 0x%llx.",
                             (unsigned long long)xval_address(&v));
        *file = l.file;
        *line = l.line;
        return 0;
    }
    const char *colon = strrchr(arg, ':');
    if (colon && colon > arg && all_digits(colon + 1)) {
        char fname[1024];
        const char *full;
        snprintf(fname, sizeof fname, "%.*s", (int)(colon - arg), arg);
        if (!dw_find_file(db, fname, &full))
            return dbg_error(d, "No source file named %s.", fname);
        *file = full;
        return line_num(d, colon + 1, line);
    }
    if (all_digits(arg)) {
        *file = current_file(d);
        if (!*file)
            return dbg_error(d, "No current source file: give FILE:LINE.");
        return line_num(d, arg, line);
    }
    uint64_t entry;
    if (is_identifier(arg) && function_entry(d, arg, &entry)) {
        dw_scope fn;
        const char *f;
        unsigned l;
        if (dw_function_at(db, entry, &fn) && dw_decl(&fn, &f, &l)) {
            *file = f;
            *line = l;
            *func = true;
            return 0;
        }
    }
    if (is_identifier(arg))
        return dbg_error(d, "Function \"%s\" not defined%s.", arg,
                         d->m && symtab_lookup_name(&d->m->syms, arg) ? " in the debug information"
                                                                      : "");
    return dbg_error(d, "list: \"%s\" is not a location (FILE:LINE, LINE, FUNCTION, *ADDR).", arg);
}

static int cmd_list(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    src_state *s = state(d);
    if (!dbg_dwarf(d))
        return dbg_error(d, "list: no debugging information (build the program with -g, or "
                            "load it with symbol-file).");
    const char *file;
    unsigned line;
    bool func;
    bool fresh = !s->listed || s->list_stop != d->stop_count || s->list_frame != d->frame;
    if (!*args) {
        if (!fresh) { /* go on after the lines shown last */
            if (s->list_last >= dbg_src_nlines(d, s->list_file) && dbg_src_nlines(d, s->list_file))
                return dbg_error(d, "Line number %u out of range; \"%s\" has %u lines.",
                                 s->list_last + 1, base_name(s->list_file),
                                 dbg_src_nlines(d, s->list_file));
            return show_lines(d, s->list_file, s->list_last + 1, s->list_last + 10);
        }
        if (!started(d) && (file = main_file(d))) {
            dw_scope fn;
            const symbol *m = symtab_lookup_name(&d->m->syms, "main");
            if (m && dw_function_at(dbg_dwarf(d), m->addr, &fn) && dw_decl(&fn, &file, &line)) {
                unsigned first = line > 5 ? line - 5 : 1;
                return show_lines(d, file, first, first + 9);
            }
        }
        if (!dbg_src_current(d, &file, &line)) {
            if (s->list_file)
                return show_lines(d, s->list_file, s->list_last + 1, s->list_last + 10);
            return dbg_error(d, "No line information for the current pc: give FILE:LINE or "
                                "a function.");
        }
        unsigned first = line > 5 ? line - 5 : 1;
        return show_lines(d, file, first, first + 9);
    }
    if (!strcmp(args, "-")) {
        if (fresh && !s->list_file) {
            if (!dbg_src_current(d, &file, &line))
                return dbg_error(d, "No current source file.");
            unsigned first = line > 5 ? line - 5 : 1;
            if (first == 1)
                return dbg_error(d, "Already at the start of %s.", base_name(file));
            return show_lines(d, file, first > 10 ? first - 10 : 1, first - 1);
        }
        if (s->list_first <= 1)
            return dbg_error(d, "Already at the start of %s.", base_name(s->list_file));
        unsigned last = s->list_first - 1;
        return show_lines(d, s->list_file, last > 10 ? last - 9 : 1, last);
    }
    const char *comma = strchr(args, ',');
    if (comma) {
        char lo[512], hi[512];
        snprintf(lo, sizeof lo, "%.*s", (int)(comma - args), args);
        snprintf(hi, sizeof hi, "%s", dbg_skip_ws(comma + 1));
        size_t al = strlen(lo);
        while (al && isspace((unsigned char)lo[al - 1]))
            lo[--al] = 0;
        unsigned first = 0, last = 0;
        const char *f1 = NULL, *f2 = NULL;
        if (*lo && list_point(d, lo, &f1, &first, &func))
            return -1;
        if (*hi) {
            if (all_digits(hi) && f1) {
                f2 = f1;
                if (line_num(d, hi, &last) != 0)
                    return -1;
            } else if (list_point(d, hi, &f2, &last, &func)) {
                return -1;
            }
        }
        if (!*lo && !*hi)
            return dbg_error(d, "list: give FIRST,LAST.");
        if (!*lo)
            return show_lines(d, f2, last > 9 ? last - 9 : 1, last);
        if (!*hi)
            return show_lines(d, f1, first, first + 9);
        if (strcmp(f1, f2) != 0)
            return dbg_error(d, "list: the two lines are in different files.");
        if (last < first)
            return dbg_error(d, "list: the last line %u comes before the first, %u.", last, first);
        return show_lines(d, f1, first, last);
    }
    if (list_point(d, args, &file, &line, &func))
        return -1;
    unsigned first = line > 5 ? line - 5 : 1; /* centred on the line, as gdb does */
    return show_lines(d, file, first, first + 9);
}

/* ---- info line, info source ------------------------------------------------ */

static void fmt_addr(dbg *d, uint64_t a, char *buf, size_t len)
{
    dbg_format_addr(d, (dbg_addr){a, false}, buf, len);
}

static int cmd_info_line(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    dwarf_db *db = dbg_dwarf(d);
    if (!db)
        return dbg_error(d, "info line: no debugging information.");
    uint64_t addr = 0;
    bool have_addr = false;
    const char *file = NULL;
    unsigned line = 0;
    if (!*args) {
        src_state *s = state(d);
        cpu *c = dbg_cpu(d);
        if (s && s->listed && s->list_stop == d->stop_count && s->list_frame == d->frame) {
            file = s->list_file;
            line = s->list_first + (s->list_last - s->list_first) / 2;
        } else if (c) {
            src_frame sf; /* the selected frame's line */
            addr = dbg_src_selected(d, c, &sf) ? src_frame_lookup(&sf) : cpu_pc(c);
            have_addr = true;
        } else {
            return dbg_error(d, "info line: give a location.");
        }
    } else if (*args == '*') {
        xval v;
        if (dbg_eval(d, args + 1, &v))
            return -1;
        addr = xval_address(&v);
        have_addr = true;
    } else {
        bool func;
        uint64_t entry;
        if (is_identifier(args) && function_entry(d, args, &entry)) {
            addr = entry;
            have_addr = true;
        } else if (list_point(d, args, &file, &line, &func)) {
            return -1;
        }
    }
    char a1[200], a2[200];
    if (have_addr) {
        dw_line l;
        if (!dw_line_at(db, addr, &l)) {
            fmt_addr(d, addr, a1, sizeof a1);
            dbg_printf(d, "No line number information available for address %s\n", a1);
            return 0;
        }
        fmt_addr(d, l.addr, a1, sizeof a1);
        fmt_addr(d, l.end, a2, sizeof a2);
        if (addr != l.addr) {
            char a0[200];
            fmt_addr(d, addr, a0, sizeof a0);
            dbg_printf(d, "Line %u of \"%s\" starts at address %s and ends at %s.\n", l.line,
                       base_name(l.file), a1, a2);
            (void)a0;
        } else {
            dbg_printf(d, "Line %u of \"%s\" starts at address %s and ends at %s.\n", l.line,
                       base_name(l.file), a1, a2);
        }
        return 0;
    }
    uint64_t addrs[16];
    unsigned found;
    const char *full;
    unsigned n = dw_line_addrs(db, file, line, addrs, 16, &found, &full);
    if (!n || found != line) {
        if (n) {
            fmt_addr(d, addrs[0], a1, sizeof a1);
            dbg_printf(d, "Line %u of \"%s\" is at address %s but contains no code.\n", line,
                       base_name(file), a1);
        } else {
            dbg_printf(d, "Line %u of \"%s\" has no code.\n", line, base_name(file));
        }
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        dw_line l;
        if (!dw_line_at(db, addrs[i], &l))
            continue;
        fmt_addr(d, l.addr, a1, sizeof a1);
        fmt_addr(d, l.end, a2, sizeof a2);
        dbg_printf(d, "Line %u of \"%s\" starts at address %s and ends at %s.\n", line,
                   base_name(file), a1, a2);
    }
    return 0;
}

static const char *lang_name(int lang)
{
    switch (lang) {
    case DW_LANG_C89:
    case DW_LANG_C:
    case DW_LANG_C99:
    case DW_LANG_C11: return "c";
    case DW_LANG_Mips_Assembler: return "asm";
    case DW_LANG_C_plus_plus:
    case DW_LANG_C_plus_plus_11:
    case DW_LANG_C_plus_plus_14: return "c++";
    default: return lang < 0 ? "unknown" : "other";
    }
}

static int cmd_info_source(dbg *d, const cmd_args *a)
{
    dwarf_db *db = dbg_dwarf(d);
    cpu *c = dbg_cpu(d);
    dw_line l;
    dw_cu_info cu;
    if (!db || !c || !dw_line_at(db, cpu_pc(c), &l) || !dw_cu_at(db, cpu_pc(c), &cu)) {
        dbg_puts(d, "No current source file.\n");
        return 0;
    }
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "Current source file is %s\n", l.file);
    if (cu.comp_dir)
        sb_printf(&b, "Compilation directory is %s\n", cu.comp_dir);
    const char *path = dbg_src_path(d, l.file);
    if (path) {
        sb_printf(&b, "Located in %s\n", path);
        sb_printf(&b, "Contains %u lines.\n", dbg_src_nlines(d, l.file));
    } else {
        sb_puts(&b, "The file was not found (see \"directory\").\n");
    }
    sb_printf(&b, "Source language is %s.\n", lang_name(cu.lang));
    if (cu.producer)
        sb_printf(&b, "Producer is %s.\n", cu.producer);
    sb_printf(&b, "Compiled with DWARF %u debugging format.\n", cu.version);
    return dbg_puts_sb(d, &b);
}

/* ---- directory --------------------------------------------------------------- */

static int cmd_directory(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    src_state *s = state(d);
    if (!*args) {
        for (unsigned i = 0; i < s->ndirs; i++)
            free(s->dirs[i]);
        s->ndirs = 0;
        files_free(s);
        dbg_puts(d, "Source directories searched: (none: the paths in the debug "
                    "information)\n");
        return 0;
    }
    char w[4096];
    for (const char *p = dbg_next_word(args, w, sizeof w); *w; p = dbg_next_word(p, w, sizeof w)) {
        struct stat st;
        if (stat(w, &st) != 0 || !S_ISDIR(st.st_mode))
            return dbg_error(d, "%s: %s.", w,
                             errno && stat(w, &st) != 0 ? strerror(errno) : "not a directory");
        s->dirs = xrealloc(s->dirs, (s->ndirs + 1) * sizeof *s->dirs);
        memmove(s->dirs + 1, s->dirs, s->ndirs * sizeof *s->dirs);
        s->dirs[0] = xstrdup(w);
        s->ndirs++;
    }
    files_free(s); /* files not found before may be found now */
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "Source directories searched:");
    for (unsigned i = 0; i < s->ndirs; i++)
        sb_printf(&b, " %s", s->dirs[i]);
    sb_putc(&b, '\n');
    return dbg_puts_sb(d, &b);
}

static int cmd_show_directories(dbg *d, const cmd_args *a)
{
    src_state *s = state(d);
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "Source directories searched:");
    for (unsigned i = 0; s && i < s->ndirs; i++)
        sb_printf(&b, " %s", s->dirs[i]);
    if (!s || !s->ndirs)
        sb_puts(&b, " (none: the paths in the debug information)");
    sb_putc(&b, '\n');
    return dbg_puts_sb(d, &b);
}

#include "dbg/source.cmds.h"

static const dbg_cmd_table source_table = {"Source", source_commands, ARRAY_SIZE(source_commands)};
static const dbg_cmd_table *const source_tables[] = {&source_table, &dbg_srcvars_table, NULL};

/* The commands (listed late: help shows them last) ... */
const dbg_module dbg_source_module = {
    .name = "source",
    .commands = source_tables,
};

/* ... and the DWARF state (listed early: freed after the modules that may
 * still look up source positions while they free theirs). */
const dbg_module dbg_src_module = {
    .name = "src",
    .free = dbg_src_free,
};

/* ---- for front ends (srcview.h) ------------------------------------------------ */

void dbg_set_kernel(dbg *d, const char *path) { dbg_src_load(d, path, true); }

bool dbg_source_position(dbg *d, const char **file, unsigned *line)
{
    return dbg_src_current(d, file, line);
}

const char *dbg_source_line(dbg *d, const char *file, unsigned n)
{
    return dbg_src_text(d, file, n);
}

unsigned dbg_source_nlines(dbg *d, const char *file) { return dbg_src_nlines(d, file); }

bool dbg_source_breakpoint(dbg *d, const char *file, unsigned line)
{
    for (bpoint *b = bp_list(d); b; b = b->next) {
        if (!b->enabled || b->doomed || !b->addr || !dbg_breakpoint_at(d, b->addr))
            continue;
        dw_line l;
        if (dw_line_at(dbg_dwarf(d), b->addr, &l) && l.line == line && !strcmp(l.file, file))
            return true;
    }
    return false;
}
