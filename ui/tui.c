/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ncurses TUI: screen set-up, the input loop, readline through its
 * callback interface (so the screen stays live while you type), the status
 * bar, keys and the help overlay.  Panes are drawn by tui_panes.c and laid
 * out by tui_layout.c. */
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "core/log.h"
#include "dbg/gdbstub.h"
#include "ui/tui.h"
#include "ui/ui.h"

/* Panes are redrawn at most every REFRESH_SECONDS of wall time while the
 * guest runs; stopped, getch() waits up to IDLE_WAIT_MS for a key. */
#define REFRESH_SECONDS 0.1
#define IDLE_WAIT_MS 100

/* ---- readline glue ------------------------------------------------------- */

static unsigned char inq[256];
static unsigned inq_head, inq_tail;

static void inq_push(const char *s, size_t n)
{
    for (size_t i = 0; i < n && inq_tail - inq_head < sizeof inq; i++)
        inq[inq_tail++ % sizeof inq] = (unsigned char)s[i];
}

/* The Delete key reaches readline as this sequence, bound to delete-char.
 * (Not Ctrl-D: on an empty line readline takes that as end of input.) */
#define DELETE_SEQ "\033[3~"

/* The bytes readline sees for a key typed at the prompt; 0 for none. */
static size_t key_bytes(int ch, char *buf)
{
    const char *s;
    switch (ch) {
    case KEY_UP: s = "\033[A"; break;
    case KEY_DOWN: s = "\033[B"; break;
    case KEY_RIGHT: s = "\033[C"; break;
    case KEY_LEFT: s = "\033[D"; break;
    case KEY_HOME: s = "\001"; break;
    case KEY_END: s = "\005"; break;
    case KEY_DC: s = DELETE_SEQ; break;
    case KEY_BACKSPACE: s = "\177"; break;
    case KEY_ENTER: s = "\n"; break;
    default:
        if (ch < 0 || ch > 255)
            return 0;
        buf[0] = (char)ch;
        return 1;
    }
    size_t n = strlen(s);
    memcpy(buf, s, n);
    return n;
}

/* Has the terminal gone away (hang-up, closed, error)?  getch() says ERR
 * both for that and for its timeout. */
static bool tty_gone(void)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&p, 1, 0) < 0)
        return false;
    return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/* Does the terminal have bytes for us (without waiting)? */
