/* Core commands: help, echo, source, quit, info devices/device/events. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg.h"

static unsigned name_words(const char *s)
{
    unsigned n = 0;
    for (s = dbg_skip_ws(s); *s; n++) {
        char w[64];
        s = dbg_next_word(s, w, sizeof w);
    }
    return n;
}

static void print_summary(dbg *d, const command *c)
{
    const char *nl = strchr(c->help, '\n');
    int len = nl ? (int)(nl - c->help) : (int)strlen(c->help);
    dbg_printf(d, "  %-22s %.*s\n", c->name, len, c->help);
}

static bool starts_with_words(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && (name[n] == ' ' || name[n] == 0);
}

static int cmd_help(dbg *d, const char *args)
{
    if (!*args) {
        dbg_puts(d, "xbow commands (\"help COMMAND\" for details):\n");
        for (unsigned i = 0; i < dbg_command_count(); i++) {
            const command *c = dbg_command_at(i);
            if (name_words(c->name) == 1)
                print_summary(d, c);
        }
        dbg_puts(d, "Commands with several words (\"info registers\", \"break event\") are listed "
                    "by \"help info\", \"help break\" ...\n");
        return 0;
    }
    const command *c = dbg_command_find(args);
    if (!c) {
        /* Accept aliases and abbreviations the way the dispatcher does. */
        for (unsigned i = 0; i < dbg_command_count() && !c; i++) {
            const command *k = dbg_command_at(i);
            if (k->aliases) {
                const char *a = k->aliases;
                while (*a && !c) {
                    size_t n = strcspn(a, ",");
                    if (n == strlen(args) && strncmp(a, args, n) == 0)
                        c = k;
                    a += n + (a[n] == ',');
                }
            }
        }
    }
    if (!c)
        return dbg_error(d, "Undefined command: \"%s\".  Try \"help\".", args);
    dbg_printf(d, "Usage: %s\n%s\n", c->usage ? c->usage : c->name, c->help);
    if (c->aliases)
        dbg_printf(d, "Aliases: %s\n", c->aliases);
    bool header = false;
    for (unsigned i = 0; i < dbg_command_count(); i++) {
        const command *k = dbg_command_at(i);
        if (k != c && starts_with_words(k->name, c->name)) {
            if (!header)
                dbg_printf(d, "\nList of \"%s\" subcommands:\n", c->name);
            header = true;
            print_summary(d, k);
        }
    }
    return 0;
}

/* echo TEXT: C escapes (\n, \t, \\, \") are interpreted; no newline is
 * added, as in gdb. */
static int cmd_echo(dbg *d, const char *args)
{
    strbuf b;
    sb_init(&b);
    for (const char *s = args; *s; s++) {
        if (*s != '\\' || !s[1]) {
            sb_putc(&b, *s);
            continue;
        }
        s++;
        switch (*s) {
        case 'n': sb_putc(&b, '\n'); break;
        case 't': sb_putc(&b, '\t'); break;
        case 'e': sb_putc(&b, 27); break;
        default: sb_putc(&b, *s); break;
        }
    }
    if (b.s)
        dbg_puts(d, b.s);
    sb_free(&b);
    return 0;
}

static int cmd_source(dbg *d, const char *args)
{
    if (!*args)
        return dbg_error(d, "source: give a file name.");
    return dbg_source(d, args);
}

static int cmd_quit(dbg *d, const char *args)
{
    d->quit = true;
    if (*args) {
        char *end;
        long v = strtol(args, &end, 0);
        if (*dbg_skip_ws(end))
            return dbg_error(d, "quit: exit status must be a number, not \"%s\".", args);
        d->exit_status = (int)v;
    }
    return 0;
}

static int cmd_info(dbg *d, const char *args)
{
    if (*args) {
        char w[64];
        dbg_next_word(args, w, sizeof w);
        return dbg_error(d, "Undefined info command: \"%s\".  Try \"help info\".", w);
    }
    return cmd_help(d, "info");
}

static int cmd_info_devices(dbg *d, const char *args)
{
    (void)args;
    for (device *v = d->m->devices; v; v = v->next)
        dbg_printf(d, "  %-12s %-10s %s\n", v->name, v->cls->name, v->cls->desc ? v->cls->desc : "");
    return 0;
}

