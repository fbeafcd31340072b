/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gdb's settings (set NAME VALUE, show): the ones that mean something in
 * xbow, and a clear "not supported in xbow" for the other gdb settings
 * that gdb-style script preambles use.  Logging is a real feature: while it
 * is on, everything the debugger prints also goes to a file (or only to
 * it, with redirect).  See dbg_int.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "dbg/dbg_int.h"

#define DEFAULT_LOG_FILE "xbow.txt"

typedef struct settings_state {
    bool pagination, confirm, trace_commands;
    uint64_t height, width;
    FILE *log;           /* open while logging is on */
    char log_file[1024]; /* where it goes (set logging file) */
    char log_open[1024]; /* the file open now */
    bool log_overwrite, log_redirect;
} settings;

static settings *sstate(dbg *d)
{
    if (!d->settings) {
        settings *s = DBG_STATE(d, settings);
        s->pagination = true;
        s->confirm = true;
        snprintf(s->log_file, sizeof s->log_file, "%s", DEFAULT_LOG_FILE);
    }
    return d->settings;
}

static void dbg_settings_free(dbg *d)
{
    settings *s = d->settings;
    if (!s)
        return;
    if (s->log)
        fclose(s->log);
    free(s);
    d->settings = NULL;
}

bool dbg_log_write(dbg *d, const char *text)
{
    settings *s = d->settings;
    if (!s || !s->log)
        return false;
    fputs(text, s->log);
    return s->log_redirect;
}

bool dbg_trace_commands(dbg *d)
{
    settings *s = d->settings;
    return s && s->trace_commands;
}

/* ---- values ----------------------------------------------------------------- */

static const char *onoff(bool b) { return b ? "on" : "off"; }

/* ---- logging ---------------------------------------------------------------- */

static void log_close(dbg *d, settings *s, bool say)
{
    if (!s->log)
        return;
    fclose(s->log);
    s->log = NULL;
    if (say)
        dbg_printf(d, "Done logging to %s.\n", s->log_open);
}

static int log_open(dbg *d, settings *s)
{
    if (s->log) {
        if (!strcmp(s->log_open, s->log_file))
            return dbg_error(d, "Already logging to %s.", s->log_open);
        log_close(d, s, true);
    }
    FILE *f = fopen(s->log_file, s->log_overwrite ? "w" : "a");
    if (!f)
        return dbg_error(d, "set logging: cannot open %s: %s.", s->log_file, strerror(errno));
    setvbuf(f, NULL, _IOLBF, 0); /* a "tail -f" sees each line as it comes */
    dbg_printf(d, "Copying output to %s%s.\n", s->log_file,
               s->log_redirect ? " (and not to the screen: redirect is on)" : "");
    snprintf(s->log_open, sizeof s->log_open, "%s", s->log_file);
    s->log = f;
    return 0;
}

/* What "set logging" sets, in the order of its declared words. */
enum { LOG_ON, LOG_OFF, LOG_ENABLED, LOG_FILE, LOG_OVERWRITE, LOG_REDIRECT, LOG_DEBUGREDIRECT };

static int cmd_set_logging(dbg *d, const cmd_args *a)
{
    settings *s = sstate(d);
    const char *rest = a->text[1];
    uint64_t what = a->num[0], on = 1;
    if (what == LOG_ENABLED || what == LOG_OVERWRITE || what == LOG_REDIRECT) {
        /* set logging enabled|overwrite|redirect [on|off] */
        static const char *const names[] = {[LOG_ENABLED] = "set logging enabled",
                                            [LOG_OVERWRITE] = "set logging overwrite",
                                            [LOG_REDIRECT] = "set logging redirect"};
        static const cmd_arg on_off = {
            .kind = ARG_BOOL, .name = "on|off", .optional = true, .dflt = 1};
        const command sub = {
            .name = names[what], .run = cmd_set_logging, .args = &on_off, .nargs = 1};
        cmd_args b;
        char *copy = xstrdup(rest); /* (no quoted string: no byte more needed) */
        int rc = dbg_args_parse(d, &sub, copy, &b);
        on = b.num[0];
        free(copy);
        if (rc)
            return -1;
    }
    switch (what) {
    case LOG_ON:
        if (*rest) /* set logging on FILE (gdb before 12) */
            snprintf(s->log_file, sizeof s->log_file, "%s", rest);
        return log_open(d, s);
    case LOG_OFF:
        if (*rest)
            return dbg_usage_error(d, "set logging", "nothing goes after \"off\"");
        log_close(d, s, true); /* not logging: nothing to do, as in gdb */
        return 0;
    case LOG_ENABLED:
        if (on)
            return log_open(d, s);
        log_close(d, s, true);
        return 0;
    case LOG_FILE:
        if (!*rest)
            return dbg_usage_error(d, "set logging", "give a file name");
        snprintf(s->log_file, sizeof s->log_file, "%s", rest);
        if (s->log) /* switch now rather than keep writing to the old one */
            return log_open(d, s);
        return 0;
    case LOG_OVERWRITE: s->log_overwrite = on; return 0;
    case LOG_REDIRECT: s->log_redirect = on; return 0;
    default:
        return dbg_error(d, "set logging debugredirect: not supported in xbow (it has no "
                            "separate debug output).");
    }
}

/* ---- the simple ones ------------------------------------------------------------ */

/* One command per setting; `field` names the member of struct settings. */
#define SETTING_CMD(fn, field)               \
    static int fn(dbg *d, const cmd_args *a) \
    {                                        \
        sstate(d)->field = a->num[0];        \
        return 0;                            \
    }
