/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command line: the option table's parser, as xbow's main() runs it,
 * and the man page's OPTIONS section it generates. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "ui/options.h"
#include "../check_run.h"

/* Parse a command line given as words; the options stay in *o. */
static int parse_v(ui_options *o, strbuf *err, const char *const *words)
{
    int argc = 1;
    while (words[argc - 1])
        argc++;
    static char *argv[64];
    argv[0] = "xbow";
    for (int i = 1; i < argc; i++)
        argv[i] = (char *)words[i - 1];
    ui_options_init(o, argc);
    sb_reset(err);
    return ui_parse_options(o, argc, argv, err);
}
#define PARSE(o, err, ...) parse_v((o), (err), (const char *const[]){__VA_ARGS__, NULL})

/* The command line must fail with a message containing `want`. */
static void refused(const char *want, const char *const *words)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    int rc = parse_v(&o, &err, words);
    ck_assert_msg(rc == UI_OPTS_ERROR, "%s ...: accepted, want an error", words[0]);
    ck_assert_msg(err.s && strstr(err.s, want), "%s ...: \"%s\", want \"%s\"", words[0],
                  err.s ? err.s : "", want);
    ui_options_free(&o);
    sb_free(&err);
}
#define REFUSED(want, ...) refused((want), (const char *const[]){__VA_ARGS__, NULL})

START_TEST(unknown_options)
{
    REFUSED("unknown option \"--frobnicate\" (see xbow --help)", "--frobnicate");
    REFUSED("unknown option \"-frob\"", "-frob");
    REFUSED("unknown option \"--\"", "--");
    /* A flag takes no value; a single-dash option takes none after '='. */
    REFUSED("unknown option \"--batch=1\"", "--batch=1");
    REFUSED("unknown option \"--help=x\"", "--help=x");
    REFUSED("unknown option \"-x=f\"", "-x=f");
    REFUSED("unknown option \"-ex=echo\"", "-ex=echo");
    /* Names match whole: no prefixes, no longer names. */
    REFUSED("unknown option \"--cpus2\"", "--cpus2");
    REFUSED("unknown option \"--nic-dmax\"", "--nic-dmax");
    REFUSED("unknown option \"--ba\"", "--ba");
    /* An error stops at once: what follows is not looked at. */
    REFUSED("unknown option \"--bogus\"", "--bogus", "--help");
}
END_TEST

START_TEST(missing_arguments)
{
    REFUSED("option --cpus needs an argument (see xbow --help)", "--cpus");
    REFUSED("option -x needs an argument", "-x");
    REFUSED("option -ex needs an argument", "-ex");
    REFUSED("option --eval-command needs an argument", "--eval-command");
    REFUSED("option --nic needs an argument", "--nic");
    /* The value is looked for before the preceding --nic. */
    REFUSED("option --net needs an argument", "--net");
    REFUSED("option --mac needs an argument", "--nic", "hamachi", "--mac");
    /* The next word is the value even when it looks like an option. */
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(PARSE(&o, &err, "--append", "-x", "-b"), UI_OPTS_RUN);
    ck_assert_str_eq(o.cfg.append, "-x");
    ck_assert(o.batch);
    ui_options_free(&o);
    /* An empty value after '=' is a value. */
    ck_assert_int_eq(PARSE(&o, &err, "--append="), UI_OPTS_RUN);
    ck_assert_str_eq(o.cfg.append, "");
    ui_options_free(&o);
    sb_free(&err);
    REFUSED("--cpus", "--cpus=");
}
END_TEST

START_TEST(per_nic_before_nic)
{
    REFUSED("--net applies to the NIC given before it: put --nic MODEL first", "--net", "sink");
    REFUSED("--pcap applies to the NIC given before it", "--pcap=x.pcap");
    REFUSED("--mac applies to the NIC given before it", "--mac", "02:00:00:00:00:01");
    REFUSED("put --nic MODEL first", "--nic", "none", "--net", "sink");
    REFUSED("put --nic MODEL first", "--net", "sink", "--nic", "hamachi");
}
END_TEST

