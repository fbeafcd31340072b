/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scripting: define (user commands with $arg0.. $argc), document, if/else,
 * while, printf, and expect (run until the guest console prints a text).
 * (Host programs run only through "shell", src/dbg/cmd_core.c.) */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

#define CONSOLE_KEEP (64u * 1024) /* guest output kept for expect */
#define MAX_USER_DEPTH 16

typedef struct ucmd {
    char name[128];
    char *body;
    char *doc;
    struct ucmd *next;
} ucmd;

typedef struct script_state {
    ucmd *cmds;
    int depth;
    /* Guest console output not yet consumed by expect. */
    char *con;
    size_t conlen;
    int tap;
    const char *want; /* the text expect waits for, or NULL */
    bool found;
} script_state;

static script_state *sstate(dbg *d)
{
    if (!d->script)
        DBG_STATE(d, script)->tap = -1;
    return d->script;
}

static void dbg_script_free(dbg *d)
{
    script_state *s = d->script;
    if (!s)
        return;
    if (s->tap >= 0 && d->m)
        chardev_remove_tap(d->m->console, s->tap);
    while (s->cmds) {
        ucmd *u = s->cmds;
        s->cmds = u->next;
        free(u->body);
        free(u->doc);
        free(u);
    }
    free(s->con);
    free(s);
    d->script = NULL;
}

/* ---- running blocks of lines ---------------------------------------------- */

static int exec_lines(dbg *d, const char *body)
{
    int rc = 0;
    for (const char *s = body; *s && !d->quit;) {
        size_t n = strcspn(s, "\n");
        char *line = xstrndup(s, n);
        s += n + (s[n] == '\n');
        rc = dbg_execute(d, line);
        free(line);
        if (rc)
            break;
        if (dbg_interrupt_pending()) {
            rc = dbg_interrupt_error(d);
            break;
        }
    }
    if (d->collecting) {
        d->collecting = 0;
        return dbg_error(d, "A block inside this one has no \"end\".");
    }
    return rc;
}

/* ---- define / document --------------------------------------------------------- */

static ucmd *ufind(dbg *d, const char *name)
{
    script_state *s = sstate(d);
    for (ucmd *u = s->cmds; u; u = u->next)
        if (!strcmp(u->name, name))
            return u;
    return NULL;
}

static int define_done(dbg *d, const char *body)
{
    script_state *s = sstate(d);
    ucmd *u = ufind(d, d->block_arg);
    if (!u) {
        u = xcalloc(1, sizeof *u);
        snprintf(u->name, sizeof u->name, "%s", d->block_arg);
        u->next = s->cmds;
        s->cmds = u;
    }
    free(u->body);
    u->body = xstrdup(body);
    return 0;
}

static int check_name(dbg *d, const char *name, const char *cmd)
{
    if (strlen(name) >= sizeof(((ucmd *)0)->name))
        return dbg_error(d, "%s: the name \"%s\" is too long.", cmd, name);
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || *p == '-' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z')))
            return dbg_error(d, "%s: \"%s\" is not a command name.", cmd, name);
    if (dbg_command_find(d, name))
        return dbg_error(d, "%s: \"%s\" is a built-in command.", cmd, name);
    return 0;
}

/* define, document, if and while: unless `refused` (their argument's check
 * failed, and said so), collect the body for done(), with the argument kept
 * in d->block_arg. */
static int open_block(dbg *d, int refused, const char *arg, int (*done)(dbg *d, const char *body))
{
    if (refused)
        return -1;
    dbg_collect_block(d, arg, done);
    return 0;
}

static int cmd_define(dbg *d, const cmd_args *a)
{
    return open_block(d, check_name(d, a->text[0], "define"), a->text[0], define_done);
}

static int document_done(dbg *d, const char *body)
{
    ucmd *u = ufind(d, d->block_arg);
    if (!u)
        return dbg_error(d, "document: no user command \"%s\" (define it first).", d->block_arg);
    free(u->doc);
    u->doc = xstrdup(body);
    return 0;
}

