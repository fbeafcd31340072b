/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interfaces shared by the debugger's command modules (not for front ends:
 * they use dbg.h). */
#ifndef XBOW_DBG_INT_H
#define XBOW_DBG_INT_H

#include "dbg/dbg.h"
#include "dbg/expr.h"

/* ---- the modules (listed in modules.c) ----------------------------------- */
extern const dbg_module dbg_core_module, dbg_vars_module, dbg_run_module, dbg_stop_module,
    dbg_record_module, dbg_state_module, dbg_frame_module, dbg_display_module, dbg_break_module,
    dbg_evbreak_module, dbg_stall_module, dbg_views_module, dbg_trace_module, dbg_script_module,
    dbg_symbols_module, dbg_settings_module, dbg_gdb_module, dbg_src_module, dbg_source_module,
    dbg_profile_module, dbg_snapshot_module, dbg_history_module;
/* The bus watchpoints' and write tracking's commands (in the break module). */
extern const dbg_cmd_table dbg_watch_table, dbg_track_table;
/* The commands of C variables and types (in the source module). */
extern const dbg_cmd_table dbg_srcvars_table;
void dbg_watch_free(dbg *d);
void dbg_gdb_free(dbg *d);

/* Every module's commands into d's registry (dbg_new). */
void dbg_modules_register(dbg *d);
/* Tell every module of a stop (before it is reported) or a resume. */
void dbg_modules_stopped(dbg *d, int reason);
void dbg_modules_resuming(dbg *d);
/* Free every module's state, in the reverse order of the table. */
void dbg_modules_free(dbg *d);

/* A module's state, in its own field of struct dbg: made (zeroed) on first
 * use.  static foo_state *fstate(dbg *d) { return DBG_STATE(d, foo); } */
#define DBG_STATE(d, field) \
    ((d)->field ? (d)->field : ((d)->field = xcalloc(1, sizeof *(d)->field)))

/* ---- declared arguments (args.c) ---------------------------------------- */
/* Split and check the arguments of a command with declared ones (c->run);
 * `line` is the command's own copy (cut into words), with room for one byte
 * more (a quoted string directly followed by a comma gets its own NUL).  On error print it
 * (with the usage) and return -1. */
int dbg_args_parse(dbg *d, const command *c, char *line, cmd_args *a);
/* What Tab completes for each declared argument of c, in
 * dbg_complete's notation (dbg.h), space-separated, the last one repeating
 * when it ends with "..." ("-" for none). */
void dbg_args_completion(const command *c, strbuf *out);

/* ---- settings (settings.c) ---------------------------------------------- */
/* Copy debugger output to the log file when logging is on; true when it
 * must not reach the screen too (set logging redirect on). */
bool dbg_log_write(dbg *d, const char *text);
/* set trace-commands on: echo commands before they run. */
bool dbg_trace_commands(dbg *d);
/* A gdb setting xbow does not have: print "VERB NAME: not supported in
 * xbow" and return -1; 0 when NAME is not one of them. */
int dbg_setting_unsupported(dbg *d, const char *verb, const char *name);
/* "set LVALUE = EXPR" (cmd_state.c). */
int dbg_assign(dbg *d, const char *text);
/* x and output without going through the command table (display). */
int dbg_examine(dbg *d, const char *args);
int dbg_output(dbg *d, const char *args);
/* After a reported stop: show the auto-display expressions (display.c). */
void dbg_do_displays(dbg *d);

/* The command line's memo of the views it showed (ring marks). */
view_memo *dbg_views_memo(dbg *d);
/* The console tap behind `expect` (installed by dbg_new). */
void dbg_script_attach(dbg *d);
/* User-defined commands (define): run one if the line names it.  Returns
 * 1 when handled (*rc set), 0 otherwise. */
int dbg_script_user(dbg *d, const char *line, int *rc);
/* help for a user-defined command; false if there is none by that name. */
bool dbg_script_help(dbg *d, const char *name);

/* ---- Ctrl-C and long output (interrupt.c) ------------------------------ */
/* Around every command (dbg_execute, dbg_source): the outermost clears the
 * interrupt flag. */
void dbg_command_begin(void);
void dbg_command_end(void);
/* Long loops call this once per item: true once the user pressed Ctrl-C.
 * It lets the front end (d->poll) read its keys a few times a second. */
bool dbg_interrupted(dbg *d);
/* Give the text so far to the front end once it is a chunk, then
 * dbg_interrupted(): a long command's output is streamed, not kept. */
