/* Options that belong to areas beyond the core (NICs, networking, PCI test
 * device).  Each area adds its options here and to --help in main.c. */
#include <string.h>

#include "ui/ui.h"

int ui_parse_extra_option(ui_options *o, int argc, char **argv, int *i)
{
    (void)argc;
    if (!strcmp(argv[*i], "--testdev")) {
        o->cfg.test_device = true;
        return 1;
    }
    return 0;
}
