/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the debugger's commands, driven through dbg_execute() the
 * way batch mode drives them, on the fixture machine (dbg_fixture.c).
 * Guest-level tests of the real binary are in tests/batch/. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dbg_fixture.h"
#include "dev/pci/testdev.h"
#include "machine/ip27.h"
#include "../check_run.h"

#define has(text, sub) \
    ck_assert_msg(strstr((text), (sub)) != NULL, "expected \"%s\" in:\n%s", (sub), (text))
#define hasnt(text, sub) \
    ck_assert_msg(strstr((text), (sub)) == NULL, "did not expect \"%s\" in:\n%s", (sub), (text))

static void setup1(void) { fixture_setup(1); }
static void setup2(void) { fixture_setup(2); }

static uint64_t pc(void) { return cpu_pc(M->cpus[D->cur_cpu]); }
static uint64_t reg(unsigned n) { return cpu_gpr(M->cpus[D->cur_cpu], n); }

static unsigned count(const char *text, const char *sub)
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, sub)); p += strlen(sub))
        n++;
    return n;
}

/* ---- help and the command reference ------------------------------------ */

START_TEST(every_command_is_documented)
{
    for (unsigned i = 0; i < dbg_command_count(D); i++) {
        const command *c = dbg_command_at(D, i);
        ck_assert_msg(c->help, "%s has no help", c->name);
        /* one of: a handler of the argument string with its usage line, or
         * declared arguments (the usage is generated from them) */
        ck_assert_msg(!c->fn != !c->run, "%s: fn or run, not both", c->name);
        ck_assert_msg(c->run ? !c->usage : c->usage != NULL,
                      "%s: a usage line with fn, none with run (generated)", c->name);
        ck_assert_msg(c->nargs <= CMD_MAX_ARGS && (c->run || !c->nargs), "%s: arguments", c->name);
        bool optional = false;
        for (unsigned k = 0; k < c->nargs; k++) {
            const cmd_arg *a = &c->args[k];
            bool rest = a->kind == ARG_EXPR || a->kind == ARG_TEXT || a->kind == ARG_LOCATION ||
                        a->kind == ARG_LOCATIONS || a->kind == ARG_LIST || a->kind == ARG_FILE;
            /* before "[if COND]", which is cut off first */
            unsigned end = c->nargs - (c->args[c->nargs - 1].kind == ARG_COND);
            ck_assert_msg(a->kind != ARG_COND || k + 1 == c->nargs, "%s: if COND must be last",
                          c->name);
            ck_assert_msg(a->kind != ARG_WORD || a->choices, "%s: %s has no choices", c->name,
                          a->name);
            ck_assert_msg(!rest || k + 1 == end,
                          "%s: %s takes the rest of the line: "
                          "it must be the last argument",
                          c->name, a->name);
            ck_assert_msg(a->optional || !optional, "%s: %s required after an optional one",
                          c->name, a->name);
            ck_assert_msg(a->optional || a->what, "%s: %s has no \"what\" for the error", c->name,
                          a->name);
            ck_assert_msg(a->kind != ARG_COUNT || a->min <= a->max, "%s: %s", c->name, a->name);
            /* (a /FMT or a keyword is known by its shape: what follows may be required) */
            optional |= a->optional && a->kind != ARG_FORMAT && a->kind != ARG_KEYWORD;
        }
        ck_assert_msg(strstr(c->help, "Example"), "%s has no example", c->name);
        char cmd[128];
        snprintf(cmd, sizeof cmd, "help %s", c->name);
        const char *o = ok(cmd);
        strbuf b;
        sb_init(&b);
        dbg_help_text(D, c, &b);
        ck_assert_str_eq(o, b.s);
        sb_free(&b);
    }
    has(ok("help"), "Breakpoints:");
    has(ok("help all"), "watch dma");
    has(ok("help b"), "Usage: break [LOCATION] [if COND]");
    has(bad("help nosuchthing"), "Undefined command: \"nosuchthing\"");
}
END_TEST

/* ---- Tab completion ------------------------------------------------------ */

static void collect(void *ctx, const char *cand)
{
    strbuf *b = ctx;
    sb_printf(b, "[%s]", cand);
}

/* The candidates for the last word of `line`, as "[a][b]". */
static const char *complete(const char *line)
{
    static strbuf b;
    sb_free(&b);
    sb_init(&b);
    const char *sp = strrchr(line, ' ');
    char before[256];
    snprintf(before, sizeof before, "%.*s", sp ? (int)(sp - line + 1) : 0, line);
    dbg_complete(D, before, sp ? sp + 1 : line, collect, &b);
    return b.s ? b.s : "";
}

START_TEST(tab_completion)
{
    ck_assert_str_eq(complete("track writes "), "[on][off]");
    has(complete("inf"), "[info]");
    has(complete("info reg"), "[registers]");
    has(complete("i reg"), "[registers]");
    has(complete("break "), "[event]");
    has(complete("break ma"), "[main]");
    hasnt(complete("break ma"), "[func]");
    has(complete("print $p"), "[$pc]");
    has(complete("x/4xw coun"), "[counter]");
    has(complete("watch p:cou"), "[p:counter]");
    has(complete("info registers st"), "[status]");
    has(complete("ring fake"), "[fakenic]");
    hasnt(complete("ring test"), "[testhub]"); /* no rings there */
    ck_assert_str_eq(complete("ring fakenic "), "[tx]");
    ck_assert_str_eq(complete("break event fakenic.tx"), "[fakenic.tx.desc-done]");
    has(complete("break reg fake"), "[fakenic.]");
    has(complete("break reg fakenic.CT"), "[fakenic.CTRL]");
    ck_assert_str_eq(complete("break reg fakenic.CTRL.M"), "[fakenic.CTRL.MODE]");
    has(complete("info device fakenic "), "[ring]");
    has(complete("watch dma fake"), "[fakenic]");
    has(complete("set logging "), "[redirect]");
    ck_assert_str_eq(complete("set pagination "), "[on][off]");
    ck_assert_str_eq(complete("show tr"), "[trace-commands]"); /* the "set NAME" settings */
    has(complete("show "), "[version]");
    has(complete("info events fake"), "[fakenic.tx.desc-done]");
    has(complete("help wat"), "[watch]");
    ck_assert_str_eq(complete("delete "), "[display][breakpoints]"); /* "delete display" */
    ck_assert_str_eq(complete("delete 1"), "");
    ck_assert_int_eq(dbg_complete(D, "source ", "ex", collect, &(strbuf){0}), DBG_COMPLETE_FILES);
    ok("set $mine = 3");
    has(complete("print $mi"), "[$mine]");
}
END_TEST