static int cmd_document(dbg *d, const cmd_args *a)
{
    return open_block(d, check_name(d, a->text[0], "document"), a->text[0], document_done);
}

bool dbg_script_help(dbg *d, const char *name)
{
    ucmd *u = d->script ? ufind(d, name) : NULL;
    if (!u)
        return false;
    dbg_printf(d, "Usage: %s [ARGS]\n%s", u->name, u->doc ? u->doc : "User-defined.\n");
    return true;
}

/* Replace $argc and $argN in a line. */
static char *substitute(const char *line, char **argv, int argc)
{
    strbuf b;
    sb_init(&b);
    for (const char *s = line; *s;) {
        if (!strncmp(s, "$argc", 5)) {
            sb_printf(&b, "%d", argc);
            s += 5;
        } else if (!strncmp(s, "$arg", 4) && s[4] >= '0' && s[4] <= '9') {
            char *end;
            long k = strtol(s + 4, &end, 10);
            sb_puts(&b, k < argc ? argv[k] : "");
            s = end;
        } else {
            sb_putc(&b, *s++);
        }
    }
    return b.s ? sb_take(&b) : xstrdup("");
}

int dbg_script_user(dbg *d, const char *line, int *rc)
{
    char name[64];
    const char *rest = dbg_next_word(line, name, sizeof name);
    ucmd *u = d->script ? ufind(d, name) : NULL;
    if (!u)
        return 0;
    script_state *s = sstate(d);
    if (s->depth >= MAX_USER_DEPTH) {
        *rc = dbg_error(d, "%s: user commands nested too deeply (%d).", name, MAX_USER_DEPTH);
        return 1;
    }
    char *argv[10];
    int argc = 0;
    char words[10][128];
    for (const char *p = rest; *p && argc < 10; argc++) {
        p = dbg_next_word(p, words[argc], sizeof words[argc]);
        argv[argc] = words[argc];
    }
    strbuf body;
    sb_init(&body);
    for (const char *p = u->body; *p;) {
        size_t n = strcspn(p, "\n");
        char *l = xstrndup(p, n);
        char *x = substitute(l, argv, argc);
        sb_puts(&body, x);
        sb_putc(&body, '\n');
        free(l);
        free(x);
        p += n + (p[n] == '\n');
    }
    s->depth++;
    *rc = exec_lines(d, body.s ? body.s : "");
    s->depth--;
    sb_free(&body);
    return 1;
}

/* ---- if / while ------------------------------------------------------------------ */

static int cond_true(dbg *d, const char *text, bool *t)
{
    xval v;
    if (dbg_eval(d, text, &v))
        return -1;
    *t = v.v != 0;
    return 0;
}

static int if_done(dbg *d, const char *body)
{
    char cond[128];
    snprintf(cond, sizeof cond, "%s", d->block_arg);
    /* Split at the "else" of this level. */
    strbuf yes, no;
    sb_init(&yes);
    sb_init(&no);
    strbuf *cur = &yes;
    int depth = 0;
    for (const char *s = body; *s;) {
        size_t n = strcspn(s, "\n");
        char w[16];
        char *line = xstrndup(s, n);
        s += n + (s[n] == '\n');
        dbg_next_word(line, w, sizeof w);
        if (dbg_opens_block(line))
            depth++;
        else if (!strcmp(w, "end"))
            depth--;
        if (depth == 0 && !strcmp(w, "else") && cur == &yes) {
            cur = &no;
        } else {
            sb_puts(cur, line);
            sb_putc(cur, '\n');
        }
        free(line);
    }
    bool t;
    int rc = cond_true(d, cond, &t);
    if (rc == 0) {
        const strbuf *branch = t ? &yes : &no;
        rc = exec_lines(d, branch->s ? branch->s : "");
    }
    sb_free(&yes);
    sb_free(&no);
    return rc;
}

