/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The machine configuration text: stable, and checked against a machine
 * with a message naming the first difference. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "machine/mconfig.h"
#include "../check_run.h"

static machine *build(unsigned ncpus, uint64_t mem_mb, const char *nic, const char *net)
{
    machine_config cfg;
    machine_config_default(&cfg);
    cfg.ncpus = ncpus;
    cfg.mem_mb = mem_mb;
    cfg.serial = "null";
    if (nic) {
        cfg.nnics = 1;
        snprintf(cfg.nics[0].model, sizeof cfg.nics[0].model, "%s", nic);
        snprintf(cfg.nics[0].net, sizeof cfg.nics[0].net, "%s", net);
    }
    xerr err;
    machine *m = machine_new(&cfg, &err);
    ck_assert_msg(m != NULL, "machine_new: %s", err.msg);
    return m;
}

static char *text_of(machine *m)
{
    strbuf b;
    sb_init(&b);
    mconfig_text(m, &b);
    return sb_take(&b);
}

START_TEST(same_machine_same_text)
{
    machine *a = build(3, 64, "tigon2", "sink");
    machine *b = build(3, 64, "tigon2", "sink");
    char *ta = text_of(a), *tb = text_of(b);
    ck_assert_str_eq(ta, tb);
    ck_assert_ptr_nonnull(strstr(ta, "cpus 3\n"));
    ck_assert_ptr_nonnull(strstr(ta, "node0.mem 64 MB\nnode1.mem 64 MB\n"));
    ck_assert_ptr_nonnull(strstr(ta, "nic0 tigon2 tigon0 slot 3 mac "));
    ck_assert_ptr_nonnull(strstr(ta, " peer sink\n"));
    xerr err;
    ck_assert_int_eq(mconfig_check(ta, b, &err), 0);
    free(ta);
    free(tb);
    machine_free(a);
    machine_free(b);
}
END_TEST

/* The engine and the serial backend are not the machine. */
START_TEST(engine_is_not_the_machine)
{
    machine_config cfg;
    machine_config_default(&cfg);
    cfg.serial = "null";
    cfg.engine = CPU_ENGINE_INTERP;
    xerr err;
    machine *a = machine_new(&cfg, &err);
    ck_assert_ptr_nonnull(a);
    machine *b = build(1, 512, NULL, NULL);
    char *ta = text_of(a);
    ck_assert_int_eq(mconfig_check(ta, b, &err), 0);
    free(ta);
    machine_free(a);
    machine_free(b);
}
END_TEST

static void expect_diff(machine *a, machine *b, const char *want)
{
    char *ta = text_of(a);
    xerr err;
    err.msg[0] = 0;
    ck_assert_int_eq(mconfig_check(ta, b, &err), -1);
    ck_assert_msg(strstr(err.msg, want) != NULL, "message \"%s\" lacks \"%s\"", err.msg, want);
    ck_assert_ptr_null(strchr(err.msg, '\n'));
    free(ta);
}

START_TEST(differences_named)
{
    machine *one = build(1, 64, NULL, NULL);
    machine *two = build(2, 64, NULL, NULL);
    machine *big = build(1, 128, NULL, NULL);
    machine *tig = build(1, 64, "tigon2", "sink");
    machine *ham = build(1, 64, "hamachi", "sink");
    machine *echo = build(1, 64, "tigon2", "echo");
    machine *four = build(4, 64, NULL, NULL);
    expect_diff(two, one, "cpus: the file has \"2\", this machine \"1\"");
    expect_diff(big, one, "node0.mem: the file has \"128 MB\", this machine \"64 MB\"");
    expect_diff(tig, one, "nic0: the file has \"tigon2 tigon0 slot 3");
    expect_diff(one, tig, "nic0: the file has none, this machine \"tigon2");
    expect_diff(tig, ham, "nic0:");
    expect_diff(tig, echo, "peer echo");
    expect_diff(four, one, "cpus:");
    expect_diff(one, four, "cpus:");
    machine_free(one);
    machine_free(two);
    machine_free(big);
    machine_free(tig);
    machine_free(ham);
    machine_free(echo);
    machine_free(four);
}
END_TEST

/* Stored text that is not ours: a difference, never a crash. */
START_TEST(garbage_text)
{
    machine *m = build(1, 64, NULL, NULL);
    const char *bad[] = {"", "\n", "mconfig 99\n", "garbage", "cpus\n", " \n\n\n", "mconfig 1"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xerr err;
        ck_assert_int_eq(mconfig_check(bad[i], m, &err), -1);
        ck_assert_ptr_nonnull(strstr(err.msg, "machine configuration differs: "));
    }
    machine_free(m);
}
END_TEST


int main(void)
{
    return check_main("mconfig", "mconfig", NULL, NULL, 60, same_machine_same_text,
                      engine_is_not_the_machine, differences_named, garbage_text);
}
