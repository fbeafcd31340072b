/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command table, dispatch, output and blocks.  See dbg.h. */
#include "dbg/dbg.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>

#include "dbg/dbg_int.h"

int dbg_register_group(dbg *d, const char *group, const command *cmds, unsigned n)
{
    dbg_registry *r = &d->cmds;
    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        if (dbg_command_find(d, cmds[i].name)) {
            /* two commands of one name: the second could never run */
            fprintf(stderr,
                    "xbow: command \"%s\" (%s) is registered twice; the second is "
                    "ignored.\n",
                    cmds[i].name, group);
            rc = -1;
            continue;
        }
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 64;
            r->cmds = xrealloc(r->cmds, r->cap * sizeof *r->cmds);
            r->groups = xrealloc(r->groups, r->cap * sizeof *r->groups);
        }
        r->groups[r->n] = group;
        r->cmds[r->n++] = &cmds[i];
    }
    return rc;
}

unsigned dbg_command_count(const dbg *d) { return d->cmds.n; }
const command *dbg_command_at(const dbg *d, unsigned i)
{
    return i < d->cmds.n ? d->cmds.cmds[i] : NULL;
}
const char *dbg_command_group(const dbg *d, unsigned i)
{
    return i < d->cmds.n ? d->cmds.groups[i] : NULL;
}

const command *dbg_command_find(const dbg *d, const char *name)
{
    for (unsigned i = 0; i < d->cmds.n; i++)
        if (strcmp(d->cmds.cmds[i]->name, name) == 0)
            return d->cmds.cmds[i];
    return NULL;
}