bool dbg_stream(dbg *d, strbuf *b);
/* A command stopped by Ctrl-C: "Interrupted." (once per Ctrl-C) and -1. */
int dbg_interrupt_error(dbg *d);
/* The stop report said "Interrupted." already. */
void dbg_interrupt_reported(void);

/* ---- small helpers (dbg.c) --------------------------------------------- */
/* Does this line open a block that ends with `end`? */
bool dbg_opens_block(const char *line);
/* Split "ARGS if COND": returns the position of the word "if" (or NULL);
 * ignores "if" inside quotes. */
const char *dbg_find_if(const char *s);
/* Parse a virtual time: "10ms", "2.5us", "1s", "100ns" (units in any case)
 * or plain ticks.  Returns 0, -1 when it is not a time, -2 when it is one
 * shorter than half a tick of the clock (*ticks = 0). */
int dbg_parse_time(const char *s, uint64_t hz, uint64_t *ticks);
/* "1.234 ms" */
void dbg_format_time(uint64_t ticks, uint64_t hz, char *buf, size_t len);
/* Parse a number (C syntax) that must fill the whole word. */
int dbg_parse_u64(const char *s, uint64_t *v);

/* ---- expressions in the debugger (eval.c) ------------------------------ */
/* The names a kind of breakpoint's conditions see besides registers,
 * symbols and device registers: the fields of a hit, with the names of
 * their enumerated values ("ring == rx").  Checked when a condition is set
 * (bp_check_cond). */
typedef struct cond_fields {
    const char *owner; /* who has them, for messages: "a DMA watchpoint" */
    const event_field *fields;
    unsigned n;
} cond_fields;

/* Names an expression can see beyond registers, symbols and devices:
 * the fields of the event being tested, or other named values (DMA
 * watchpoint conditions: addr, size, write ...): names[i] = vals[i], or,
 * with names NULL, cf->fields[i].name = vals[i]; cf's enumerated value
 * names are visible too. */
typedef struct eval_scope {
    const event *ev;
    const char *const *names;
    const uint64_t *vals;
    unsigned nvals;
    const cond_fields *cf;
} eval_scope;
static inline const char *scope_name(const eval_scope *sc, unsigned i)
{
    return sc->names ? sc->names[i] : sc->cf->fields[i].name;
}

/* Evaluate; on error print the message, count a failure, return -1. */
int dbg_eval(dbg *d, const char *text, xval *out);
/* Evaluate the expression at the start of s; *end gets the rest (end NULL:
 * the whole of s is the expression, as dbg_eval). */
int dbg_eval_prefix(dbg *d, const char *s, const char **end, xval *out);
int dbg_eval_expr(dbg *d, const expr *e, const eval_scope *sc, xval *out, xerr *err);

/* An address the user gave: virtual (through the selected CPU's current
 * translation) or, with a "p:" prefix, a physical bus address. */
typedef struct dbg_addr {
    uint64_t a;
    bool phys;
} dbg_addr;

int dbg_parse_addr(dbg *d, const char *s, const char **end, dbg_addr *out);
/* The ADDR of a command that takes physical addresses only (`what` names it
 * in errors; "p:" is optional): see dbg_phys_addr. */
int dbg_parse_phys(dbg *d, const char *what, const char *s, const char **end, dbg_addr *out);
/* The bus address a physical address stands for, without the TLB: a number
 * below 2^43 is one already; an XKPHYS, KSEG0 or KSEG1 address (a kernel
 * symbol) is the one behind it.  A mapped address (KUSEG above 2^43, XKSEG,
 * KSSEG, KSEG3...) has none: "WHAT needs a physical address", -1. */
int dbg_phys_addr(dbg *d, const char *what, uint64_t v, uint64_t *ba);
/* Side-effect-free memory access; fill err with a one-line reason. */
int dbg_read(dbg *d, dbg_addr a, void *buf, uint64_t len, xerr *err);
int dbg_write(dbg *d, dbg_addr a, const void *buf, uint64_t len, xerr *err);
/* "0xffffffff80001000 <main+0x10>" (virtual) or "p:0x0000001000". */
void dbg_format_addr(dbg *d, dbg_addr a, char *buf, size_t len);
/* Why a virtual address cannot be read ("unmapped", "MMIO region hub"). */
void dbg_explain_addr(dbg *d, dbg_addr a, xerr *err);