/* ---- the command registry ------------------------------------------------ */

static unsigned many_runs;
static int cmd_many(dbg *d, const char *args)
{
    many_runs++;
    dbg_printf(d, "ran with \"%s\"\n", args);
    return 0;
}

/* Each dbg has its own registry and it grows: thousands of commands are all
 * found and run; a name registered twice is refused, not dropped silently. */
START_TEST(registry_grows)
{
    enum { MANY = 3000 };
    static command many[MANY];
    static char names[MANY][16];
    for (unsigned i = 0; i < MANY; i++) {
        snprintf(names[i], sizeof names[i], "zz%04u", i);
        many[i] = (command){.name = names[i],
                            .fn = cmd_many,
                            .usage = names[i],
                            .help = "A test command.\nExample: zz0000"};
    }
    unsigned before = dbg_command_count(D);
    ck_assert_int_gt(before, 50);
    ck_assert_int_eq(dbg_register_group(D, "Test", many, MANY), 0);
    ck_assert_uint_eq(dbg_command_count(D), before + MANY);
    ck_assert_ptr_eq(dbg_command_find(D, "zz2999"), &many[2999]);
    ck_assert_ptr_eq(dbg_command_at(D, before + 1234), &many[1234]);
    ck_assert_str_eq(dbg_command_group(D, before + MANY - 1), "Test");
    many_runs = 0;
    has(ok("zz2999 hello"), "ran with \"hello\"");
    has(ok("zz0512"), "ran with \"\"");
    ck_assert_uint_eq(many_runs, 2);
    has(ok("help zz2999"), "Usage: zz2999");
    /* the old commands still win where they did */
    has(ok("help break"), "Usage: break [LOCATION] [if COND]");
    /* twice: refused (the first one stays), the count does not change */
    ck_assert_int_eq(dbg_register_group(D, "Test", &many[7], 1), -1);
    ck_assert_int_eq(dbg_register_group(D, "Test", dbg_command_find(D, "stepi"), 1), -1);
    ck_assert_uint_eq(dbg_command_count(D), before + MANY);
    /* another debugger does not see them */
    dbg *other = dbg_new(NULL);
    ck_assert_uint_eq(dbg_command_count(other), before);
    ck_assert_ptr_null(dbg_command_find(other, "zz0000"));
    dbg_free(other);
}
END_TEST

/* Declared arguments: the dispatcher's errors for a missing, wrong or extra
 * argument, with the generated usage line. */
START_TEST(declared_arguments)
{
    uint64_t at = pc();
    has(ok("stepi 0"), "<"); /* 0 steps nothing, shows where */
    ck_assert_uint_eq(pc(), at);
    ok("stepi 1+1"); /* an expression */
    ck_assert_uint_ne(pc(), at);
    has(bad("stepi -1"), "stepi: the count must be 0 or more, not -1.");
    has(bad("stepi 1 2"), "stepi: unexpected argument \"2\".  Usage: stepi [N]");
    has(bad("stepi nosuchname"), "No symbol \"nosuchname\"");
    has(bad("stepi 99999999999999999999999"), "stepi: ");
    has(bad("continue 0"), "continue: the count must be positive, not 0.");
    has(bad("continue -1"), "continue: the count must be positive, not -1.");
    has(bad("c 5 6"), "continue: unexpected argument \"6\".  Usage: continue [N]");
    has(bad("jump"), "jump: give a location.  Usage: jump LOCATION");
    has(bad("jump main if 1"), "jump: no condition here.");
    has(bad("advance"), "advance: give a location.  Usage: advance LOCATION");
    has(bad("kill now"), "kill: it takes no arguments.  Usage: kill");
    has(bad("info cpus 1"), "info cpus: it takes no arguments.  Usage: info cpus");
    has(bad("cpu -1"), "cpu: the CPU number must be 0 or more, not -1.");
    has(bad("cpu 0 1"), "cpu: unexpected argument \"1\".  Usage: cpu [N]");
    has(bad("cpu 7"), "cpu: want a CPU number from 0 to 0.");
    has(ok("cpu 0"), "[Current CPU is cpu0]");
    has(ok("help continue"), "Usage: continue [N]\n");
    has(ok("help until"), "Usage: until [LOCATION]\n");
    has(bad("bt 0"), "backtrace: the count must be positive, not 0.");
    has(bad("bt 1 2"), "backtrace: unexpected argument \"2\".  Usage: backtrace [N]");
    has(bad("info fpu x"), "info fpu: it takes no arguments.  Usage: info fpu");
    has(bad("info lastwrite"), "info lastwrite: give an address.  Usage: info lastwrite ADDR");
    has(bad("ring"), "ring: give a NIC.  Usage: ring NIC RING [COUNT]");
    has(bad("ring fakenic"), "ring: give a ring.  Usage: ring NIC RING [COUNT]");
    has(bad("ring fakenic tx 0"), "ring: the count must be positive, not 0.");
    has(bad("ring fakenic tx 1 2"), "ring: unexpected argument \"2\".");
    has(ok("break main"), "Breakpoint 1");
    has(bad("ignore 1 -1"), "ignore: the count must be a number from 0 to 4294967295, not -1.");
    has(bad("ignore 1 2 3"), "ignore: unexpected argument \"3\".  Usage: ignore N COUNT");
    has(ok("ignore $bpnum 2"), "Will ignore next 2 crossings of breakpoint 1.");
    has(ok("help info breakpoints"), "Usage: info breakpoints [N]...\n");
    has(ok("info breakpoints 1"), "main");
    has(bad("up -1"), "up: the number of frames must be a number from 0 to 1048576, not -1.");
    has(bad("down 1 2"), "down: unexpected argument \"2\".  Usage: down [N]");
    has(bad("clear main if 1"), "clear: no condition here.");
    has(ok("clear main"), "Deleted breakpoint 1");
}
END_TEST

