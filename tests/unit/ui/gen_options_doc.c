/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Print the man page PAGE (docs/xbow.1) with its OPTIONS section generated
 * from the option table (make options-doc).  test_options checks that the
 * file is up to date. */
#include <stdio.h>

#include "ui/options.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_options_doc PAGE\n");
        return 2;
    }
    strbuf now, page;
    sb_init(&now);
    sb_init(&page);
    if (ui_man_page(argv[1], &now, &page)) {
        fprintf(stderr, "%s: cannot be read or has no \".SH OPTIONS\" line\n", argv[1]);
        return 1;
    }
    fputs(page.s, stdout);
    sb_free(&now);
    sb_free(&page);
    return 0;
}
