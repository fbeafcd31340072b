/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The example guests (examples/ in the build tree, TOP_BUILDDIR) on whole
 * machines, for the tests that run them: test_snapshot and test_state (and
 * test_machine for test_ip27). */
#ifndef XBOW_TEST_EXAMPLE_MACHINE_H
#define XBOW_TEST_EXAMPLE_MACHINE_H

#include <check.h>
#include <stdio.h>
#include <unistd.h>

#include "example_config.h"
#include "machine/machine.h"

#ifndef TOP_BUILDDIR
#define TOP_BUILDDIR "."
#endif

/* A machine of cfg (the test fails when it cannot be made). */
static inline machine *test_machine(const machine_config *cfg)
{
    xerr err;
    machine *m = machine_new(cfg, &err);
    ck_assert_msg(m != NULL, "machine_new: %s", err.msg);
    return m;
}

/* A machine of cfg with the example examples/elf loaded (the test fails
 * when either cannot be made). */
static inline machine *example_machine(const machine_config *cfg, const char *elf)
{
    machine *m = test_machine(cfg);
    xerr err;
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