START_TEST(commands_md_is_current)
{
    FILE *f = fopen(TOP_SRCDIR "/docs/commands.md", "r");
    ck_assert_msg(f != NULL, "docs/commands.md is missing");
    strbuf file, gen;
    sb_init(&file);
    sb_init(&gen);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
        buf[n] = 0;
        sb_puts(&file, buf);
    }
    fclose(f);
    dbg_commands_markdown(D, &gen);
    ck_assert_msg(file.s && !strcmp(file.s, gen.s),
                  "docs/commands.md differs from the help texts: run \"make commands-doc\"");
    sb_free(&file);
    sb_free(&gen);
}
END_TEST

/* ---- errors: one line and the prompt back -------------------------------- */

START_TEST(errors_are_one_line)
{
    const char *cases[][2] = {
        {"frobnicate", "Undefined command: \"frobnicate\""},
        {"info nosuch", "Undefined info command: \"nosuch\""},
        {"print 1 +", "A syntax error in expression"},
        {"print nosuch", "No symbol \"nosuch\" in current context."},
        {"print 1/0", "Division by zero"},
        {"x/4x 0x1000", "not mapped"},
        {"x/x 0xffffffffa8000000", "is MMIO"},
        {"x/q main", "Undefined output format \"q\""},
        {"break main junk", "Junk at end of arguments"},
        {"break *0x80010002", "not an instruction address"},
        {"delete 99", "No breakpoint number 99."},
        {"condition x", "condition: No symbol \"x\" in current context."},
        {"condition", "condition: give the breakpoint number.  Usage: condition N [COND]"},
        {"ignore 1", "ignore: give the count.  Usage: ignore N COUNT"},
        {"ignore 41 2", "No breakpoint number 41."},
        {"cpu 5", "want a CPU number from 0 to 0"},
        {"print fakenic.NOPE", "fakenic has no register \"NOPE\""},
        {"print fakenic.CTRL.NOPE", "fakenic.CTRL has no field \"NOPE\""},
        {"watch p:0x40008000000", "is not RAM (it is fakenic)"},
        {"break event nosuch.event", "No event \"nosuch.event\""},
        {"break reg nosuch.REG", "No device register \"nosuch.REG\""},
        {"ring nosuch tx", "No device named \"nosuch\""},
        {"watch stall testhub", "does not report the state of its rings"},
        {"symbol-file /nonexistent/file", "/nonexistent/file:"},
        {"set $pc", "assigns nothing"},
        {"set $zero = 1", "$zero is always 0."},
        {"printf \"%d\\n\"", "missing argument 1"},
        {"printf \"%d\\n\", 1, 2", "Extra arguments"},
        {"expect nothing", "quoted string"},
        {"source /nonexistent/script", "/nonexistent/script:"},
        {"trace insn sideways", "trace insn: want on or off, not \"sideways\"."},
        {"info lastwrite counter", "not tracked"},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(cases); i++) {
        int f = failures();
        const char *o = run(cases[i][0]);
        ck_assert_msg(failures() == f + 1, "\"%s\" should fail once: %s", cases[i][0], o);
        has(o, cases[i][1]);
        ck_assert_msg(count(o, "\n") == 1, "\"%s\": not one line: %s", cases[i][0], o);
    }
    /* The debugger still works afterwards. */
    has(ok("print 2+2"), "= 4");
}
END_TEST

START_TEST(abbreviations_and_aliases)
{
    has(ok("p 6*7"), "$1 = 42");
    has(ok("disas main,+8"), "Dump of assembler code from");
    has(ok("i r pc"), "pc");
    has(ok("info reg sp"), "sp");
    ck_assert_str_eq(ok("d"), ""); /* delete: with no breakpoints, nothing to say */
}
END_TEST

/* ---- print, set, x ----------------------------------------------------------- */

START_TEST(print_and_history)
{
    has(ok("print 1 + 2 * 3"), "$1 = 7");
    has(ok("print $ * 2"), "$2 = 14");
    has(ok("print $$1 + $2"), "$3 = 21");
    has(ok("print/x 255"), "$4 = 0xff");
    has(ok("print/t 5"), "$5 = 101");
    has(ok("print/o 8"), "$6 = 010");
    has(ok("print/c 65"), "65 'A'");
    has(ok("print -1"), "= -1");
    has(ok("print/u (char)-1"), "= 255");
    has(ok("print $pc"), "<start>");
    has(ok("print main + 4"), "<main+0x4>");
    has(ok("print/a 0xffffffff80010034"), "<func+0x4>");
    has(ok("print *(u8 *)greeting"), "= 104");
    has(ok("output 5"), "5");
    hasnt(ok("output 5"), "$");
    has(bad("print $99"), "History has not yet reached $99.");
}
END_TEST

START_TEST(set_registers_memory_variables)
{
    ok("set $a0 = 0x1234");
    ck_assert_uint_eq(reg(4), 0x1234);
    ok("set var $a1 = $a0 + 1");
    ck_assert_uint_eq(reg(5), 0x1235);
    ok("set $pc = func");
    ck_assert_uint_eq(pc(), G_FUNC);
    ok("set *counter = 0x11223344");
    has(ok("x/1xw counter"), "0x11223344");
    ok("set *(u8 *)counter = 0xaa");
    has(ok("x/1xw counter"), "0xaa223344");
    ok("set $n = 5");
    has(ok("print $n * 2"), "= 10");
    ok("set $status = 0x10");
    ck_assert_uint_eq(cpu_cp0(M->cpus[0], 12), 0x10);
    has(ok("info registers status"), "0x0000000000000010");
    has(bad("set counter = 3"), "say its width");
}
END_TEST

