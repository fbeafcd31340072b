/* Print the man page PAGE (docs/xbow.1) with its OPTIONS section generated
 * from the option table (make options-doc).  test_options checks that the
 * file is up to date. */
#include <stdio.h>
#include <stdlib.h>

#include "ui/options.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_options_doc PAGE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    strbuf page, out;
    sb_init(&page);
    sb_init(&out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_printf(&page, "%.*s", (int)n, buf);
    fclose(f);
    if (!page.s || ui_man_with_options(page.s, &out)) {
        fprintf(stderr, "%s: no \".SH OPTIONS\" line\n", argv[1]);
        return 1;
    }
    fputs(out.s, stdout);
    sb_free(&page);
    sb_free(&out);
    return 0;
}