static bool input_ready(void)
{
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

/* readline's input.  We call rl_callback_read_char() only with bytes
 * queued, but readline may want more in the middle of a key sequence or a
 * multibyte character: then wait for the next key.  EOF means end of input
 * to readline (it calls on_line(NULL)), so return it only when the
 * terminal really went away. */
static int tui_rl_getc(FILE *f)
{
    while (inq_head == inq_tail) {
        int ch = getch();
        if (ch == ERR) {
            if (tty_gone())
                return EOF;
            continue;
        }
        if (ch == KEY_RESIZE) {
            if (tui_active)
                tui_active->need_layout = true;
            continue;
        }
        char buf[8];
        inq_push(buf, key_bytes(ch, buf));
    }
    return inq[inq_head++ % sizeof inq];
}

static int tui_rl_input_available(void) { return inq_head != inq_tail; }
static void tui_rl_prep(int meta) { (void)meta; }
static void tui_rl_deprep(void) {}

static void draw_cmd(tui *t);

static void tui_rl_redisplay(void)
{
    if (tui_active) {
        draw_cmd(tui_active);
        doupdate();
    }
}

/* Tab with several candidates: list them in the command pane (a few
 * hundred at most: a vmlinux has tens of thousands of symbols). */
#define MAX_SHOWN_MATCHES 200

static void tui_rl_show_matches(char **matches, int num, int max)
{
    tui *t = tui_active;
    strbuf b;
    sb_init(&b);
    int shown = num < MAX_SHOWN_MATCHES ? num : MAX_SHOWN_MATCHES;
    for (int i = 1; i <= shown; i++)
        sb_printf(&b, "%s%s", matches[i], i < shown ? "  " : "");
    if (num > shown)
        sb_printf(&b, "  ... and %d more: type more of the name", num - shown);
    sb_putc(&b, '\n');
    tt_append_sb(&t->out, &b, C_DIM);
    sb_free(&b);
    rl_forced_update_display();
}

static void on_line(char *line);

/* ---- output sinks ------------------------------------------------------- */

static void tui_out(void *ctx, const char *text)
{
    tui *t = ctx;
    tt_append(&t->out, text, C_NORMAL);
}

static void tui_log(void *ctx, int level, const char *who, const char *msg)
{
    tui *t = ctx;
    char buf[600];
    snprintf(buf, sizeof buf, "%s%s%s\n", who ? who : "", who ? ": " : "", msg);
    tt_append(&t->out, buf, level <= LOG_WARN ? C_ERROR : C_DIM);
}

/* Guest console bytes: a small terminal (newline, carriage return,
 * backspace, tabs; escape sequences dropped). */
static void console_tap(void *ctx, const uint8_t *buf, size_t n)
{
    tui *t = ctx;
    static int esc;
    char line[512];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = buf[i];
        if (esc) {
            if (esc == 1 && c != '[')
                esc = 0;
            else if (esc == 2 && c >= 0x40 && c <= 0x7e)
                esc = 0;
            else
                esc = 2;
            continue;
        }
        if (c == 27) {
            esc = 1;
            continue;
        }
        if (c == '\r' || c == 0)
            continue;
        if (c == '\b' || c == 127) {
            if (k)
                k--;
            continue;
        }
        if (c == '\t')
            c = ' ';
        if (c == '\n' || (c >= 32 && c < 127) || c >= 0xa0)
            line[k++] = (char)c;
        if (k == sizeof line - 1 || c == '\n') {
            line[k] = 0;
            tt_append(&t->console, line, C_NORMAL);
            k = 0;
        }
    }
    line[k] = 0;
    if (k)
        tt_append(&t->console, line, C_NORMAL);
}

/* ---- drawing ------------------------------------------------------------------ */

static void draw_cmd(tui *t)
{
    pane *p = &t->panes[PANE_CMD];
    if (!p->visible || !p->win)
        return;
    WINDOW *w = p->win;
    werase(w);
    box(w, 0, 0);
    int a = tui_attr(t->focus == PANE_CMD ? C_FOCUS : C_TITLE);
    wattron(w, a);
    mvwprintw(w, 0, 2, " commands ");
    wattroff(w, a);
    int rows = p->h - 3, inner = p->w - 2;
    int first = (int)t->out.n - rows - p->scroll;
    if (first < 0)
        first = 0;
    for (int r = 0; r < rows && first + r < (int)t->out.n; r++) {
        const tui_line *l = &t->out.lines[first + r];
        wattron(w, tui_attr(l->attr));
        tui_addclip(w, r + 1, 1, l->text, inner);
        wattroff(w, tui_attr(l->attr));
    }
    /* The input line: prompt + readline buffer, scrolled to keep the cursor. */
    const char *busy = t->d->running ? "(running: Ctrl-C stops) " : "(busy: Ctrl-C stops) ";
    const char *prompt = t->running ? busy : (rl_prompt ? rl_prompt : "");
    const char *buf = t->running ? "" : (rl_line_buffer ? rl_line_buffer : "");
    int plen = (int)strlen(prompt), point = t->running ? 0 : rl_point;
    int start = 0;
    if (plen + point >= inner)
        start = plen + point - inner + 1;
    char line[1024];
    snprintf(line, sizeof line, "%s%s", prompt, buf);
    int len = (int)strlen(line);
    mvwaddnstr(w, p->h - 2, 1, start < len ? line + start : "", inner);
    wmove(w, p->h - 2, 1 + plen + point - start);
    wnoutrefresh(w);
}

