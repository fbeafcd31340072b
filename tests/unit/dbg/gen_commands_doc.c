/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Print docs/commands.md, generated from the debugger's command table
 * (make commands-doc).  test_dbg checks that the file is up to date. */
#include <stdio.h>

#include "dbg/dbg.h"

int main(void)
{
    dbg *d = dbg_new(NULL);
    if (!d)
        return 1;
    strbuf b;
    sb_init(&b);
    dbg_commands_markdown(d, &b);
    fputs(b.s, stdout);
    sb_free(&b);
    dbg_free(d);
    return 0;
}
