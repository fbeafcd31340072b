/* The SGI IP27 (Origin 200) board: address map, devices and the synthetic
 * PROM's hand-off to a kernel.  Called by machine.c. */
#ifndef XBOW_IP27_H
#define XBOW_IP27_H

#include "machine/machine.h"

int ip27_build(machine *m, char *err, size_t errlen);
void ip27_free(machine *m);
/* After a machine reset: rebuild PROM data in memory, reset vectors. */
void ip27_reset(machine *m);
/* Enter a loaded kernel as the PROM would (pc, argv, Status.KX). */
int ip27_boot(machine *m, const elf_image *img, char *err, size_t errlen);

#endif