START_TEST(examine_memory)
{
    const char *o = ok("x/4xw p:0x10000");
    has(o, "p:0x0000010000:");
    has(o, "0x67bdfff0"); /* daddiu sp,sp,-16 */
    has(o, "0xffbf0008"); /* sd ra,8(sp) */
    o = ok("x/2xw main");
    has(o, "<main>:");
    o = ok("x"); /* continues */
    has(o, "<main+0x8>:");
    has(ok("x/s greeting"), "\"hello, xbow\"");
    has(ok("x/3xb greeting"), "0x68\t0x65\t0x6c");
    has(ok("x/2dh greeting"), "26725");
    has(ok("xp/2xb 0x20100"), "0x68\t0x65");
    o = ok("x/3i func");
    has(o, "<func>:");
    has(ok("print $_"), "<func+0x8>");
    has(ok("x/2xg p:0x10000"), "0x67bdfff0ffbf0008");
}
END_TEST

START_TEST(device_registers_in_expressions)
{
    ok("set fakenic.CTRL = 5");
    const char *o = ok("print fakenic.CTRL");
    has(o, "0x00000005");
    has(o, "ENABLE=1 MODE=fast");
    has(ok("print fakenic.CTRL.MODE"), "= 0x2");
    has(ok("print fakenic.CTRL.MODE == 2 && fakenic.CTRL.ENABLE"), "= 1");
    ok("set fakenic.CTRL.MODE = 1");
    has(ok("print/x fakenic.CTRL"), "0x3");
    /* Reading never has side effects: the STATUS read hook is not called and
     * no reg.read event is published. */
    ok("trace event fakenic.reg.read");
    hasnt(ok("print fakenic.STATUS"), "reg.read");
    ok("trace off");
    has(ok("print/x testbridge.DEVICE(2).SWAP_DIR"), "0x0");
    ok("set testbridge.DEVICE(2) = 0x80034");
    has(ok("print testbridge.DEVICE2.SWAP_DIR"), "= 0x1");
    has(ok("print testbridge.DEVICE(2)"), "DEV_OFF=0x34 SWAP_DIR=1");
}
END_TEST

/* ---- running, breakpoints ----------------------------------------------------- */

START_TEST(break_and_continue)
{
    has(ok("break func"), "Breakpoint 1 at 0xffffffff80010030 <func>");
    const char *o = ok("continue");
    has(o, "Breakpoint 1, func");
    has(o, "<func>:");
    ck_assert_uint_eq(pc(), G_FUNC);
    o = ok("continue");
    has(o, "Breakpoint 1, func");
    has(ok("info breakpoints"), "breakpoint already hit 2 times");
    /* condition: s0 counts loop iterations */
    ok("condition 1 $s0 == 3");
    ok("continue");
    ck_assert_uint_eq(reg(16), 3);
    has(ok("info breakpoints"), "stop only if $s0 == 3");
    ok("condition 1");
    has(ok("ignore 1 2"), "Will ignore next 2 crossings of breakpoint 1.");
    ok("continue");
    ck_assert_uint_eq(reg(16), 6);
    ok("disable 1");
    has(ok("info breakpoints"), "breakpoint      keep n");
    o = ok("continue 100");
    hasnt(o, "Breakpoint");
    ok("enable 1");
    ok("continue");
    ck_assert_uint_eq(pc(), G_FUNC);
    ok("delete 1");
    has(ok("info breakpoints"), "No breakpoints or watchpoints.");
    /* gdb's "delete breakpoints [N]": a keyword, not a prefix of a word */
    ok("break *0x1000");
    ok("break *0x1004");
    ok("delete breakpoints 2");
    o = ok("info breakpoints");
    hasnt(o, "\n2       breakpoint");
    has(o, "\n3       breakpoint");
    has(bad("delete breakpointsx"), "delete: \"breakpointsx\" is not a breakpoint number.");
    ok("delete breakpoints");
    has(ok("info breakpoints"), "No breakpoints or watchpoints.");
}
END_TEST

START_TEST(temporary_and_clear)
{
    has(ok("tbreak main+0x14"), "Temporary breakpoint 1 at");
    has(ok("continue"), "Temporary breakpoint 1, main+0x14");
    ck_assert_uint_eq(pc(), G_MAIN + 0x14);
    has(ok("info breakpoints"), "No breakpoints");
    ok("break func");
    ok("break func if $s0 > 100");
    has(ok("clear func"), "Deleted breakpoints 2 3");
    has(bad("clear func"), "No breakpoint at");
}
END_TEST

START_TEST(commands_log_without_stopping)
{
    ok("break main+0x14");
    ok("commands");
    ok("silent");
    ok("printf \"s0=%d\\n\", $s0");
    ok("continue");
    ok("end");
    has(ok("info breakpoints"), "printf \"s0=%d\\n\", $s0");
    const char *o = ok("continue 60");
    has(o, "s0=0\ns0=1\ns0=2\ns0=3\n");
    hasnt(o, "Breakpoint 1,");
    has(ok("info breakpoints"), "already hit 5 times");
}
END_TEST

START_TEST(commands_after_a_stop)
{
    ok("break func");
    ok("commands 1");
    ok("print $s0 + 100");
    ok("end");
    const char *o = ok("continue");
    has(o, "Breakpoint 1, func");
    has(o, "= 100");
    o = ok("continue");
    has(o, "= 101");
}
END_TEST

