/* SPDX-License-Identifier: GPL-2.0-or-later */
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
    CMD_MACHINE = 1,  /* needs a machine */
    CMD_RESUMES = 2,  /* runs the guest (the TUI shows "running") */
    CMD_EXACT = 4,    /* no abbreviation ("set width" must not take "set w = 1") */
    CMD_NOREPEAT = 8, /* an empty line does not run it again (run, kill, delete ...) */
    CMD_SETTING = 16, /* "set NAME": shown by "show"; "set NAME = EXPR" assigns the guest's
                         variable NAME instead (gdb would want "set var") */
};

/* A command's arguments, declared: the dispatcher splits and checks them
 * before the command runs, and the usage line (`help CMD`, usage errors,
 * docs/commands.md) is generated from them.  Every argument but the last is
 * one word; the last takes the rest of the line when it is an expression, a
 * location or text (they may have spaces), and is one word (a name) or one
 * expression (a count) otherwise: what follows it is an error. */
/* clang-format off */
typedef enum arg_kind {
    ARG_COUNT = 1, /* an integer expression from min to max (dbg_count_parse's rule);
                      absent: dflt */
    ARG_NAME,      /* one word: a device, a ring, a pattern ... */
    ARG_EXPR,      /* an expression, as typed (the command evaluates it) */
    ARG_LOCATION,  /* a code location as break takes it (*ADDR, SYMBOL, SYMBOL+OFF, an
                      expression), with an optional "if COND" */
    ARG_TEXT,      /* the rest of the line as typed (a file name, text to print) */
    ARG_LIST,      /* the rest of the line: words (numbers, ranges, names), shown as
                      "NAME..." in the usage line */
    ARG_FORMAT,    /* gdb's /FMT after the command's name (x/4xw, print/x): the word, '/'
                      included, when the arguments start with '/' (else absent, and the
                      next argument starts there); first, optional, and shown attached to
                      the name in the usage line: "x[/NFU]".  The command reads it */
    ARG_LOCATIONS, /* ARG_LOCATION standing for every place it names (an inlined
                      function, a line of duplicated code: up to CMD_MAX_LOCS), in locs;
                      the usage line adds "[if COND]" */
    ARG_WORD,      /* one word of `choices` ("on|off|enabled"), checked; num: its index
                      (dflt when absent) */
    ARG_BOOL,      /* gdb's spellings of on and off (on off 1 0 yes no enable disable);
                      num: 1 or 0 (dflt when absent) */
    ARG_LIMIT,     /* a number, or "unlimited" (0), as gdb's "set height" takes it */
    ARG_EVENT,     /* one word: an event name or a glob of them (info events) */
    ARG_SETTING,   /* one word: the name of a setting (the "set NAME" commands) */
    ARG_FILE,      /* the rest of the line: a file name */
    ARG_COND,      /* last: "if COND" at the end of the line, in cond; the other arguments
                      are what comes before it */
    ARG_STRING,    /* a C string in double quotes, escapes and all, as typed (quotes
                      included): "hello\n" */
    ARG_KEYWORD,   /* optional: one of `choices` when the next word is one (num: its
                      index), else absent and the next argument starts there ("frame
                      level N" or "frame N") */
} arg_kind;
/* clang-format on */

typedef struct cmd_arg {
    arg_kind kind;
    const char *name; /* in the usage line: "N", "LOCATION", "FILE" */
    const char *what; /* in errors: "the count", "a location" */
    bool optional;
    uint64_t min, max, dflt; /* ARG_COUNT (dflt: ARG_WORD, ARG_BOOL too) */
    const char *choices;     /* ARG_WORD: the words, separated by '|' */
    const char *complete;    /* what Tab offers (see dbg_complete); NULL: what the
                                kind implies */
} cmd_arg;

enum { CMD_MAX_ARGS = 4, CMD_MAX_LOCS = 16 };

