/* Commands for the gdb stub (gdbserver, info gdbserver) and info stop,
 * the full report of the last stop that gdb's "monitor info stop" shows. */
#include <stdio.h>

#include "dbg/gdbstub_int.h"

static int cmd_info_gdbserver(dbg *d, const char *args)
{
    gdbstub *s = gdb_stub(d);
    strbuf b;
    sb_init(&b);
    if (!s || (s->lfd < 0 && !s->connected)) {
        sb_puts(&b, "gdbserver: not listening (\"gdbserver [HOST:]PORT\" or \"gdbserver "
                    "unix:PATH\" starts it).\n");
    } else {
        if (s->lfd >= 0)
            sb_printf(&b, "gdbserver: listening on %s\n", s->where);
        else
            sb_puts(&b, "gdbserver: not listening for new clients\n");
        if (s->connected) {
            sb_printf(&b, "gdb attached from %s%s; its thread is cpu%d", s->peer,
                      s->noack ? " (no-ack mode)" : "", s->g_cpu);
            sb_puts(&b, s->gdb_run ? "; it runs the guest\n" : "\n");
            if (!s->npts)
                sb_puts(&b, "gdb has no breakpoints or watchpoints inserted now.\n");
            static const char *const kinds[] = {"breakpoint", "hw breakpoint",
                                                "watchpoint (write)", "watchpoint (read)",
                                                "watchpoint (access)"};
            for (unsigned i = 0; i < s->npts; i++) {
                char a[160];
                dbg_format_addr(d, (dbg_addr){s->pts[i].addr, false}, a, sizeof a);
                sb_printf(&b, "  gdb's %s at %s", kinds[s->pts[i].type], a);
                if (s->pts[i].type >= GP_WRITE)
                    sb_printf(&b, ", %llu bytes", (unsigned long long)s->pts[i].len);
                sb_putc(&b, '\n');
            }
        } else {
            sb_puts(&b, "No gdb attached.\n");
        }
    }
    sb_printf(&b, "When gdb detaches, the machine %s (gdbserver on-detach).\n",
              s && s->on_detach == DETACH_STOP ? "stays stopped" : "runs on");
    dbg_puts(d, b.s);
    sb_free(&b);
    return 0;
}

static int cmd_gdbserver(dbg *d, const char *args)
{
    if (!*args)
        return cmd_info_gdbserver(d, args);
    return gdbstub_listen(d, args);
}

static int cmd_gdbserver_off(dbg *d, const char *args)
{
    if (*args)
        return dbg_error(d, "gdbserver off: takes no arguments.");
    gdbstub *s = gdb_stub(d);
    if (!s || (s->lfd < 0 && !s->connected))
        return dbg_error(d, "gdbserver: not listening.");
    if (s->depth) { /* from gdb's own "monitor": after the reply */
        s->off_pending = true;
        dbg_puts(d, "gdbserver: closing the connection and the listener after this command.\n");
        return 0;
    }
    if (s->connected)
        gdb_session_end(s, "disconnected: gdbserver off");
    dbg_printf(d, "gdbserver: stopped listening on %s.\n", s->where);
    gdb_net_stop_listening(s);
    return 0;
}

static int cmd_gdbserver_on_detach(dbg *d, const char *args)
{
    gdbstub *s = gdb_stub_new(d);
    if (!strcmp(args, "run"))
        s->on_detach = DETACH_RUN;
    else if (!strcmp(args, "stop"))
        s->on_detach = DETACH_STOP;
    else if (*args)
        return dbg_error(d, "gdbserver on-detach: want run or stop, not \"%s\".", args);
    dbg_printf(d, "When gdb detaches, the machine %s.\n",
               s->on_detach == DETACH_STOP ? "stays stopped" : "runs on");
    return 0;
}

static int cmd_info_stop(dbg *d, const char *args)
{
    if (*args)
        return dbg_error(d, "info stop: takes no arguments.");
    if (!d->stop_report)
        return dbg_error(d, "The guest has not stopped yet.");
    dbg_puts(d, *d->stop_report ? d->stop_report : "(the last stop had nothing to report)\n");
    return 0;
}

static const command gdb_commands[] = {
    {"gdbserver", NULL, cmd_gdbserver, "gdbserver [HOST:]PORT|unix:PATH",
     "Let gdb debug the machine over TCP or a Unix socket (gdb's remote protocol).\n"
     "Listen on PORT of 127.0.0.1, or of HOST (any other address gets a warning: the\n"
     "port gives full control of the machine), or on the Unix socket PATH (owner only).\n"
     "PORT 0 picks a free port and says which.  In gdb-multiarch: \"target remote\n"
     "127.0.0.1:PORT\" (or PATH), with the guest's ELF loaded.  One gdb at a time; a\n"
     "second one is refused.  The prompt stays usable: gdb and xbow drive one machine,\n"
     "every CPU is a gdb thread, and \"monitor CMD\" in gdb runs an xbow command.  Without\n"
     "an argument, the same as \"info gdbserver\".  See docs/gdb.md.\n"
     "Example: gdbserver 1234", CMD_MACHINE},
    {"gdbserver off", NULL, cmd_gdbserver_off, "gdbserver off",
     "Disconnect gdb (its breakpoints go) and stop listening.\n"
     "Example: gdbserver off", CMD_MACHINE},
    {"gdbserver on-detach", NULL, cmd_gdbserver_on_detach, "gdbserver on-detach [run|stop]",
     "Choose whether the machine runs on or stays stopped when gdb detaches.\n"
     "run (the default, as gdb expects of a program it detaches from): the guest runs on\n"
     "at once, Ctrl-C stops it; stop: it stays where gdb left it.  gdb's \"kill\" and a\n"
     "lost connection leave the machine as it is.  Without an argument, show the setting.\n"
     "Example: gdbserver on-detach stop", CMD_MACHINE},
    {"info gdbserver", NULL, cmd_info_gdbserver, "info gdbserver",
     "Show where the gdb stub listens, who is attached, and gdb's breakpoints.\n"
     "gdb inserts its breakpoints and watchpoints while the guest runs (all the time with\n"
     "\"set breakpoint always-inserted on\"); they are not in \"info breakpoints\", which\n"
     "lists xbow's own (gdb numbers and lists its own).\n"
     "Example: info gdbserver", CMD_MACHINE},
};

static const command stop_commands[] = {
    {"info stop", NULL, cmd_info_stop, "info stop",
     "Show the full report of the last stop again.\n"
     "Every hit that stopped the guest with its decoded fields, and where it stopped.  From\n"
     "gdb, \"monitor info stop\" shows what made xbow stop a run gdb started.\n"
     "Example: info stop", CMD_MACHINE},
};

void dbg_stop_register(void)
{
    dbg_register_group("Running", stop_commands, ARRAY_SIZE(stop_commands));
}

void dbg_gdb_register(void)
{
    dbg_register_group("Remote debugging (gdb)", gdb_commands, ARRAY_SIZE(gdb_commands));
}