START_TEST(step_next_finish_backtrace)
{
    ok("stepi");
    ck_assert_uint_eq(pc(), G_START + 4);
    has(ok("stepi 3"), "<main+0x8>:"); /* the delay slot, then main's first two */
    ok("until main+0xc");
    ck_assert_uint_eq(pc(), G_MAIN + 0xc);
    /* next runs over the call */
    has(ok("next"), "<main+0x14>:");
    ck_assert_uint_eq(reg(2), 42);
    ok("nexti 2");
    ck_assert_uint_eq(pc(), G_MAIN + 0x1c);
    ok("break func");
    ok("continue");
    const char *o = ok("bt");
    has(o, "#0  0xffffffff80010030 in func+0x0");
    has(o, "#1  0xffffffff80010014 in main+0x14");
    has(o, "#2  0xffffffff80010108 in start+0x8");
    hasnt(o, "#3");
    ok("stepi");
    o = ok("finish");
    has(o, "Run till exit from #0");
    has(o, "<main+0x14>:");
    has(o, "Value returned is $1 = 42");
    ck_assert_uint_eq(pc(), G_MAIN + 0x14);
    has(bad("advance"), "give a location");
    ok("delete");
    ok("advance func");
    ck_assert_uint_eq(pc(), G_FUNC);
}
END_TEST

START_TEST(disassemble)
{
    const char *o = ok("disassemble func");
    has(o, "Dump of assembler code for function func:");
    has(o, "<+0>:");
    has(o, "<+8>:");
    hasnt(o, "<+12>:");
    has(o, "End of assembler dump.");
    ok("set $pc = func + 4");
    has(ok("disassemble"), "=> 0xffffffff80010034 <+4>:");
    has(ok("disassemble /r main,+4"), "67 bd ff f0");
}
END_TEST

/* ---- watchpoints ---------------------------------------------------------------- */

START_TEST(virtual_watchpoint)
{
    has(ok("watch counter"), "Hardware watchpoint 1: counter");
    const char *o = ok("continue");
    has(o, "Hardware watchpoint 1: counter");
    has(o, "Written by cpu0 at 0xffffffff8001001c <main+0x1c>");
    has(o, "New value = 0x00000001");
    o = ok("continue");
    has(o, "Old value = 0x00000001");
    has(o, "New value = 0x00000002");
    ok("condition 1 value == 5");
    ok("continue");
    has(ok("x/1dw counter"), "5");
}
END_TEST

START_TEST(physical_watchpoint)
{
    has(ok("watch p:0x20000"), "Physical watchpoint 1: p:0x20000");
    const char *o = ok("continue");
    has(o, "Physical watchpoint 1: p:0x20000 (4 bytes), written by cpu0 at");
    has(o, "<main+0x1c>");
    has(o, "New value = 0x00000001");
    /* The uncached alias of the same RAM is the same watchpoint. */
    ok("delete");
    has(ok("rwatch p:0x70000020000,4"), "Physical read watchpoint 2");
    ok("set $t0 = 0xffffffff80020000");
    ok("set $pc = func");
    /* The guest never reads counter: no stop within 200 instructions. */
    hasnt(ok("continue 200"), "watchpoint 2");
    ok("delete");
    /* Nothing armed: no page flags and no hook left. */
    ram_block *rb;
    uint64_t off;
    ck_assert_ptr_nonnull(bus_ram_ptr(&M->bus, 0x20000, &rb, &off, NULL));
    ck_assert_uint_eq(ram_page_flags(rb, off), 0);
    ck_assert_ptr_null(M->bus.hook);
}
END_TEST

START_TEST(dma_watchpoint)
{
    has(ok("watch dma fakenic 0x40000,0x40 write"), "DMA watchpoint 1: dma by fakenic write");
    ok("set fakenic.DOORBELL = 1");
    const char *o = ok("continue");
    has(o, "DMA watchpoint 1: fakenic wrote 8 bytes at p:0x0000040000 (word)");
    has(o, "path: Bridge dir64 window, swap on, PCI address 0x80040000");
    has(o, "for: tx-desc, ring 0, descriptor 0");
    has(o, "data: 0x8000003c");
    /* A CPU write to the range is not a DMA. */
    ok("set $t0 = 0xffffffff80040000");
    hasnt(ok("continue 50"), "DMA watchpoint");
    /* Conditions see the access: stop at descriptor 2 only. */
    ok("condition 1 index == 2");
    ok("set fakenic.DOORBELL = 1");
    hasnt(ok("continue 50"), "DMA watchpoint");
    ok("set fakenic.DOORBELL = 1");
    has(ok("continue 50"), "descriptor 2");
    /* Bulk payloads */
    has(ok("watch dma 0x41000,0x400"), "dma by devices any");
    ok("set fakenic.DOORBELL = 1");
    o = ok("continue 50");
    has(o, "fakenic wrote 64 bytes at p:0x0000041300 (bulk)");
    has(o, "for: tx-buf, ring 0, descriptor 3");
    has(bad("watch dma nosuchdev"), "No symbol \"nosuchdev\" in current context.");
}
END_TEST

START_TEST(last_writer)
{
    has(ok("track writes on"), "Tracking writes to all RAM.");
    ok("continue 40");
    const char *o = ok("info lastwrite counter");
    has(o, "p:0x0000020000 was last written at t=");
    has(o, "by cpu0 at 0xffffffff8001001c <main+0x1c>");
    has(o, "a 4-byte write");
    ok("set fakenic.DOORBELL = 1");
    ok("continue 20");
    o = ok("info lastwrite p:0x40004");
    has(o, "by fakenic");
    has(o, "through the Bridge dir64 window, swap on, PCI address 0x80040000");
    has(o, "for tx-desc, ring 0, descriptor 0");
    has(ok("info lastwrite p:0x41020"), "a 64-byte bulk write");
    has(ok("info lastwrite p:0x50000"), "not written since tracking began");
    has(ok("track writes"), "Write tracking is on");
    ok("track writes off");
    has(bad("info lastwrite counter"), "not tracked");
    ram_block *rb;
    uint64_t off;
    ck_assert_ptr_nonnull(bus_ram_ptr(&M->bus, 0x20000, &rb, &off, NULL));
    ck_assert_uint_eq(ram_page_flags(rb, off), 0);
    ck_assert_ptr_null(M->bus.hook);
    has(ok("track writes on p:0x20000,4"), "Tracking writes to p:0x20000,4");
}
END_TEST

/* ---- device events and registers -------------------------------------------------- */