/* A register ("a0", "pc", "status", "f2") as the selected frame sees it:
 * 1 with *out, 0 when that frame does not know it (err says why), -1 when
 * the name is no register. */
int dbg_register_value(dbg *d, const char *name, xval *out, xerr *err);

void dbg_var_set(dbg *d, const char *name, xval v);
int dbg_var_get(dbg *d, const char *name, xval *out);
unsigned dbg_history_add(dbg *d, xval v);
/* The convenience variables set so far (completion). */
void dbg_var_names(dbg *d, void (*fn)(void *ctx, const char *name), void *ctx);

/* Device register by "dev.REG" or "dev.REG.FIELD". */
typedef struct dev_ref {
    device *dev;
    unsigned id, idx;
    const reg_field *field; /* NULL = the whole register */
} dev_ref;
/* 1 = resolved, 0 = not a device name, -1 = bad register/field (err set). */
int dbg_dev_ref(dbg *d, const char *name, dev_ref *r, xerr *err);

/* ---- running the machine (cmd_run.c) ------------------------------------ */
/* Internal stops for next/finish/until: stop when `cpu` reaches one of the
 * addresses with its sp at least min_sp (a return address: the frame below
 * has returned), and, when min_cfa is not 0, in a frame whose CFA (its
 * identity, dbg_frame_cfa) is at least min_cfa: that frame or one of its
 * callers, not a deeper (recursive) call. */
typedef struct run_goal {
    int cpu;
    unsigned n;
    struct {
        uint64_t addr, min_sp, min_cfa;
    } at[2];
} run_goal;

enum { RUN_CONTINUE = 0, RUN_STEP = 1, RUN_QUIET = 0x100 };

/* Run the guest (CPU `d->cur_cpu` only when stepping), handle breakpoint
 * hits whose condition is false or whose commands continue, report the
 * stop.  n = instruction budget (0 = none).  Returns the stop reason
 * (STOP_STEP when the goal was reached), or -1 when the guest cannot run.
 * With RUN_QUIET a stop that only completes the step/goal is not reported. */
int dbg_resume(dbg *d, int mode, uint64_t n, const run_goal *goal);
/* Queue the stop a callback asked for (a breakpoint hit that stops). */
void dbg_request_stop(dbg *d);

/* Call frames (frames.c): with the call-frame information of the debug
 * information where it covers the pc (srcframe.c), otherwise best effort
 * from the symbol table and prologues. */
typedef struct frame {
    uint64_t pc, sp;
    /* What the prologue of the frame's function told, or its call-frame
     * information (filled for every frame but the last one returned): */
    uint64_t func;           /* where the function starts, 0 if not found */
    uint64_t size;           /* the stack it allocated */
    uint64_t saved[32];      /* where it saved the caller's GPR r ... */
    uint8_t saved_width[32]; /* ... and how wide (0: not saved) */
    uint64_t cfa;            /* its canonical frame address (0: not known yet) */
    uint64_t regs[32];       /* the GPRs as this frame sees them ... */
    uint32_t valid;          /* ... bit n: regs[n] is known */
    bool exact_pc;           /* pc is where it runs (or was interrupted), not a return address */
    bool cfi;                /* its caller was found with the CFI */
    bool signal;             /* an exception frame (CFI 'S'): its caller was interrupted */
} frame;
unsigned dbg_unwind(dbg *d, cpu *c, frame *out, unsigned max);
/* GPR r as frame `level` of the n unwound ones sees it: 1 when known (*slot
 * is where an inner frame saved it, 0 when it is the register itself), 0
 * when not known (a caller-saved register of an outer frame), -1 when
 * there is no such frame or register. */
int dbg_frame_gpr(cpu *c, const frame *f, unsigned n, unsigned level, unsigned r, uint64_t *val,
                  uint64_t *slot);
/* Frames 0 to the selected one and its caller, unwound now (malloc'd, *n
 * of them); *level is the selected one's index in them (d->frame, or with
 * debug information the physical frame of the frame bt numbers d->frame,
 * which may be an inlined function); a selection the stack no longer has
 * goes back to frame 0. */
frame *dbg_selected_frames(dbg *d, cpu *c, unsigned *n, unsigned *level);
/* The pc of the selected frame (the CPU's in frame 0). */
uint64_t dbg_frame_pc(dbg *d, cpu *c);
/* info registers in a selected outer frame (cmd_frame.c). */
void dbg_show_frame_regs(dbg *d, cpu *c, strbuf *out);
/* "#1  0xa8000000000217d8 in middle+0x10 (sp 0xa800000000031e50)" */
void dbg_format_frame(dbg *d, const frame *f, unsigned level, strbuf *out);
/* The identity of the innermost frame, the same at every instruction of one
 * invocation (gdb's frame id): its canonical frame address, the sp its
 * caller had, i.e. $sp plus what the prologue has taken so far.  Deeper
 * frames have lower ones (the stack grows down). */
