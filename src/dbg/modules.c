/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The debugger's modules, in one table: their commands are registered in
 * this order (the order of `help` and docs/commands.md), they hear of stops
 * and resumes in this order, and they are freed in the reverse one. */
#include "dbg/dbg_int.h"

static const dbg_module *const modules[] = {
    &dbg_core_module,    &dbg_vars_module,     &dbg_src_module,      &dbg_run_module,
    &dbg_stop_module,    &dbg_record_module,   &dbg_history_module,  &dbg_state_module,
    &dbg_frame_module,   &dbg_display_module,  &dbg_break_module,    &dbg_evbreak_module,
    &dbg_stall_module,   &dbg_views_module,    &dbg_trace_module,    &dbg_script_module,
    &dbg_symbols_module, &dbg_profile_module,  &dbg_settings_module, &dbg_gdb_module,
    &dbg_source_module,  &dbg_snapshot_module,
};

void dbg_modules_register(dbg *d)
{
    for (unsigned i = 0; i < ARRAY_SIZE(modules); i++)
        for (const dbg_cmd_table *const *t = modules[i]->commands; t && *t; t++)
            dbg_register_group(d, (*t)->group, (*t)->cmds, (*t)->n);
}

void dbg_modules_stopped(dbg *d, int reason)
{
    for (unsigned i = 0; i < ARRAY_SIZE(modules); i++)
        if (modules[i]->on_stop)
            modules[i]->on_stop(d, reason);
}

void dbg_modules_resuming(dbg *d)
{
    for (unsigned i = 0; i < ARRAY_SIZE(modules); i++)
        if (modules[i]->on_resume)
            modules[i]->on_resume(d);
}

void dbg_modules_free(dbg *d)
{
    for (unsigned i = ARRAY_SIZE(modules); i-- > 0;)
        if (modules[i]->free)
            modules[i]->free(d);
}