START_TEST(event_breakpoints)
{
    has(ok("info events fakenic.*"), "fakenic.tx.desc-done");
    has(bad("break event fakenic.tx.desc-done if lenn > 3"),
        "fakenic.tx.desc-done has no field \"lenn\" (fields: ring index len)");
    has(ok("break event fakenic.tx.desc-done if len > 1000 && ring == tx"),
        "Event breakpoint 1: fakenic.tx.desc-done");
    ok("set fakenic.DOORBELL = 1");
    hasnt(ok("continue 30"), "Event breakpoint");
    ok("set fakenic.DOORBELL = 1");
    const char *o = ok("continue 30");
    has(o, "Event breakpoint 1: fakenic.tx.desc-done ring=tx index=1 len=1060");
    has(o, "(t=");
    has(ok("break event cpu.exception if code == 7"), "Event breakpoint 2: cpu.exception");
    has(ok("info breakpoints"), "event           keep y   cpu.exception");
    /* A logging event breakpoint. */
    ok("delete");
    ok("break event fakenic.tx.*");
    ok("commands");
    ok("silent");
    ok("printf \"done %d len %d\\n\", index, len");
    ok("continue");
    ok("end");
    ok("set fakenic.DOORBELL = 1");
    o = ok("continue 30");
    has(o, "done 2 len 2060\n");
    hasnt(o, "Event breakpoint");
}
END_TEST

START_TEST(register_breakpoints)
{
    has(ok("break reg fakenic.CTRL.ENABLE changes"),
        "Register breakpoint 1: fakenic.CTRL.ENABLE changes");
    const char *o = ok("continue");
    has(o, "Register breakpoint 1: fakenic.CTRL.ENABLE 0x0 -> 0x1");
    has(o, "by cpu0 at 0xffffffff80010024 <main+0x24>");
    has(o, "before: 0x00000000  ENABLE=0 MODE=off");
    has(o, "after:  0x00000001  ENABLE=1 MODE=off");
    o = ok("continue");
    has(o, "0x1 -> 0x0");
    has(o, "after:  0x00000002  ENABLE=0 MODE=slow");
    ok("delete");
    ok("break reg fakenic.CTRL.MODE == 3");
    o = ok("continue");
    has(o, "fakenic.CTRL.MODE 0x2 -> 0x3");
    ck_assert_uint_eq(reg(16), 6);
    ok("delete");
    ok("break reg fakenic.CTRL if new > 9");
    ok("continue");
    ck_assert_uint_eq(reg(16), 10);
}
END_TEST

/* ---- views ----------------------------------------------------------------------- */

START_TEST(ring_marks_changes)
{
    const char *o = ok("ring fakenic tx");
    has(o, " ring tx: next 0\n  0: nic len=0\n");
    ok("set fakenic.DOORBELL = 1");
    ok("stepi 10");
    /* Changed since the previous stop: marked. */
    o = ok("ring fakenic tx");
    has(o, "*ring tx: next 1\n");
    has(o, "* 0: host len=60\n");
    has(o, "  1: nic len=0\n");
    /* The next stop compares with the state at this one, even unseen. */
    ok("set fakenic.DOORBELL = 1");
    ok("stepi 10");
    ok("stepi");
    o = ok("ring fakenic tx");
    hasnt(o, "*");
    has(o, "  1: host len=1060\n");
    has(bad("ring testhub tx"), "has no rings to show");
}
END_TEST

/* What a pane would show: the fake NIC's tx ring through a memo of its own. */
static char pane_text[512];
static const char *pane_view(view_memo *memo)
{
    device *dev = machine_find_device(M, "fakenic");
    view_ctx ctx = {.memo = memo};
    strbuf b;
    sb_init(&b);
    dev_view_find(dev, "ring")->show(dev, "tx", &ctx, &b);
    snprintf(pane_text, sizeof pane_text, "%s", b.s ? b.s : "");
    sb_free(&b);
    return pane_text;
}

/* A front end's pane is a viewer of its own: looking at a ring does not
 * use up the marks of the ring command, nor the other way round, and both
 * compare with the last stop however often they look. */
START_TEST(ring_marks_per_viewer)
{
    view_memo pane = {0};
    dbg_set_pane_memo(D, &pane);
    ok("ring fakenic tx");
    hasnt(pane_view(&pane), "*");
    ok("set fakenic.DOORBELL = 1");
    ok("stepi 10");
    has(pane_view(&pane), "*ring tx: next 1\n");
    has(pane_view(&pane), "* 0: host len=60\n");
    const char *o = ok("ring fakenic tx");
    has(o, "*ring tx: next 1\n");
    has(o, "* 0: host len=60\n");
    has(ok("ring fakenic tx"), "* 0: host len=60\n");
    has(pane_view(&pane), "* 0: host len=60\n");
    /* The next stop: each compares with the state at the previous one. */
    ok("stepi");
    hasnt(pane_view(&pane), "*");
    hasnt(ok("ring fakenic tx"), "*");
    dbg_set_pane_memo(D, NULL);
    view_memo_free(&pane);
}
END_TEST

START_TEST(bridge_pci_irq_views)
{
    ok("set testbridge.DEVICE(1) = 0x80201");
    const char *o = ok("info bridge");
    has(o, "testbridge windows (PCI windows):");
    has(o, "DEVICE(1): PCI base 0x20100000 swap on");
    hasnt(o, "slot 0"); /* the pci view is info pci's */
    has(ok("info pci"), "slot 0: fakenic");
    has(ok("info dma"), "bridge:"); /* the board's Bridge counts DMA */
    has(ok("info device testbridge windows"), "DEVICE(7)");
    ok("set testhub.PI_INT_PEND0 = 0x30");
    ok("set testhub.PI_INT_MASK0_A = 0x20");
    ok("set testbridge.INT_STATUS = 0x4");
    ok("set testbridge.INT_ENABLE = 0x4");
    ok("set testbridge.INT_ADDR(2) = 45");
    o = ok("info irq");
    has(o, "testhub (HUB PI) levels pending: 4 5 |-");
    has(o, "CPU A pending and enabled: 5 |-  -> IP2 up, IP3 down");
    has(o, "  2   high  yes     no        0      45");
    has(o, "cpu0: Cause.IP 0x00");
}
END_TEST