uint64_t dbg_frame_cfa(dbg *d, cpu *c);
/* Is the instruction a call (jal, jalr, bal, bgezal ...)? */
bool dbg_insn_is_call(uint32_t insn);
/* The location line: "0xffffffff80001000 <main+0x10>:\taddiu\tsp,sp,-32". */
void dbg_format_location(dbg *d, cpu *c, uint64_t pc, strbuf *out);
/* Print the location line of the CPU's pc. */
void dbg_show_location(dbg *d, cpu *c);

/* ---- the history (history.c) -------------------------------------------- */
/* The resume loop's hooks: before it runs the guest, the instructions a
 * slice may run (0: no limit from the history), at the end of each slice
 * and when the run stops.  They take the automatic snapshots. */
void hist_before_run(dbg *d);
uint64_t hist_slice(dbg *d);
void hist_after_slice(dbg *d);
/* For the gdb stub and goto-time lastwrite.  Each needs the history (else
 * an error, -1) and prints what the commands print; -1 after an error. */
bool hist_recording(dbg *d);
enum { HIST_START = 1 }; /* went back as far as the history goes */
/* goto-time: CPU ci's instruction count (by_insn) or clock; says where. */
int hist_goto(dbg *d, int ci, bool by_insn, uint64_t pos);
/* reverse-stepi N of CPU ci, quietly: 0, or HIST_START when the history
 * starts less than n instructions back (the machine is then at its start). */
int hist_back_insns(dbg *d, int ci, uint64_t n);
/* reverse-continue with CPU ci selected: 0 at the most recent earlier stop
 * (breakpoints and watchpoints of xbow and of d->client), HIST_START when
 * there is none (at the history's start). */
int hist_back_to_stop(dbg *d, int ci);

/* ---- breakpoints (break.c) ---------------------------------------------- */
typedef struct bpoint bpoint;

typedef struct bp_ops {
    const char *type;               /* "breakpoint", "watchpoint", "event" ... */
    int (*arm)(dbg *d, bpoint *bp); /* start catching (enable) */
    void (*disarm)(dbg *d, bpoint *bp);
    void (*describe)(dbg *d, const bpoint *bp, strbuf *out); /* "What" */
    void (*free)(bpoint *bp);                                /* kind-specific state */
    /* The names its conditions see (checked when one is set, by bp_create
     * and `condition`); NULL: the kind checks them itself (events). */
    const cond_fields *cond;
    /* The machine is in another state (the history went back): take up
     * what the kind keeps of it (a watchpoint's old value).  May be NULL. */
    void (*resync)(dbg *d, bpoint *bp);
} bp_ops;

struct bpoint {
    int num;
    const bp_ops *ops;
    bool enabled, temp, armed, doomed;
    char *cond_text;
    expr *cond;
    unsigned ignore;
    uint64_t hits;
    char **cmds;
    unsigned ncmds;
    uint64_t addr; /* code breakpoints: the address */
    void *priv;    /* kind-specific */
    bpoint *next;
};

/* Create a breakpoint (numbered, enabled, armed); cond may be NULL; addr
 * is for code breakpoints.  On failure the kind-specific state is freed
 * through ops->free and NULL returned after printing an error. */
bpoint *bp_create(dbg *d, const bp_ops *ops, void *priv, uint64_t addr, const char *cond);
/* The glob an event name or pattern stands for: CPU events are published per
 * CPU (cpu0.exception ...), and "cpu.X" means every CPU's (evbreak.c). */
void dbg_event_pattern(const char *name, char *out, size_t len);
/* "WHAT N: DESCRIPTION" for a breakpoint bp_create made; -1 when it made
 * none (b NULL: it said why). */
int bp_announce(dbg *d, const bpoint *b, const char *what);
bpoint *bp_find(dbg *d, int num);
bpoint *bp_list(dbg *d);
/* Test a breakpoint's condition in a scope; false when it does not hold.
 * A condition that cannot be evaluated counts as true and the error is
 * kept in *err (the stop report shows it), as gdb does. */
