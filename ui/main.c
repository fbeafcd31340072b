/* xbow: command line, then batch mode, the readline CLI or the TUI. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/log.h"
#include "dbg/dbg.h"
#include "ui/ui.h"

static void usage(FILE *f)
{
    fputs("Usage: xbow [OPTIONS] [KERNEL]\n"
          "An interactive, debugger-centric emulator of the SGI Origin 200 (IP27).\n"
          "KERNEL is a big-endian MIPS ELF (a bare-metal example, vmlinux, an IRIX unix)\n"
          "entered the way the PROM would.  Without KERNEL (and --prom), an interactive\n"
          "xbow loads the demo examples/tigon/tigon_echo.elf.\n"
          "\n"
          "Front end: without --batch, the TUI (full-screen panes, docs/tui.md) when\n"
          "standard input and output are a terminal, else the line-mode debugger.\n"
          "  -b, --batch          no TUI: run the commands, print results, exit; with no\n"
          "                       commands, run the guest until it stops\n"
          "  -x FILE              execute debugger commands from FILE (repeatable)\n"
          "  -ex CMD              execute one debugger command (repeatable, in order)\n"
          "      --cli            line-mode debugger (readline) instead of the TUI\n"
          "      --tui            the TUI even when not on a terminal\n"
          "      --max-insns N    batch mode without commands: stop after N instructions\n"
          "                       (all CPUs; a tick a CPU spends waiting counts as one)\n"
          "  -q, --quiet          do not print the banner\n"
          "      --log-level L    error, warning, info or debug (default warning)\n"
          "\n"
          "Machine:\n"
          "      --cpus N         R10000 CPUs, 1 (default) to 4: 1 or 2 are slices A and B\n"
          "                       of one IP27 node; 3 or 4 add a second node (nasid 1,\n"
          "                       CPUs 2 and 3, no IO), as two Origin 200 modules\n"
          "      --mem MB         memory of each node in MB (default 512): banks of 512 MB,\n"
          "                       or of up to 128 MB for the remainder, 8 banks at most\n"
          "      --serial SPEC    IOC3 UART A: stdio, pty, null or file:PATH (default stdio)\n"
          "      --append TEXT    kernel command line (ARCS argv after the kernel's path)\n"
          "      --prom FILE      start a PROM image (raw or ELF, up to 4 MB) at the reset\n"
          "                       vector instead of the synthetic PROM\n"
          "      --on-reset WHAT  when the guest resets the machine: stop (default; resuming\n"
          "                       carries out the reset), exit, or restart (reload the kernel)\n"
          "      --rtc-fixed      start the real-time clock at 2024-01-01 00:00 UTC\n"
          "                       instead of the host's time (reproducible runs)\n"
          "      --testdev        plug the PCI DMA test device (5842:0001) into the highest\n"
          "                       free Bridge slot\n"
          "      --no-idle-skip   execute every instruction of a CPU that only waits (the\n"
          "                       reference timing) instead of moving its clock on to what\n"
          "                       can end the wait (idle skip, the default; docs/cpu.md)\n"
          "\n"
          "Network (gigabit NICs in PCI slots 3 to 7, in order):\n"
          "      --nic MODEL      add a NIC: tigon2 (SGI Gigabit Ethernet), acenic,\n"
          "                       acenic-copper, hamachi, e1000-82543, e1000-82544\n"
          "                       (= e1000) (repeatable, at most 5); none for no NIC.\n"
          "                       Without --nic: one tigon2 on the echo peer\n"
          "      --net SPEC       backend of the preceding --nic: sink (default), echo,\n"
          "                       gen:size=N,rate=PPS,count=N, tap:IF, socket:..., vde:PATH,\n"
          "                       or none (no cable)\n"
          "      --pcap FILE      capture the preceding --nic's frames to FILE\n"
          "      --nic-dma=MODE   payload DMA: raw (default, bulk copies) or per-word (each\n"
          "                       32-bit word through the swapping path, the old artifact)\n"
          "\n"
          "  -h, --help           show this help and exit\n"
          "  -V, --version        show the version and exit\n"
          "\n"
          "Exit status: 0 on success, 1 when a command failed or the guest did not finish,\n"
          "2 for bad options or a kernel that cannot be loaded.\n"
          "Documentation: man xbow, docs/commands.md.\n",
          f);
}

static const char *need_arg(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "xbow: option %s needs an argument (see xbow --help)\n", argv[*i]);
        exit(2);
    }
    return argv[++*i];
}

/* A numeric option's value, by the debugger's rule for counts. */
static uint64_t parse_num(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
    uint64_t v;
    char err[200];
    if (dbg_count_parse(NULL, opt, s, lo, hi, &v, err, sizeof err)) {
        fprintf(stderr, "xbow: %s\n", err);
        exit(2);
    }
    return v;
}

