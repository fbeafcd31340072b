/* Unit tests for the NIC command-line options (ui/options.c). */
#include <check.h>
#include <stdlib.h>

#include "ui/ui.h"

/* Parse argv[1..] with ui_parse_extra_option; fails on an unknown option. */
static void parse(ui_options *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++)
        ck_assert_msg(ui_parse_extra_option(o, argc, argv, &i) == 1, "%s not taken", argv[i]);
}

START_TEST(nic_net_pcap_dma)
{
    char *argv[] = {"xbow", "--nic", "hamachi", "--net", "gen:size=64,rate=1000",
                    "--pcap=a.pcap", "--nic=hamachi", "--net=none", "--nic-dma=per-word", NULL};
    ui_options o;
    parse(&o, 9, argv);
    ck_assert_uint_eq(o.cfg.nnics, 2);
    ck_assert_str_eq(o.cfg.nics[0].model, "hamachi");
    ck_assert_str_eq(o.cfg.nics[0].net, "gen:size=64,rate=1000");
    ck_assert_str_eq(o.cfg.nics[0].pcap, "a.pcap");
    ck_assert_str_eq(o.cfg.nics[1].net, "none");
    ck_assert_str_eq(o.cfg.nics[1].pcap, "");
    ck_assert_int_eq(o.cfg.nic_dma_per_word, 1);
    char *argv2[] = {"xbow", "--nic-dma", "raw", "--nicely", NULL};
    int i = 1;
    ck_assert_int_eq(ui_parse_extra_option(&o, 4, argv2, &i), 1);
    ck_assert_int_eq(i, 2);
    ck_assert_int_eq(o.cfg.nic_dma_per_word, 0);
    i = 3;
    ck_assert_int_eq(ui_parse_extra_option(&o, 4, argv2, &i), 0);
}
END_TEST

START_TEST(tigon_models)
{
    char *argv[] = {"xbow", "--nic", "tigon2", "--nic=acenic", "--nic=acenic-copper", NULL};
    ui_options o;
    parse(&o, 5, argv);
    ck_assert_uint_eq(o.cfg.nnics, 3);
    ck_assert_str_eq(o.cfg.nics[0].model, "tigon2");
    ck_assert_str_eq(o.cfg.nics[2].model, "acenic-copper");
}
END_TEST

START_TEST(net_without_nic)
{
    char *argv[] = {"xbow", "--net", "sink", NULL};
    ui_options o;
    parse(&o, 3, argv);
}
END_TEST

START_TEST(unknown_model)
{
    char *argv[] = {"xbow", "--nic", "ne2000", NULL};
    ui_options o;
    parse(&o, 3, argv);
}
END_TEST

START_TEST(too_many_nics)
{
    char *argv[] = {"xbow", "--nic=hamachi", "--nic=hamachi", "--nic=hamachi",
                    "--nic=hamachi", "--nic=hamachi", "--nic=hamachi", NULL};
    ui_options o;
    parse(&o, 7, argv);
}
END_TEST

START_TEST(bad_dma_mode)
{
    char *argv[] = {"xbow", "--nic-dma=fast", NULL};
    ui_options o;
    parse(&o, 2, argv);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nic-options");
    TCase *t = tcase_create("options");
    tcase_add_test(t, nic_net_pcap_dma);
    tcase_add_test(t, tigon_models);
    tcase_add_exit_test(t, net_without_nic, 2);
    tcase_add_exit_test(t, unknown_model, 2);
    tcase_add_exit_test(t, too_many_nics, 2);
    tcase_add_exit_test(t, bad_dma_mode, 2);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