bool bp_cond_true(dbg *d, bpoint *bp, const eval_scope *sc, xerr *err);
/* The same, and when the condition holds start the stop report in t (the
 * caller frees it): a blank line, the condition's error if it had one, and
 * "WHAT N: " ("Event breakpoint 3: "). */
bool bp_report_begin(dbg *d, bpoint *bp, const eval_scope *sc, const char *what, strbuf *t);
/* Does every bare name in the condition mean something: a field or value
 * name of `cf` (may be NULL: none), a symbol or a device register?  Else an
 * error naming the first one that does not, -1. */
int bp_check_cond(dbg *d, const char *cond, const cond_fields *cf);
/* A breakpoint fired (its condition held): honour the ignore count, count
 * the hit, run commands that continue, or queue a stop.  `text` is what the
 * stop report shows; the names of `sc` stay visible to the breakpoint's
 * commands.  Returns true when the machine must stop. */
bool bp_hit(dbg *d, bpoint *bp, const char *text, const eval_scope *sc);
/* Queue a stop that is not a breakpoint (expect, an unexplained stop). */
void bp_note_stop(dbg *d, const char *text);
/* Are stops queued?  Print them (with the location unless all silent). */
bool bp_pending(dbg *d);
void bp_report_pending(dbg *d, cpu *c);
/* After the report: run the stopping breakpoints' commands, delete
 * temporary ones. */
void bp_after_stop(dbg *d);
/* Forget queued stops (and nothing else); the report of the queued ones
 * that are not silent (history.c). */
void bp_forget_pending(dbg *d);
char *bp_pending_text(dbg *d); /* malloc'd, "" when none */
/* Between runs: forget queued stops, delete doomed breakpoints. */
void bp_before_run(dbg *d);
/* The resume loop asks: a CPU stopped at a code breakpoint (or a watch). */
bool bp_code_stop(dbg *d, int cpu, uint64_t pc, bool *found);
bool bp_cpu_watch_stop(dbg *d, int cpu);
/* Insert/remove code breakpoints in CPUs, reference-counted per address
 * (cpu < 0 = every CPU). */
void bp_addr_insert(dbg *d, int cpu, uint64_t addr);
void bp_addr_remove(dbg *d, int cpu, uint64_t addr);
/* Re-insert everything after a machine reset. */
void bp_rearm_all(dbg *d);
/* Every armed one takes up the machine's new state (bp_ops.resync). */
void bp_resync_all(dbg *d);
void bp_disarm_all(dbg *d);
/* Parse a location ("*ADDR", "SYMBOL", "SYMBOL+4", an expression) and an
 * optional "if COND"; *cond gets the condition text or NULL. */
int bp_parse_location(dbg *d, const char *args, uint64_t *addr, const char **cond);
/* The same for every place the location names, up to max (n: how many). */
int bp_parse_locations(dbg *d, const char *args, uint64_t *addrs, unsigned max, unsigned *n,
                       const char **cond);

/* ---- bus accesses (watch.c) ---------------------------------------------- */
/* A watched physical range in terms of RAM (aliases of the same RAM, such
 * as CAC and UNCAC, are the same range). */
typedef struct ram_range {
    ram_block *rb;
    uint64_t off, len;
} ram_range;
int dbg_ram_range(dbg *d, uint64_t bus_addr, uint64_t len, ram_range *r, xerr *err);
/* Parse "ADDR[,LEN]"; *end gets the rest.  `phys_what` (the command's
 * name) makes ADDR physical, "p:" optional (dbg_parse_phys); NULL: virtual
 * unless "p:". */
int dbg_parse_range(dbg *d, const char *s, const char *phys_what, dbg_addr *a, uint64_t *len,
                    const char **end);
/* The bus hook is installed while something needs it (watch.c); flags are
 * recomputed from every user when one goes away. */
void dbg_watch_hook_update(dbg *d);
void dbg_watch_refresh_flags(dbg *d, ram_block *rb, uint64_t off, uint64_t len);
/* Write tracking (track.c): the flags it wants and the record it keeps. */
uint8_t dbg_track_flags(dbg *d, ram_block *rb, uint64_t page_off);
bool dbg_track_active(dbg *d);
void dbg_track_write(dbg *d, const bus_op *op, ram_block *rb, uint64_t off);
void dbg_track_free(dbg *d);
/* Who an access came from, for reports: "hamachi0", "cpu0 at main+0x10". */
void dbg_describe_initiator(dbg *d, int id, strbuf *out);

#endif
