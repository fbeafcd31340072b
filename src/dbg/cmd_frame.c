/* Call frames: frame, up, down, info frame, and the registers of a
 * selected outer frame (info registers).  Frames come from the prologue
 * heuristic of frames.c; selecting one makes $pc, $sp, $ra, s0-s8 and gp
 * (and so x, print and info registers) show that frame's values, as gdb
 * does.  Caller-saved registers of an outer frame are not known and are
 * shown as such. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/dbg_int.h"

static cpu *need_cpu(dbg *d)
{
    cpu *c = dbg_cpu(d);
    if (!c)
        dbg_error(d, "No CPU selected.");
    return c;
}

/* The frame line and the instruction at its pc. */
static void print_frame(dbg *d, cpu *c, const frame *f, unsigned level)
{
    strbuf b;
    sb_init(&b);
    dbg_format_frame(d, f, level, &b);
    dbg_format_location(d, c, f->pc, &b);
    dbg_puts(d, b.s);
    sb_free(&b);
}

/* Select frame `level` (0 = innermost) and show it. */
static int select_frame(dbg *d, cpu *c, uint64_t level)
{
    frame *f = xcalloc(level + 1 < 1024 ? level + 1 : 1024, sizeof *f);
    unsigned n = dbg_unwind(d, c, f, level + 1 < 1024 ? (unsigned)level + 1 : 1024);
    if (level >= n) {
        free(f);
        return dbg_error(d, "No frame at level %llu (the stack has %u: see \"backtrace\").",
                         (unsigned long long)level, n);
    }
    d->frame = (unsigned)level;
    print_frame(d, c, &f[level], (unsigned)level);
    free(f);
    return 0;
}

static int parse_level(dbg *d, const char *args, const char *cmd, uint64_t dflt, uint64_t *v)
{
    *v = dflt;
    if (!*args)
        return 0;
    if (dbg_parse_u64(args, v) || *v > 1u << 20)
        return dbg_error(d, "%s: want a number of frames, not \"%s\".", cmd, args);
    return 0;
}

static int cmd_frame(dbg *d, const char *args)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    if (!strncmp(args, "level", 5) && (args[5] == 0 || args[5] == ' '))
        args = dbg_skip_ws(args + 5); /* gdb's "frame level N" */
    uint64_t level;
    if (parse_level(d, args, "frame", d->frame, &level))
        return -1;
    return select_frame(d, c, level);
}

static int cmd_up(dbg *d, const char *args)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    uint64_t k;
    if (parse_level(d, args, "up", 1, &k))
        return -1;
    unsigned n;
    frame *f = dbg_selected_frames(d, c, &n);
    free(f);
    if (d->frame + 1 >= n)
        return dbg_error(d, "Already in the outermost frame #%u: no caller found above it.",
                         d->frame);
    return select_frame(d, c, d->frame + k);
}

static int cmd_down(dbg *d, const char *args)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    uint64_t k;
    if (parse_level(d, args, "down", 1, &k))
        return -1;
    if (d->frame == 0)
        return dbg_error(d, "Already in the innermost frame #0: nothing to go down to.");
    return select_frame(d, c, k > d->frame ? 0 : d->frame - k);
}

static const char *gpr_name(unsigned r) { return cpu_gpr_names[r]; }

static void list_regs(strbuf *b, const bool *set)
{
    bool any = false;
    for (unsigned r = 0; r < 32; r++)
        if (set[r]) {
            sb_printf(b, "%s%s", any ? " " : "", gpr_name(r));
            any = true;
        }
    if (!any)
        sb_puts(b, "none");
}

