/* The debugger's command language: the command table, dispatch, output and
 * scripting state.  Front ends (batch, readline CLI, TUI) feed it lines and
 * give it an output sink; it never touches the terminal itself. */
#ifndef XBOW_DBG_H
#define XBOW_DBG_H

#include <stdarg.h>

#include "core/strbuf.h"
#include "machine/machine.h"

typedef struct dbg dbg;

/* A command returns 0 on success, -1 on failure (after dbg_error()). */
typedef int (*cmd_fn)(dbg *d, const char *args);

enum cmd_flags {
    CMD_MACHINE = 1, /* needs a machine */
    CMD_RESUMES = 2, /* runs the guest (the TUI shows "running") */
    CMD_EXACT = 4,   /* no abbreviation ("set width" must not take "set w = 1") */
    CMD_NOREPEAT = 8, /* an empty line does not run it again (run, kill, delete ...) */
};

typedef struct command {
    const char *name;    /* may have several words: "info registers", "break event" */
    const char *aliases; /* comma-separated alternatives, each of one or more
                            words: "c,cont,fg", "info f"; NULL for none */
    cmd_fn fn;
    const char *usage;   /* "break [LOCATION] [if COND]" */
    const char *help;    /* first line: one-line summary; the rest: details and an example */
    unsigned flags;
} command;

/* Register a table of commands (static storage).  Modules call this from
 * dbg_new() through their own *_register() function; `group` is the
 * heading the commands appear under in `help` and docs/commands.md. */
void dbg_register(const command *cmds, unsigned n);
void dbg_register_group(const char *group, const command *cmds, unsigned n);
const command *dbg_command_find(const char *name);
/* The command the first words of `line` name (aliases and abbreviations
 * as the dispatcher takes them); *rest gets the arguments. */
const command *dbg_command_lookup(const char *line, const char **rest);

/* Tab completion: candidates for `word`, the beginning of the word being
 * typed after `before` (the line up to it), go to add().  Returns
 * DBG_COMPLETE_FILES when the word is a file name (the front end completes
 * those itself), else 0. */
typedef void (*dbg_complete_fn)(void *ctx, const char *candidate);
enum { DBG_COMPLETE_FILES = 1 };
int dbg_complete(dbg *d, const char *before, const char *word, dbg_complete_fn add, void *ctx);
/* What Tab completes for each argument of command `cmd` (static strings):
 * kinds separated by spaces, the last one repeating when it ends with
 * "...": expr (symbols, $registers, DEVICE.REG), cmd, dev, nic, ring (of
 * the NIC before it), event, reg (DEVICE.REG.FIELD), devarg (registers
 * and views of the device before it), register, initiator, file,
 * =word|word, or - for nothing.  The debugger's own commands are in
 * src/dbg/complete.c; front ends add theirs. */
void dbg_complete_register(const char *cmd, const char *args);
/* A command of complete.c's table that the command table lacks (a test
 * keeps the two in step), or NULL. */
const char *dbg_complete_check(void);
/* Command names in table order (for completion and `help`). */
unsigned dbg_command_count(void);
const command *dbg_command_at(unsigned i);
const char *dbg_command_group(unsigned i);
/* The text `help NAME` prints (usage, description, example, aliases and
 * subcommands); docs/commands.md holds the same text for every command. */
void dbg_help_text(const command *c, strbuf *out);
/* docs/commands.md, generated from the command table. */
void dbg_commands_markdown(strbuf *out);

typedef void (*dbg_out_fn)(void *ctx, const char *text);

/* Hooks a module can hang on the debugger (breakpoints, views...). */
typedef struct dbg_module {
    const char *name;
    void (*on_stop)(dbg *d, int reason);  /* after every stop */
    void (*free)(dbg *d);
} dbg_module;

#define DBG_MAX_DEPTH 16

/* A remote client sharing the machine with the front end (the gdb stub,
 * src/dbg/gdbstub.c).  Whoever resumes the guest, the resume loop polls
 * it between slices, asks it about breakpoint and watchpoint stops the
 * breakpoint table does not explain, and tells it of every stop. */
typedef struct dbg_client {
    /* Between slices of a run (its input, its Ctrl-C, a new connection). */
    void (*poll)(dbg *d);
    /* CPU `cpu` stopped at a code breakpoint (reason STOP_BREAKPOINT) or a
     * watchpoint (STOP_WATCHPOINT): is it one of the client's?  Then the
     * machine stops. */
    bool (*claim)(dbg *d, int reason, int cpu);
    /* The guest stopped; `report` is xbow's report of the stop.  Returns
     * true when the client caused the stop and reports it itself: the front
     * end then shows nothing. */
    bool (*stopped)(dbg *d, int reason, const char *report);
} dbg_client;

