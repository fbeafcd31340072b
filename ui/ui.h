/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Front ends: options shared by main.c, batch mode, the CLI and the TUI
 * (the command line itself: ui/options.h). */
#ifndef XBOW_UI_H
#define XBOW_UI_H

#include <stdio.h>

#include "core/log.h"
#include "dbg/dbg.h"
#include "machine/machine.h"

typedef struct ui_cmd {
    const char *text;
    bool is_file; /* -x FILE rather than -ex CMD */
} ui_cmd;

typedef struct ui_options {
    machine_config cfg;
    const char *kernel;
    bool batch, cli, tui, quiet;
    ui_cmd *cmds;
    unsigned ncmds;
    uint64_t max_insns;
    bool no_nic;              /* --nic none: no default NIC */
    bool allow_shell;         /* --allow-shell: shell works in batch mode too */
    const char *gdb;          /* --gdb SPEC: listen for gdb at start-up */
    const char *restore;      /* --restore FILE: start from a snapshot */
    const char *record;       /* --record FILE */
    const char *replay;       /* --replay FILE */
    enum log_level log_level; /* --log-level */
} ui_options;

/* The default machine: one Tigon2 on the `echo` peer unless --nic was given;
 * interactive runs without a kernel load the Tigon2 ping example. */
void ui_default_machine(ui_options *o);
const char *ui_default_guest(char *buf, size_t len);

int ui_main(ui_options *o);
/* One line per NIC: name, model, slot, MAC (and where it came from), backend. */
void ui_show_nics(machine *m, FILE *f);
/* The readline command loop (ui/cli.c). */
int ui_cli(dbg *d);
/* History and Tab completion for readline (the CLI and the TUI). */
void ui_cli_setup_completion(dbg *d);
void ui_cli_save_history(void);
/* The ncurses TUI (ui/tui.c). */
int ui_tui(dbg *d);
/* Ctrl-C while the guest runs stops it (installs the handler). */
void ui_install_sigint(machine *m);

#endif
