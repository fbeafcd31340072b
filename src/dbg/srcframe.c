/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Frames with the debug information: the CFI unwinder the frames code
 * (frames.c) calls for each step, and the frames the user sees, with the
 * inlined functions that run in each physical frame. */
#include <stdio.h>
#include <stdlib.h>

#include "dbg/source.h"

static int mem_read(void *ctx, uint64_t addr, void *buf, unsigned len)
{
    dbg *d = ctx;
    return dbg_read(d, (dbg_addr){addr, false}, buf, len, NULL);
}

dw_mem dbg_dw_mem(dbg *d) { return (dw_mem){d, mem_read}; }

void dbg_frame0(cpu *c, frame *f)
{
    memset(f, 0, sizeof *f);
    f->pc = cpu_pc(c);
    f->sp = cpu_gpr(c, 29);
    for (unsigned i = 0; i < 32; i++)
        f->regs[i] = cpu_gpr(c, i);
    f->valid = 0xffffffffu;
    f->exact_pc = true;
}

void dbg_frame_dwregs(const frame *f, dw_regs *r)
{
    memset(r, 0, sizeof *r);
    r->pc = f->pc;
    memcpy(r->r, f->regs, sizeof r->r);
    r->valid = f->valid;
    r->r[29] = f->sp;
    r->valid |= 1u << 29;
    r->cfa = f->cfa;
    r->exact_pc = f->exact_pc;
}

int dbg_cfi_step(dbg *d, cpu *c, frame *f, frame *caller)
{
    (void)c;
    dwarf_db *db = dbg_dwarf(d);
    if (!db)
        return 0;
    dw_regs in, out;
    dbg_frame_dwregs(f, &in);
    dw_mem mem = dbg_dw_mem(d);
    xerr err;
    int k = dw_cfi_unwind(db, &in, &out, &mem, &err);
    if (k <= 0)
        return k;
    f->cfa = in.cfa;
    f->cfi = true;
    f->signal = in.signal;
    memcpy(f->saved, in.saved, sizeof f->saved);
    for (unsigned r = 0; r < 32; r++)
        f->saved_width[r] = in.saved[r] ? (uint8_t)in.saved_size : 0;
    f->func = in.func;
    f->size = in.cfa >= f->sp ? in.cfa - f->sp : 0;
    memset(caller, 0, sizeof *caller);
    caller->pc = out.pc;
    caller->sp = out.r[29];
    memcpy(caller->regs, out.r, sizeof caller->regs);
    caller->valid = out.valid;
    caller->exact_pc = out.exact_pc;
    return 1;
}

/* ---- the frames of bt ---------------------------------------------------- */

static void set_line(dbg *d, src_frame *sf, uint64_t pc)
{
    dw_line l;
    if (dw_line_at(dbg_dwarf(d), pc, &l)) {
        sf->file = l.file;
        sf->line = l.line;
    }
}

unsigned dbg_src_frames(dbg *d, cpu *c, src_frame *out, unsigned max)
{
    if (!max)
        return 0;
    unsigned cap = max < 1024 ? max : 1024;
    frame *phys = xmalloc(cap * sizeof *phys);
    unsigned nphys = dbg_unwind(d, c, phys, cap);
    dwarf_db *db = dbg_dwarf(d);
    unsigned n = 0;
    for (unsigned i = 0; i < nphys && n < max; i++) {
        frame *f = &phys[i];
        uint64_t look = f->exact_pc ? f->pc : f->pc - 4;
        dw_scope sc[16];
        unsigned ns = db ? dw_scopes_at(db, look, sc, 16) : 0;
        if (!ns) {
            src_frame *sf = &out[n++];
            memset(sf, 0, sizeof *sf);
            sf->f = *f;
            sf->level = n - 1;
            sf->phys = i;
            sf->pc = f->pc;
            if (db)
                set_line(d, sf, look);
            continue;
        }
        /* The innermost inlined instance runs at the pc; each outer one
         * at the line it was called from.  Frame 0 hides the inlined calls
         * it has not entered yet. */
        const char *file = NULL;
        unsigned line = 0;
        unsigned first = 0;
        if (i == 0) {
            unsigned hide = dbg_src_hidden(d, c);
            for (; first < hide && first + 1 < ns; first++) {
                file = sc[first].call_file;
                line = sc[first].call_line;
            }
        }
        for (unsigned k = first; k < ns && n < max; k++) {
            src_frame *sf = &out[n++];
            memset(sf, 0, sizeof *sf);
            sf->f = *f;
            sf->level = n - 1;
            sf->phys = i;
            sf->depth = k;
            sf->inlined = sc[k].inlined;
            sf->has_scope = true;
            sf->scope = sc[k];
            sf->pc = f->pc;
            if (k == 0 && !first) {
                set_line(d, sf, look);
            } else {
                sf->file = file;
                sf->line = line;
            }
            file = sc[k].call_file;
            line = sc[k].call_line;
        }
    }
    free(phys);
    return n;
}

bool dbg_src_selected(dbg *d, cpu *c, src_frame *out)
{
    if (!c)
        return false;
    unsigned want = d->frame + 1;
    src_frame *sf = xcalloc(want, sizeof *sf);
    unsigned n = dbg_src_frames(d, c, sf, want);
    if (d->frame >= n) /* the stack changed under the selection */
        d->frame = 0;
    if (n)
        *out = sf[d->frame];
    free(sf);
    return n > 0;
}

/* ---- frame lines ----------------------------------------------------------- */

void dbg_src_format_frame(dbg *d, cpu *c, const src_frame *sf, bool callee_inlined, strbuf *out)
{
    if (!sf->has_scope) {
        dbg_format_frame(d, &sf->f, sf->level, out);
        return;
    }
    /* gdb's line: the function, its arguments and the source line; the
     * address unless the frame is at the start of its line (frame 0) or
     * the caller of an inlined call (no address of its own). */
    unsigned i = sf->level;
    dw_line l;
    bool at_start = i == 0 && dw_line_at(dbg_dwarf(d), sf->pc, &l) && l.addr == sf->pc;
    sb_printf(out, "#%-2u ", i);
    if (!at_start && !callee_inlined && !(i == 0 && sf->inlined))
        sb_printf(out, "0x%016llx in ", (unsigned long long)sf->pc);
    dbg_src_describe(d, c, sf, out);
    /* an exception handler: the next frame is the code it interrupted */
    if (sf->f.signal && !sf->inlined)
        sb_puts(out, " <exception frame>");
    sb_putc(out, '\n');
}

void dbg_src_show_frame(dbg *d, cpu *c, const src_frame *sf, bool callee_inlined, strbuf *out)
{
    dbg_src_format_frame(d, c, sf, callee_inlined, out);
    if (sf->has_scope && sf->file)
        dbg_src_line_text(d, sf->file, sf->line, out);
    else
        dbg_format_location(d, c, sf->pc, out);
}