START_TEST(per_nic_options_follow_their_nic)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(PARSE(&o, &err, "--nic", "hamachi", "--net=echo", "--pcap", "a.pcap",
                           "--nic=e1000", "--mac", "02-00-00-00-00-05", "--net", "sink"),
                     UI_OPTS_RUN);
    ck_assert_uint_eq(o.cfg.nnics, 2);
    ck_assert_str_eq(o.cfg.nics[0].model, "hamachi");
    ck_assert_str_eq(o.cfg.nics[0].net, "echo");
    ck_assert_str_eq(o.cfg.nics[0].pcap, "a.pcap");
    ck_assert(!o.cfg.nics[0].mac_set);
    ck_assert_str_eq(o.cfg.nics[1].model, "e1000");
    ck_assert_str_eq(o.cfg.nics[1].net, "sink");
    ck_assert_str_eq(o.cfg.nics[1].pcap, "");
    ck_assert(o.cfg.nics[1].mac_set);
    ck_assert_uint_eq(o.cfg.nics[1].mac[5], 5);
    ui_options_free(&o);
    ck_assert_int_eq(PARSE(&o, &err, "--nic", "none"), UI_OPTS_RUN);
    ck_assert(o.no_nic);
    ck_assert_uint_eq(o.cfg.nnics, 0);
    ui_options_free(&o);
    /* Backend specs are kept as given (the machine checks them). */
    ck_assert_int_eq(PARSE(&o, &err, "--nic", "hamachi", "--net", "gen:size=64,rate=1000",
                           "--nic=hamachi", "--net=none"),
                     UI_OPTS_RUN);
    ck_assert_str_eq(o.cfg.nics[0].net, "gen:size=64,rate=1000");
    ck_assert_str_eq(o.cfg.nics[1].net, "none");
    ui_options_free(&o);
    /* Every model by its name, the Tigon2's variants too. */
    ck_assert_int_eq(PARSE(&o, &err, "--nic", "tigon2", "--nic=acenic", "--nic=acenic-copper",
                           "--nic", "e1000-82543", "--nic", "e1000-82544"),
                     UI_OPTS_RUN);
    ck_assert_uint_eq(o.cfg.nnics, 5);
    ck_assert_str_eq(o.cfg.nics[0].model, "tigon2");
    ck_assert_str_eq(o.cfg.nics[2].model, "acenic-copper");
    ck_assert_str_eq(o.cfg.nics[4].model, "e1000-82544");
    ui_options_free(&o);
    sb_free(&err);
    REFUSED("--mac: NIC 1 (--nic hamachi) already has --mac 02:00:00:00:00:01: one --mac per --nic",
            "--nic", "hamachi", "--mac", "02-00-00-00-00-01", "--mac", "02:00:00:00:00:02");
    REFUSED("--mac: \"zz\" is not a MAC address", "--nic", "hamachi", "--mac", "zz");
    REFUSED("--mac: 01:00:00:00:00:01 is a multicast address", "--nic", "hamachi", "--mac",
            "01:00:00:00:00:01");
    REFUSED("--nic: unknown model \"tulip\" (known: ", "--nic", "tulip");
    REFUSED("unknown option \"--nicely\"", "--nic-dma", "raw", "--nicely");
    REFUSED("--nic: at most 5 NICs", "--nic", "hamachi", "--nic", "hamachi", "--nic", "hamachi",
            "--nic", "hamachi", "--nic", "hamachi", "--nic", "hamachi");
    char longspec[200];
    memset(longspec, 'a', sizeof longspec - 1);
    longspec[sizeof longspec - 1] = 0;
    REFUSED("--net: \"aaa", "--nic", "tigon2", "--net", longspec);
    REFUSED("is too long (at most 127 characters)", "--nic", "tigon2", "--net", longspec);
}
END_TEST

