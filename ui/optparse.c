/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option table's engine: parsing argv, --help and the man page's
 * OPTIONS section, all three from ui_option_table (ui/options.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ui/options.h"

#define HELP_COLUMN 23 /* where --help's text starts */

const ui_option *ui_option_find(const char *name)
{
    for (unsigned i = 0; i < ui_option_count; i++) {
        const ui_option *r = &ui_option_table[i];
        if (r->kind == UI_OPT_SECTION)
            continue;
        if (!strcmp(r->name, name) || (r->short_name && !strcmp(r->short_name, name)))
            return r;
        for (unsigned k = 0; k < ARRAY_SIZE(r->aliases) && r->aliases[k]; k++)
            if (!strcmp(r->aliases[k], name))
                return r;
    }
    return NULL;
}

/* ---- parsing ---------------------------------------------------------------- */

static void store_uint(void *field, size_t size, uint64_t v)
{
    switch (size) {
    case 1: *(uint8_t *)field = (uint8_t)v; break;
    case 2: *(uint16_t *)field = (uint16_t)v; break;
    case 4: *(uint32_t *)field = (uint32_t)v; break;
    default: *(uint64_t *)field = v; break;
    }
}

/* "a, b or c" */
static void list_choices(const char *const *c, strbuf *out)
{
    for (unsigned i = 0; c[i]; i++)
        sb_printf(out, "%s%s", i == 0 ? "" : c[i + 1] ? ", " : " or ", c[i]);
}

/* Apply row r with its value (NULL for a flag): 0, -1 with err, UI_OPT_EXIT. */
static int apply(ui_options *o, const ui_option *r, const char *v, strbuf *err)
{
    char *base = (char *)o;
    if (r->per_nic) {
        if (!o->cfg.nnics) {
            sb_printf(err, "%s applies to the NIC given before it: put --nic MODEL first", r->name);
            return -1;
        }
        base = (char *)&o->cfg.nics[o->cfg.nnics - 1];
    }
    void *field = base + r->off;
    switch (r->kind) {
    case UI_OPT_TRUE:
    case UI_OPT_FALSE: *(bool *)field = r->kind == UI_OPT_TRUE; return 0;
    case UI_OPT_STRING: *(const char **)field = v; return 0;
    case UI_OPT_TEXT:
        if (strlen(v) >= r->size) {
            sb_printf(err, "%s: \"%s\" is too long (at most %zu characters)", r->name, v,
                      r->size - 1);
            return -1;
        }
        memcpy(field, v, strlen(v) + 1);
        return 0;
    case UI_OPT_NUMBER: {
        uint64_t n;
        xerr why;
        if (dbg_count_parse(NULL, r->name, v, r->lo, r->hi, &n, &why)) {
            sb_puts(err, why.msg);
            return -1;
        }
        store_uint(field, r->size, n);
        return 0;
    }
    case UI_OPT_CHOICE:
        for (int i = 0; r->choices[i]; i++)
            if (!strcmp(r->choices[i], v)) {
                *(int *)field = i;
                return 0;
            }
        sb_printf(err, "%s: want ", r->name);
        list_choices(r->choices, err);
        sb_printf(err, ", not \"%s\"", v);
        return -1;
    case UI_OPT_CALL: return r->fn(o, v, err);
    case UI_OPT_SECTION: break;
    }
    return -1;
}

int ui_parse_options(ui_options *o, int argc, char **argv, strbuf *err)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) { /* the kernel ("-" too) */
            if (o->kernel) {
                sb_printf(err, "more than one kernel given (\"%s\" and \"%s\")", o->kernel, a);
                return UI_OPTS_ERROR;
            }
            o->kernel = a;
            continue;
        }
        /* --name=VALUE: the name is what comes before the '='. */
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        char name[64];
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const ui_option *r = NULL;
        if (len < sizeof name) {
            memcpy(name, a, len);
            name[len] = 0;
            r = ui_option_find(name);
        }
        if (!r || (eq && !r->arg)) {
            sb_printf(err, "unknown option \"%s\" (see xbow --help)", a);
            return UI_OPTS_ERROR;
        }
        const char *v = NULL;
        if (eq) {
            v = eq + 1;
        } else if (r->arg) {
            if (i + 1 >= argc) {
                sb_printf(err, "option %s needs an argument (see xbow --help)", a);
                return UI_OPTS_ERROR;
            }
            v = argv[++i];
        }
        int rc = apply(o, r, v, err);
        if (rc == UI_OPT_EXIT)
            return UI_OPTS_EXIT;
        if (rc)
            return UI_OPTS_ERROR;
    }
    return UI_OPTS_RUN;
}

/* ---- xbow --help -------------------------------------------------------------- */

