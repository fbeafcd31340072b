/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The example guests (examples/ in the build tree, TOP_BUILDDIR) on whole
 * machines, for the tests that run them: test_snapshot and test_state. */
#ifndef XBOW_TEST_EXAMPLE_MACHINE_H
#define XBOW_TEST_EXAMPLE_MACHINE_H

#include <check.h>
#include <stdio.h>
#include <unistd.h>

#include "machine/machine.h"

#ifndef TOP_BUILDDIR
#define TOP_BUILDDIR "."
#endif

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

/* A machine of cfg with the example examples/elf loaded (the test fails
 * when either cannot be made). */
static inline machine *example_machine(const machine_config *cfg, const char *elf)
{
    xerr err;
    machine *m = machine_new(cfg, &err);
    ck_assert_msg(m != NULL, "machine_new: %s", err.msg);
    char path[512];
    snprintf(path, sizeof path, "%s/examples/%s", TOP_BUILDDIR, elf);
    ck_assert_msg(machine_load_kernel(m, path, &err) == 0, "%s: %s", path, err.msg);
    return m;
}

/* Whether examples/elf is built; when not, says so on stderr as test. */
static inline bool example_built(const char *elf, const char *test)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/%s", TOP_BUILDDIR, elf);
    if (access(path, R_OK) == 0)
        return true;
    fprintf(stderr, "%s: %s is not built, skipped\n", test, path);
    return false;
}

#endif