START_TEST(both_value_forms)
{
    static const char *const pairs[][3] = {
        {"--cpus", "3", "--cpus=3"},
        {"--mem", "256", "--mem=256"},
        {"--serial", "null", "--serial=null"},
        {"--on-reset", "exit", "--on-reset=exit"},
        {"--nic-dma", "per-word", "--nic-dma=per-word"},
        {"--log-level", "debug", "--log-level=debug"},
        {"--max-insns", "10", "--max-insns=10"},
        {"--prom", "p.bin", "--prom=p.bin"},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(pairs); i++) {
        ui_options a, b;
        strbuf err;
        sb_init(&err);
        ck_assert_int_eq(PARSE(&a, &err, pairs[i][0], pairs[i][1]), UI_OPTS_RUN);
        ck_assert_int_eq(PARSE(&b, &err, pairs[i][2]), UI_OPTS_RUN);
        ck_assert_msg(a.cfg.ncpus == b.cfg.ncpus && a.cfg.mem_mb == b.cfg.mem_mb &&
                          a.cfg.on_reset == b.cfg.on_reset &&
                          a.cfg.nic_dma_per_word == b.cfg.nic_dma_per_word &&
                          a.log_level == b.log_level && a.max_insns == b.max_insns,
                      "%s %s differs from %s", pairs[i][0], pairs[i][1], pairs[i][2]);
        ck_assert_str_eq(a.cfg.serial, b.cfg.serial);
        ui_options_free(&a);
        ui_options_free(&b);
        sb_free(&err);
    }
}
END_TEST

START_TEST(values)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(PARSE(&o, &err, "--cpus", "4", "--mem", "0x100", "--on-reset", "restart",
                           "--nic-dma=per-word", "--log-level", "info", "--max-insns", "1000000",
                           "--rtc-fixed", "--testdev", "--allow-shell", "-q", "--cli", "--tui"),
                     UI_OPTS_RUN);
    ck_assert_uint_eq(o.cfg.ncpus, 4);
    ck_assert_uint_eq(o.cfg.mem_mb, 256);
    ck_assert_int_eq(o.cfg.on_reset, RESET_RESTART);
    ck_assert_int_eq(o.cfg.nic_dma_per_word, 1);
    ck_assert_int_eq(o.log_level, LOG_INFO);
    ck_assert_uint_eq(o.max_insns, 1000000);
    ck_assert(o.cfg.rtc_fixed && o.cfg.test_device && o.allow_shell && o.quiet && o.cli && o.tui);
    ck_assert(!o.batch);
    ui_options_free(&o);
    /* The defaults. */
    ck_assert_int_eq(PARSE(&o, &err, "-b"), UI_OPTS_RUN);
    ck_assert(o.batch);
    ck_assert_uint_eq(o.cfg.ncpus, 1);
    ck_assert_int_eq(o.cfg.on_reset, RESET_STOP);
    ck_assert_int_eq(o.log_level, LOG_WARN);
    ui_options_free(&o);
    sb_free(&err);
    REFUSED("--cpus must be a number from 1 to 4, not 9", "--cpus", "9");
    REFUSED("--cpus must be a number from 1 to 4, not 0", "--cpus=0");
    REFUSED("--mem", "--mem", "16");
    REFUSED("--max-insns", "--max-insns", "0");
    REFUSED("--on-reset: want stop, exit or restart, not \"never\"", "--on-reset=never");
    REFUSED("--nic-dma: want raw or per-word, not \"fast\"", "--nic-dma", "fast");
    REFUSED("--log-level: want error, warning, info or debug, not \"loud\"", "--log-level", "loud");
}
END_TEST