/* if and while: the condition must fit in d->block_arg. */
static int check_cond(dbg *d, const char *cond, const char *cmd)
{
    if (strlen(cond) >= sizeof d->block_arg)
        return dbg_error(d, "%s: condition too long.", cmd);
    return 0;
}

static int cmd_if(dbg *d, const cmd_args *a)
{
    return open_block(d, check_cond(d, a->text[0], "if"), a->text[0], if_done);
}

static int while_done(dbg *d, const char *body)
{
    char cond[128];
    snprintf(cond, sizeof cond, "%s", d->block_arg);
    for (;;) {
        bool t;
        if (dbg_interrupted(d)) /* also a loop whose body does nothing */
            return dbg_interrupt_error(d);
        if (cond_true(d, cond, &t))
            return -1;
        if (!t || d->quit)
            return 0;
        if (exec_lines(d, body))
            return -1;
    }
}

static int cmd_while(dbg *d, const cmd_args *a)
{
    return open_block(d, check_cond(d, a->text[0], "while"), a->text[0], while_done);
}

static int cmd_else(dbg *d, const char *args)
{
    return dbg_error(d, "else: only inside if ... end.");
}

static int cmd_end(dbg *d, const char *args) { return dbg_error(d, "end: no block to end."); }

/* ---- printf ---------------------------------------------------------------------- */

/* Parse "TEXT" with C escapes; *end gets what follows.  Returns the text. */
static char *parse_string(dbg *d, const char *s, const char **end)
{
    s = dbg_skip_ws(s);
    if (*s != '"') {
        dbg_error(d, "Bad format string: want a \"quoted string\".");
        return NULL;
    }
    strbuf b;
    sb_init(&b);
    s = dbg_unescape(s + 1, '"', "ntrea", &b);
    if (*s != '"') {
        sb_free(&b);
        dbg_error(d, "Bad format string, non-terminated '\"'.");
        return NULL;
    }
    *end = s + 1;
    return b.s ? sb_take(&b) : xstrdup("");
}

static int cmd_printf(dbg *d, const cmd_args *a)
{
    const char *s = a->text[1];
    char *f = parse_string(d, a->text[0], &(const char *){NULL});
    if (!f)
        return -1;
    strbuf out;
    sb_init(&out);
    int rc = 0, argn = 0;
    for (const char *p = f; *p && !rc; p++) {
        if (*p != '%') {
            sb_putc(&out, *p);
            continue;
        }
        if (p[1] == '%') {
            sb_putc(&out, '%');
            p++;
            continue;
        }
        char spec[32] = "%";
        size_t n = 1;
        for (p++; *p && strchr("-+ #0123456789.", *p) && n < 20; p++)
            spec[n++] = *p;
        while (*p == 'l' || *p == 'h' || *p == 'z' || *p == 'j')
            p++;
        char conv = *p;
        if (!conv || !strchr("diuxXocsp", conv)) {
            rc = dbg_error(d, "Bad format string: unknown conversion \"%%%c\".", conv ? conv : ' ');
            break;
        }
        s = dbg_skip_ws(s);
        if (*s != ',') {
            rc = dbg_error(d, "Bad format string, missing argument %d.", argn + 1);
            break;
        }
        xval v;
        if (dbg_eval_prefix(d, s + 1, &s, &v)) {
            rc = -1;
            break;
        }
        argn++;
        if (conv == 's') {
            char str[1024];
            unsigned k = 0;
            xerr err;
            uint8_t ch = 1;
            while (k < sizeof str - 1 &&
                   dbg_read(d, (dbg_addr){v.v + k, false}, &ch, 1, &err) == 0 && ch)
                str[k++] = (char)ch;
            str[k] = 0;
            if (!k && ch) {
                rc = dbg_error(d, "%s", err.msg);
                break;
            }
            spec[n++] = 's';
            spec[n] = 0;
            sb_printf(&out, spec, str);
        } else if (conv == 'c') {
            spec[n++] = 'c';
            spec[n] = 0;
            sb_printf(&out, spec, (int)(v.v & 0xff));
        } else if (conv == 'p') {
            sb_printf(&out, "0x%llx", (unsigned long long)v.v);
        } else {
            spec[n++] = 'l';
            spec[n++] = 'l';
            spec[n++] = conv;
            spec[n] = 0;
            if (conv == 'd' || conv == 'i')
                sb_printf(&out, spec, (long long)xval_signed(&v));
            else
                sb_printf(&out, spec, (unsigned long long)v.v);
        }
    }
    if (!rc && *dbg_skip_ws(s))
        rc = dbg_error(d, "Extra arguments at end of printf: \"%s\".", dbg_skip_ws(s));
    if (!rc && out.s)
        dbg_puts(d, out.s);
    sb_free(&out);
    free(f);
    return rc;
}