static void draw_status(tui *t)
{
    machine *m = t->d->m;
    cpu *c = dbg_cpu(t->d);
    char pcs[96] = "";
    if (c)
        symtab_format(&m->syms, cpu_pc(c), pcs, sizeof pcs);
    char line[640], speed[32] = "", gdb[160], gdbpart[170] = "", net[96] = "";
    gdbstub_status(t->d, gdb, sizeof gdb);
    if (gdb[0])
        snprintf(gdbpart, sizeof gdbpart, " %s |", gdb);
    double vt = (double)m->clock.now / (double)m->clock.hz;
    /* With the history on: how far back it goes, and the present. */
    char hist[80] = "";
    uint64_t first, end;
    if (dbg_history_span(t->d, &first, &end))
        snprintf(hist, sizeof hist, " hist %.6f-%.6fs |", (double)first / (double)m->clock.hz,
                 (double)end / (double)m->clock.hz);
    /* The speed is a figure of the run going on: none while stopped, and
     * none until the first sample of this run. */
    if (t->running && t->d->running && t->ips > 0)
        snprintf(speed, sizeof speed, " %.1f MIPS |", t->ips / 1e6);
    else if (t->running && t->d->running)
        snprintf(speed, sizeof speed, " - MIPS |");
    /* The first NIC that carried frames: its live bit rates, guest/host time. */
    for (device *dev = m->devices; dev && !net[0]; dev = dev->next) {
        const dev_view *v = dev_view_find(dev, "rates");
        if (!v)
            continue;
        strbuf b;
        sb_init(&b);
        v->show(dev, "brief", NULL, &b);
        if (b.s && b.s[0])
            snprintf(net, sizeof net, " %s |", b.s);
        sb_free(&b);
    }
    snprintf(line, sizeof line,
             " xbow | %s | cpu%d %s | vtime %.6fs |%s%s%s%s layout %s | F1 help F5 cont "
             "F10 next F11 step F2 layout ^Xo focus",
             t->running ? (t->d->running ? "RUNNING" : "busy") : "stopped", t->d->cur_cpu, pcs, vt,
             hist, speed, net, gdbpart, tui_layout_name(t->layout));
    attron(tui_attr(C_STATUS));
    mvprintw(t->rows - 1, 0, "%-*.*s", t->cols, t->cols, line);
    attroff(tui_attr(C_STATUS));
    wnoutrefresh(stdscr);
}

static void draw_help(tui *t)
{
    static const char *const lines[] = {
        "xbow TUI keys",
        "",
        "F5          continue          F10  next (over calls)",
        "F11         step              Ctrl-C  stop the guest/command",
        "F7          reverse-stepi     F8   reverse-continue",
        "F2          next layout       (layout debug|src|asm|split|net..)",
        "Ctrl-X o    focus next pane   (focus PANE)",
        "Ctrl-X z    zoom focused pane (zoom)",
        "PgUp/PgDn   scroll the focused pane (arrows too)",
        "rings pane  Left/Right choose a ring, PgUp/PgDn/arrows",
        "            scroll it, Home: follow the device (>) again",
        "console     when focused, keys go to the guest",
        "Tab         complete a command; Up/Down: history",
        "? or F1     this help (any key closes it)",
        "quit        leave xbow",
    };
    int h = (int)ARRAY_SIZE(lines) + 2, w = 62;
    if (h > t->rows)
        h = t->rows;
    if (w > t->cols)
        w = t->cols;
    WINDOW *win = newwin(h, w, (t->rows - h) / 2, (t->cols - w) / 2);
    if (!win)
        return;
    werase(win);
    box(win, 0, 0);
    for (int i = 0; i < h - 2; i++)
        mvwaddnstr(win, i + 1, 2, lines[i], w - 4);
    wnoutrefresh(win);
    delwin(win);
}

static void redraw(tui *t)
{
    /* the debug layout shows the source while the pc has a line */
    if (tui_src_wanted(t) != t->src_shown)
        t->need_layout = true;
    if (t->need_layout) {
        erase();
        wnoutrefresh(stdscr);
        tui_layout(t);
        t->need_layout = false;
    }
    for (int i = 0; i < PANE_COUNT; i++)
        if (i != PANE_CMD)
            tui_draw_pane(t, &t->panes[i]);
    draw_status(t);
    draw_cmd(t);
    if (t->help) /* over every pane, the command pane too */
        draw_help(t);
    doupdate();
    t->last_refresh = tui_now();
}

