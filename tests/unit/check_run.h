/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit tests' runner: every tests/unit program ends its main() with
 * return check_run(its_suite()) ? EXIT_FAILURE : EXIT_SUCCESS;
 * (or, when the suite is one test case, return check_main(...) below)
 * and builds its suite with check_case and check_add_tests:
 *     Suite *s = suite_create("cpu");
 *     check_add_tests(check_case(s, "cpu", setup, teardown, 0), test, test, ...);
 *     return s; */
#ifndef XBOW_TEST_CHECK_RUN_H
#define XBOW_TEST_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A test case's timeout when it names none: Check's own default (4 s) is
 * a timing assertion on a busy 2-core host (test_onewire timed out at a
 * load average of 10 while taking 1.6 s on a quiet one); the timeout is
 * only there to end a hang.  CK_DEFAULT_TIMEOUT in the environment still
 * sets it, and CK_TIMEOUT_MULTIPLIER scales every timeout. */
#define CHECK_HANG_SECONDS 120

/* Creates the test case NAME in the suite, with the checked fixture SETUP
 * and TEARDOWN (NULL for none) and a timeout of TIMEOUT seconds (0: the
 * environment's CK_DEFAULT_TIMEOUT or CHECK_HANG_SECONDS); returns it for
 * check_add_tests. */
static inline TCase *check_case(Suite *s, const char *name, void (*setup)(void),
                                void (*teardown)(void), double timeout)
{
    TCase *tc = tcase_create(name);
    if (setup || teardown)
        tcase_add_checked_fixture(tc, setup, teardown);
    if (timeout <= 0 && !getenv("CK_DEFAULT_TIMEOUT"))
        timeout = CHECK_HANG_SECONDS;
    if (timeout > 0)
        tcase_set_timeout(tc, timeout);
    suite_add_tcase(s, tc);
    return tc;
}

/* Adds the tests to the test case in the order given (a NULL-terminated
 * list): check_add_tests below is how the programs call it. */
static inline void check_add_test_list(TCase *tc, const TTest *const *tests)
{
    for (; *tests; tests++)
        tcase_add_test(tc, *tests);
}

/* check_add_tests(tc, a, b, c) is tcase_add_test(tc, a); ... for each. */
#define check_add_tests(tc, ...) \
    check_add_test_list((tc), (const TTest *const[]){__VA_ARGS__, NULL})

/* The whole main() of a program whose suite is one test case:
 *     int main(void) { return check_main("hub", "hub", NULL, NULL, 0, test, test, ...); }
 * is the suite SUITE with the test case TCASE (check_case's fixture and
 * timeout) holding the tests in the order given, run by check_run; returns
 * main's exit status. */
static inline int check_main_list(const char *suite, const char *tcase, void (*setup)(void),
                                  void (*teardown)(void), double timeout, const TTest *const *tests)
{
    Suite *s = suite_create(suite);
    check_add_test_list(check_case(s, tcase, setup, teardown, timeout), tests);
    return check_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
#define check_main(suite, tcase, setup, teardown, timeout, ...)       \
    check_main_list((suite), (tcase), (setup), (teardown), (timeout), \
                    (const TTest *const[]){__VA_ARGS__, NULL})

/* Makes a temporary file from the template path ("/tmp/xbow-x-XXXXXX",
 * which it completes) holding text; the test fails if it cannot. */
static inline void check_temp_file(char *path, const char *text)
{
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
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
