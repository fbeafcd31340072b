/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gdb remote stub: gdb (gdb-multiarch, and every IDE that drives it)
 * debugs the emulated machine over a TCP or Unix socket while the xbow
 * prompt or TUI stays usable; both drive the same machine.  See
 * docs/gdb.md for the user's side and docs/architecture.md for where it
 * sits.
 *
 * Front ends call gdbstub_wait() where they would wait for their own input,
 * so gdb's packets are served while the prompt is idle; while the guest
 * runs (whoever resumed it) the resume loop polls the stub through
 * d->client.  Everything runs on the one thread that runs the machine. */
#ifndef XBOW_GDBSTUB_H
#define XBOW_GDBSTUB_H

#include "dbg/dbg.h"

/* Listen on "[HOST:]PORT" (HOST defaults to 127.0.0.1; PORT 0 picks a free
 * one) or "unix:PATH", and say where.  Returns 0, or -1 after dbg_error. */
int gdbstub_listen(dbg *d, const char *spec);
/* Is a stub listening or a client attached? */
bool gdbstub_active(dbg *d);

/* Wait up to timeout_ms (-1: no limit) for `fd` (the front end's input, -1
 * for none) to become readable, serving gdb meanwhile; a packet may run the
 * guest before this returns.  Returns 1 when fd is readable, 0 otherwise
 * (timeout, a signal, or gdb was served: the front end may redraw). */
int gdbstub_wait(dbg *d, int fd, int timeout_ms);

/* Batch mode: wait for a gdb client and serve it until it detaches, kills
 * or disconnects (after a detach with "on-detach run", until the guest
 * stops too).  Returns at once when no stub is listening. */
void gdbstub_serve_session(dbg *d);

/* A short status for a status bar: "gdb attached", "gdb waiting", or "". */
void gdbstub_status(dbg *d, char *buf, size_t len);

/* A client with no socket (the fuzz target): what the stub sends goes to
 * send(), gdbstub_input() gives it bytes, and every resume runs at most
 * `budget` instructions (0: no limit). */
typedef void (*gdbstub_send_fn)(void *ctx, const char *data, size_t len);
int gdbstub_attach_virtual(dbg *d, gdbstub_send_fn send, void *ctx, uint64_t budget);
void gdbstub_input(dbg *d, const uint8_t *data, size_t len);

#endif