/* ---- running ------------------------------------------------------------------- */

static uint64_t total_insns(machine *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < m->ncpus; i++)
        n += cpu_retired(m->cpus[i]);
    return n;
}

static void key_to_guest(tui *t, int ch)
{
    char c;
    if (ch == KEY_ENTER || ch == '\n')
        c = '\r';
    else if (ch == KEY_BACKSPACE)
        c = 127;
    else if (ch >= 0 && ch < 256)
        c = (char)ch;
    else
        return;
    chardev_push_input(t->d->m->console, (const uint8_t *)&c, 1);
}

/* Called by the debugger between slices of guest execution. */
static void tui_poll(dbg *d)
{
    tui *t = tui_active;
    if (!t)
        return;
    t->running = true;
    /* This runs between slices of a few milliseconds: never wait for a key
     * (that would make the guest crawl), and ask curses only when the
     * terminal has bytes for us or at a refresh (a resize shows up there). */
    double now = tui_now();
    bool refresh = now - t->last_refresh >= REFRESH_SECONDS;
    if (refresh || input_ready()) {
        timeout(0);
        int ch;
        while ((ch = getch()) != ERR) {
            if (ch == 3) {
                dbg_interrupt(); /* stops a long command or script too */
                if (d->running)
                    machine_request_stop(d->m, STOP_USER, "Ctrl-C");
            } else if (ch == KEY_RESIZE) {
                getmaxyx(stdscr, t->rows, t->cols);
                t->need_layout = true;
            } else if (t->focus == PANE_CONSOLE) {
                key_to_guest(t, ch);
            }
        }
        timeout(IDLE_WAIT_MS);
    }
    if (refresh) {
        uint64_t n = total_insns(d->m);
        if (t->last_wall > 0 && now > t->last_wall)
            t->ips = (double)(n - t->last_insns) / (now - t->last_wall);
        t->last_insns = n;
        t->last_wall = now;
        tui_sample_dma(t);
        redraw(t);
    }
}

/* ---- input ---------------------------------------------------------------------- */

/* Run a line as typed at the prompt (an empty one repeats, as in gdb). */
static void run_command(tui *t, const char *cmd)
{
    char echo[1100];
    snprintf(echo, sizeof echo, "%s%s\n", t->d->collecting ? ">" : "(xbow) ",
             *dbg_skip_ws(cmd) ? cmd : dbg_repeat_text(t->d));
    tt_append(&t->out, echo, C_DIM);
    tui_remember_regs(t);
    t->panes[PANE_CMD].scroll = 0;
    t->last_wall = tui_now();
    t->last_insns = total_insns(t->d->m);
    t->ips = 0; /* the last run's speed is not this one's */
    dbg_execute_interactive(t->d, cmd);
    t->running = false;
    tui_sample_dma(t);
    if (t->d->quit)
        t->quit = true;
}

static void on_line(char *line)
{
    tui *t = tui_active;
    if (!line) {
        /* End of input: the terminal went away (Ctrl-D on an empty line
         * is handled in handle_key and never reaches readline). */
        t->quit = true;
        return;
    }
    if (*dbg_skip_ws(line))
        add_history(line);
    char *copy = xstrdup(line);
    rl_callback_handler_remove();
    run_command(t, copy);
    free(copy);
    if (!t->quit)
        rl_callback_handler_install(dbg_prompt(t->d), on_line);
    free(line);
}

static void feed_readline(const char *s, size_t n)
{
    inq_push(s, n);
    while (tui_rl_input_available())
        rl_callback_read_char();
}