const char *dbg_skip_ws(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* "No breakpoint number 7." or, for a run of them, "No breakpoint numbers 7-9." */
static int no_numbers(dbg *d, const char *what, long from, long to)
{
    if (from == to)
        return dbg_error(d, "No %s number %ld.", what, from);
    return dbg_error(d, "No %s numbers %ld-%ld.", what, from, to);
}

int dbg_each_number(dbg *d, const char *args, const char *cmd, const char *what, long last,
                    bool (*fn)(dbg *d, long n, void *ctx), void *ctx)
{
    int rc = 0;
    char w[64];
    for (const char *s = dbg_next_word(args, w, sizeof w); *w; s = dbg_next_word(s, w, sizeof w)) {
        char *end;
        errno = 0;
        long lo = strtol(w, &end, 10), hi = lo;
        if (*end == '-' && end != w)
            hi = strtol(end + 1, &end, 10);
        if (end == w || *end || errno || lo < 1 || hi < lo || hi > INT_MAX) {
            rc = dbg_error(d, "%s: \"%s\" is not a %s number.", cmd, w, what);
            continue;
        }
        /* Numbers above the last one given out name nothing: they are
         * reported at once, not looked up one by one ("delete 1-2000000000"). */
        long top = hi < last ? hi : last, miss = 0;
        for (long n = lo; n <= top; n++) {
            if (fn(d, n, ctx)) {
                if (miss)
                    rc = no_numbers(d, what, miss, n - 1);
                miss = 0;
            } else if (!miss) {
                miss = n;
            }
        }
        if (hi > top && !miss)
            miss = top >= lo ? top + 1 : lo;
        if (miss)
            rc = no_numbers(d, what, miss, hi);
    }
    return rc;
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

const char *dbg_unescape(const char *s, char stop, const char *escapes, strbuf *out)
{
    static const char letter[] = "ntrea", value[] = {'\n', '\t', '\r', 27, 7};
    for (; *s && *s != stop; s++) {
        if (*s != '\\' || !s[1]) {
            sb_putc(out, *s);
            continue;
        }
        s++;
        const char *k = strchr(letter, *s);
        sb_putc(out, k && strchr(escapes, *s) ? value[k - letter] : *s);
    }
    return s;
}

static void default_out(void *ctx, const char *text)
{
    fputs(text, stdout);
    fflush(stdout);
}

dbg *dbg_new(machine *m)
{
    dbg *d = xcalloc(1, sizeof *d);
    d->m = m;
    d->out = default_out;
    sb_init(&d->block);
    dbg_modules_register(d);
    if (m)
        dbg_script_attach(d);
    return d;
}

void dbg_free(dbg *d)
{
    if (!d)
        return;
    dbg_modules_free(d);
    free(d->repeat);
    sb_free(&d->block);
    free(d->stop_report);
    free(d->cmds.cmds);
    free(d->cmds.groups);
    free(d);
}

void dbg_set_output(dbg *d, dbg_out_fn fn, void *ctx)
{
    d->out = fn ? fn : default_out;
    d->out_ctx = ctx;
}

static void capture_out(void *ctx, const char *text) { sb_puts(ctx, text); }

void dbg_capture_begin(dbg *d, dbg_capture *saved, strbuf *into)
{
    *saved = (dbg_capture){d->out, d->out_ctx};
    dbg_set_output(d, capture_out, into);
}

void dbg_capture_end(dbg *d, const dbg_capture *saved)
{
    dbg_set_output(d, saved->out, saved->ctx);
}

/* Everything the debugger prints goes through here (and to the log file
 * while logging is on). */
static void emit(dbg *d, const char *text)
{
    if (!dbg_log_write(d, text))
        d->out(d->out_ctx, text);
}

void dbg_vprintf(dbg *d, const char *fmt, va_list ap)
{
    strbuf b;
    sb_init(&b);
    sb_vprintf(&b, fmt, ap);
    if (b.s)
        emit(d, b.s);
    sb_free(&b);
}

void dbg_printf(dbg *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dbg_vprintf(d, fmt, ap);
    va_end(ap);
}

void dbg_puts(dbg *d, const char *s) { emit(d, s); }

int dbg_puts_sb(dbg *d, strbuf *b)
{
    if (b->s)
        emit(d, b->s);
    sb_free(b);
    return 0;
}

int dbg_error(dbg *d, const char *fmt, ...)
{
    strbuf b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    sb_putc(&b, '\n');
    emit(d, b.s);
    sb_free(&b);
    d->failures++;
    return -1;
}

int dbg_command_usage_error(dbg *d, const command *c, const char *why)
{
    strbuf u;
    sb_init(&u);
    dbg_command_usage(c, &u);
    /* A block's usage has several lines ("commands [N]\n  COMMANDS...\nend"):
     * its first line is enough here. */
    size_t n = strcspn(u.s, "\n");
    int rc = why && *why ? dbg_error(d, "%s: %s.  Usage: %.*s", c->name, why, (int)n, u.s)
                         : dbg_error(d, "Usage: %.*s", (int)n, u.s);
    sb_free(&u);
    return rc;
}

int dbg_usage_error(dbg *d, const char *cmd, const char *why)
{
    const command *c = dbg_command_find(d, cmd);
    return dbg_command_usage_error(d, c ? c : &(const command){.name = cmd}, why);
}

int dbg_undefined_subcommand(dbg *d, const char *prefix, const char *text)
{
    return dbg_error(d, "Undefined %s command: \"%.*s\".  Try \"help %s\".", prefix,
                     (int)strcspn(text, " \t"), text, prefix);
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
static const command *lookup(const dbg *d, const char *line, const char **rest, bool *ambiguous)
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
            for (unsigned i = 0; i < d->cmds.n; i++) {
                const command *c = d->cmds.cmds[i];
                bool ok = false;
                if (!exact && (c->flags & CMD_EXACT))
                    continue;
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

/* set trace-commands on: the command with gdb's "+" per level of nesting. */
static void trace_command(dbg *d, const char *line)
{
    if (!dbg_trace_commands(d))
        return;
    char plus[DBG_MAX_DEPTH + 1];
    int k = d->exec_depth + 1 > DBG_MAX_DEPTH ? DBG_MAX_DEPTH : d->exec_depth + 1;
    memset(plus, '+', (size_t)k);
    plus[k] = 0;
    dbg_printf(d, "%s%s\n", plus, line);
}

const command *dbg_command_lookup(const dbg *d, const char *line, const char **rest)
{
    char split[1024];
    const char *s = dbg_skip_ws(line);
    size_t wl = strcspn(s, " \t/");
    if (s[wl] == '/' && wl > 0 && strlen(s) + 2 < sizeof split) { /* x/4xw */
        snprintf(split, sizeof split, "%.*s %s", (int)wl, s, s + wl);
        s = split;
    }
    bool ambiguous;
    const char *r = NULL;
    const command *c = lookup(d, s, &r, &ambiguous);
    /* rest must point into the caller's line */
    *rest = c && r ? line + strlen(line) - strlen(r) : NULL;
    return c;
}

static int run_line(dbg *d, const char *line)
{
    const char *s = dbg_skip_ws(line);
    if (!*s || *s == '#')
        return 0;
    char split[1024];
    /* gdb's "!ls": shell */
    if (*s == '!' && strlen(s) + 8 < sizeof split) {
        snprintf(split, sizeof split, "shell %s", dbg_skip_ws(s + 1));
        s = split;
    }
    /* gdb's "x/4xw ADDR", "print/x EXPR": the format is an argument. */
    char split2[1024];
    size_t wl = strcspn(s, " \t/");
    if (s[wl] == '/' && wl > 0 && strlen(s) + 2 < sizeof split2) {
        snprintf(split2, sizeof split2, "%.*s %s", (int)wl, s, s + wl);
        s = split2;
    }
    const char *rest = NULL;
    bool ambiguous;
    const command *c = lookup(d, s, &rest, &ambiguous);
    if (!c) {
        char w[64];
        dbg_next_word(s, w, sizeof w);
        int urc;
        trace_command(d, s);
        d->exec_depth++;
        bool user = dbg_script_user(d, s, &urc);
        d->exec_depth--;
        if (user)
            return urc;
        if (ambiguous)
            return dbg_error(d, "Ambiguous command \"%s\": say more (try \"help\").", s);
        return dbg_error(d, "Undefined command: \"%s\".  Try \"help\".", w);
    }
    if ((c->flags & CMD_MACHINE) && !d->m)
        return dbg_error(d, "%s: no machine is loaded.", c->name);
    if ((c->flags & CMD_RESUMES) && d->in_callback)
        return dbg_error(d,
                         "%s: cannot run the guest from a breakpoint's commands while it "
                         "runs (end the commands with \"continue\" instead).",
                         c->name);
    /* Strip trailing whitespace from the arguments. */
    size_t len = strlen(rest ? rest : "");
    char *args = xmalloc(len + 2); /* + 1: see dbg_args_parse */
    memcpy(args, rest ? rest : "", len + 1);
    size_t n = len;
    while (n && isspace((unsigned char)args[n - 1]))
        args[--n] = 0;
    trace_command(d, s);
    int failures = d->failures;
    d->exec_depth++;
    if (c->flags & CMD_NOREPEAT)
        dbg_set_repeat(d, NULL);
    int rc;
    if ((c->flags & CMD_SETTING) && args[0] == '=' && args[1] != '=') {
        /* "set height = 3": the guest's variable of that name */
        strbuf t;
        sb_init(&t);
        sb_printf(&t, "%s %s", c->name + strlen("set "), args);
        rc = dbg_assign(d, t.s);
        sb_free(&t);
    } else if (c->run) {
        cmd_args a;
        rc = dbg_args_parse(d, c, args, &a);
        if (rc == 0)
            rc = c->run(d, &a);
    } else {
        rc = c->fn(d, args);
    }
    d->exec_depth--;
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

static int execute(dbg *d, const char *line)
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

void dbg_set_repeat(dbg *d, const char *line)
{
    if (!d->interactive || d->exec_depth != 1)
        return; /* a command inside a script, a user command, a breakpoint ... */
    free(d->repeat);
    d->repeat = line ? xstrdup(line) : NULL;
}

const char *dbg_repeat_text(const dbg *d) { return d->repeat && !d->collecting ? d->repeat : ""; }

int dbg_execute_interactive(dbg *d, const char *line)
{
    if (d->collecting) /* a line of a block: empty lines are lines too */
        return dbg_execute(d, line);
    char *run = xstrdup(*dbg_skip_ws(line) ? line : dbg_repeat_text(d));
    free(d->repeat);
    d->repeat = *run ? xstrdup(run) : NULL; /* the default: the line again */
    bool was = d->interactive;
    d->interactive = d->exec_depth == 0;
    int rc = dbg_execute(d, run);
    d->interactive = was;
    if (d->collecting) { /* it opened a block: Enter adds lines to it */
        free(d->repeat);
        d->repeat = NULL;
    }
    free(run);
    return rc;
}

int dbg_execute(dbg *d, const char *line)
{
    dbg_command_begin();
    int rc = execute(d, line);
    dbg_command_end();
    return rc;
}

/* Bytes no command file has: control characters other than tab, line
 * ends, form feed, vertical tab and escape. */
static bool binary_bytes(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && !strchr("\t\n\r\f\v\033", c)) || c == 0x7f || c == 0)
            return true;
    }
    return false;
}

/* Refuse what is not a file of commands before running any of it: a
 * directory, or a file whose first block has binary bytes (the rest is
 * checked line by line, which also covers pipes). */
static int check_command_file(dbg *d, FILE *f, const char *path)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        return dbg_error(d, "%s: %s.", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return dbg_error(d, "%s: Is a directory.", path);
    if (!S_ISREG(st.st_mode))
        return 0;
    char head[4096];
    size_t n = fread(head, 1, sizeof head, f);
    bool bad = binary_bytes(head, n);
    if (ferror(f))
        return dbg_error(d, "%s: %s.", path, strerror(errno));
    rewind(f);
    if (bad)
        return dbg_error(d,
                         "%s: not a text file: \"source\" runs a file of debugger commands, "
                         "one per line.",
                         path);
    return 0;
}

/* Run a file of commands.  Like gdb, the first command that fails stops
 * it (with the file and line), and so does Ctrl-C. */
static int source(dbg *d, FILE *f, const char *path)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0, lineno = 0;
    errno = 0;
    while (!d->quit && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (binary_bytes(line, (size_t)n)) {
            rc = dbg_error(d, "%s:%d: not a text line (binary data?): stopped.", path, lineno);
            break;
        }
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = 0;
        if (dbg_execute(d, line) != 0) {
            rc = -1;
            if (!dbg_interrupt_pending())
                dbg_printf(d, "%s:%d: command failed: %s\n", path, lineno, line);
            break;
        }
        if (dbg_interrupt_pending()) {
            rc = dbg_interrupt_error(d);
            break;
        }
    }
    if (rc == 0 && ferror(f))
        rc = dbg_error(d, "%s:%d: %s.", path, lineno + 1, strerror(errno ? errno : EIO));
    free(line);
    return rc;
}

int dbg_source(dbg *d, const char *path)
{
    if (d->source_depth >= DBG_MAX_DEPTH)
        return dbg_error(d, "source: nested too deeply (%d files)", DBG_MAX_DEPTH);
    FILE *f = fopen(path, "r");
    if (!f)
        return dbg_error(d, "%s: %s.", path, strerror(errno));
    if (check_command_file(d, f, path) != 0) {
        fclose(f);
        return -1;
    }
    dbg_command_begin();
    d->source_depth++;
    int rc = source(d, f, path);
    fclose(f);
    d->source_depth--;
    dbg_command_end();
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
        if (strcasecmp(u, units[i].unit) == 0) {
            double t = v * units[i].scale * (double)hz;
            if (t > 1.8e19)
                return -1;
            *ticks = (uint64_t)(t + 0.5);
            /* A time, but under half a tick of the clock: say so rather
             * than let it read as "not a time". */
            return *ticks == 0 && v > 0 ? -2 : 0;
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
    else if (s >= 1e-6 || ticks == 0)
        snprintf(buf, len, "%.3f us", s * 1e6);
    else
        snprintf(buf, len, "%.1f ns", s * 1e9);
}
