/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line-mode debugger: GNU readline with history in ~/.xbow_history and
 * completion of commands and their arguments.  Without a terminal, commands are read from
 * standard input as they come. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "core/log.h"
#include "dbg/gdbstub.h"
#include "ui/ui.h"

static char history_path[1024];

/* Completion: the debugger says what the word being typed can be
 * (dbg_complete): command names, symbols, registers, devices, rings,
 * events; file names are readline's own. */
static dbg *complete_dbg;
static char **candidates;
static unsigned ncand, capcand;

static void add_candidate(void *ctx, const char *w)
{
    if (ncand == capcand) {
        unsigned cap = capcand ? capcand * 2 : 64;
        candidates = xrealloc(candidates, cap * sizeof *candidates);
        capcand = cap;
    }
    candidates[ncand++] = xstrdup(w);
}

static void clear_candidates(void)
{
    for (unsigned i = 0; i < ncand; i++)
        free(candidates[i]);
    ncand = 0;
}

static char *generator(const char *text, int state)
{
    static unsigned next;
    if (state == 0)
        next = 0;
    return next < ncand ? xstrdup(candidates[next++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;
    if (!complete_dbg)
        return NULL;
    char *before = xstrndup(rl_line_buffer, start > 0 ? (size_t)start : 0);
    clear_candidates();
    int kind = dbg_complete(complete_dbg, before, text, add_candidate, NULL);
    free(before);
    if (kind == DBG_COMPLETE_FILES)
        return rl_completion_matches(text, rl_filename_completion_function);
    /* "hamachi0." goes on with a register: no space after it */
    if (ncand == 1 && *candidates[0] && candidates[0][strlen(candidates[0]) - 1] == '.')
        rl_completion_append_character = 0;
    return rl_completion_matches(text, generator);
}

void ui_cli_setup_completion(dbg *d)
{
    const char *home = getenv("HOME");
    if (home && *home && !history_path[0]) {
        snprintf(history_path, sizeof history_path, "%s/.xbow_history", home);
        read_history(history_path);
    }
    complete_dbg = d;
    rl_readline_name = "xbow";
    rl_attempted_completion_function = complete;
    /* Words end at spaces and operators, not at '$' (registers), '.'
     * (DEVICE.REG), ':' (p:ADDR) or '-' (event and ring names such as
     * hamachi0.tx.desc-fetch, rx-jumbo). */
    rl_completer_word_break_characters = (char *)" \t\n\"'`@><=;|&{(,*+/%^!~";
}

void ui_cli_save_history(void)
{
    if (history_path[0])
        write_history(history_path);
    clear_candidates();
    free(candidates);
    candidates = NULL;
    capcand = 0;
    complete_dbg = NULL;
}

/* ---- serving gdb while waiting for a line --------------------------------
 * With a gdb stub, the prompt waits in gdbstub_wait() (readline's callback
 * interface), so gdb is served meanwhile; what that prints (a stop xbow
 * reports, gdb attaching) goes above the prompt and the line being typed. */

static bool line_hidden;
static dbg_out_fn saved_out;
static void *saved_out_ctx;
static char *got_line;
static bool got;

static void hide_line(void)
{
    if (line_hidden)
        return;
    line_hidden = true;
    rl_save_prompt();
    rl_clear_visible_line();
    fflush(rl_outstream ? rl_outstream : stdout); /* before the console's write(2) */
}

static void serving_out(void *ctx, const char *text)
{
    hide_line();
    saved_out(saved_out_ctx, text);
}

static void serving_log(void *ctx, int level, const char *who, const char *msg)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    hide_line();
    fprintf(stderr, "xbow: %s: %s%s%s\n", names[level & 3], who ? who : "", who ? ": " : "", msg);
}

/* The guest's console writes to the terminal while gdb runs the guest. */
static void serving_console(void *ctx, const uint8_t *buf, size_t n)
{
    if (n)
        hide_line();
}

static void on_line(char *line)
{
    got = true;
    got_line = line;
    rl_callback_handler_remove();
}

/* One line from the terminal while gdb is served; NULL at end of input. */
static char *read_line_serving(dbg *d)
{
    got = false;
    got_line = NULL;
    rl_callback_handler_install(dbg_prompt(d), on_line);
    saved_out = d->out;
    saved_out_ctx = d->out_ctx;
    int tap = d->m ? chardev_add_tap(d->m->console, serving_console, NULL) : -1;
    while (!got && !d->quit) {
        dbg_set_output(d, serving_out, NULL);
        log_set_sink(serving_log, NULL);
        int ready = gdbstub_wait(d, fileno(rl_instream ? rl_instream : stdin), -1);
        log_set_sink(NULL, NULL);
        dbg_set_output(d, saved_out, saved_out_ctx);
        if (line_hidden) {
            line_hidden = false;
            rl_restore_prompt();
            rl_on_new_line();
            rl_redisplay();
        }
        if (ready > 0)
            rl_callback_read_char();
    }
    if (tap >= 0)
        chardev_remove_tap(d->m->console, tap);
    if (!got) {
        rl_callback_handler_remove();
        putchar('\n');
        return NULL;
    }
    return got_line;
}

/* Lines from a pipe or a file, gdb served while none comes. */
static void read_lines(dbg *d)
{
    strbuf line;
    sb_init(&line);
    char buf[4096];
    while (!d->quit) {
        if (gdbstub_wait(d, 0, -1) <= 0)
            continue;
        ssize_t n = read(0, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        for (ssize_t i = 0; i < n && !d->quit; i++) {
            if (buf[i] != '\n') {
                sb_putc(&line, buf[i]);
                continue;
            }
            while (line.len && line.s[line.len - 1] == '\r')
                line.s[--line.len] = 0;
            dbg_execute(d, line.s ? line.s : "");
            sb_reset(&line);
        }
        if (n <= 0) {
            if (line.len && !d->quit)
                dbg_execute(d, line.s);
            break;
        }
    }
    sb_free(&line);
}

int ui_cli(dbg *d)
{
    if (!isatty(0)) {
        read_lines(d);
        return 0;
    }
    ui_cli_setup_completion(d);
    while (!d->quit) {
        char *line = gdbstub_active(d) ? read_line_serving(d) : readline(dbg_prompt(d));
        if (!line) {
            printf("quit\n");
            break;
        }
        if (*dbg_skip_ws(line))
            add_history(line);
        /* An empty line repeats the last command, as in gdb. */
        dbg_execute_interactive(d, line);
        free(line);
    }
    ui_cli_save_history();
    return 0;
}
