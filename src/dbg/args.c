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
    return dbg_usage_error(d, c->name, why);
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

int dbg_args_parse(dbg *d, const command *c, char *line, cmd_args *a)
{
    memset(a, 0, sizeof *a);
    a->line = line;
    char *s = (char *)dbg_skip_ws(line);
    for (unsigned i = 0; i < c->nargs; i++) {
        const cmd_arg *spec = &c->args[i];
        bool last = i + 1 == c->nargs;
        a->text[i] = "";
        a->num[i] = spec->dflt;
        if (!*s) {
            if (!spec->optional)
                return usage_error(d, c, "give %s", what(spec));
            continue;
        }
        if (spec->kind == ARG_FORMAT && *s != '/')
            continue;
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
            end = s + strlen(s); /* the rest of the line */
            break;
        case ARG_COUNT:
            end = last ? (char *)expr_end(s) : s + strcspn(s, " \t");
            if (end == s) /* not an expression: the whole rest, for the message */
                end = s + strlen(s);
            break;
        case ARG_NAME:
        case ARG_FORMAT:
        default: end = s + strcspn(s, " \t"); break;
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
        }
    }
    if (*s) {
        if (!c->nargs)
            return dbg_usage_error(d, c->name, "it takes no arguments");
        char word[64];
        dbg_next_word(s, word, sizeof word);
        return usage_error(d, c, "unexpected argument \"%s\"", word);
    }
    return 0;
}
