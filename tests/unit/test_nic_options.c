/* Unit tests for the NIC command-line options (rows of ui/options.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ui/options.h"

/* Parse argv[1..argc-1] as xbow does; returns what ui_parse_options says,
 * the message in err. */
static int parse(ui_options *o, int argc, char **argv, strbuf *err)
{
    ck_assert_int_eq(ui_options_init(o, argc), 0);
    sb_reset(err);
    return ui_parse_options(o, argc, argv, err);
}

/* argv must be refused with a message containing want. */
static void refused(int argc, char **argv, const char *want)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(parse(&o, argc, argv, &err), UI_OPTS_ERROR);
    ck_assert_msg(err.s && strstr(err.s, want), "\"%s\", want \"%s\"", err.s ? err.s : "", want);
    ui_options_free(&o);
    sb_free(&err);
}

START_TEST(nic_net_pcap_dma)
{
    char *argv[] = {"xbow", "--nic", "hamachi", "--net", "gen:size=64,rate=1000",
                    "--pcap=a.pcap", "--nic=hamachi", "--net=none", "--nic-dma=per-word", NULL};
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(parse(&o, 9, argv, &err), UI_OPTS_RUN);
    ck_assert_uint_eq(o.cfg.nnics, 2);
    ck_assert_str_eq(o.cfg.nics[0].model, "hamachi");
    ck_assert_str_eq(o.cfg.nics[0].net, "gen:size=64,rate=1000");
    ck_assert_str_eq(o.cfg.nics[0].pcap, "a.pcap");
    ck_assert_str_eq(o.cfg.nics[1].net, "none");
    ck_assert_str_eq(o.cfg.nics[1].pcap, "");
    ck_assert_int_eq(o.cfg.nic_dma_per_word, 1);
    ui_options_free(&o);
    char *argv2[] = {"xbow", "--nic-dma", "raw", NULL};
    ck_assert_int_eq(parse(&o, 3, argv2, &err), UI_OPTS_RUN);
    ck_assert_int_eq(o.cfg.nic_dma_per_word, 0);
    ui_options_free(&o);
    sb_free(&err);
    char *argv3[] = {"xbow", "--nic-dma", "raw", "--nicely", NULL};
    refused(4, argv3, "unknown option \"--nicely\"");
}
END_TEST

START_TEST(tigon_models)
{
    char *argv[] = {"xbow", "--nic", "tigon2", "--nic=acenic", "--nic=acenic-copper", NULL};
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(parse(&o, 5, argv, &err), UI_OPTS_RUN);
    ck_assert_uint_eq(o.cfg.nnics, 3);
    ck_assert_str_eq(o.cfg.nics[0].model, "tigon2");
    ck_assert_str_eq(o.cfg.nics[2].model, "acenic-copper");
    ui_options_free(&o);
    sb_free(&err);
}
END_TEST

START_TEST(net_without_nic)
{
    char *argv[] = {"xbow", "--net", "sink", NULL};
    refused(3, argv, "--net applies to the NIC given before it: put --nic MODEL first");
}
END_TEST

START_TEST(unknown_model)
{
    char *argv[] = {"xbow", "--nic", "ne2000", NULL};
    refused(3, argv, "--nic: unknown model \"ne2000\" (known: ");
}
END_TEST

START_TEST(too_many_nics)
{
    char *argv[] = {"xbow", "--nic=hamachi", "--nic=hamachi", "--nic=hamachi",
                    "--nic=hamachi", "--nic=hamachi", "--nic=hamachi", NULL};
    refused(7, argv, "--nic: at most 5 NICs (PCI slots 3 to 7)");
}
END_TEST

START_TEST(bad_dma_mode)
{
    char *argv[] = {"xbow", "--nic-dma=fast", NULL};
    refused(2, argv, "--nic-dma: want raw or per-word, not \"fast\"");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nic-options");
    TCase *t = tcase_create("options");
    tcase_add_test(t, nic_net_pcap_dma);
    tcase_add_test(t, tigon_models);
    tcase_add_test(t, net_without_nic);
    tcase_add_test(t, unknown_model);
    tcase_add_test(t, too_many_nics);
    tcase_add_test(t, bad_dma_mode);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
