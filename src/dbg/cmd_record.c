/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Record and replay from the prompt: `info record` (gdb's name) shows the
 * mode, the log, the position in it and the counts of inputs by kind
 * (core/rr.h, docs/record-replay.md). */
#include "core/rr.h"
#include "dbg/dbg_int.h"

static int cmd_info_record(dbg *d, const cmd_args *a)
{
    UNUSED(a);
    strbuf b;
    sb_init(&b);
    rr_show(d->m->clock.rr, &b);
    return dbg_puts_sb(d, &b);
}

#include "dbg/cmd_record.cmds.h"

static const dbg_cmd_table record_table = {"Running", record_commands, ARRAY_SIZE(record_commands)};
static const dbg_cmd_table *const record_tables[] = {&record_table, NULL};

const dbg_module dbg_record_module = {
    .name = "record",
    .commands = record_tables,
};