/* The arguments as the command gets them. */
typedef struct cmd_args {
    unsigned n; /* how many were given */
    bool given[CMD_MAX_ARGS];
    const char *text[CMD_MAX_ARGS]; /* as typed, "" when absent */
    uint64_t num[CMD_MAX_ARGS];     /* ARG_COUNT: the value (dflt when absent);
                                        ARG_LOCATION: the address */
    const char *cond;               /* ARG_LOCATION(S), ARG_COND: the text after "if", or
                                       NULL */
    uint64_t locs[CMD_MAX_LOCS];    /* ARG_LOCATIONS: the addresses... */
    unsigned nlocs;                 /* ...and how many */
    const char *line;               /* all of the arguments, as typed */
} cmd_args;

typedef int (*cmd_run_fn)(dbg *d, const cmd_args *a);

/* A command.  The modules declare theirs in FILE.cmds beside FILE.c (the
 * fields below by name, the help as plain text): scripts/cmds.awk makes the
 * static table FILE.c includes (FILE.cmds.h, built by make), see
 * docs/declaring-commands.md. */
typedef struct command {
    const char *name;    /* may have several words: "info registers", "break event" */
    const char *aliases; /* comma-separated alternatives, each of one or more
                            words: "c,cont,fg", "info f"; NULL for none */
    cmd_fn fn;           /* gets the arguments as one string (commands that
                            parse them themselves) ... */
    cmd_run_fn run;      /* ... or, declared, parsed and checked (args) */
    const cmd_arg *args;
    unsigned nargs;
    const char *usage; /* "break [LOCATION] [if COND]"; NULL with run: generated */
    const char *body;  /* a block's lines after the generated usage line:
                          "  COMMANDS...\nend" */
    const char *help;  /* first line: one-line summary; the rest: details and an example */
    unsigned flags;
} command;

/* The usage line: the declared one, or generated from the arguments. */
void dbg_command_usage(const command *c, strbuf *out);

/* The command registry belongs to the dbg instance (d->cmds) and grows as
 * needed.  Modules register their tables through the module table
 * (src/dbg/modules.c) when dbg_new() runs; front ends add theirs with
 * dbg_register_group().  `group` is the heading the commands appear under in
 * `help` and docs/commands.md.  Registering a name that is already taken is
 * refused with a message on stderr (-1): nothing is dropped silently. */
int dbg_register_group(dbg *d, const char *group, const command *cmds, unsigned n);
const command *dbg_command_find(const dbg *d, const char *name);
/* The command the first words of `line` name (aliases and abbreviations
 * as the dispatcher takes them); *rest gets the arguments. */
const command *dbg_command_lookup(const dbg *d, const char *line, const char **rest);

/* Tab completion: candidates for `word`, the beginning of the word being
 * typed after `before` (the line up to it), go to add().  Returns
 * DBG_COMPLETE_FILES when the word is a file name (the front end completes
 * those itself), else 0. */
typedef void (*dbg_complete_fn)(void *ctx, const char *candidate);
enum { DBG_COMPLETE_FILES = 1 };
int dbg_complete(dbg *d, const char *before, const char *word, dbg_complete_fn add, void *ctx);
/* What Tab completes for an argument comes from the command's declaration:
 * its kind, or its cmd_arg.complete, one of: expr (symbols, $registers,
 * DEVICE.REG), cmd, dev, nic, ring (of the NIC before it), event, reg
 * (DEVICE.REG.FIELD), devarg (registers and views of the device before it),
 * register, initiator, setting, file, =word|word, or - for nothing.  The
 * few commands that parse their line themselves (fn) complete expressions
 * when they need a machine. */
/* Command names in table order (for completion and `help`). */
unsigned dbg_command_count(const dbg *d);
const command *dbg_command_at(const dbg *d, unsigned i);
const char *dbg_command_group(const dbg *d, unsigned i);
/* The text `help NAME` prints (usage, description, example, aliases and
 * subcommands); docs/commands.md holds the same text for every command. */
