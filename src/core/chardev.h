/* Character backends for guest serial ports: the user's terminal (stdio), a
 * pseudo-terminal, a file, or nothing.  Taps see every byte the guest sends,
 * so `expect`, the TUI console pane and logs need no special cases. */
#ifndef XBOW_CHARDEV_H
#define XBOW_CHARDEV_H

#include "core/common.h"

typedef struct chardev chardev;
typedef void (*chardev_tap_fn)(void *ctx, const uint8_t *buf, size_t n);

/* spec: "stdio", "pty", "null", "file:PATH" (output only). */
chardev *chardev_open(const char *spec, char *err, size_t errlen);
void chardev_close(chardev *ch);
/* Guest output. */
void chardev_write(chardev *ch, const uint8_t *buf, size_t n);
void chardev_flush(chardev *ch);
/* Pull pending host input into the input queue (non-blocking). */
void chardev_poll(chardev *ch);
/* Guest input: next byte, or -1 when none is queued. */
int chardev_getc(chardev *ch);
bool chardev_has_input(const chardev *ch);
/* Queue bytes as if typed (TUI console pane, tests). */
void chardev_push_input(chardev *ch, const uint8_t *buf, size_t n);
/* Stop or resume reading the host side (the debugger owns the terminal
 * while the guest is stopped). */
void chardev_set_input_enabled(chardev *ch, bool on);
int chardev_add_tap(chardev *ch, chardev_tap_fn fn, void *ctx);
void chardev_remove_tap(chardev *ch, int id);
/* Echo guest output to the host side (stdout/pty/file)?  The TUI turns it
 * off and shows the console in a pane. */
void chardev_set_output_enabled(chardev *ch, bool on);
/* Stop using the host side for good (the TUI shows the console in a pane
 * and feeds input with chardev_push_input). */
void chardev_detach_host(chardev *ch);
const char *chardev_describe(const chardev *ch); /* "stdio", "/dev/pts/3", ... */

#endif
