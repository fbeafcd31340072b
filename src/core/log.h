/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics from the core and the devices.  The core never writes to the
 * terminal directly: messages go to a sink the front end installs (stderr by
 * default, a pane in the TUI). */
#ifndef XBOW_LOG_H
#define XBOW_LOG_H

#include <stdarg.h>

enum log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };

typedef void (*log_sink_fn)(void *ctx, int level, const char *who, const char *msg);

void log_set_sink(log_sink_fn fn, void *ctx);
void log_set_level(int level);
int log_get_level(void);
void xlog(int level, const char *who, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void xlogv(int level, const char *who, const char *fmt, va_list ap);

#endif