static void scroll_pane(tui *t, int delta)
{
    pane *p = &t->panes[t->focus];
    p->scroll += delta;
    if (p->kind == PANE_CMD || p->kind == PANE_CONSOLE) {
        if (p->scroll < 0)
            p->scroll = 0; /* these follow the end; scroll goes back */
    } else if (p->kind != PANE_DISASM && p->kind != PANE_MEMORY && p->kind != PANE_SRC &&
               p->scroll < 0) {
        p->scroll = 0;
    }
}

static void handle_key(tui *t, int ch, bool *ctrlx)
{
    dbg *d = t->d;
    if (t->help) {
        t->help = false;
        return;
    }
    if (*ctrlx) {
        *ctrlx = false;
        if (ch == 'o' || ch == 'O')
            dbg_execute(d, "focus next");
        else if (ch == 'z' || ch == 'Z')
            dbg_execute(d, "zoom");
        else if (ch == 'l' || ch == '2')
            dbg_execute(d, "layout next");
        return;
    }
    bool line_empty = !rl_line_buffer || !*rl_line_buffer;
    switch (ch) {
    case 24: /* Ctrl-X */ *ctrlx = true; return;
    case KEY_F(1): t->help = true; return;
    case KEY_F(2): dbg_execute(d, "layout next"); return;
    case KEY_F(5): run_command(t, "continue"); return;
    case KEY_F(10): run_command(t, "next"); return;
    case KEY_F(11): run_command(t, "step"); return;
    case KEY_F(7): run_command(t, "reverse-stepi"); return;
    case KEY_F(8): run_command(t, "reverse-continue"); return;
    case KEY_F(6): dbg_execute(d, "focus next"); return;
    case KEY_RESIZE:
        getmaxyx(stdscr, t->rows, t->cols);
        t->need_layout = true;
        return;
    case KEY_PPAGE:
        if (!tui_pane_key(t, ch))
            scroll_pane(t, t->focus == PANE_CMD || t->focus == PANE_CONSOLE ? 5 : -5);
        return;
    case KEY_NPAGE:
        if (!tui_pane_key(t, ch))
            scroll_pane(t, t->focus == PANE_CMD || t->focus == PANE_CONSOLE ? -5 : 5);
        return;
    default: break;
    }
    if (t->focus == PANE_CONSOLE) {
        key_to_guest(t, ch);
        return;
    }
    if (ch == '?' && line_empty) {
        t->help = true;
        return;
    }
    if (t->focus != PANE_CMD && tui_pane_key(t, ch))
        return;
    if (t->focus != PANE_CMD && (ch == KEY_UP || ch == KEY_DOWN)) {
        scroll_pane(t, ch == KEY_UP ? -1 : 1);
        return;
    }
    if (ch == 3) { /* Ctrl-C at the prompt: drop the line */
        rl_replace_line("", 0);
        rl_point = 0;
        return;
    }
    if (ch == 4 && rl_end == 0) { /* Ctrl-D on an empty line: quit, as in gdb */
        run_command(t, "quit");
        return;
    }
    char buf[8];
    feed_readline(buf, key_bytes(ch, buf));
}

/* The keys an xterm-like terminal (xterm, tmux, most emulators) sends that
 * a plainer TERM does not list (vt100 has no PgUp, Home or F5): known to
 * curses as well, so that they work whatever TERM says. */
static void define_xterm_keys(void)
{
    static const struct {
        const char *seq;
        int key;
    } keys[] = {
        {"\033[5~", KEY_PPAGE},  {"\033[6~", KEY_NPAGE}, {"\033[H", KEY_HOME},
        {"\033[F", KEY_END},     {"\033OH", KEY_HOME},   {"\033OF", KEY_END},
        {"\033[1~", KEY_HOME},   {"\033[4~", KEY_END},   {DELETE_SEQ, KEY_DC},
        {"\033[15~", KEY_F(5)},  {"\033[17~", KEY_F(6)}, {"\033[21~", KEY_F(10)},
        {"\033[23~", KEY_F(11)}, {"\033[18~", KEY_F(7)}, {"\033[19~", KEY_F(8)},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(keys); i++)
        if (key_defined(keys[i].seq) == 0)
            define_key(keys[i].seq, keys[i].key);
}

