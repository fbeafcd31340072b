/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core commands: help, echo, source, quit, info devices/device/events. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "dbg/dbg.h"
#include "dbg/dbg_int.h"
#include "dbg/source.h"

static void print_summary(strbuf *b, const command *c)
{
    const char *nl = strchr(c->help, '\n');
    int len = nl ? (int)(nl - c->help) : (int)strlen(c->help);
    sb_printf(b, "  %-22s %.*s\n", c->name, len, c->help);
}

static bool starts_with_words(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && name[n] == ' ';
}

void dbg_help_text(const dbg *d, const command *c, strbuf *b)
{
    sb_puts(b, "Usage: ");
    dbg_command_usage(c, b);
    sb_printf(b, "\n%s\n", c->help);
    if (c->aliases) {
        sb_puts(b, "Aliases:");
        for (const char *a = c->aliases; *a;) {
            size_t n = strcspn(a, ",");
            sb_printf(b, " %.*s%s", (int)n, a, a[n] ? "," : "");
            a += n + (a[n] == ',');
        }
        sb_putc(b, '\n');
    }
    bool header = false;
    for (unsigned i = 0; i < dbg_command_count(d); i++) {
        const command *k = dbg_command_at(d, i);
        if (k != c && starts_with_words(k->name, c->name)) {
            if (!header)
                sb_printf(b, "\nList of \"%s\" subcommands:\n", c->name);
            header = true;
            print_summary(b, k);
        }
    }
}

/* The command a help argument names: exact, alias or unique abbreviation. */
static const command *help_lookup(const dbg *d, const char *args)
{
    const command *c = dbg_command_find(d, args);
    for (unsigned i = 0; i < dbg_command_count(d) && !c; i++) {
        const command *k = dbg_command_at(d, i);
        for (const char *a = k->aliases; a && *a && !c;) {
            size_t n = strcspn(a, ",");
            if (n == strlen(args) && strncmp(a, args, n) == 0)
                c = k;
            a += n + (a[n] == ',');
        }
    }
    const command *abbrev = NULL;
    unsigned nabbrev = 0;
    for (unsigned i = 0; i < dbg_command_count(d) && !c; i++) {
        const command *k = dbg_command_at(d, i);
        if (strncmp(k->name, args, strlen(args)) == 0 && !strchr(k->name + strlen(args), ' ')) {
            abbrev = k;
            nabbrev++;
        }
    }
    return c ? c : nabbrev == 1 ? abbrev : NULL;
}

static void help_overview(dbg *d)
{
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "xbow commands (\"help COMMAND\" for details, \"help all\" for a line on each):\n");
    const char *group = NULL;
    unsigned col = 0;
    for (unsigned i = 0; i < dbg_command_count(d); i++) {
        const command *c = dbg_command_at(d, i);
        const char *g = dbg_command_group(d, i);
        if (strchr(c->name, ' '))
            continue;
        if (!group || strcmp(g, group) != 0) {
            sb_printf(&b, "%s%s:", group ? "\n" : "", g);
            col = (unsigned)strlen(g) + 1;
            group = g;
        }
        if (col + strlen(c->name) + 1 > 78) {
            sb_puts(&b, "\n   ");
            col = 3;
        }
        sb_printf(&b, " %s", c->name);
        col += (unsigned)strlen(c->name) + 1;
    }
    sb_puts(&b, "\nCommands of several words (\"info registers\", \"break event\") are listed by "
                "\"help info\", \"help break\" ...\n");
    dbg_puts_sb(d, &b);
}

static int help(dbg *d, const char *args)
{
    if (!*args) {
        help_overview(d);
        return 0;
    }
    strbuf b;
    sb_init(&b);
    if (strcmp(args, "all") == 0) {
        const char *group = NULL;
        for (unsigned i = 0; i < dbg_command_count(d); i++) {
            const char *g = dbg_command_group(d, i);
            if (!group || strcmp(g, group) != 0)
                sb_printf(&b, "%s%s:\n", group ? "\n" : "", g);
            group = g;
            print_summary(&b, dbg_command_at(d, i));
        }
        return dbg_puts_sb(d, &b);
    }
    const command *c = help_lookup(d, args);
    if (!c) {
        sb_free(&b);
        if (dbg_script_help(d, args))
            return 0;
        return dbg_error(d, "Undefined command: \"%s\".  Try \"help\".", args);
    }
    dbg_help_text(d, c, &b);
    return dbg_puts_sb(d, &b);
}

