/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Declared arguments (struct command's args): the usage line generated from
 * them, and the parser the dispatcher runs before a command's run(). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

void dbg_command_usage(const command *c, strbuf *out)
{
    if (c->usage || !c->run) {
        sb_puts(out, c->usage ? c->usage : c->name);
        return;
    }
    sb_puts(out, c->name);
    for (unsigned i = 0; i < c->nargs; i++) {
        const cmd_arg *a = &c->args[i];
        if (a->kind == ARG_FORMAT)
            sb_printf(out, "[%s]", a->name);
        else
            sb_printf(out, a->optional ? " [%s]%s" : " %s%s", a->name,
                      a->kind == ARG_LIST ? "..." : "");
        if (a->kind == ARG_LOCATIONS)
            sb_puts(out, " [if COND]");
    }
    if (c->body)
        sb_printf(out, "\n%s", c->body);
}

/* The end of the quoted string at s (after its closing quote), or NULL. */
static char *string_end(char *s)
{
    if (*s != '"')
        return NULL;
    for (s++; *s && *s != '"'; s++)
        if (*s == '\\' && s[1])
            s++;
    return *s ? s + 1 : NULL;
}

/* What Tab offers for an argument (the notation of dbg_complete, dbg.h). */
static const char *completion(const cmd_arg *a)
{
    if (a->complete)
        return a->complete;
    switch (a->kind) {
    case ARG_COUNT:
    case ARG_EXPR:
    case ARG_LOCATION:
    case ARG_LOCATIONS: return "expr";
    case ARG_BOOL: return "=on|off";
    case ARG_EVENT: return "event";
    case ARG_SETTING: return "setting";
    case ARG_FILE: return "file";
    default: return "-";
    }
}

void dbg_args_completion(const command *c, strbuf *out)
{
    for (unsigned i = 0; i < c->nargs; i++) {
        const cmd_arg *a = &c->args[i];
        if (a->kind == ARG_FORMAT || a->kind == ARG_COND)
            continue;
        if (out->len)
            sb_putc(out, ' ');
        if ((a->kind == ARG_WORD || a->kind == ARG_KEYWORD) && !a->complete)
            sb_printf(out, "=%s", a->choices);
        else
            sb_puts(out, completion(a));
        /* The rest of the line: what it holds goes on. */
        if (a->kind == ARG_EXPR || a->kind == ARG_LOCATION || a->kind == ARG_LOCATIONS ||
            a->kind == ARG_LIST || a->kind == ARG_TEXT)
            sb_puts(out, "...");
    }
    if (!out->len)
        sb_putc(out, '-');
}

static const char *what(const cmd_arg *a)
{
    return a->what ? a->what : a->kind == ARG_COUNT ? "the count" : a->name;
}

/* "CMD: WHY.  Usage: ..." */
static int usage_error(dbg *d, const command *c, const char *fmt, const char *word)
{
    char why[160];
    snprintf(why, sizeof why, fmt, word);
    return dbg_command_usage_error(d, c, why);
}

/* The end of the expression at s (a count that is the last argument); s
 * itself when it is not one (the count's parser says why). */
static const char *expr_end(const char *s)
{
    xerr err;
    const char *end = s;
    expr *e = expr_parse(s, &end, &err);
    if (!e)
        return s;
    expr_free(e);
    return end;
}

/* The index of word w in "a|b|c", or -1. */
static int choice(const char *choices, const char *w)
{
    int k = 0;
    for (const char *p = choices; *p; k++) {
        size_t n = strcspn(p, "|");
        if (strlen(w) == n && !strncmp(p, w, n))
            return k;
        p += n + (p[n] == '|');
    }
    return -1;
}

/* "on, off or enabled" from "on|off|enabled". */
static void choices_text(const char *choices, char *buf, size_t len)
{
    size_t o = 0;
    for (const char *p = choices; *p && o < len;) {
        size_t n = strcspn(p, "|");
        bool more = p[n] == '|', last = more && !strchr(p + n + 1, '|');
        o += (size_t)snprintf(buf + o, len - o, "%.*s%s", (int)n, p,
                              last   ? " or "
                              : more ? ", "
                                     : "");
        p += n + more;
    }
}

/* Check one word of a checked kind; its value in *v. */
static int check_word(dbg *d, const command *c, const cmd_arg *spec, const char *w, uint64_t *v)
{
    static const char *const on[] = {"on", "1", "yes", "enable"};
    static const char *const off[] = {"off", "0", "no", "disable"};
    char want[160];
    switch (spec->kind) {
    case ARG_KEYWORD:
    case ARG_WORD: {
        int k = choice(spec->choices, w);
        if (k >= 0) {
            *v = (uint64_t)k;
            return 0;
        }
        choices_text(spec->choices, want, sizeof want);
        break;
    }
    case ARG_BOOL:
        for (unsigned i = 0; i < ARRAY_SIZE(on); i++)
            if (!strcmp(w, on[i]) || !strcmp(w, off[i])) {
                *v = !strcmp(w, on[i]);
                return 0;
            }
        snprintf(want, sizeof want, "on or off");
        break;
    case ARG_LIMIT:
        if (!strcmp(w, "unlimited")) {
            *v = 0;
            return 0;
        }
        if (dbg_parse_u64(w, v) == 0)
            return 0;
        snprintf(want, sizeof want, "a number or unlimited");
        break;
    default: return 0;
    }
    return dbg_error(d, "%s: want %s, not \"%s\".", c->name, want, w);
}

int dbg_args_parse(dbg *d, const command *c, char *line, cmd_args *a)
{
    memset(a, 0, sizeof *a);
    a->line = line;
    char *s = (char *)dbg_skip_ws(line);
    unsigned nargs = c->nargs;
    if (nargs && c->args[nargs - 1].kind == ARG_COND) {
        nargs--; /* "... if COND": the other arguments are before it */
        char *ifw = (char *)dbg_find_if(s);
        if (ifw) {
            a->cond = dbg_skip_ws(ifw + 2);
            a->given[nargs] = true;
            a->text[nargs] = a->cond;
            for (*ifw = 0; ifw > s && isspace((unsigned char)ifw[-1]);)
                *--ifw = 0;
        }
    }
    for (unsigned i = 0; i < nargs; i++) {
        const cmd_arg *spec = &c->args[i];
        bool last = i + 1 == nargs;
        a->text[i] = "";
        a->num[i] = spec->dflt;
        if (!*s) {
            if (!spec->optional)
                return usage_error(d, c, "give %s", what(spec));
            continue;
        }
        if (spec->kind == ARG_FORMAT && *s != '/')
            continue;
        if (spec->kind == ARG_KEYWORD) {
            char w[64];
            dbg_next_word(s, w, sizeof w);
            if (choice(spec->choices, w) < 0)
                continue;
        }
        a->given[i] = true;
        a->n = i + 1;
        a->text[i] = s;
        char *end;
        switch (spec->kind) {
        case ARG_EXPR:
        case ARG_TEXT:
        case ARG_LOCATION:
        case ARG_LOCATIONS:
        case ARG_LIST:
        case ARG_FILE:
            end = s + strlen(s); /* the rest of the line */
            break;
        case ARG_COUNT:
            end = last ? (char *)expr_end(s) : s + strcspn(s, " \t");
            if (end == s) /* not an expression: the whole rest, for the message */
                end = s + strlen(s);
            break;
        case ARG_STRING:
            end = string_end(s);
            if (!end)
                return usage_error(
                    d, c, *s == '"' ? "%s has no closing quote" : "%s must be a \"quoted string\"",
                    spec->name);
            break;
        default: end = s + strcspn(s, " \t"); break;
        }
        if (spec->kind == ARG_STRING && *end && !isspace((unsigned char)*end)) {
            memmove(end + 1, end, strlen(end) + 1); /* "TEXT", ...: room for its NUL */
            *end = ' ';
        }
        char *next = (char *)dbg_skip_ws(end);
        if (last && *next) {
            char word[64];
            dbg_next_word(next, word, sizeof word);
            return usage_error(d, c, "unexpected argument \"%s\"", word);
        }
        *end = 0;
        s = next;
        if (spec->kind == ARG_COUNT) {
            xerr err;
            if (dbg_count_parse(d, what(spec), a->text[i], spec->min, spec->max, &a->num[i], &err))
                return dbg_error(d, "%s: %s", c->name, err.msg);
        } else if (spec->kind == ARG_LOCATION) {
            if (bp_parse_location(d, a->text[i], &a->num[i], &a->cond))
                return -1;
        } else if (spec->kind == ARG_LOCATIONS) {
            if (bp_parse_locations(d, a->text[i], a->locs, CMD_MAX_LOCS, &a->nlocs, &a->cond))
                return -1;
            a->num[i] = a->locs[0];
        } else if (check_word(d, c, spec, a->text[i], &a->num[i])) {
            return -1;
        }
    }
    if (*s) {
        if (!c->nargs)
            return dbg_command_usage_error(d, c, "it takes no arguments");
        char word[64];
        dbg_next_word(s, word, sizeof word);
        return usage_error(d, c, "unexpected argument \"%s\"", word);
    }
    return 0;
}
