/* SPDX-License-Identifier: GPL-2.0-or-later */ /* Counts boots in memory that survives a machine reset (node offset
 * 0x1f000, between the PROM's area and the program), then resets the
 * machine through the HUB.  With --on-reset=restart it boots again. */
#include "xbow.h"

#define MAGIC 0x424f4f54434e5400ul /* "BOOTCNT" */

struct counter {
    u64 magic, boots;
};

int main(void)
{
    struct counter *c = (struct counter *)(CAC_BASE + 0x1f000);
    if (c->magic != MAGIC) {
        c->magic = MAGIC;
        c->boots = 0;
    }
    c->boots++;
    printf("restart: boot %lu\n", c->boots);
    return 0; /* crt0 resets the machine */
}