START_TEST(stall_detector)
{
    ok("set fakenic.POSTED = 1");
    has(ok("watch stall fakenic 1000"), "Stall watch 1: stall fakenic tx for");
    const char *o = ok("continue");
    has(o, "Stall watch 1: fakenic tx: the host posted work, but the device has been idle for");
    ck_assert_uint_ge(M->clock.now, 1000);
    /* Reported once per idle spell. */
    ok("set fakenic.DONE = 5");
    o = ok("continue");
    has(o, "5 completed descriptors not reclaimed by the host, the oldest (entry 0) for");
    ok("set fakenic.DONE = 0");
    hasnt(ok("continue 5000"), "Stall watch");
    /* Working normally: the device is active. */
    ok("set fakenic.ACTIVE = 1");
    ok("set fakenic.POSTED = 1");
    hasnt(ok("continue 5000"), "Stall watch");
    /* A condition over the ring state. */
    ok("set fakenic.ACTIVE = 0");
    uint64_t t0 = M->clock.now;
    ok("condition 1 idle_ticks > 3000");
    o = ok("continue");
    has(o, "idle for");
    ck_assert_uint_ge(M->clock.now - t0, 3000);
    has(bad("watch stall fakenic rx"), "neither a ring of fakenic nor a time");
}
END_TEST

/* ---- tracing --------------------------------------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

START_TEST(trace_instructions_and_events)
{
    char path[] = "/tmp/xbow-trace-XXXXXX";
    check_temp_file(path, "");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "trace insn on %s", path);
    has(ok(cmd), "Tracing instructions to");
    ok("stepi 5");
    has(ok("info trace"), "instructions ->");
    ok("trace insn off");
    const char *t = slurp(path);
    ck_assert_uint_eq(count(t, "\n"), 5);
    has(t, "[t=0 cpu0] 0xffffffff80010100 <start>:");
    has(t, "ra=0xffffffff80010108"); /* jal sets ra */
    has(t, "sp=0xffffffff8002fff0"); /* daddiu sp,sp,-16 */
    snprintf(cmd, sizeof cmd, "trace event fakenic.* %s", path);
    ok(cmd);
    ok("set fakenic.DOORBELL = 1");
    ok("continue 20");
    ok("trace off");
    t = slurp(path);
    has(t, "cpu0] fakenic.tx.desc-done ring=tx index=0 len=60");
    has(ok("info trace"), "Nothing is traced.");
    /* to the console */
    ok("trace event fakenic.tx.*");
    ok("set fakenic.DOORBELL = 1");
    has(ok("continue 20"), "fakenic.tx.desc-done ring=tx index=1");
    unlink(path);
}
END_TEST

/* ---- scripting ------------------------------------------------------------------------ */

START_TEST(define_if_while_printf)
{
    ok("define twice");
    ok("print $arg0 * 2");
    ok("printf \"%d args\\n\", $argc");
    ok("end");
    const char *o = ok("twice 21 x");
    has(o, "= 42");
    has(o, "2 args");
    ok("document twice");
    ok("Print twice the argument.");
    ok("end");
    has(ok("help twice"), "Print twice the argument.");
    has(bad("define print"), "is a built-in command");
    ok("set $i = 0");
    ok("while $i < 3");
    ok("  if $i == 1");
    ok("    echo one\\n");
    ok("  else");
    ok("    printf \"i=%d\\n\", $i");
    ok("  end");
    ok("  set $i = $i + 1");
    o = ok("end");
    has(o, "i=0\none\ni=2\n");
    has(ok("printf \"[%5d|%-3x|%s|%c|%#x]\\n\", 42, 10, greeting, 'z', 255"),
        "[   42|a  |hello, xbow|z|0xff]");
    has(ok("echo a\\tb\\n"), "a\tb\n");
    has(bad("end"), "no block to end");
}
END_TEST

START_TEST(source_and_batch_failures)
{
    char path[] = "/tmp/xbow-script-XXXXXX";
    check_temp_file(path, "# a comment\nprint 1\nprint nosuch\nprint 2\n");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "source %s", path);
    const char *o = bad(cmd);
    has(o, "$1 = 1");
    has(o, "No symbol \"nosuch\"");
    has(o, ":3: command failed: print nosuch");
    hasnt(o, "$2 = 2"); /* the failing command stops the file */
    D->batch = false;
    o = bad(cmd);
    has(o, ":3: command failed: print nosuch"); /* interactive too, as in gdb */
    hasnt(o, "= 2");
    unlink(path);
}
END_TEST

START_TEST(expect_console_text)
{
    ok("set fakenic.PRINT = 1");
    const char *o = ok("expect \"from the\" 1000");
    ck_assert_str_eq(o, ""); /* a quiet stop */
    ck_assert_uint_ge(M->clock.now, 20);
    /* Output after the match is still there for the next expect. */
    ok("expect \"guest\"");
    has(bad("expect \"never printed\" 300"), "did not appear within 300 instructions");
    ok("break func");
    has(bad("expect \"never\""), "the guest stopped before \"never\" appeared");
}
END_TEST

START_TEST(interrupt_stops_the_guest)
{
    ok("set fakenic.INTR = 500");
    const char *o = ok("continue");
    has(o, "Interrupted.");
    ck_assert_uint_ge(M->clock.now, 500);
    has(ok("print 1"), "= 1"); /* the prompt is back */
}
END_TEST

/* A front end (the TUI) keeps alive through d->poll while the guest runs,
 * and stops it from there (a Ctrl-C key). */
static unsigned polls;
static void poll_hook(dbg *d)
{
    if (++polls == 3)
        machine_request_stop(d->m, STOP_USER, "Ctrl-C");
}

