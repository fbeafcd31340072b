/* The line-mode debugger: GNU readline with history in ~/.xbow_history and
 * completion of command names.  Without a terminal, commands are read from
 * standard input as they come. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "ui/ui.h"

static char history_path[1024];

/* Completion: the words typed so far select commands whose names start
 * with them; offer the next word of each. */
static char **candidates;
static unsigned ncand;

static void add_candidate(const char *w)
{
    for (unsigned i = 0; i < ncand; i++)
        if (!strcmp(candidates[i], w))
            return;
    char **n = realloc(candidates, (ncand + 1) * sizeof *n);
    if (!n)
        return;
    candidates = n;
    candidates[ncand++] = strdup(w);
}

static void build_candidates(const char *line_before, const char *text)
{
    for (unsigned i = 0; i < ncand; i++)
        free(candidates[i]);
    ncand = 0;
    /* words already complete before `text` */
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s", line_before);
    size_t plen = strlen(prefix);
    while (plen && prefix[plen - 1] == ' ')
        prefix[--plen] = 0;
    for (unsigned i = 0; i < dbg_command_count(); i++) {
        const char *name = dbg_command_at(i)->name;
        if (plen && (strncmp(name, prefix, plen) != 0 || name[plen] != ' '))
            continue;
        const char *rest = plen ? name + plen + 1 : name;
        char word[64];
        size_t n = strcspn(rest, " ");
        snprintf(word, sizeof word, "%.*s", (int)n, rest);
        if (!strncmp(word, text, strlen(text)))
            add_candidate(word);
    }
}

static char *generator(const char *text, int state)
{
    static unsigned next;
    if (state == 0) {
        char before[256];
        int start = rl_point - (int)strlen(text);
        snprintf(before, sizeof before, "%.*s", start > 0 ? start : 0, rl_line_buffer);
        build_candidates(before, text);
        next = 0;
    }
    return next < ncand ? strdup(candidates[next++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start;
    (void)end;
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, generator);
}

void ui_cli_setup_completion(void)
{
    const char *home = getenv("HOME");
    if (home && *home && !history_path[0]) {
        snprintf(history_path, sizeof history_path, "%s/.xbow_history", home);
        read_history(history_path);
    }
    rl_readline_name = "xbow";
    rl_attempted_completion_function = complete;
}

void ui_cli_save_history(void)
{
    if (history_path[0])
        write_history(history_path);
    for (unsigned i = 0; i < ncand; i++)
        free(candidates[i]);
    free(candidates);
    candidates = NULL;
    ncand = 0;
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
    ui_cli_setup_completion();
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
