/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Source-level debugging in the debugger: the DWARF of the loaded ELFs
 * (dwarf.h) as the commands see it.  source.c keeps the state (d->src),
 * reads source files and has list, info line, info source, directory and
 * the source lines of stop reports; srcstep.c steps by line; srcvars.c
 * gives expressions the program's variables and types and has info
 * locals, info args, info frame, ptype and whatis; cvalue.c prints typed
 * values; srcframe.c unwinds frames with the call-frame information. */
#ifndef XBOW_SOURCE_H
#define XBOW_SOURCE_H

#include "dbg/dbg_int.h"
#include "dbg/dwarf.h"

/* The debug information of the loaded ELFs (NULL when none has any). */
dwarf_db *dbg_dwarf(dbg *d);
/* Read the DWARF of an ELF: the kernel given on the command line (quiet:
 * nothing said when it has none) and symbol-file.  Returns 1 (read), 0
 * (none), -1 (malformed: an error was printed). */
int dbg_src_load(dbg *d, const char *path, bool quiet);

/* ---- stepping by line (srcstep.c) -------------------------------------- */
enum { SRC_STEP, SRC_NEXT, SRC_UNTIL };
/* step, next (n times), until (no location, n = 1) by source line: 1 when
 * done (*rc the command's status), 0 when the pc has no line information
 * (the caller steps instructions instead). */
int dbg_src_step(dbg *d, uint64_t n, int how, int *rc);
/* finish out of the selected frame (a function or an inlined function),
 * showing the value returned by its type: 1 when done (*rc), 0 when the
 * frame has no debug information. */
int dbg_src_finish(dbg *d, int *rc);

/* ---- frames (srcframe.c) ---------------------------------------------- */
/* Unwind frame f to its caller with the CFI: 1 done, 0 when no CFI covers
 * f's pc (use the heuristic), -1 when it does but the frame cannot be
 * unwound (the end of the stack). */
int dbg_cfi_step(dbg *d, cpu *c, frame *f, frame *caller);
/* Frame 0 of the CPU as the unwinder starts it. */
void dbg_frame0(cpu *c, frame *f);
/* A frame's registers for evaluating locations. */
void dbg_frame_dwregs(const frame *f, dw_regs *r);
/* The memory of the selected CPU, side-effect free. */
dw_mem dbg_dw_mem(dbg *d);

/* ---- frames as the user sees them ------------------------------------- */
/* Inlined calls whose first instruction is the pc of frame 0: as gdb does,
 * frame 0 is the caller, at the line of the call, until step enters them.
 * How many are hidden now; step enters one (true if there was one). */
unsigned dbg_src_hidden(dbg *d, cpu *c);
bool dbg_src_enter_inline(dbg *d, cpu *c);
/* A frame of bt, frame 0 of info frame: a physical frame, or one of the
 * inlined functions executing in it. */
typedef struct src_frame {
    frame f;        /* the physical frame (its registers) */
    unsigned level; /* as bt numbers it */
    unsigned phys;  /* the physical frame's level (dbg_unwind) */
    unsigned depth; /* inlined scopes of that frame inside this one (the innermost: 0) */
    bool inlined;   /* an inlined function, running in frame f */
    bool has_scope;
    dw_scope scope;   /* the function or inlined instance (has_scope) */
    uint64_t pc;      /* where it is: for callers of an inlined instance, its call site */
    const char *file; /* the line it is at (NULL: no line information) */
    unsigned line;
} src_frame;
/* The frames of CPU c, innermost first, inlined functions included.
 * Returns how many (at most max). */
unsigned dbg_src_frames(dbg *d, cpu *c, src_frame *out, unsigned max);
/* "middle (x=0) at dbgtest.c:22" or "outer (n=4) at dbgtest.c:43", the
 * arguments evaluated in that frame; false without debug information. */
bool dbg_src_describe(dbg *d, cpu *c, const src_frame *sf, strbuf *out);
/* Where a frame's debug information is looked up: its pc, or for a
 * caller the call (the return address is past it). */
static inline uint64_t src_frame_lookup(const src_frame *sf)
{
    return sf->f.exact_pc ? sf->f.pc : sf->f.pc - 4;
}
/* The selected frame (d->frame, numbered as bt numbers them; a selection
 * the stack no longer has goes back to frame 0): false without a CPU or
 * memory. */
