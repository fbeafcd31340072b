/* The SGI IP27 (Origin 200) board.  See ../shared/hw/ip27.md and
 * docs/hardware.md.
 *
 * Node 0 RAM is visible through CAC (cached), UNCAC (uncached attribute 3)
 * and HSPEC UALIAS (uncached attribute 0, also what KSEG1 reaches). */
#include "machine/ip27.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"

#define UALIAS_SIZE (256ull << 20)

int ip27_build(machine *m, char *err, size_t errlen)
{
    uint64_t size = m->cfg.mem_mb << 20;
    if (m->cfg.mem_mb < 32 || m->cfg.mem_mb > 4096) {
        snprintf(err, errlen, "--mem must be 32 to 4096 MB, not %llu",
                 (unsigned long long)m->cfg.mem_mb);
        return -1;
    }
    m->ram = ram_block_new(&m->bus, "node0-ram", size);
    if (!m->ram) {
        snprintf(err, errlen, "cannot allocate %llu MB of guest RAM",
                 (unsigned long long)m->cfg.mem_mb);
        return -1;
    }
    uint64_t ualias = size < UALIAS_SIZE ? size : UALIAS_SIZE;
    if (bus_map_ram(&m->bus, "ram-cac", BUS_CAC(0), size, m->ram, 0, false) ||
        bus_map_ram(&m->bus, "ram-uncac", BUS_UNC(3, 0), size, m->ram, 0, false) ||
        bus_map_ram(&m->bus, "ram-ualias", BUS_UNC(0, 0), ualias, m->ram, 0, false)) {
        snprintf(err, errlen, "cannot map node 0 memory");
        return -1;
    }
    return 0;
}

void ip27_free(machine *m) { (void)m; }

void ip27_reset(machine *m) { (void)m; }

int ip27_boot(machine *m, const elf_image *img, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    cpu *c = m->cpus[0];
    cpu_set_pc(c, img->entry);
    /* 64-bit kernel mode, exception levels clear (ip27.md 5.2). */
    cpu_set_cp0(c, 12, (1u << 7) | (1u << 29) | (1u << 26));
    return 0;
}