static int cmd_info_frame(dbg *d, const char *args)
{
    cpu *c = need_cpu(d);
    if (!c)
        return -1;
    unsigned n;
    frame *f = dbg_selected_frames(d, c, &n);
    unsigned level = d->frame;
    const frame *fr = &f[level];
    bool caller = level + 1 < n;
    strbuf b;
    sb_init(&b);
    char where[160];
    sb_printf(&b, "Stack level %u, frame at 0x%llx (its sp 0x%llx + %llu bytes it allocated):\n",
              level, (unsigned long long)(fr->sp + fr->size), (unsigned long long)fr->sp,
              (unsigned long long)fr->size);
    symtab_format(&d->m->syms, fr->pc, where, sizeof where);
    sb_printf(&b, " pc = 0x%016llx in %s", (unsigned long long)fr->pc, where);
    if (caller) {
        symtab_format(&d->m->syms, f[level + 1].pc, where, sizeof where);
        sb_printf(&b, "; saved pc = 0x%016llx (%s, %s)\n", (unsigned long long)f[level + 1].pc,
                  where, fr->saved_width[31] ? "from its stack" : "from $ra: not saved yet");
    } else {
        sb_puts(&b, "; no caller found (outermost frame as far as the prologues tell)\n");
    }
    if (fr->func) {
        symtab_format(&d->m->syms, fr->func, where, sizeof where);
        sb_printf(&b, " function %s starts at 0x%016llx\n", where, (unsigned long long)fr->func);
    } else {
        sb_puts(&b, " function start not found (no symbol, no stack adjustment before pc)\n");
    }
    if (level)
        sb_printf(&b, " caller of frame #%u (sp 0x%llx)", level - 1,
                  (unsigned long long)f[level - 1].sp);
    if (caller)
        sb_printf(&b, "%s called by frame #%u (sp 0x%llx)", level ? ";" : "", level + 1,
                  (unsigned long long)f[level + 1].sp);
    if (level || caller)
        sb_putc(&b, '\n');
    bool any = false;
    for (unsigned r = 0; r < 32; r++) {
        if (!fr->saved_width[r])
            continue;
        sb_printf(&b, "%s%s at 0x%llx", any ? ", " : " Saved registers: ", gpr_name(r),
                  (unsigned long long)fr->saved[r]);
        any = true;
    }
    sb_puts(&b, any ? "\n" : " Saved registers: none (a leaf, or before its prologue ran)\n");
    if (level) {
        bool known[32] = {false}, lost[32] = {false};
        for (unsigned r = 1; r < 32; r++) {
            uint64_t v, slot;
            if (dbg_frame_gpr(c, f, n, level, r, &v, &slot) == 1)
                known[r] = true;
            else
                lost[r] = true;
        }
        sb_puts(&b, " Known in this frame: pc ");
        list_regs(&b, known);
        sb_puts(&b, "\n Not known (caller-saved, lost when a callee ran): ");
        list_regs(&b, lost);
        sb_puts(&b, " hi lo\n");
    }
    sb_puts(&b, " (From the symbol table and the function's prologue, without debug "
                "information: a heuristic.)\n");
    dbg_puts(d, b.s);
    sb_free(&b);
    free(f);
    return 0;
}

void dbg_show_frame_regs(dbg *d, cpu *c, strbuf *out)
{
    unsigned n;
    frame *f = dbg_selected_frames(d, c, &n);
    unsigned level = d->frame;
    sb_printf(out, "Registers of frame #%u (<not saved>: caller-saved, lost when a callee ran):\n",
              level);
    for (unsigned r = 0; r < 32; r++) {
        uint64_t v, slot;
        sb_printf(out, "%-4s ", gpr_name(r));
        if (dbg_frame_gpr(c, f, n, level, r, &v, &slot) == 1)
            sb_printf(out, "%016llx", (unsigned long long)v);
        else
            sb_printf(out, "%-16s", "<not saved>");
        sb_puts(out, (r & 3) == 3 ? "\n" : "  ");
    }
    sb_printf(out, "pc   %016llx  hi <not saved>  lo <not saved>\n",
              (unsigned long long)f[level].pc);
    sb_puts(out, "(CP0 registers are the CPU's, the same in every frame:)\n");
    cpu_show_cp0_regs(c, out);
    free(f);
}

static const command frame_commands[] = {
    {"frame", "f", cmd_frame, "frame [N | level N]",
     "Select and show call frame N (0 = innermost), or show the selected one.\n"
     "Select frame N of the selected CPU's stack (as \"backtrace\" numbers them) and show\n"
     "it.  In an outer frame, $pc, $sp, $ra, s0-s8 and gp have that frame's values (the\n"
     "ones its callees saved, found from their prologues), so print, x, info registers\n"
     "and finish work on it; caller-saved registers (v0, a0-a7, t0-t9 ...) are not known\n"
     "there.  Every stop selects frame 0 again.\n"
     "Example: frame 2", CMD_MACHINE},
    {"up", NULL, cmd_up, "up [N]",
     "Select the frame N levels (default 1) towards the caller and show it.\n"
     "Example: up", CMD_MACHINE},
    {"down", NULL, cmd_down, "down [N]",
     "Select the frame N levels (default 1) towards the innermost one and show it.\n"
     "Example: down", CMD_MACHINE},
    {"info frame", "info f", cmd_info_frame, "info frame",
     "Describe the selected frame: its caller, saved registers, what is known.\n"
     "Describe the selected frame: its pc and the return address, the function and the\n"
     "stack it allocated, its neighbours, where it saved registers, and which registers\n"
     "are known in it.  All of it is read from the symbol table and prologues.\n"
     "Example: info frame", CMD_MACHINE},
};

void dbg_frame_register(void)
{
    dbg_register_group("Machine state", frame_commands, ARRAY_SIZE(frame_commands));
}