SETTING_CMD(cmd_set_pagination, pagination)
SETTING_CMD(cmd_set_confirm, confirm)
SETTING_CMD(cmd_set_trace_commands, trace_commands)
SETTING_CMD(cmd_set_height, height)
SETTING_CMD(cmd_set_width, width)

/* ---- gdb settings xbow does not have ----------------------------------------------- */

static const struct {
    const char *name, *why;
} unsupported[] = {
    {"args", "the kernel command line is --append"},
    {"architecture", "xbow is a MIPS64 (R10000) machine"},
    {"endian", "the machine is big-endian"},
    {"osabi", NULL},
    {"print", NULL},
    {"history", "the line-mode debugger keeps ~/.xbow_history"},
    {"listsize", "xbow has no source lines"},
    {"disassembly-flavor", NULL},
    {"disassemble-next-line", NULL},
    {"verbose", NULL},
    {"complaints", NULL},
    {"remotetimeout", NULL},
    {"remote", NULL},
    {"can-use-hw-watchpoints", "watchpoints are the emulator's own"},
    {"breakpoint", NULL},
    {"style", NULL},
    {"auto-load", NULL},
    {"sysroot", NULL},
    {"solib-search-path", NULL},
    {"substitute-path", NULL},
    {"directories", NULL},
    {"debuginfod", NULL},
    {"non-stop", "a stop stops every CPU"},
    {"scheduler-locking", "stepping runs the other CPUs alongside to the same time"},
    {"step-mode", NULL},
    {"startup-with-shell", NULL},
    {"follow-fork-mode", NULL},
    {"detach-on-fork", NULL},
    {"environment", NULL},
    {"cwd", NULL},
    {"inferior-tty", "the console is --serial"},
    {"language", NULL},
    {"charset", NULL},
    {"host-charset", NULL},
    {"target-charset", NULL},
    {"radix", NULL},
    {"input-radix", NULL},
    {"output-radix", NULL},
    {"max-value-size", NULL},
    {"prompt", NULL},
    {"editing", NULL},
    {"python", NULL},
    {"debug", "use --log-level debug"},
    {"record", NULL},
    {"backtrace", NULL},
    {"filename-display", NULL},
    {"mips", NULL},
    {"tdesc", NULL},
    {"tui", NULL},
};

int dbg_setting_unsupported(dbg *d, const char *verb, const char *name)
{
    for (unsigned i = 0; i < ARRAY_SIZE(unsupported); i++) {
        if (strcmp(unsupported[i].name, name) != 0)
            continue;
        if (unsupported[i].why)
            return dbg_error(d, "%s %s: not supported in xbow (%s).", verb, name,
                             unsupported[i].why);
        return dbg_error(d, "%s %s: not supported in xbow.", verb, name);
    }
    return 0;
}

/* ---- show ---------------------------------------------------------------------------- */

static void show_count(strbuf *b, const char *name, uint64_t v)
{
    if (v)
        sb_printf(b, "%-18s %llu (kept for gdb scripts: xbow does not page or wrap)\n", name,
                  (unsigned long long)v);
    else
        sb_printf(b, "%-18s unlimited (kept for gdb scripts: xbow does not page or wrap)\n", name);
}

static void show_logging(settings *s, strbuf *b)
{
    if (s->log)
        sb_printf(b, "logging            on: output is copied to %s\n", s->log_open);
    else
        sb_puts(b, "logging            off\n");
    sb_printf(b, "logging file       %s\n", s->log_file);
    sb_printf(b, "logging overwrite  %s (%s)\n", onoff(s->log_overwrite),
              s->log_overwrite ? "set logging on empties the file" : "appends to the file");
    sb_printf(b, "logging redirect   %s (%s)\n", onoff(s->log_redirect),
              s->log_redirect ? "output goes only to the file while logging"
                              : "output goes to the screen too");
}

static int cmd_show(dbg *d, const cmd_args *a)
{
    settings *s = sstate(d);
    const char *w = a->text[0];
    bool all = !*w;
    /* "show logging file" (gdb 12): the logging lines show every part */
    if (a->given[1] && strcmp(w, "logging") != 0)
        return dbg_usage_error(d, "show", "only logging has parts to name");
    strbuf b;
    sb_init(&b);
    if (all || !strcmp(w, "pagination"))
        sb_printf(&b, "pagination         %s (xbow never pages its output)\n",
                  onoff(s->pagination));
    if (all || !strcmp(w, "confirm"))
        sb_printf(&b,
                  "confirm            %s (xbow asks no questions: run, kill, delete act at "
                  "once)\n",
                  onoff(s->confirm));
    if (all || !strcmp(w, "height"))
        show_count(&b, "height", s->height);
    if (all || !strcmp(w, "width"))
        show_count(&b, "width", s->width);
    if (all || !strcmp(w, "trace-commands"))
        sb_printf(&b, "trace-commands     %s (echo each command with a \"+\" before it runs)\n",
                  onoff(s->trace_commands));
    if (all || !strcmp(w, "logging"))
        show_logging(s, &b);
    if (!all && !strcmp(w, "version"))
        sb_printf(&b, "xbow %s\n", PACKAGE_VERSION);
    if (!b.len) {
        sb_free(&b);
        if (dbg_setting_unsupported(d, "show", w))
            return -1;
        return dbg_error(d, "show: xbow has no setting \"%s\" (\"show\" lists them all).", w);
    }
    return dbg_puts_sb(d, &b);
}

#include "dbg/settings.cmds.h"

const dbg_module dbg_settings_module = {
    .name = "settings",
    .commands = DBG_COMMANDS("Settings", settings_commands),
    .free = dbg_settings_free,
};