void dbg_help_text(const dbg *d, const command *c, strbuf *out);
/* docs/commands.md, generated from the command table. */
void dbg_commands_markdown(const dbg *d, strbuf *out);

typedef void (*dbg_out_fn)(void *ctx, const char *text);

/* A module of the debugger (breakpoints, traces, views ...): its commands
 * and the hooks dbg_new, the resume loop and dbg_free call.  The modules
 * are listed once, in src/dbg/modules.c; their commands are registered in
 * that order (the order of `help`), they hear of stops and resumes in that
 * order and are freed in the reverse one (a module may use the ones before
 * it while it frees its state).  A module keeps its state in its own typed
 * field of struct dbg, reached through the module's accessor. */
typedef struct dbg_cmd_table {
    const char *group; /* heading in `help` and docs/commands.md */
    const command *cmds;
    unsigned n;
} dbg_cmd_table;

typedef struct dbg_module {
    const char *name;
    const dbg_cmd_table *const *commands; /* ends with NULL; NULL: none */
    void (*on_stop)(dbg *d, int reason);  /* after every stop, before it is reported */
    void (*on_resume)(dbg *d);            /* before the guest runs */
    void (*free)(dbg *d);                 /* the module's state, at dbg_free */
} dbg_module;

/* A module's .commands when it has one table of them:
 * .commands = DBG_COMMANDS("Running", run_commands). */
#define DBG_COMMANDS(group, cmds) \
    ((const dbg_cmd_table *const[]){&(const dbg_cmd_table){group, cmds, ARRAY_SIZE(cmds)}, NULL})

/* The registry of one dbg instance. */
typedef struct dbg_registry {
    const command **cmds;
    const char **groups;
    unsigned n, cap;
} dbg_registry;

/* Each module's state: the types are private to the modules. */
struct bp_state;
struct views_state;
struct trace_state;
struct script_state;
struct vars_state;
struct x_state;
struct watch_state;
struct track_state;
struct settings_state;
struct display_state;
struct profile;
struct src_state;
struct eval_scope;

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
    int failures; /* commands that failed */
    /* Multi-line blocks (define, commands, while): lines are collected here
     * until the matching `end`. */
    int collecting; /* nesting depth, 0 = not collecting */
    strbuf block;
    int (*block_done)(dbg *d, const char *body);
    char block_arg[128];
    int source_depth;
    dbg_registry cmds; /* the commands, in registration order */
    /* Per-module state (see src/dbg/modules.c), NULL until first used. */
    struct bp_state *bp;             /* breakpoints (break.c) */
    struct views_state *views;       /* ring marks (views.c) */
    struct trace_state *trace;       /* trace insn/event (trace.c) */
    struct script_state *script;     /* define, expect (script.c) */
    struct vars_state *vars;         /* convenience variables and value history (eval.c) */
    struct x_state *xstate;          /* x/print defaults (cmd_state.c) */
    struct watch_state *watch;       /* bus hook for physical and DMA watchpoints */
    struct track_state *track;       /* who wrote what (track writes, info lastwrite) */
    struct settings_state *settings; /* set/show: logging, pagination ... (settings.c) */
    struct display_state *display;   /* auto-display expressions (display.c) */
    struct src_state *src;           /* source-level debugging: DWARF, source files (source.c) */
    struct snap_state *snaps;        /* in-memory snapshots (snapshots.c) */
    struct history *hist;            /* the run's history, reverse execution (history.c) */
    bool replaying;                  /* history.c re-executes: hits are only noted */
    void *ui;                        /* the front end's own pointer */
    /* Called when a running command wants to show progress (TUI refresh). */
    void (*poll)(dbg *d);
    uint64_t last_stop_time;
    bool running;                   /* inside machine_run(): callbacks see the guest running */
    int in_callback;                /* running breakpoint commands while the guest runs */
    uint64_t stop_count;            /* stops so far ("changed since the last stop") */
    bool quiet_stop;                /* `expect` found its text: no stop report */
    const struct eval_scope *scope; /* names a breakpoint's commands see */
    struct profile *prof;           /* the profiler (profile.c) */
    int exec_depth;                 /* commands running inside commands (user commands ...) */
    unsigned frame;                 /* selected call frame (frame, up, down); 0 after a stop */
    bool killed;                    /* reset by kill and not run since: run needs no reset */
    bool allow_shell;               /* shell and !CMD may run host commands */
    bool interactive;               /* running a line typed at the prompt */
    char *repeat;                   /* what an empty line at the prompt runs (gdb's Enter) */
    const dbg_client *client;       /* the gdb stub, when one is listening */
    void *client_ctx;
    char *stop_report; /* the report of the last stop (info stop), or NULL */
};

