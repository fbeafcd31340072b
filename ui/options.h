/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: one table of options (ui/options.c) from which come the
 * parsing, `xbow --help` and the OPTIONS section of the man page
 * (docs/xbow.1, rewritten by `make options-doc`; `make check` fails when it
 * differs).  Adding an option is adding a row; see docs/architecture.md. */
#ifndef XBOW_UI_OPTIONS_H
#define XBOW_UI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "core/strbuf.h"
#include "ui/ui.h"

typedef enum ui_option_kind {
    UI_OPT_SECTION, /* not an option: a heading of --help and of the man page */
    UI_OPT_TRUE,    /* sets a bool field */
    UI_OPT_FALSE,   /* clears a bool field */
    UI_OPT_STRING,  /* keeps the value in a const char * field (argv outlives it) */
    UI_OPT_TEXT,    /* copies the value into a char array field; refuses one too long */
    UI_OPT_NUMBER,  /* a number from lo to hi, by the debugger's rule for counts,
                       into an unsigned integer field */
    UI_OPT_CHOICE,  /* one word of choices[], its index stored in an int field */
    UI_OPT_CALL,    /* the row's own function */
} ui_option_kind;

/* What a UI_OPT_CALL function returns besides 0 (done) and -1 (error, with
 * the message in err): stop parsing, xbow exits with status 0 (--help). */
#define UI_OPT_EXIT 1

typedef struct ui_option {
    ui_option_kind kind;
    /* The name shown and matched: "--cpus", or a single-dash one ("-x").
     * A "--" name takes its value as --name=VALUE or --name VALUE; a
     * single-dash name only as the next argument.  For UI_OPT_SECTION: the
     * man page's subsection title, NULL for none. */
    const char *name;
    const char *short_name;     /* shown beside name: "-b" for --batch */
    const char *aliases[3];     /* accepted, not shown: "-batch", "--eval-command" */
    const char *arg;            /* the value's name ("N", "FILE"); NULL: a flag */
    bool show_eq;               /* shown as --name=ARG */
    bool per_nic;               /* applies to the NIC of the preceding --nic; the
                               field (UI_NIC_FIELD) is in its nic_config */
    size_t off, size;           /* the field: UI_FIELD(f) or UI_NIC_FIELD(f) */
    uint64_t lo, hi;            /* UI_OPT_NUMBER: the range */
    const char *const *choices; /* UI_OPT_CHOICE: the words, NULL-terminated */
    /* UI_OPT_CALL: value is NULL for a flag; returns 0, -1 with a message
     * in err (printed after "xbow: "), or UI_OPT_EXIT. */
    int (*fn)(ui_options *o, const char *value, strbuf *err);
    /* --help: the text beside the name, '\n' between lines (55 columns).
     * For UI_OPT_SECTION: its heading ("" for none, a blank line only). */
    const char *help;
    /* The man page: roff after the option's .TP line (for UI_OPT_SECTION,
     * text after its .SS line, or NULL). */
    const char *man;
    const char *man_tag; /* the .TP line, when the generated one will not do */
} ui_option;

#define UI_FIELD(f) .off = offsetof(ui_options, f), .size = sizeof(((ui_options *)0)->f)
#define UI_NIC_FIELD(f) \
    .per_nic = true, .off = offsetof(nic_config, f), .size = sizeof(((nic_config *)0)->f)
#define UI_OPT_SECTION(heading, man_title, man_intro)                                      \
    {                                                                                      \
        .kind = UI_OPT_SECTION, .help = (heading), .name = (man_title), .man = (man_intro) \
    }

/* The table, in the order of --help and the man page. */
extern const ui_option ui_option_table[];
extern const unsigned ui_option_count;

/* A ui_options with every default; its cmds array holds what argc allows. */
void ui_options_init(ui_options *o, int argc);
void ui_options_free(ui_options *o);

/* What ui_parse_options found. */
enum { UI_OPTS_RUN, UI_OPTS_EXIT, UI_OPTS_ERROR };
/* Parse argv[1..argc-1] in order into o.  UI_OPTS_ERROR puts the message
 * (without "xbow: ") in err: xbow prints it and exits with status 2. */
int ui_parse_options(ui_options *o, int argc, char **argv, strbuf *err);
/* The row named `name` (or one of its aliases), or NULL. */
const ui_option *ui_option_find(const char *name);

/* xbow --help. */
void ui_usage(FILE *f);
/* The man page's OPTIONS section, from ".SH OPTIONS" to the next .SH. */
void ui_options_man(strbuf *out);
/* `page` (a whole man page) with its OPTIONS section replaced by
 * ui_options_man()'s; -1 if page has no such section. */
int ui_man_with_options(const char *page, strbuf *out);
/* The man page in the file `path` as it is (now) and as the table makes it
 * (generated); -1 when the file cannot be read or has no OPTIONS section. */
int ui_man_page(const char *path, strbuf *now, strbuf *generated);

#endif