bool dbg_src_selected(dbg *d, cpu *c, src_frame *out);
/* bt's line for a frame: "#1  0x... in middle (x=1) at dbgtest.c:22" with
 * the debug information (callee_inlined: the frame inside it is inlined,
 * so it has no address of its own), the heuristic's line without. */
void dbg_src_format_frame(dbg *d, cpu *c, const src_frame *sf, bool callee_inlined, strbuf *out);
/* frame, up, down: the frame line, then its source line (or instruction). */
void dbg_src_show_frame(dbg *d, cpu *c, const src_frame *sf, bool callee_inlined, strbuf *out);
/* info frame for frame `level` with the debug information: 1 when done
 * (*rc), 0 when the frame has none (the heuristic's info frame then). */
int dbg_src_info_frame(dbg *d, cpu *c, unsigned level, int *rc);

/* ---- expressions (srcvars.c) ------------------------------------------ */
/* A name as a C variable of the program (frame 0's scope, then globals):
 * 1 with *out, 0 when the program has none by that name, -1 (err set). */
int dbg_src_ident(dbg *d, const char *name, xval *out, xerr *err);
/* Assign to a variable held in a register of frame 0: 1 done, 0 not such
 * a variable, -1 (err set). */
int dbg_src_set_ident(dbg *d, const char *name, const xval *v, xerr *err);
/* A C type by name ("struct desc", "u32"): 0 with *t, -1 (err set). */
int dbg_src_type(dbg *d, const char *name, const struct ctype **t, xerr *err);
/* Does the program have a variable, parameter or function of that name,
 * seen from addr (for breakpoint conditions)? */
bool dbg_src_name_known(dbg *d, const char *name, uint64_t addr);
/* The variable values of frame sf for info locals / info args / bt. */
void dbg_src_args(dbg *d, cpu *c, const src_frame *sf, strbuf *out);

/* ---- typed values (cvalue.c) ------------------------------------------ */
/* Print a value of a C type as gdb does: {a = 1, b = 0x0}, arrays with
 * <repeats>, strings, pointers with the symbol they point at; fmt is a
 * print format letter (x d u o t a c) or 0.  top: the outermost value
 * (pointers show their type). */
void dbg_format_typed(dbg *d, const xval *v, char fmt, bool top, strbuf *out);
/* An expression environment that only reads memory (without side
 * effects): for xval_load of C objects. */
expr_env dbg_mem_env(dbg *d);

/* ---- source lines (source.c) ------------------------------------------- */
/* Line n (1-based) of a source file, without its newline; NULL when the
 * file cannot be found or has no such line. */
const char *dbg_src_text(dbg *d, const char *file, unsigned n);
/* "LINE\tTEXT\n" (or "LINE\tin FILE\n" when it cannot be read). */
void dbg_src_line_text(dbg *d, const char *file, unsigned line, strbuf *out);
/* How many lines the file has (0: not found). */
unsigned dbg_src_nlines(dbg *d, const char *file);
/* Where the file was found (NULL: not found). */
const char *dbg_src_path(dbg *d, const char *file);
/* The part of a stop report about the source: "LINE\tTEXT", preceded by
 * "func (args) at file:line" when the function is another than at the
 * previous report or `header` is set. */
void dbg_src_report(dbg *d, cpu *c, bool header, strbuf *out);
/* A stop report named the function already (breakpoint hits): the next
 * source line shown does not repeat it. */
void dbg_src_seen(dbg *d, cpu *c);
/* The current position for list and the TUI's source pane: the file and
 * line of the selected CPU's selected frame; false when it has no line. */
bool dbg_src_current(dbg *d, const char **file, unsigned *line);
/* FILE:LINE, LINE (in the current file), FUNCTION (after its prologue)
 * as a location: 1 with the addresses (up to max), 0 when the text is no
 * such location (it is an expression), -1 after an error. */
int dbg_src_location(dbg *d, const char *text, uint64_t *addrs, unsigned max, unsigned *n);
/* "file dbgtest.c, line 22." for break's answer; false without a line. */
bool dbg_src_at(dbg *d, uint64_t addr, char *buf, size_t len);

#endif