dbg *dbg_new(machine *m);
void dbg_free(dbg *d);
void dbg_set_output(dbg *d, dbg_out_fn fn, void *ctx);
/* Collect what the debugger prints in a buffer (the stop report, a monitor
 * command's output for gdb) until dbg_capture_end puts the output it had
 * back; `saved` holds that output in between. */
typedef struct dbg_capture {
    dbg_out_fn out;
    void *ctx;
} dbg_capture;
void dbg_capture_begin(dbg *d, dbg_capture *saved, strbuf *into);
void dbg_capture_end(dbg *d, const dbg_capture *saved);
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
/* The history (record, docs/time-travel.md): cpu0's clock at its first
 * snapshot and at the present; false when it is off or empty. */
bool dbg_history_span(dbg *d, uint64_t *first, uint64_t *end);

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
/* Print what b holds (nothing if it is empty) and free it.  Returns 0, for
 * `return dbg_puts_sb(d, &b);` at the end of a command. */
int dbg_puts_sb(dbg *d, strbuf *b);
/* Print "error text" and count a failure; returns -1 for `return dbg_error(...)`. */
int dbg_error(dbg *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A command was used wrongly: "CMD: WHY.  Usage: USAGE" with the usage of
 * the command table (the text `help CMD` shows), so the two never differ.
 * Returns -1. */
int dbg_usage_error(dbg *d, const char *cmd, const char *why);
/* The same for a command that may not be in the table (a subcommand's own). */
int dbg_command_usage_error(dbg *d, const command *c, const char *why);

/* A prefix command (info, trace) given a word that is none of its
 * subcommands: "Undefined PREFIX command: "WORD".  Try "help PREFIX"."
 * with the first word of text.  Returns -1. */
int dbg_undefined_subcommand(dbg *d, const char *prefix, const char *text);

/* Start collecting a block until `end`; done() gets the body. */
void dbg_collect_block(dbg *d, const char *arg, int (*done)(dbg *d, const char *body));

/* Helpers for command parsing. */
const char *dbg_skip_ws(const char *s);
/* Copy the next whitespace-separated word into buf; returns the rest. */
const char *dbg_next_word(const char *s, char *buf, size_t len);
/* Each number of a list of numbers and ranges ("1 3 5-7") in turn to fn,
 * which says whether there is a WHAT of that number.  A word that is not
 * one is "CMD: "W" is not a WHAT number.", a number fn does not know "No
 * WHAT number N." (a run of them "No WHAT numbers N-M."); the others still
 * run.  Numbers above `last` (the highest given out) are not looked up.
 * Returns 0, or -1 after an error. */
int dbg_each_number(dbg *d, const char *args, const char *cmd, const char *what, long last,
                    bool (*fn)(dbg *d, long n, void *ctx), void *ctx);
/* Append the text at s to out up to `stop` (or the end), a backslash escape
 * decoded: \n \t \r \e \a when its letter is in `escapes`, else the
 * character after the backslash as it is.  Returns where it stopped. */
const char *dbg_unescape(const char *s, char stop, const char *escapes, strbuf *out);

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

/* Report why the machine stopped and where (front ends call it after
 * running the machine themselves). */
void dbg_report_stop(dbg *d, int reason);

#endif
