/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine configuration the tests start from (example_machine.h, and
 * the snapshot and gdb fuzzers and the snapshot benchmark, which do not use
 * Check). */
#ifndef XBOW_TEST_EXAMPLE_CONFIG_H
#define XBOW_TEST_EXAMPLE_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "machine/machine.h"

/* The configuration the tests run an example in: ncpus CPUs, 64 MB, the
 * console to nowhere, the clock chip fixed; the NIC model in slot 3 on the
 * backend net when model is not NULL; the guest's command line append. */
static inline machine_config example_config(unsigned ncpus, bool test_device, const char *model,
                                            const char *net, const char *append)
{
    machine_config cfg;
    machine_config_default(&cfg);
    cfg.ncpus = ncpus;
    cfg.mem_mb = 64;
    cfg.serial = "null";
    cfg.rtc_fixed = true;
    if (model) {
        cfg.nnics = 1;
        snprintf(cfg.nics[0].model, sizeof cfg.nics[0].model, "%s", model);
        snprintf(cfg.nics[0].net, sizeof cfg.nics[0].net, "%s", net);
    }
    cfg.append = append;
    cfg.test_device = test_device;
    return cfg;
}

#endif