START_TEST(commands_in_order_and_aliases)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(PARSE(&o, &err, "-ex", "a", "-x", "f1", "--eval-command", "b", "--ex=c",
                           "--ex", "d", "-batch", "-x", "f2", "--eval-command=e"),
                     UI_OPTS_RUN);
    static const struct {
        const char *text;
        bool file;
    } want[] = {{"a", false}, {"f1", true}, {"b", false}, {"c", false},
                {"d", false}, {"f2", true}, {"e", false}};
    ck_assert_uint_eq(o.ncmds, ARRAY_SIZE(want));
    for (unsigned i = 0; i < ARRAY_SIZE(want); i++) {
        ck_assert_str_eq(o.cmds[i].text, want[i].text);
        ck_assert_int_eq(o.cmds[i].is_file, want[i].file);
    }
    ck_assert(o.batch);
    ui_options_free(&o);
    sb_free(&err);
}
END_TEST

START_TEST(kernel_argument)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    ck_assert_int_eq(PARSE(&o, &err, "-b", "vmlinux", "--cpus", "2"), UI_OPTS_RUN);
    ck_assert_str_eq(o.kernel, "vmlinux");
    ui_options_free(&o);
    /* "-" is a file name, as in most tools. */
    ck_assert_int_eq(PARSE(&o, &err, "-"), UI_OPTS_RUN);
    ck_assert_str_eq(o.kernel, "-");
    ui_options_free(&o);
    sb_free(&err);
    REFUSED("more than one kernel given (\"a.elf\" and \"b.elf\")", "a.elf", "b.elf");
}
END_TEST

START_TEST(help_and_version_stop_parsing)
{
    ui_options o;
    strbuf err;
    sb_init(&err);
    /* ui_usage goes to stdout: keep the test's output quiet. */
    FILE *saved = stdout;
    stdout = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(stdout);
    ck_assert_int_eq(PARSE(&o, &err, "--help", "--frobnicate"), UI_OPTS_EXIT);
    ui_options_free(&o);
    ck_assert_int_eq(PARSE(&o, &err, "-V"), UI_OPTS_EXIT);
    ui_options_free(&o);
    fclose(stdout);
    stdout = saved;
    sb_free(&err);
    REFUSED("unknown option \"--frobnicate\"", "--frobnicate", "--help");
}
END_TEST

/* Every row is complete and fits its field; every name is found, once. */
START_TEST(table_rows)
{
    unsigned options = 0;
    for (unsigned i = 0; i < ui_option_count; i++) {
        const ui_option *r = &ui_option_table[i];
        ck_assert_ptr_nonnull(r->help);
        if (r->kind == UI_OPT_SECTION)
            continue;
        options++;
        ck_assert_msg(r->name && r->name[0] == '-', "row %u has no name", i);
        ck_assert_msg(r->man && *r->man, "%s has no man text", r->name);
        ck_assert_msg(*r->help, "%s has no --help text", r->name);
        ck_assert_msg(r->man[strlen(r->man) - 1] != '\n', "%s: man text ends in a newline",
                      r->name);
        ck_assert_ptr_eq(ui_option_find(r->name), r);
        if (r->short_name)
            ck_assert_ptr_eq(ui_option_find(r->short_name), r);
        for (unsigned k = 0; k < ARRAY_SIZE(r->aliases) && r->aliases[k]; k++)
            ck_assert_ptr_eq(ui_option_find(r->aliases[k]), r);
        switch (r->kind) {
        case UI_OPT_TRUE:
        case UI_OPT_FALSE: ck_assert_msg(!r->arg && r->size == sizeof(bool), "%s", r->name); break;
        case UI_OPT_STRING:
            ck_assert_msg(r->arg && r->size == sizeof(const char *), "%s", r->name);
            break;
        case UI_OPT_TEXT: ck_assert_msg(r->arg && r->size > 1, "%s", r->name); break;
        case UI_OPT_NUMBER:
            ck_assert_msg(r->arg && r->lo <= r->hi &&
                              (r->size == 8 || (r->size == 4 && r->hi <= UINT32_MAX)),
                          "%s", r->name);
            break;
        case UI_OPT_CHOICE:
            ck_assert_msg(r->arg && r->choices && r->size == sizeof(int), "%s", r->name);
            break;
        case UI_OPT_CALL: ck_assert_msg(r->fn != NULL, "%s", r->name); break;
        case UI_OPT_SECTION: break;
        }
    }
    ck_assert_uint_ge(options, 20);
}
END_TEST

