/* Execution commands: run, continue, stepi; and how a stop is reported. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg.h"

void dbg_report_stop(dbg *d, int reason);

void dbg_report_stop(dbg *d, int reason)
{
    machine *m = d->m;
    if (reason == STOP_BREAKPOINT || reason == STOP_WATCHPOINT || reason == STOP_HALT ||
        reason == STOP_USER || reason == STOP_EVENT)
        d->cur_cpu = m->cur_cpu;
    cpu *c = dbg_cpu(d);
    uint64_t pc = cpu_pc(c);
    uint32_t insn = 0;
    uint8_t b[4];
    char dis[160], where[128];
    if (cpu_read_virt(c, pc, b, 4) == 4) {
        insn = (uint32_t)load_be(b, 4);
        cpu_disasm(pc, insn, &m->syms, dis, sizeof dis);
    } else {
        snprintf(dis, sizeof dis, "<cannot read memory>");
    }
    symtab_format(&m->syms, pc, where, sizeof where);
    if (reason != STOP_STEP && reason != STOP_LIMIT)
        dbg_printf(d, "\n[cpu%d] %s%s%s\n", d->cur_cpu, stop_reason_name(reason),
                   m->stop_msg[0] ? ": " : "", m->stop_msg);
    dbg_printf(d, "0x%016llx <%s>:\t%s\n", (unsigned long long)pc, where, dis);
}

static int resume(dbg *d, uint64_t n, bool step)
{
    machine *m = d->m;
    chardev_set_input_enabled(m->console, true);
    int r = step ? machine_run_cpu(m, d->cur_cpu, n) : machine_run(m, n);
    chardev_set_input_enabled(m->console, false);
    chardev_flush(m->console);
    dbg_report_stop(d, r);
    if (r == STOP_RESET && m->cfg.on_reset == RESET_EXIT)
        d->quit = true;
    return r == STOP_HALT ? -1 : 0;
}

static int parse_count(dbg *d, const char *args, uint64_t *n, const char *cmd)
{
    *n = 0;
    if (!*args)
        return 0;
    char *end;
    unsigned long long v = strtoull(args, &end, 0);
    if (end == args || *dbg_skip_ws(end))
        return dbg_error(d, "%s: \"%s\" is not a count.", cmd, args);
    *n = v;
    return 0;
}

static int cmd_continue(dbg *d, const char *args)
{
    uint64_t n;
    if (parse_count(d, args, &n, "continue"))
        return -1;
    return resume(d, n, false);
}

static int cmd_stepi(dbg *d, const char *args)
{
    uint64_t n;
    if (parse_count(d, args, &n, "stepi"))
        return -1;
    return resume(d, n ? n : 1, true);
}

static const command run_commands[] = {
    {"continue", "c,cont,fg", cmd_continue, "continue [N]",
     "Resume the guest until something stops it; with N, stop after N instructions.\n"
     "Example: continue", CMD_MACHINE | CMD_RESUMES},
    {"stepi", "si", cmd_stepi, "stepi [N]",
     "Execute N instructions (default 1) on the selected CPU, then show the next one.\n"
     "Example: stepi 4", CMD_MACHINE | CMD_RESUMES},
};

void dbg_run_register(void);
void dbg_run_register(void) { dbg_register(run_commands, ARRAY_SIZE(run_commands)); }