struct dbg {
    machine *m;
    int cur_cpu;
    dbg_out_fn out;
    void *out_ctx;
    bool batch;
    bool quit;
    int exit_status;
    int failures;         /* commands that failed */
    /* Multi-line blocks (define, commands, while): lines are collected here
     * until the matching `end`. */
    int collecting;       /* nesting depth, 0 = not collecting */
    strbuf block;
    int (*block_done)(dbg *d, const char *body);
    char block_arg[128];
    int source_depth;
    /* Per-module state (breakpoints, traces, views); see the modules. */
    void *bp;
    void *views;
    void *trace;
    void *script;
    void *ui;            /* the front end's own pointer */
    /* Called when a running command wants to show progress (TUI refresh). */
    void (*poll)(dbg *d);
    uint64_t last_stop_time;
    /* More per-module state (see src/dbg/dbg_int.h). */
    void *vars;          /* convenience variables and value history */
    void *state;         /* x/print defaults */
    void *watch;         /* bus hook for physical and DMA watchpoints */
    void *track;         /* who wrote what (track writes, info lastwrite) */
    bool running;        /* inside machine_run(): callbacks see the guest running */
    int in_callback;     /* running breakpoint commands while the guest runs */
    uint64_t stop_count; /* stops so far ("changed since the last stop") */
    bool quiet_stop;     /* `expect` found its text: no stop report */
    const void *scope;   /* names a breakpoint's commands see (eval_scope) */
    void *prof;          /* the profiler (profile.c) */
    void *settings;      /* set/show: logging, pagination ... (settings.c) */
    void *display;       /* auto-display expressions (display.c) */
    int exec_depth;      /* commands running inside commands (user commands ...) */
    unsigned frame;      /* selected call frame (frame, up, down); 0 after a stop */
    bool killed;         /* reset by kill and not run since: run needs no reset */
    bool allow_shell;    /* shell and !CMD may run host commands */
    bool interactive;    /* running a line typed at the prompt */
    char *repeat;        /* what an empty line at the prompt runs (gdb's Enter) */
    const dbg_client *client; /* the gdb stub, when one is listening */
    void *client_ctx;
    char *stop_report;   /* the report of the last stop (info stop), or NULL */
};

dbg *dbg_new(machine *m);
void dbg_free(dbg *d);
void dbg_set_output(dbg *d, dbg_out_fn fn, void *ctx);
/* The front end's memo of what its panes showed (NULL: none).  Like the
 * command line's own, it takes the machine's state whenever the guest
 * resumes, so that the panes mark what changed since the last stop. */
void dbg_set_pane_memo(dbg *d, view_memo *m);

/* Ctrl-C: the front ends call dbg_interrupt() when the user presses it
 * (async-signal-safe: it only sets a flag).  The running command stops at
 * its next check, with "Interrupted.", and so do the scripts around it; the
 * guest stops too (front ends also stop a running machine at once).  The
 * flag is cleared when the next command starts. */
void dbg_interrupt(void);
bool dbg_interrupt_pending(void);

/* Execute one line (a command, or a line of a block being collected).
 * Returns 0 or -1. */
int dbg_execute(dbg *d, const char *line);
int dbg_source(dbg *d, const char *path);
/* Execute a line typed at the prompt.  An empty line repeats the previous
 * command as gdb does: most commands run again as they were typed, x goes
 * on from the next address, and run, kill, delete ... do not repeat. */
int dbg_execute_interactive(dbg *d, const char *line);
/* The line an empty line would run ("" when none), for front ends that
 * echo what runs. */
const char *dbg_repeat_text(const dbg *d);
/* A command typed at the prompt sets what an empty line runs next (NULL:
 * nothing); ignored for commands run by scripts and other commands. */
void dbg_set_repeat(dbg *d, const char *line);
/* The prompt the front end shows: "(xbow) " or ">" while collecting. */
const char *dbg_prompt(const dbg *d);

void dbg_printf(dbg *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dbg_vprintf(dbg *d, const char *fmt, va_list ap);
void dbg_puts(dbg *d, const char *s);
/* Print "error text" and count a failure; returns -1 for `return dbg_error(...)`. */
int dbg_error(dbg *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A command was used wrongly: "CMD: WHY.  Usage: USAGE" with the usage of
 * the command table (the text `help CMD` shows), so the two never differ.
 * Returns -1. */
int dbg_usage_error(dbg *d, const char *cmd, const char *why);

/* Start collecting a block until `end`; done() gets the body. */
void dbg_collect_block(dbg *d, const char *arg, int (*done)(dbg *d, const char *body));

/* Helpers for command parsing. */
const char *dbg_skip_ws(const char *s);
/* Copy the next whitespace-separated word into buf; returns the rest. */
const char *dbg_next_word(const char *s, char *buf, size_t len);

/* Counts and other numeric arguments (stepi N, continue N, ring NIC RING N,
 * winheight PANE N, --max-insns N): one rule and one wording for all.  With
 * a debugger, `text` is an expression; without (d NULL: command-line
 * options), a plain number.  The value must be an integer from min to max
 * (max UINT64_MAX: no upper bound).  On error, err gets a sentence naming
 * `what` ("the count", "--cpus") and the rule, and the result is -1. */
int dbg_count_parse(dbg *d, const char *what, const char *text, uint64_t min, uint64_t max,
                    uint64_t *n, xerr *err);
/* The same for a command's argument: the error is "CMD: the count ...". */
int dbg_parse_count(dbg *d, const char *cmd, const char *text, uint64_t min, uint64_t max,
                    uint64_t *n);

cpu *dbg_cpu(dbg *d);
/* Is an enabled code breakpoint set at this virtual address (TUI marks)? */
bool dbg_breakpoint_at(dbg *d, uint64_t addr);

/* Built-in command groups, registered by dbg_new(). */
void dbg_core_register(void);
/* Report why the machine stopped and where (front ends call it after
 * running the machine themselves). */
void dbg_report_stop(dbg *d, int reason);

#endif
