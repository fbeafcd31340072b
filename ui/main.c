/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xbow: command line, then batch mode, the readline CLI or the TUI. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "core/log.h"
#include "ui/options.h"

/* A closed standard descriptor would be handed to the next file xbow opens
 * (the kernel, a trace file) and the console would read or write that:
 * give it /dev/null instead (a closed stdin is then simply at its end). */
static void reserve_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

int main(int argc, char **argv)
{
    reserve_std_fds();
    ui_options o;
    ui_options_init(&o, argc);
    strbuf err;
    sb_init(&err);
    int parsed = ui_parse_options(&o, argc, argv, &err);
    if (parsed == UI_OPTS_ERROR)
        fprintf(stderr, "xbow: %s\n", err.s ? err.s : "bad command line");
    sb_free(&err);
    if (parsed != UI_OPTS_RUN) {
        ui_options_free(&o);
        return parsed == UI_OPTS_EXIT ? 0 : 2;
    }
    log_set_level(o.log_level);
    int rc = ui_main(&o);
    ui_options_free(&o);
    return rc;
}