/* Options of the form --name=value are split in place. */
static bool opt_is(const char *arg, const char *name, const char **inline_val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == 0) {
        *inline_val = NULL;
        return true;
    }
    if (arg[n] == '=') {
        *inline_val = arg + n + 1;
        return true;
    }
    return false;
}

int main(int argc, char **argv)
{
    ui_options o;
    memset(&o, 0, sizeof o);
    machine_config_default(&o.cfg);
    o.cmds = calloc((size_t)argc + 1, sizeof *o.cmds);
    if (!o.cmds)
        return 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
#define VALUE() (v ? v : need_arg(argc, argv, &i))
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(o.cmds);
            return 0;
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("xbow %s\n", PACKAGE_VERSION);
            free(o.cmds);
            return 0;
        } else if (!strcmp(a, "-b") || !strcmp(a, "--batch") || !strcmp(a, "-batch")) {
            o.batch = true;
        } else if (!strcmp(a, "--cli")) {
            o.cli = true;
        } else if (!strcmp(a, "--tui")) {
            o.tui = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = true;
        } else if (!strcmp(a, "-x")) {
            o.cmds[o.ncmds].is_file = true;
            o.cmds[o.ncmds++].text = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "-ex") || !strcmp(a, "--eval-command") || opt_is(a, "--ex", &v)) {
            o.cmds[o.ncmds].is_file = false;
            o.cmds[o.ncmds++].text = VALUE();
        } else if (opt_is(a, "--cpus", &v)) {
            o.cfg.ncpus = (unsigned)parse_num("--cpus", VALUE(), 1, MAX_CPUS);
        } else if (opt_is(a, "--mem", &v)) {
            o.cfg.mem_mb = parse_num("--mem", VALUE(), 32, 4096);
        } else if (opt_is(a, "--serial", &v)) {
            o.cfg.serial = VALUE();
        } else if (opt_is(a, "--append", &v)) {
            o.cfg.append = VALUE();
        } else if (opt_is(a, "--prom", &v)) {
            o.cfg.prom = VALUE();
        } else if (opt_is(a, "--on-reset", &v)) {
            const char *w = VALUE();
            if (!strcmp(w, "stop"))
                o.cfg.on_reset = RESET_STOP;
            else if (!strcmp(w, "exit"))
                o.cfg.on_reset = RESET_EXIT;
            else if (!strcmp(w, "restart"))
                o.cfg.on_reset = RESET_RESTART;
            else {
                fprintf(stderr, "xbow: --on-reset: want stop, exit or restart, not \"%s\"\n", w);
                exit(2);
            }
        } else if (!strcmp(a, "--rtc-fixed")) {
            o.cfg.rtc_fixed = true;
        } else if (!strcmp(a, "--no-idle-skip")) {
            o.cfg.idle_skip = false;
        } else if (!strcmp(a, "--idle-skip")) {
            o.cfg.idle_skip = true;
        } else if (opt_is(a, "--max-insns", &v)) {
            o.max_insns = parse_num("--max-insns", VALUE(), 1, UINT64_MAX);
        } else if (opt_is(a, "--log-level", &v)) {
            const char *w = VALUE();
            static const char *const lv[] = {"error", "warning", "info", "debug"};
            int found = -1;
            for (int k = 0; k < 4; k++)
                if (!strcmp(w, lv[k]))
                    found = k;
            if (found < 0) {
                fprintf(stderr, "xbow: --log-level: want error, warning, info or debug\n");
                exit(2);
            }
            log_set_level(found);
        } else if (ui_parse_extra_option(&o, argc, argv, &i) == 1) {
            /* handled by an area's option table (NICs, networking...) */
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "xbow: unknown option \"%s\" (see xbow --help)\n", a);
            exit(2);
        } else if (!o.kernel) {
            o.kernel = a;
        } else {
            fprintf(stderr, "xbow: more than one kernel given (\"%s\" and \"%s\")\n", o.kernel, a);
            exit(2);
        }
#undef VALUE
    }
    int rc = ui_main(&o);
    free(o.cmds);
    return rc;
}