START_TEST(front_end_poll)
{
    D->poll = poll_hook;
    polls = 0;
    ok("continue 500000"); /* shorter than a slice: no poll */
    ck_assert_uint_eq(polls, 0);
    const char *o = ok("continue");
    has(o, "Interrupted.");
    ck_assert_uint_eq(polls, 3);
    ck_assert_uint_ge(M->clock.now, 3000000);
    ck_assert_uint_lt(M->clock.now, 4000000);
    polls = 10;
    ok("break func");
    has(ok("continue"), "Breakpoint 1, func"); /* stops as usual */
    D->poll = NULL;
}
END_TEST

START_TEST(symbols_and_symbol_files)
{
    char path[] = "/tmp/xbow-map-XXXXXX";
    check_temp_file(path, "ffffffff80010200 T extra_fn\nffffffff80020200 D extra_data\n");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "symbol-file %s", path);
    has(ok(cmd), "2 symbols");
    has(ok("info symbol 0xffffffff80010208"), "extra_fn + 8");
    has(ok("info symbol main+4"), "main + 4");
    has(ok("info symbol 0x1234"), "No symbol matches 0x1234.");
    has(ok("info address func"), "Symbol \"func\" is a function at 0xffffffff80010030, 12 bytes.");
    const char *o = ok("info functions ^ma");
    has(o, "main");
    hasnt(o, "func");
    has(ok("info variables extra"), "extra_data");
    has(bad("info functions ("), "Invalid regular expression");
    ok("break extra_fn");
    has(ok("info breakpoints"), "<extra_fn>");
    unlink(path);
    FILE *f = fopen(path, "w");
    fputs("this is not a symbol line\n", f);
    fclose(f);
    has(bad(cmd), "not a symbol line");
    unlink(path);
}
END_TEST

START_TEST(registers_views)
{
    has(ok("info registers"), "Status");
    has(ok("info registers a0 $sp"), "sp             0xffffffff80030000");
    has(bad("info registers nosuch"), "Invalid register `nosuch'.");
    has(ok("info fpu"), "fcsr");
    has(ok("info all-registers"), "fcsr");
    ok("info tlb");
    has(ok("info cpus"), "* 0");
}
END_TEST

START_TEST(two_cpus)
{
    has(ok("info cpus"), "  1    0xffffffff80010100");
    has(ok("cpu 1"), "[Current CPU is cpu1]");
    has(ok("print $sp"), "0xffffffff8002f000");
    ok("stepi 3");
    ck_assert_uint_eq(cpu_pc(M->cpus[1]), G_MAIN + 4);
    ok("break func");
    ok("cpu 0");
    const char *o = ok("continue");
    has(o, "Breakpoint 1, func");
    has(o, "[cpu");
}
END_TEST

/* The board's real Bridge with the PCI DMA test device in slot 3: a DMA
 * watchpoint names the window, the swap mode and what the DMA was for. */
START_TEST(dma_through_the_real_bridge)
{
    testdev *td = testdev_new("testdev0", &M->events, &M->clock);
    xerr err;
    ck_assert_msg(ip27_plug_pci(M, 3, testdev_func(td), &err) == 0, "%s", err.msg);
    pci_config_write(testdev_func(td), 0x04, 2, PCI_CMD_MEM | PCI_CMD_MASTER);
    has(ok("watch dma testdev0 0x50000,0x100 write"), "DMA watchpoint 1: dma by testdev0 write");
    ok("set testdev0.SRC_LO = 0");          /* from its buffer */
    ok("set testdev0.DST_LO = 0x80050040"); /* to PCI 0x80050040: the direct window */
    ok("set testdev0.LEN = 64");
    ok("set testdev0.CMD = 5"); /* GO, buffer to PCI */
    const char *o = ok("continue 100000");
    has(o, "DMA watchpoint 1: testdev0 wrote 64 bytes at p:0x0000050040 (bulk)");
    has(o, "path: Bridge dir32 window");
    has(o, "PCI address 0x80050040");
    has(o, "for: testdev-dst");
    /* Word DMAs through the same window, and write tracking names them. */
    ok("track writes on p:0x50000,0x1000");
    ok("set testdev0.CMD = 0xd"); /* GO, buffer to PCI, as 4-byte words */
    o = ok("continue 100000");
    has(o, "wrote 4 bytes at p:0x0000050040 (word)");
    has(o, "wrote 4 bytes at p:0x000005005c (word)");   /* the 8th word */
    hasnt(o, "wrote 4 bytes at p:0x0000050060 (word)"); /* not the 9th ... */
    has(o, "(and 8 more hits before the machine stopped)");
    ok("delete");
    ok("continue 100000");
    o = ok("info lastwrite p:0x5007c");
    has(o, "by testdev0");
    has(o, "a 4-byte write of p:0x000005007c");
    has(o, "through the Bridge dir32 window");
    has(o, "for testdev-dst");
    has(ok("info dma"), "testdev0");
    testdev_free(td);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dbg");
    TCase *t = check_case(s, "commands", setup1, fixture_teardown, 30);
    check_add_tests(
        t, every_command_is_documented, commands_md_is_current, registry_grows, declared_arguments,
        tab_completion, errors_are_one_line, abbreviations_and_aliases, print_and_history,
        set_registers_memory_variables, examine_memory, device_registers_in_expressions,
        break_and_continue, temporary_and_clear, commands_log_without_stopping,
        commands_after_a_stop, step_next_finish_backtrace, disassemble, virtual_watchpoint,
        physical_watchpoint, dma_watchpoint, last_writer, event_breakpoints, register_breakpoints,
        ring_marks_changes, ring_marks_per_viewer, bridge_pci_irq_views, stall_detector,
        trace_instructions_and_events, define_if_while_printf, source_and_batch_failures,
        expect_console_text, interrupt_stops_the_guest, front_end_poll, symbols_and_symbol_files,
        registers_views, dma_through_the_real_bridge);
    TCase *t2 = check_case(s, "two cpus", setup2, fixture_teardown, 0);
    tcase_add_test(t2, two_cpus);
    return s;
}

int main(void) { return check_run(suite()) ? EXIT_FAILURE : EXIT_SUCCESS; }