void dbg_commands_markdown(const dbg *d, strbuf *b)
{
    sb_puts(
        b, "# xbow command reference\n\n"
           "<!-- Generated from the command declarations (src/dbg/*.cmds) by `make commands-doc`;\n"
           "     `make check` fails when this file and `help` disagree. -->\n\n"
           "xbow's debugger speaks gdb's language wherever gdb has a command for the job\n"
           "(`break`, `watch`, `x/FMT`, `print`, `info registers`, `commands ... end`,\n"
           "`define`), and adds commands for what gdb cannot see: device events, device\n"
           "registers and fields, DMA, rings, the Bridge and the interrupt path.\n\n"
           "Commands can be abbreviated to any unique prefix (`disas`, `i r`).  In batch\n"
           "mode (`xbow --batch -x FILE` or `-ex CMD`) a failing command makes the exit\n"
           "status non-zero.  Expressions are C expressions over 64-bit values with\n"
           "registers (`$pc`, `$sp`, `$a0`, `$status`), symbols (standing for their\n"
           "address), memory (`*ADDR`, `*(u8 *)ADDR`), device registers and fields\n"
           "(`hamachi0.TxStatus`, `bridge.DEVICE(2).SWAP_DIR`, read without side effects)\n"
           "and, in event conditions, the event's fields (`len > 1500`).  An address with\n"
           "a `p:` prefix is physical.  Each section below is exactly what `help COMMAND`\n"
           "prints.\n\n"
           "At the prompt (the line-mode debugger and the TUI), Tab completes command names\n"
           "and their arguments, and an empty line repeats the last command as in gdb (`x`\n"
           "goes on from the next address; `run`, `kill`, `delete` and the like are not\n"
           "repeated).  gdb settings that scripts start with (`set pagination off`, `set\n"
           "confirm off`, `set height 0`, `set width 0`) are accepted, `set logging` copies\n"
           "the debugger's output to a file, and other gdb settings say that xbow does not\n"
           "have them.  The TUI's own commands (`layout`, `focus`, `winheight`, `zoom`, `tui\n"
           "memory`) are in docs/tui.md.\n");
    const char *group = NULL;
    for (unsigned i = 0; i < dbg_command_count(d); i++) {
        const command *c = dbg_command_at(d, i);
        const char *g = dbg_command_group(d, i);
        if (!group || strcmp(g, group) != 0)
            sb_printf(b, "\n## %s\n", g);
        group = g;
        sb_printf(b, "\n### %s\n\n```\n", c->name);
        dbg_help_text(d, c, b);
        sb_puts(b, "```\n");
    }
}

/* echo TEXT: C escapes (\n, \t, \\, \") are interpreted; no newline is
 * added, as in gdb. */
static int cmd_help(dbg *d, const cmd_args *a) { return help(d, a->text[0]); }

static int cmd_echo(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    strbuf b;
    sb_init(&b);
    dbg_unescape(args, 0, "nte", &b);
    return dbg_puts_sb(d, &b);
}

static int cmd_source(dbg *d, const cmd_args *a) { return dbg_source(d, a->text[0]); }

static int cmd_quit(dbg *d, const cmd_args *a)
{
    if (a->given[0]) {
        xval v;
        if (dbg_eval(d, a->text[0], &v))
            return -1; /* a status that is not one: stay */
        d->exit_status = (int)v.v;
    }
    d->quit = true;
    return 0;
}

/* shell CMD, !CMD: run a host command through /bin/sh; its output (and
 * errors) is debugger output, so it reaches the TUI's pane and the log. */
static int cmd_shell(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    if (!d->allow_shell)
        return dbg_error(d, "shell: running host commands is off in batch mode (start xbow "
                            "with --allow-shell to allow it).");
    strbuf cmd;
    sb_init(&cmd);
    /* braces keep the command's own redirections and "&" or ";" working */
    sb_printf(&cmd, "{ %s\n} </dev/null 2>&1", args);
    fflush(stdout);
    FILE *p = popen(cmd.s, "r");
    sb_free(&cmd);
    if (!p)
        return dbg_error(d, "shell: cannot start /bin/sh: %s.", strerror(errno));
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, p)) > 0) {
        buf[n] = 0;
        dbg_puts(d, buf); /* (a NUL in the output ends its chunk early) */
    }
    int st = pclose(p);
    if (st == -1)
        return dbg_error(d, "shell: %s.", strerror(errno));
    /* gdb's convenience variables for the outcome */
    dbg_var_set(d, "_shell_exitcode", xval_int(WIFEXITED(st) ? WEXITSTATUS(st) : -1));
    dbg_var_set(d, "_shell_exitsignal", xval_int(WIFSIGNALED(st) ? WTERMSIG(st) : 0));
    if (WIFSIGNALED(st))
        dbg_printf(d, "(the command was killed by signal %d)\n", WTERMSIG(st));
    return 0;
}