/* --help shows every option with its value's name, and its text. */
START_TEST(help_lists_every_option)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ui_usage(f);
    fclose(f);
    for (unsigned i = 0; i < ui_option_count; i++) {
        const ui_option *r = &ui_option_table[i];
        if (r->kind == UI_OPT_SECTION)
            continue;
        char shown[128];
        snprintf(shown, sizeof shown, "%s%s%s", r->name, r->arg ? (r->show_eq ? "=" : " ") : "",
                 r->arg ? r->arg : "");
        ck_assert_msg(strstr(text, shown), "--help lacks \"%s\"", shown);
        char first[80];
        snprintf(first, sizeof first, "%.*s", (int)strcspn(r->help, "\n"), r->help);
        ck_assert_msg(strstr(text, first), "--help lacks the text of %s", r->name);
    }
    ck_assert(strstr(text, "Usage: xbow [OPTIONS] [KERNEL]\n"));
    ck_assert(strstr(text, "\n  -b, --batch          no TUI: run the commands"));
    ck_assert(strstr(text, "\n      --nic-dma=MODE   payload DMA"));
    free(text);
}
END_TEST

START_TEST(man_page_is_current)
{
    strbuf now, want;
    sb_init(&now);
    sb_init(&want);
    ck_assert_msg(ui_man_page(TOP_SRCDIR "/docs/xbow.1", &now, &want) == 0,
                  "docs/xbow.1 is missing or has no OPTIONS section");
    ck_assert_msg(strcmp(now.s, want.s) == 0,
                  "docs/xbow.1's OPTIONS differ from the option table: run \"make options-doc\"");
    sb_free(&now);
    sb_free(&want);
}
END_TEST

START_TEST(man_section_replaced)
{
    strbuf out;
    sb_init(&out);
    ck_assert_int_eq(ui_man_with_options(".TH X 1\n.SH NAME\nx\n", &out), -1);
    sb_reset(&out);
    ck_assert_int_eq(ui_man_with_options(".SH OPTIONS\nOLD-OPTIONS\n.SH EXIT STATUS\n0\n", &out),
                     0);
    ck_assert(!strstr(out.s, "OLD-OPTIONS"));
    ck_assert(!strncmp(out.s, ".SH OPTIONS\n.\\\" Generated from the option table", 45));
    ck_assert(strstr(out.s, "\n.SS Front end\n.TP\n.BR \\-b \", \" \\-\\-batch\n"));
    ck_assert(strstr(out.s, "\n.TP\n.BI \\-\\-nic\\-dma= MODE\n"));
    ck_assert(strstr(out.s, "\n.TP\n.BI \\-x \" FILE\"\n"));
    const char *tail = ".SH EXIT STATUS\n0\n";
    ck_assert_str_eq(out.s + strlen(out.s) - strlen(tail), tail);
    sb_free(&out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("options");
    TCase *t = tcase_create("options");
    tcase_add_test(t, unknown_options);
    tcase_add_test(t, missing_arguments);
    tcase_add_test(t, per_nic_before_nic);
    tcase_add_test(t, per_nic_options_follow_their_nic);
    tcase_add_test(t, both_value_forms);
    tcase_add_test(t, values);
    tcase_add_test(t, commands_in_order_and_aliases);
    tcase_add_test(t, kernel_argument);
    tcase_add_test(t, help_and_version_stop_parsing);
    tcase_add_test(t, table_rows);
    tcase_add_test(t, help_lists_every_option);
    tcase_add_test(t, man_page_is_current);
    tcase_add_test(t, man_section_replaced);
    suite_add_tcase(s, t);
    return check_run(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