static void print_lines(FILE *f, const char *text, int indent)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        fprintf(f, "%*s%.*s\n", p == text ? 0 : indent, "", n, p);
        p += n + (nl ? 1 : 0);
    }
}

void ui_usage(FILE *f)
{
    fputs("Usage: xbow [OPTIONS] [KERNEL]\n"
          "An interactive, debugger-centric emulator of the SGI Origin 200 (IP27).\n"
          "KERNEL is a big-endian MIPS ELF (a bare-metal example, vmlinux, an IRIX unix)\n"
          "entered the way the PROM would.  Without KERNEL (and --prom), an interactive\n"
          "xbow loads the demo examples/tigon/tigon_echo.elf.\n",
          f);
    for (unsigned i = 0; i < ui_option_count; i++) {
        const ui_option *r = &ui_option_table[i];
        if (r->kind == UI_OPT_SECTION) {
            fputc('\n', f);
            if (*r->help)
                print_lines(f, r->help, 0);
            continue;
        }
        char head[128];
        int n;
        if (r->short_name)
            n = snprintf(head, sizeof head, "  %s, %s", r->short_name, r->name);
        else
            n = snprintf(head, sizeof head, "%s%s", r->name[1] == '-' ? "      " : "  ", r->name);
        if (r->arg)
            snprintf(head + n, sizeof head - (size_t)n, "%s%s", r->show_eq ? "=" : " ", r->arg);
        /* Two spaces at least between the name and its text, else a line of its own. */
        if ((int)strlen(head) + 2 > HELP_COLUMN)
            fprintf(f, "%s\n%*s", head, HELP_COLUMN, "");
        else
            fprintf(f, "%-*s", HELP_COLUMN, head);
        print_lines(f, r->help, HELP_COLUMN);
    }
    fputs("\n"
          "Exit status: 0 on success, 1 when a command failed or the guest did not finish,\n"
          "2 for bad options or a kernel that cannot be loaded.\n"
          "Documentation: man xbow, docs/commands.md.\n",
          f);
}

/* ---- the man page ------------------------------------------------------------ */

/* An option's name in roff: every '-' escaped. */
static void roff_name(const char *s, strbuf *out)
{
    for (; *s; s++) {
        if (*s == '-')
            sb_putc(out, '\\');
        sb_putc(out, *s);
    }
}

/* ".BR \-b ", " \-\-batch", ".BI \-\-cpus " N"", ".BI \-\-nic\-dma= MODE". */
static void man_tag(const ui_option *r, strbuf *out)
{
    if (r->man_tag) {
        sb_puts(out, r->man_tag);
        return;
    }
    if (r->short_name) {
        sb_puts(out, ".BR ");
        roff_name(r->short_name, out);
        sb_puts(out, " \", \" ");
        roff_name(r->name, out);
        if (r->arg)
            sb_printf(out, " \"%s\\fI%s\\fR\"", r->show_eq ? "=" : " ", r->arg);
        return;
    }
    sb_puts(out, r->arg ? ".BI " : ".B ");
    roff_name(r->name, out);
    if (r->arg && r->show_eq)
        sb_printf(out, "= %s", r->arg);
    else if (r->arg)
        sb_printf(out, " \" %s\"", r->arg);
}

void ui_options_man(strbuf *out)
{
    sb_puts(out, ".SH OPTIONS\n"
                 ".\\\" Generated from the option table (ui/options.c) by `make options-doc`:\n"
                 ".\\\" edit the table, not this section.\n");
    for (unsigned i = 0; i < ui_option_count; i++) {
        const ui_option *r = &ui_option_table[i];
        if (r->kind == UI_OPT_SECTION) {
            if (r->name)
                sb_printf(out, ".SS %s\n", r->name);
            if (r->man)
                sb_printf(out, "%s\n", r->man);
            continue;
        }
        sb_puts(out, ".TP\n");
        man_tag(r, out);
        sb_printf(out, "\n%s\n", r->man);
    }
}

/* The first line at or after p (the start of a line) that begins with
 * `mark`, or NULL. */
static const char *line_starting(const char *p, const char *mark)
{
    while (p && *p) {
        if (!strncmp(p, mark, strlen(mark)))
            return p;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

int ui_man_with_options(const char *page, strbuf *out)
{
    static const char head[] = ".SH OPTIONS\n";
    const char *start = line_starting(page, head);
    if (!start)
        return -1;
    const char *end = line_starting(start + strlen(head), ".SH ");
    if (!end)
        end = start + strlen(start);
    sb_printf(out, "%.*s", (int)(start - page), page);
    ui_options_man(out);
    sb_puts(out, end);
    return 0;
}

int ui_man_page(const char *path, strbuf *now, strbuf *generated)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_printf(now, "%.*s", (int)n, buf);
    fclose(f);
    return now->s ? ui_man_with_options(now->s, generated) : -1;
}
