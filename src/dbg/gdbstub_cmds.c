/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Commands for the gdb stub (gdbserver, info gdbserver) and info stop,
 * the full report of the last stop that gdb's "monitor info stop" shows. */
#include <stdio.h>

#include "dbg/gdbstub_int.h"

static int cmd_info_gdbserver(dbg *d, const cmd_args *a)
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
            static const char *const kinds[] = {"breakpoint", "hw breakpoint", "watchpoint (write)",
                                                "watchpoint (read)", "watchpoint (access)"};
            for (unsigned i = 0; i < s->npts; i++) {
                char at[160];
                dbg_format_addr(d, (dbg_addr){s->pts[i].addr, false}, at, sizeof at);
                sb_printf(&b, "  gdb's %s at %s", kinds[s->pts[i].type], at);
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
    return dbg_puts_sb(d, &b);
}

static int cmd_gdbserver(dbg *d, const cmd_args *a)
{
    if (!a->given[0])
        return cmd_info_gdbserver(d, a);
    return gdbstub_listen(d, a->text[0]);
}

static int cmd_gdbserver_off(dbg *d, const cmd_args *a)
{
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

static int cmd_gdbserver_on_detach(dbg *d, const cmd_args *a)
{
    const char *args = a->text[0];
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

static int cmd_info_stop(dbg *d, const cmd_args *a)
{
    if (!d->stop_report)
        return dbg_error(d, "The guest has not stopped yet.");
    dbg_puts(d, *d->stop_report ? d->stop_report : "(the last stop had nothing to report)\n");
    return 0;
}

#include "dbg/gdbstub_cmds.cmds.h"

const dbg_module dbg_stop_module = {
    .name = "stop",
    .commands = DBG_COMMANDS("Running", stop_commands),
};

const dbg_module dbg_gdb_module = {
    .name = "gdb",
    .commands = DBG_COMMANDS("Remote debugging (gdb)", gdb_commands),
    .free = dbg_gdb_free,
};
