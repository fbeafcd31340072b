/* The line-mode debugger: GNU readline with history in ~/.xbow_history and
 * completion of commands and their arguments.  Without a terminal, commands are read from
 * standard input as they come. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

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
        char **n = realloc(candidates, cap * sizeof *n);
        if (!n)
            return;
        candidates = n;
        capcand = cap;
    }
    char *copy = strdup(w);
    if (copy)
        candidates[ncand++] = copy;
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
    return next < ncand ? strdup(candidates[next++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;
    if (!complete_dbg)
        return NULL;
    char *before = strndup(rl_line_buffer, start > 0 ? (size_t)start : 0);
    if (!before)
        return NULL;
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

int ui_cli(dbg *d)
{
    if (!isatty(0)) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        while (!d->quit && (n = getline(&line, &cap, stdin)) >= 0) {
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = 0;
            dbg_execute(d, line);
        }
        free(line);
        return 0;
    }
    ui_cli_setup_completion(d);
    while (!d->quit) {
        char *line = readline(dbg_prompt(d));
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
