/* Command table, dispatch, output and blocks.  See dbg.h. */
#include "dbg/dbg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

#define MAX_COMMANDS 512

static const command *table[MAX_COMMANDS];
static const char *groups[MAX_COMMANDS];
static unsigned ncommands;

void dbg_register_group(const char *group, const command *cmds, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (dbg_command_find(cmds[i].name))
            continue; /* registered already (several dbg instances) */
        if (ncommands < MAX_COMMANDS) {
            groups[ncommands] = group;
            table[ncommands++] = &cmds[i];
        }
    }
}

void dbg_register(const command *cmds, unsigned n) { dbg_register_group("Other", cmds, n); }

unsigned dbg_command_count(void) { return ncommands; }
const command *dbg_command_at(unsigned i) { return i < ncommands ? table[i] : NULL; }
const char *dbg_command_group(unsigned i) { return i < ncommands ? groups[i] : NULL; }

const command *dbg_command_find(const char *name)
{
    for (unsigned i = 0; i < ncommands; i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

const char *dbg_skip_ws(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

const char *dbg_next_word(const char *s, char *buf, size_t len)
{
    s = dbg_skip_ws(s);
    size_t n = 0;
    while (*s && !isspace((unsigned char)*s)) {
        if (n + 1 < len)
            buf[n++] = *s;
        s++;
    }
    if (len)
        buf[n] = 0;
    return dbg_skip_ws(s);
}

static void default_out(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stdout);
    fflush(stdout);
}

dbg *dbg_new(machine *m)
{
    dbg *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->m = m;
    d->out = default_out;
    sb_init(&d->block);
    dbg_core_register();
    if (m)
        dbg_script_attach(d);
    return d;
}

void dbg_free(dbg *d)
{
    if (!d)
        return;
    dbg_profile_free(d);
    dbg_trace_free(d);
    dbg_bp_free(d);
    dbg_watch_free(d);
    dbg_script_free(d);
    dbg_views_free(d);
    dbg_state_free(d);
    dbg_vars_free(d);
    sb_free(&d->block);
    free(d);
}

void dbg_set_output(dbg *d, dbg_out_fn fn, void *ctx)
{
    d->out = fn ? fn : default_out;
    d->out_ctx = ctx;
}

void dbg_vprintf(dbg *d, const char *fmt, va_list ap)
{
    strbuf b;
    sb_init(&b);
    sb_vprintf(&b, fmt, ap);
    if (b.s)
        d->out(d->out_ctx, b.s);
    sb_free(&b);
}

void dbg_printf(dbg *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dbg_vprintf(d, fmt, ap);
    va_end(ap);
}

void dbg_puts(dbg *d, const char *s) { d->out(d->out_ctx, s); }

int dbg_error(dbg *d, const char *fmt, ...)
{
    strbuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sb_putc(&b, '\n');
    d->out(d->out_ctx, b.s);
    sb_free(&b);
    d->failures++;
    return -1;
}

cpu *dbg_cpu(dbg *d)
{
    if (!d->m || d->cur_cpu < 0 || (unsigned)d->cur_cpu >= d->m->ncpus)
        return NULL;
    return d->m->cpus[d->cur_cpu];
}

const char *dbg_prompt(const dbg *d) { return d->collecting ? ">" : "(xbow) "; }

/* ---- dispatch --------------------------------------------------------- */

static unsigned count_words(const char *s)
{
    unsigned n = 0;
    for (s = dbg_skip_ws(s); *s; n++) {
        while (*s && !isspace((unsigned char)*s))
            s++;
        s = dbg_skip_ws(s);
    }
    return n;
}

/* Does word `w` (possibly abbreviated) name word `k` of command c? */
static bool word_matches(const char *cname, unsigned k, const char *w, bool exact)
{
    char cw[64];
    const char *s = cname;
    for (unsigned i = 0; i <= k; i++)
        s = dbg_next_word(s, cw, sizeof cw);
    return exact ? strcmp(cw, w) == 0 : strncmp(cw, w, strlen(w)) == 0;
}

static bool alias_matches(const command *c, const char *line_words[], unsigned nw)
{
    if (!c->aliases)
        return false;
    /* aliases: comma-separated, each possibly several words ("i r") */
    const char *a = c->aliases;
    while (*a) {
        char one[64];
        size_t n = strcspn(a, ",");
        snprintf(one, sizeof one, "%.*s", (int)n, a);
        a += n + (a[n] == ',');
        if (count_words(one) != nw)
            continue;
        const char *s = one;
        bool ok = true;
        for (unsigned i = 0; i < nw && ok; i++) {
            char w[64];
            s = dbg_next_word(s, w, sizeof w);
            ok = strcmp(w, line_words[i]) == 0;
        }
        if (ok)
            return true;
    }
    return false;
}

/* Find the command named by the first words of `line`; *rest gets the
 * arguments.  Exact names and aliases win over unique abbreviations;
 * longer names win over shorter ones.  Returns NULL and sets *ambiguous. */
static const command *lookup(const char *line, const char **rest, bool *ambiguous)
{
    char words[3][64];
    const char *wp[3];
    const char *after[3];
    const char *s = line;
    unsigned nw = 0;
    *ambiguous = false;
    while (nw < 3) {
        s = dbg_skip_ws(s);
        if (!*s)
            break;
        s = dbg_next_word(s, words[nw], sizeof words[nw]);
        wp[nw] = words[nw];
        after[nw] = s;
        nw++;
    }
    for (unsigned k = nw; k >= 1; k--) {
        const command *found = NULL;
        int nfound = 0;
        for (int exact = 1; exact >= 0 && !found; exact--) {
            nfound = 0;
            for (unsigned i = 0; i < ncommands; i++) {
                const command *c = table[i];
                bool ok = false;
                if (exact && alias_matches(c, wp, k))
                    ok = true;
                else if (count_words(c->name) == k) {
                    ok = true;
                    for (unsigned j = 0; j < k && ok; j++)
                        ok = word_matches(c->name, j, wp[j], exact);
                }
                if (ok) {
                    if (!found || found != c)
                        nfound++;
                    found = c;
                }
            }
            if (nfound > 1 && !exact) {
                *ambiguous = true;
                return NULL;
            }
            if (nfound > 1 && exact)
                break; /* cannot happen with unique names */
        }
        if (found) {
            *rest = after[k - 1];
            return found;
        }
    }
    return NULL;
}

static int run_line(dbg *d, const char *line)
{
    const char *s = dbg_skip_ws(line);
    if (!*s || *s == '#')
        return 0;
    /* gdb's "x/4xw ADDR", "print/x EXPR": the format is an argument. */
    char split[1024];
    size_t wl = strcspn(s, " \t/");
    if (s[wl] == '/' && wl > 0 && strlen(s) + 2 < sizeof split) {
        snprintf(split, sizeof split, "%.*s %s", (int)wl, s, s + wl);
        s = split;
    }
    const char *rest = NULL;
    bool ambiguous;
    const command *c = lookup(s, &rest, &ambiguous);
    if (!c) {
        char w[64];
        dbg_next_word(s, w, sizeof w);
        int urc;
        if (dbg_script_user(d, s, &urc))
            return urc;
        if (ambiguous)
            return dbg_error(d, "Ambiguous command \"%s\": say more (try \"help\").", s);
        return dbg_error(d, "Undefined command: \"%s\".  Try \"help\".", w);
    }
    if ((c->flags & CMD_MACHINE) && !d->m)
        return dbg_error(d, "%s: no machine is loaded.", c->name);
    if ((c->flags & CMD_RESUMES) && d->in_callback)
        return dbg_error(d, "%s: cannot run the guest from a breakpoint's commands while it "
                            "runs (end the commands with \"continue\" instead).", c->name);
    /* Strip trailing whitespace from the arguments. */
    char *args = strdup(rest ? rest : "");
    if (!args)
        return dbg_error(d, "out of memory");
    size_t n = strlen(args);
    while (n && isspace((unsigned char)args[n - 1]))
        args[--n] = 0;
    int failures = d->failures;
    int rc = c->fn(d, args);
    free(args);
    if (rc != 0 && d->failures == failures)
        d->failures++;
    return rc;
}

void dbg_collect_block(dbg *d, const char *arg, int (*done)(dbg *d, const char *body))
{
    d->collecting = 1;
    sb_reset(&d->block);
    d->block_done = done;
    snprintf(d->block_arg, sizeof d->block_arg, "%s", arg ? arg : "");
}

bool dbg_opens_block(const char *line)
{
    char w[32];
    dbg_next_word(line, w, sizeof w);
    return strcmp(w, "define") == 0 || strcmp(w, "commands") == 0 || strcmp(w, "while") == 0 ||
           strcmp(w, "if") == 0 || strcmp(w, "document") == 0;
}

int dbg_execute(dbg *d, const char *line)
{
    if (d->collecting) {
        const char *s = dbg_skip_ws(line);
        char w[16];
        dbg_next_word(s, w, sizeof w);
        if (strcmp(w, "end") == 0 && --d->collecting == 0) {
            char *body = sb_take(&d->block);
            int (*done)(dbg *, const char *) = d->block_done;
            d->block_done = NULL;
            int rc = done ? done(d, body) : 0;
            free(body);
            return rc;
        }
        if (dbg_opens_block(s))
            d->collecting++;
        sb_puts(&d->block, line);
        sb_putc(&d->block, '\n');
        return 0;
    }
    return run_line(d, line);
}

int dbg_source(dbg *d, const char *path)
{
    if (d->source_depth >= DBG_MAX_DEPTH)
        return dbg_error(d, "source: nested too deeply (%d files)", DBG_MAX_DEPTH);
    FILE *f = fopen(path, "r");
    if (!f)
        return dbg_error(d, "%s: %s.", path, strerror(errno));
    d->source_depth++;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0, lineno = 0;
    while (!d->quit && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (dbg_execute(d, line) != 0) {
            rc = -1;
            if (d->batch) {
                dbg_printf(d, "%s:%d: command failed: %s\n", path, lineno, line);
                break;
            }
        }
    }
    free(line);
    fclose(f);
    d->source_depth--;
    if (d->collecting && d->source_depth == 0) {
        d->collecting = 0;
        return dbg_error(d, "%s: missing \"end\" at end of file", path);
    }
    return rc;
}

/* ---- small parsing helpers ------------------------------------------- */

const char *dbg_find_if(const char *s)
{
    bool quoted = false;
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            quoted = !quoted;
        if (quoted || strncmp(p, "if", 2) != 0)
            continue;
        bool start = p == s || isspace((unsigned char)p[-1]);
        bool stop = p[2] == 0 || isspace((unsigned char)p[2]);
        if (start && stop)
            return p;
    }
    return NULL;
}

int dbg_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    s = dbg_skip_ws(s);
    if (!*s || *s == '-')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *dbg_skip_ws(end))
        return -1;
    *v = x;
    return 0;
}

int dbg_parse_time(const char *s, uint64_t hz, uint64_t *ticks)
{
    char *end;
    s = dbg_skip_ws(s);
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v < 0 || !isfinite(v))
        return -1;
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
    const char *u = dbg_skip_ws(end);
    if (!*u) {
        /* plain ticks: must be an integer */
        uint64_t t;
        if (dbg_parse_u64(s, &t))
            return -1;
        *ticks = t;
        return 0;
    }
    for (unsigned i = 0; i < ARRAY_SIZE(units); i++) {
        if (strcmp(u, units[i].unit) == 0) {
            double t = v * units[i].scale * (double)hz;
            if (t > 1.8e19)
                return -1;
            *ticks = (uint64_t)(t + 0.5);
            return 0;
        }
    }
    return -1;
}

void dbg_format_time(uint64_t ticks, uint64_t hz, char *buf, size_t len)
{
    double s = (double)ticks / (double)(hz ? hz : 1);
    if (s >= 1)
        snprintf(buf, len, "%.3f s", s);
    else if (s >= 1e-3)
        snprintf(buf, len, "%.3f ms", s * 1e3);
    else
        snprintf(buf, len, "%.3f us", s * 1e6);
}