static int cmd_info(dbg *d, const cmd_args *a)
{
    if (a->given[0])
        return dbg_undefined_subcommand(d, "info", a->text[0]);
    return help(d, "info");
}

static int cmd_info_devices(dbg *d, const cmd_args *a)
{
    for (device *v = d->m->devices; v; v = v->next)
        dbg_printf(d, "  %-12s %-10s %s\n", v->name, v->cls->name,
                   v->cls->desc ? v->cls->desc : "");
    return 0;
}

static int cmd_info_device(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0], *rest = a->text[1];
    device *v = machine_find_device(d->m, name);
    if (!v)
        return dbg_error(d, "No device named \"%s\" (see \"info devices\").", name);
    strbuf b;
    sb_init(&b);
    char reg[64];
    const char *vargs = dbg_next_word(rest, reg, sizeof reg);
    const dev_view *view = *reg ? dev_view_find(v, reg) : NULL;
    if (view) {
        view_ctx ctx = {.memo = dbg_views_memo(d)};
        view->show(v, vargs, &ctx, &b);
    } else if (*rest) {
        unsigned id, idx;
        if (dev_reg_lookup(v, reg, &id, &idx) != 0) {
            sb_free(&b);
            return dbg_error(d, "%s has no register or view \"%s\" (see \"info device %s\").", name,
                             reg, name);
        }
        const reg_decl *r = &v->cls->regs[id];
        char rn[48];
        dev_reg_name(v, id, idx, rn, sizeof rn);
        uint64_t val = dev_peek(v, id, idx);
        sb_printf(&b, "%s.%s @0x%x (%u bytes) = 0x%0*llx\n", v->name, rn,
                  r->offset + idx * r->stride, r->width, r->width * 2, (unsigned long long)val);
        if (r->desc)
            sb_printf(&b, "  %s\n", r->desc);
        for (unsigned i = 0; i < r->nfields; i++) {
            const reg_field *f = &r->fields[i];
            uint64_t fv = EXTRACT(val, f->lsb, f->width);
            sb_printf(&b, "  %-16s [%u:%u] = 0x%llx\n", f->name, f->lsb + f->width - 1, f->lsb,
                      (unsigned long long)fv);
        }
    } else {
        dev_show(v, &b);
        for (unsigned i = 0; i < v->cls->nviews; i++)
            sb_printf(&b, "  view: %s %s -- %s\n", v->name, v->cls->views[i].name,
                      v->cls->views[i].desc);
        for (unsigned i = 0; i < v->cls->ncounters; i++) {
            const dev_counter *c = &v->cls->counters[i];
            sb_printf(&b, "  counter: %s %s = %llu -- %s\n", v->name, c->name,
                      (unsigned long long)c->read(v), c->desc);
        }
    }
    return dbg_puts_sb(d, &b);
}

static int cmd_info_device_state(dbg *d, const cmd_args *a)
{
    const char *name = a->text[0];
    strbuf b;
    sb_init(&b);
    if (*name) {
        device *v = machine_find_device(d->m, name);
        if (!v) {
            sb_free(&b);
            return dbg_error(d, "No device named \"%s\" (see \"info devices\").", name);
        }
        dev_state_show(v, &b);
    } else {
        for (device *v = d->m->devices; v; v = v->next) {
            strbuf img;
            sb_init(&img);
            dev_state_save(v, &img);
            sb_printf(&b, "  %-14s %-10s %016llx %7zu bytes\n", v->name, v->cls->name,
                      (unsigned long long)dev_state_hash(v), img.len);
            sb_free(&img);
        }
    }
    return dbg_puts_sb(d, &b);
}

static int cmd_info_events(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
    event_bus *eb = &d->m->events;
    unsigned shown = 0;
    for (unsigned i = 0; i < eb->nsrcs; i++) {
        const event_src *s = eb->srcs[i];
        if (*args && !glob_match(args, s->name))
            continue;
        strbuf b;
        sb_init(&b);
        sb_printf(&b, "  %-30s %s", s->name, s->decl->desc ? s->decl->desc : "");
        if (s->decl->nfields) {
            sb_puts(&b, " [");
            for (unsigned k = 0; k < s->decl->nfields; k++)
                sb_printf(&b, "%s%s", k ? " " : "", s->decl->fields[k].name);
            sb_puts(&b, "]");
        }
        sb_putc(&b, '\n');
        dbg_puts_sb(d, &b);
        shown++;
    }
    if (!shown && *args)
        return dbg_error(d, "No event matches \"%s\" (see \"info events\").", args);
    return 0;
}

#include "dbg/cmd_core.cmds.h"

const dbg_module dbg_core_module = {
    .name = "core",
    .commands = DBG_COMMANDS("General", core_commands),
};
