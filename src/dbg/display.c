/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Auto-display (display, undisplay, info display, enable/disable display):
 * expressions shown after every stop the debugger reports, in print's
 * formats ("display/x $a0") or x's ("display/i $pc", "display/4xw $sp"). */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

typedef struct display {
    int num;
    bool enabled;
    bool examine; /* shown by x (i, s, a count or a size), else as print */
    char fmt[16]; /* the letters after '/', "" for none */
    char *expr;
    struct display *next;
} display;

typedef struct display_state {
    display *list;
    int next_num;
} display_state;

static display_state *dstate(dbg *d) { return DBG_STATE(d, display); }

static void destroy(display *x)
{
    free(x->expr);
    free(x);
}

static void dbg_display_free(dbg *d)
{
    display_state *s = d->display;
    if (!s)
        return;
    while (s->list) {
        display *x = s->list;
        s->list = x->next;
        destroy(x);
    }
    free(s);
    d->display = NULL;
}

/* Can EXPR be evaluated now?  0, or -1 with err. */
static int check(dbg *d, const char *text, xerr *err)
{
    expr *e = expr_parse(text, NULL, err);
    if (!e)
        return -1;
    xval v;
    int rc = dbg_eval_expr(d, e, d->scope, &v, err);
    expr_free(e);
    return rc;
}

/* Show one; 0 or -1 (the error was printed).  A failing display does not
 * make the command that stopped the guest fail. */
static int show(dbg *d, const display *x)
{
    char args[600];
    int failures = d->failures, rc;
    if (x->examine) {
        dbg_printf(d, "%d: x/%s %s\n", x->num, x->fmt, x->expr);
        snprintf(args, sizeof args, "/%s %s", x->fmt, x->expr);
        rc = dbg_examine(d, args);
    } else {
        dbg_printf(d, "%d: %s%s%s%s = ", x->num, x->fmt[0] ? "/" : "", x->fmt, x->fmt[0] ? " " : "",
                   x->expr);
        xerr err;
        if (check(d, x->expr, &err) != 0) { /* gdb's way to say it here */
            dbg_printf(d, "<error: %s>\n", err.msg);
            rc = -1;
        } else {
            snprintf(args, sizeof args, "%s%s %s", x->fmt[0] ? "/" : "", x->fmt, x->expr);
            rc = dbg_output(d, args);
            if (rc == 0)
                dbg_puts(d, "\n");
        }
    }
    d->failures = failures;
    return rc;
}

void dbg_do_displays(dbg *d)
{
    display_state *s = d->display;
    if (!s || !dbg_cpu(d))
        return;
    for (display *x = s->list; x; x = x->next)
        if (x->enabled)
            show(d, x);
}

static int cmd_display(dbg *d, const cmd_args *a)
{
    display_state *s = dstate(d);
    const char *fmt = a->text[0], *args = a->text[1];
    if (!a->n) { /* show them all now */
        for (display *x = s->list; x; x = x->next)
            if (x->enabled)
                show(d, x);
        return 0;
    }
    display *x = xcalloc(1, sizeof *x);
    if (*fmt) {
        if (strlen(fmt + 1) >= sizeof x->fmt) {
            free(x);
            return dbg_error(d, "display: the format \"%s\" is too long.", fmt);
        }
        snprintf(x->fmt, sizeof x->fmt, "%s", fmt + 1);
    }
    if (!*args) {
        free(x);
        return dbg_usage_error(d, "display", "give an expression");
    }
    for (const char *p = x->fmt; *p; p++) {
        if (!strchr("xduotacfsi0123456789bhwg", *p)) {
            int rc = dbg_error(d, "Undefined output format \"%c\".", *p);
            free(x);
            return rc;
        }
        if (strchr("is0123456789bhwg", *p))
            x->examine = true;
    }
    if (!x->examine && strchr(x->fmt, 'f')) {
        free(x);
        return dbg_error(d, "display: format \"f\" shows memory: give a size too, as in "
                            "display/fg ADDR.");
    }
    x->expr = xstrdup(args);
    x->enabled = true;
    x->num = s->next_num + 1;
    /* Shown once now, as gdb does; one that cannot be shown is not kept.
     * Checking the expression alone first keeps a bad one from printing
     * a half line. */
    xerr err;
    if (check(d, x->expr, &err) != 0) {
        int rc = dbg_error(d, "%s", err.msg);
        destroy(x);
        return rc;
    }
    int failures = d->failures;
    if (show(d, x) != 0) {
        d->failures = failures + 1;
        destroy(x);
        return -1;
    }
    s->next_num++;
    display **pp = &s->list;
    while (*pp)
        pp = &(*pp)->next;
    *pp = x;
    dbg_set_repeat(d, NULL); /* Enter must not add it again */
    return 0;
}

typedef void display_fn(dbg *d, display *x);

static bool apply_num(dbg *d, long n, void *fn)
{
    display *x = dstate(d)->list;
    while (x && x->num != n)
        x = x->next;
    if (x)
        (*(display_fn **)fn)(d, x);
    return x != NULL;
}

/* Apply fn to the displays numbered in args ("1 3 5-7"), or to all. */
static int for_each(dbg *d, const char *args, const char *cmd, display_fn *fn)
{
    if (*args)
        return dbg_each_number(d, args, cmd, "display", dstate(d)->next_num, apply_num, &fn);
    display *next;
    for (display *x = dstate(d)->list; x; x = next) {
        next = x->next;
        fn(d, x);
    }
    return 0;
}

static void do_delete(dbg *d, display *x)
{
    display_state *s = d->display;
    for (display **pp = &s->list; *pp; pp = &(*pp)->next) {
        if (*pp == x) {
            *pp = x->next;
            destroy(x);
            return;
        }
    }
}
static void do_enable(dbg *d, display *x)
{
    (void)d;
    x->enabled = true;
}
static void do_disable(dbg *d, display *x)
{
    (void)d;
    x->enabled = false;
}

static int cmd_undisplay(dbg *d, const cmd_args *a)
{
    return for_each(d, a->text[0], "undisplay", do_delete);
}
static int cmd_enable_display(dbg *d, const cmd_args *a)
{
    return for_each(d, a->text[0], "enable display", do_enable);
}
static int cmd_disable_display(dbg *d, const cmd_args *a)
{
    return for_each(d, a->text[0], "disable display", do_disable);
}

static int cmd_info_display(dbg *d, const cmd_args *a)
{
    display_state *s = d->display;
    if (!s || !s->list) {
        dbg_puts(d, "There are no auto-display expressions now.\n");
        return 0;
    }
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "Auto-display expressions now in effect:\nNum Enb Expression\n");
    for (display *x = s->list; x; x = x->next)
        sb_printf(&b, "%-3d %-3s %s%s%s%s%s\n", x->num, x->enabled ? "y" : "n",
                  x->examine ? "x" : "", x->fmt[0] ? "/" : "", x->fmt,
                  x->examine || x->fmt[0] ? " " : "", x->expr);
    return dbg_puts_sb(d, &b);
}

#include "dbg/display.cmds.h"

const dbg_module dbg_display_module = {
    .name = "display",
    .commands = DBG_COMMANDS("Machine state", display_commands),
    .free = dbg_display_free,
};