static int cmd_info_device(dbg *d, const char *args)
{
    char name[64];
    const char *rest = dbg_next_word(args, name, sizeof name);
    if (!*name)
        return dbg_error(d, "info device: give a device name (see \"info devices\").");
    device *v = machine_find_device(d->m, name);
    if (!v)
        return dbg_error(d, "No device named \"%s\" (see \"info devices\").", name);
    strbuf b;
    sb_init(&b);
    if (*rest) {
        unsigned id, idx;
        char reg[64];
        dbg_next_word(rest, reg, sizeof reg);
        if (dev_reg_lookup(v, reg, &id, &idx) != 0) {
            sb_free(&b);
            return dbg_error(d, "%s has no register \"%s\".", name, reg);
        }
        const reg_decl *r = &v->cls->regs[id];
        char rn[48];
        dev_reg_name(v, id, idx, rn, sizeof rn);
        uint64_t val = dev_peek(v, id, idx);
        sb_printf(&b, "%s.%s @0x%x (%u bytes) = 0x%0*llx\n", v->name, rn,
                  r->offset + idx * r->stride, r->width, r->width * 2, (unsigned long long)val);
        if (r->desc)
            sb_printf(&b, "  %s\n", r->desc);
        for (const reg_field *f = r->fields; f && f->name; f++) {
            uint64_t fv = EXTRACT(val, f->lsb, f->width);
            sb_printf(&b, "  %-16s [%u:%u] = 0x%llx\n", f->name, f->lsb + f->width - 1, f->lsb,
                      (unsigned long long)fv);
        }
    } else {
        dev_show(v, &b);
        for (unsigned i = 0; i < v->cls->nviews; i++)
            sb_printf(&b, "  view: %s %s -- %s\n", v->name, v->cls->views[i].name,
                      v->cls->views[i].desc);
    }
    if (b.s)
        dbg_puts(d, b.s);
    sb_free(&b);
    return 0;
}

static int cmd_info_events(dbg *d, const char *args)
{
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
        dbg_puts(d, b.s);
        sb_free(&b);
        shown++;
    }
    if (!shown && *args)
        return dbg_error(d, "No event matches \"%s\" (see \"info events\").", args);
    return 0;
}

static const command core_commands[] = {
    {"help", "h", cmd_help, "help [COMMAND]",
     "Show the list of commands, or what one command does.\n"
     "Example: help break", 0},
    {"echo", NULL, cmd_echo, "echo TEXT",
     "Print TEXT.  C escapes such as \\n are interpreted; no newline is added.\n"
     "Example: echo hello\\n", 0},
    {"source", NULL, cmd_source, "source FILE",
     "Execute the commands in FILE, one per line.  In batch mode a failing command stops it.\n"
     "Example: source examples/hamachi-descintr.xbow", 0},
    {"quit", "q,exit", cmd_quit, "quit [STATUS]",
     "Leave xbow (with exit STATUS in batch mode).\n"
     "Example: quit 0", 0},
    {"info", "i", cmd_info, "info SUBCOMMAND",
     "Show state of the machine; \"help info\" lists what can be shown.", 0},
    {"info devices", NULL, cmd_info_devices, "info devices",
     "List every device of the machine with its class.\n"
     "Example: info devices", CMD_MACHINE},
    {"info device", NULL, cmd_info_device, "info device NAME [REGISTER]",
     "Show every register of a device with its decoded fields, read without side effects;\n"
     "with REGISTER, that register's fields one per line.\n"
     "Example: info device bridge DEVICE2", CMD_MACHINE},
    {"info events", NULL, cmd_info_events, "info events [PATTERN]",
     "List the events devices and CPUs publish (for \"break event\" and \"trace event\"),\n"
     "with their fields.  PATTERN is a glob such as \"hamachi0.*\".\n"
     "Example: info events *.irq.*", CMD_MACHINE},
};

void dbg_run_register(void);

void dbg_core_register(void)
{
    dbg_register(core_commands, ARRAY_SIZE(core_commands));
    dbg_run_register();
}
