/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ctrl-C and long output.  One flag, set by the front ends when the user
 * presses Ctrl-C (the CLI's SIGINT handler, the TUI's key), stops the guest
 * if it runs and every long command and script loop at its next check;
 * those check it through dbg_interrupted(), which also lets a front end
 * that owns the terminal (the TUI) read its keys and redraw a few times a
 * second.  Long output goes to the front end in chunks as it is made
 * (dbg_stream), never accumulated.  The flag is cleared when the front end
 * starts its next command. */
#include <signal.h>
#include <time.h>

#include "dbg/dbg_int.h"

#define STREAM_CHUNK 4096           /* bytes handed to the front end at a time */
#define FRONT_END_POLL_NS 50000000u /* 50 ms */

static volatile sig_atomic_t interrupt_flag;
static bool reported;     /* "Interrupted." printed for this Ctrl-C */
static int command_depth; /* commands running (nested in scripts) */
static uint64_t next_poll_ns;
static bool in_poll;

void dbg_interrupt(void) { interrupt_flag = 1; }

bool dbg_interrupt_pending(void) { return interrupt_flag != 0; }

void dbg_command_begin(void)
{
    if (command_depth++ == 0) {
        interrupt_flag = 0;
        reported = false;
    }
}

void dbg_command_end(void)
{
    if (command_depth > 0)
        command_depth--;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool dbg_interrupted(dbg *d)
{
    /* While the history re-executes, the remote client too (gdb's Ctrl-C of
     * its bs or bc). */
    bool client = d->replaying && d->client && d->client->poll;
    if ((d->poll || client) && !in_poll && !interrupt_flag) {
        uint64_t now = now_ns();
        if (now >= next_poll_ns) {
            next_poll_ns = now + FRONT_END_POLL_NS;
            in_poll = true;
            if (d->poll)
                d->poll(d);
            if (client)
                d->client->poll(d);
            in_poll = false;
        }
    }
    return interrupt_flag != 0;
}

int dbg_interrupt_error(dbg *d)
{
    if (reported) {
        d->failures++;
        return -1;
    }
    reported = true;
    return dbg_error(d, "Interrupted.");
}

void dbg_interrupt_reported(void) { reported = true; }

bool dbg_stream(dbg *d, strbuf *b)
{
    if (b->len >= STREAM_CHUNK) { /* whole lines; a partial one stays */
        char *nl = strrchr(b->s, '\n');
        if (nl) {
            char keep = nl[1];
            nl[1] = 0;
            d->out(d->out_ctx, b->s);
            nl[1] = keep;
            size_t done = (size_t)(nl + 1 - b->s);
            memmove(b->s, nl + 1, b->len - done + 1);
            b->len -= done;
        }
    }
    return dbg_interrupted(d);
}
