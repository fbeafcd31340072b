/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit tests' runner: every tests/unit program ends its main() with
 * return check_run(its_suite()) ? EXIT_FAILURE : EXIT_SUCCESS; */
#ifndef XBOW_TEST_CHECK_RUN_H
#define XBOW_TEST_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/* Runs the suite with Check's normal output and frees it; returns how
 * many of its tests failed. */
static inline int check_run(Suite *s)
{
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed;
}

/* ck_assert_msg for checks made by the thousand (every register of every
 * device at every save point): a passing ck_assert notes its location to
 * the runner through a pipe, one system call each, which made such loops
 * cost more than what they check.  This one fails the same way, with the
 * message, and notes nothing when the check passes. */
#define ck_require(cond, ...)          \
    do {                               \
        if (!(cond))                   \
            ck_abort_msg(__VA_ARGS__); \
    } while (0)

#endif