int ui_tui(dbg *d)
{
    setlocale(LC_ALL, "");
    tui t;
    memset(&t, 0, sizeof t);
    t.d = d;
    t.focus = PANE_CMD;
    t.zoomed = -1;
    t.need_layout = true;
    tt_init(&t.out, 2000);
    tt_init(&t.console, 2000);
    tui_active = &t;
    /* The guest console goes to a pane; curses owns the terminal. */
    chardev *con = d->m->console;
    chardev_detach_host(con);
    t.console_tap = chardev_add_tap(con, console_tap, &t);
    dbg_set_output(d, tui_out, &t);
    log_set_sink(tui_log, &t);
    d->poll = tui_poll;
    dbg_set_pane_memo(d, &t.ring_memo);

    initscr();
    raw();
    noecho();
    keypad(stdscr, TRUE);
    define_xterm_keys();
    set_escdelay(25);
    timeout(IDLE_WAIT_MS);
    if (has_colors()) {
        start_color();
        use_default_colors();
        init_pair(1, COLOR_BLACK, COLOR_CYAN);
        init_pair(2, COLOR_YELLOW, -1);
        init_pair(3, COLOR_RED, -1);
        init_pair(4, COLOR_BLUE, -1);
        t.colors = true;
    }
    getmaxyx(stdscr, t.rows, t.cols);

    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    /* Else readline exports LINES and COLUMNS, which curses then prefers to
     * the terminal's size: the screen would never follow a resize. */
    rl_change_environment = 0;
    rl_prep_term_function = tui_rl_prep;
    rl_deprep_term_function = tui_rl_deprep;
    rl_getc_function = tui_rl_getc;
    rl_input_available_hook = tui_rl_input_available;
    rl_redisplay_function = tui_rl_redisplay;
    rl_completion_display_matches_hook = tui_rl_show_matches;
    rl_bind_keyseq(DELETE_SEQ, rl_delete);
    FILE *null_out = fopen("/dev/null", "w");
    rl_outstream = null_out;
    ui_cli_setup_completion(d);
    rl_callback_handler_install(dbg_prompt(d), on_line);
    tt_append(&t.out, "xbow TUI: type commands below; F1 or ? for keys, \"quit\" to leave.\n",
              C_DIM);

    bool ctrlx = false;
    tui_remember_regs(&t);
    while (!t.quit) {
        redraw(&t);
        /* With a gdb stub, wait for a key while serving gdb (whose packets
         * may run the guest: tui_poll keeps the screen alive meanwhile). */
        bool key = !gdbstub_active(d) || gdbstub_wait(d, STDIN_FILENO, IDLE_WAIT_MS) > 0;
        t.running = false;
        if (t.d->quit)
            break;
        if (!key)
            timeout(0); /* a resize (KEY_RESIZE) still comes through */
        int ch = getch();
        if (!key)
            timeout(IDLE_WAIT_MS);
        if (ch == ERR) {
            if (tty_gone())
                break;
            continue;
        }
        handle_key(&t, ch, &ctrlx);
    }
    rl_callback_handler_remove();
    ui_cli_save_history();
    /* Blank the screen before giving it back.  A terminal that switches
     * back from its alternate screen may bring rows of it along when the
     * window was resized in between (tmux does: start at 40x10, grow to
     * 100x30, quit); blank rows leave nothing behind.  A terminal without
     * an alternate screen (vt100) is left clean instead of half-drawn. */
    clear();
    refresh();
    endwin();
    if (null_out)
        fclose(null_out);
    chardev_remove_tap(con, t.console_tap);
    log_set_sink(NULL, NULL);
    dbg_set_output(d, NULL, NULL);
    d->poll = NULL;
    dbg_set_pane_memo(d, NULL);
    view_memo_free(&t.ring_memo);
    tui_active = NULL;
    for (int i = 0; i < PANE_COUNT; i++)
        if (t.panes[i].win)
            delwin(t.panes[i].win);
    tt_free(&t.out);
    tt_free(&t.console);
    return 0;
}