/* ---- expect ---------------------------------------------------------------------- */

/* Look for the text in what the guest printed, from offset `from` on;
 * consume through it. */
static bool consume(script_state *s, const char *want, size_t from)
{
    size_t wl = strlen(want);
    if (!s->con || s->conlen < wl)
        return false;
    for (size_t i = from; i + wl <= s->conlen; i++) {
        if (memcmp(s->con + i, want, wl) == 0) {
            size_t cut = i + wl;
            memmove(s->con, s->con + cut, s->conlen - cut);
            s->conlen -= cut;
            return true;
        }
    }
    return false;
}

static void on_console(void *ctx, const uint8_t *buf, size_t n)
{
    dbg *d = ctx;
    script_state *s = d->script;
    if (!s || !n)
        return;
    if (s->conlen + n > CONSOLE_KEEP) { /* keep the newest half */
        size_t keep = CONSOLE_KEEP / 2 > n ? CONSOLE_KEEP / 2 : 0;
        if (keep > s->conlen)
            keep = s->conlen;
        memmove(s->con, s->con + s->conlen - keep, keep);
        s->conlen = keep;
        if (n > CONSOLE_KEEP) {
            buf += n - CONSOLE_KEEP;
            n = CONSOLE_KEEP;
        }
    }
    if (!s->con)
        s->con = xmalloc(CONSOLE_KEEP);
    /* Only a match that ends in the new bytes is new (the guest prints a
     * byte at a time: scanning all that was kept each time is quadratic). */
    size_t wl = s->want ? strlen(s->want) : 0;
    size_t from = s->conlen + 1 > wl ? s->conlen + 1 - wl : 0;
    memcpy(s->con + s->conlen, buf, n);
    s->conlen += n;
    if (s->want && !s->found && consume(s, s->want, from)) {
        s->found = true;
        d->quiet_stop = true;
        dbg_request_stop(d);
    }
}

void dbg_script_attach(dbg *d)
{
    script_state *s = sstate(d);
    if (s->tap < 0 && d->m->console)
        s->tap = chardev_add_tap(d->m->console, on_console, d);
}

static int cmd_expect(dbg *d, const cmd_args *a)
{
    script_state *s = sstate(d);
    char *want = parse_string(d, a->text[0], &(const char *){NULL});
    if (!want)
        return -1;
    uint64_t budget = a->num[1];
    if (!*want) {
        free(want);
        return dbg_error(d, "expect: the text is empty.");
    }
    if (consume(s, want, 0)) {
        free(want);
        return 0;
    }
    s->want = want;
    s->found = false;
    int r = dbg_resume(d, RUN_CONTINUE, budget, NULL);
    bool found = s->found;
    s->want = NULL;
    s->found = false;
    d->quiet_stop = false;
    int rc = 0;
    if (!found) {
        if (r == STOP_LIMIT)
            rc = dbg_error(d, "expect: \"%s\" did not appear within %llu instructions.", want,
                           (unsigned long long)budget);
        else
            rc = dbg_error(d, "expect: the guest stopped before \"%s\" appeared.", want);
    }
    free(want);
    return rc;
}

#include "dbg/script.cmds.h"

const dbg_module dbg_script_module = {
    .name = "script",
    .commands = DBG_COMMANDS("Scripting", script_commands),
    .free = dbg_script_free,
};
