/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xbow's command-line options: one table, from which ui/optparse.c makes
 * the parsing, --help and the man page's OPTIONS section.  To add an option,
 * add its row where --help should list it (a field of ui_options or of
 * machine_config, its --help text and its man text), then run `make
 * options-doc` (docs/architecture.md, "Command-line options").  Also here:
 * the defaults of an option-less run and the NICs' start-up lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "core/log.h"
#include "ui/options.h"

/* ---- the rows' own functions ------------------------------------------------- */

static int opt_help(ui_options *o, const char *v, strbuf *err)
{
    ui_usage(stdout);
    return UI_OPT_EXIT;
}

static int opt_version(ui_options *o, const char *v, strbuf *err)
{
    printf("xbow %s\n", PACKAGE_VERSION);
    return UI_OPT_EXIT;
}

/* -x FILE and -ex CMD run in the order given. */
static int add_cmd(ui_options *o, const char *text, bool is_file)
{
    o->cmds[o->ncmds].is_file = is_file;
    o->cmds[o->ncmds++].text = text;
    return 0;
}
static int opt_file(ui_options *o, const char *v, strbuf *err) { return add_cmd(o, v, true); }
static int opt_command(ui_options *o, const char *v, strbuf *err) { return add_cmd(o, v, false); }

/* --nic MODEL (repeatable, into the next PCI slot), or none. */
static int opt_nic(ui_options *o, const char *v, strbuf *err)
{
    machine_config *c = &o->cfg;
    if (!strcmp(v, "none")) {
        o->no_nic = true;
        return 0;
    }
    if (!machine_nic_model_known(v)) {
        sb_printf(err, "--nic: unknown model \"%s\" (known: %s)", v, machine_nic_models());
        return -1;
    }
    if (c->nnics >= MAX_NICS) {
        sb_printf(err, "--nic: at most %d NICs (PCI slots 3 to 7)", MAX_NICS);
        return -1;
    }
    nic_config *nc = &c->nics[c->nnics++];
    memset(nc, 0, sizeof *nc);
    snprintf(nc->model, sizeof nc->model, "%s", v);
    return 0;
}

/* --mac MAC for the preceding --nic, at most once per NIC. */
static int opt_mac(ui_options *o, const char *v, strbuf *err)
{
    unsigned k = o->cfg.nnics;
    nic_config *nc = &o->cfg.nics[k - 1];
    uint8_t mac[6];
    xerr why;
    if (machine_parse_station_mac(v, mac, &why)) {
        sb_printf(err, "--mac: %s", why.msg);
        return -1;
    }
    if (nc->mac_set) {
        const uint8_t *m = nc->mac;
        sb_printf(err,
                  "--mac: NIC %u (--nic %s) already has --mac %02x:%02x:%02x:%02x:%02x:%02x: "
                  "one --mac per --nic",
                  k, nc->model, m[0], m[1], m[2], m[3], m[4], m[5]);
        return -1;
    }
    memcpy(nc->mac, mac, 6);
    nc->mac_set = true;
    return 0;
}

/* --ioc3-mac MAC: the on-board Ethernet's address (in the IOC3's 1-wire NIC). */
static int opt_ioc3_mac(ui_options *o, const char *v, strbuf *err)
{
    xerr why;
    if (machine_parse_station_mac(v, o->cfg.ioc3.mac, &why)) {
        sb_printf(err, "--ioc3-mac: %s", why.msg);
        return -1;
    }
    o->cfg.ioc3.mac_set = true;
    return 0;
}

/* --disk FILE[,bus=0|1][,id=N][,ro] (repeatable). */
static int opt_disk(ui_options *o, const char *v, strbuf *err)
{
    machine_config *c = &o->cfg;
    if (c->ndisks >= MAX_DISKS) {
        sb_printf(err, "--disk: at most %d disks (two buses of 15 targets)", MAX_DISKS);
        return -1;
    }
    xerr why;
    if (machine_parse_disk(v, &c->disks[c->ndisks], &why) != 0) {
        sb_printf(err, "%s", why.msg);
        return -1;
    }
    c->ndisks++;
    return 0;
}

/* In the order of the fields they set (enum log_level, enum on_reset, nic_dma_per_word). */
static const char *const log_levels[] = {"error", "warning", "info", "debug", NULL};
static const char *const reset_policies[] = {"stop", "exit", "restart", NULL};
static const char *const nic_dma_modes[] = {"raw", "per-word", NULL};
/* In enum cpu_engine's order. */
static const char *const engines[] = {"interp", "jit", NULL};

/* ---- the table ------------------------------------------------------------------ */

const ui_option ui_option_table[] = {
    UI_OPT_SECTION("Front end: without --batch, the TUI (full-screen panes, docs/tui.md) when\n"
                   "standard input and output are a terminal, else the line-mode debugger.",
                   "Front end", NULL),
    {.kind = UI_OPT_TRUE,
     .name = "--batch",
     .short_name = "-b",
     .aliases = {"-batch"},
     UI_FIELD(batch),
     .help = "no TUI: run the commands, print results, exit; with no\n"
             "commands, run the guest until it stops",
     .man = "No TUI: run the commands given with\n"
            ".B \\-x\n"
            "and\n"
            ".BR \\-ex ,\n"
            "print their results and exit. With no commands, run the guest until it stops."},
    {.kind = UI_OPT_CALL,
     .name = "-x",
     .arg = "FILE",
     .fn = opt_file,
     .help = "execute debugger commands from FILE (repeatable)",
     .man = "Execute debugger commands from\n"
            ".IR FILE .\n"
            "Repeatable."},
    {.kind = UI_OPT_CALL,
     .name = "-ex",
     .aliases = {"--eval-command", "--ex"},
     .arg = "CMD",
     .fn = opt_command,
     .help = "execute one debugger command (repeatable, in order)",
     .man = "Execute one debugger command. Repeatable; commands run in order."},
    {.kind = UI_OPT_TRUE,
     .name = "--cli",
     UI_FIELD(cli),
     .help = "line-mode debugger (readline) instead of the TUI",
     .man = "Use the line-mode debugger (readline) instead of the TUI."},
    {.kind = UI_OPT_TRUE,
     .name = "--tui",
     UI_FIELD(tui),
     .help = "the TUI even when not on a terminal",
     .man = "Use the TUI even when standard input or output is not a terminal."},
    {.kind = UI_OPT_NUMBER,
     .name = "--max-insns",
     .arg = "N",
     UI_FIELD(max_insns),
     .lo = 1,
     .hi = UINT64_MAX,
     .help = "batch mode without commands: stop after N instructions\n"
             "(all CPUs; a tick a CPU spends waiting counts as one)",
     .man = "In batch mode without commands, stop after\n"
            ".I N\n"
            "instructions (of all CPUs together; a tick a CPU spends waiting counts as one)."},
    {.kind = UI_OPT_STRING,
     .name = "--restore",
     .arg = "FILE",
     UI_FIELD(restore),
     .help = "start from a snapshot (snapshot save FILE); give the\n"
             "machine options it was saved with, and KERNEL for symbols",
     .man = "Start the machine from a snapshot file written by\n"
            ".BR \"snapshot save\" .\n"
            "The machine is built from the other options first (CPUs, memory, NICs and their\n"
            "peers, idle skip ...): they must describe the machine the snapshot was saved on,\n"
            "or xbow names the first difference and exits. A\n"
            ".I KERNEL\n"
            "given too is loaded for its symbols and for a later reset; the snapshot then\n"
            "replaces its memory. Without commands, batch mode runs on from the snapshot\n"
            "(docs/snapshots.md)."},
    {.kind = UI_OPT_TRUE,
     .name = "--allow-shell",
     UI_FIELD(allow_shell),
     .help = "let shell and !CMD run host commands in batch mode too\n"
             "(interactive xbow always allows them)",
     .man = "Let the\n"
            ".B shell\n"
            "command (and\n"
            ".BI ! CMD\\fR)\n"
            "run host commands in batch mode too. Interactive xbow always allows them; in\n"
            "batch mode, without this option, they fail with a message, so a script from\n"
            "somewhere else cannot run programs on your machine."},
    {.kind = UI_OPT_STRING,
     .name = "--gdb",
     .arg = "[HOST:]PORT|unix:PATH",
     UI_FIELD(gdb),
     .help = "listen for gdb (gdb-multiarch: target remote ...) on\n"
             "127.0.0.1:PORT, HOST:PORT or a Unix socket (docs/gdb.md);\n"
             "batch mode then serves one gdb session and exits",
     .man = "Listen for gdb (gdb's remote protocol) on\n"
            ".I PORT\n"
            "of 127.0.0.1 (or of\n"
            ".IR HOST ,\n"
            "with a warning: the port gives full control of the machine), or on the Unix\n"
            "socket\n"
            ".IR PATH ;\n"
            "PORT 0 picks a free port and prints it. In gdb-multiarch, with the guest's ELF\n"
            "loaded:\n"
            ".BI \"target remote 127.0.0.1:\" PORT\\fR.\n"
            "Every CPU is a gdb thread and\n"
            ".BI \"monitor \" CMD\n"
            "runs an xbow command; the prompt or TUI stays usable. In batch mode xbow serves one\n"
            "gdb session, then exits. The\n"
            ".B gdbserver\n"
            "command does the same at the prompt. See gdb.md."},
    {.kind = UI_OPT_TRUE,
     .name = "--quiet",
     .short_name = "-q",
     UI_FIELD(quiet),
     .help = "do not print the banner and the NICs' addresses",
     .man = "Do not print the banner, the NICs' addresses, nor the note that the kernel has\n"
            "no symbol table."},
    {.kind = UI_OPT_CHOICE,
     .name = "--log-level",
     .arg = "LEVEL",
     UI_FIELD(log_level),
     .choices = log_levels,
     .help = "error, warning, info or debug (default warning)",
     .man = "error, warning (default), info or debug."},
    UI_OPT_SECTION("Machine:", "Machine", NULL),
    {.kind = UI_OPT_NUMBER,
     .name = "--cpus",
     .arg = "N",
     UI_FIELD(cfg.ncpus),
     .lo = 1,
     .hi = MAX_CPUS,
     .help = "R10000 CPUs, 1 (default) to 4: 1 or 2 are slices A and B\n"
             "of one IP27 node; 3 or 4 add a second node (nasid 1,\n"
             "CPUs 2 and 3, no IO), as two Origin 200 modules",
     .man = "Number of R10000 CPUs, 1 (default) to 4. 1 or 2 are the CPU slices A and B of\n"
            "one IP27 node (nasid 0). 3 or 4 are two nodes, as two Origin 200 modules joined\n"
            "by a CrayLink cable: CPUs 2 and 3 are slices A and B of nasid 1, which has its\n"
            "own HUB and memory and no IO (the console, the Bridge and the PCI cards stay on\n"
            "node 0). CPU 0 enters the kernel; the others wait in the PROM's slave loop\n"
            "until the kernel starts them with LAUNCH_SLAVE."},
    {.kind = UI_OPT_NUMBER,
     .name = "--threads",
     .arg = "N",
     UI_FIELD(cfg.threads),
     .lo = 1,
     .hi = MAX_CPUS,
     .help = "EXPERIMENTAL: host threads, 1 (default: every CPU on one\n"
             "thread, deterministic) or --cpus (one thread per CPU: faster\n"
             "where the guest keeps several CPUs busy, not repeatable; no\n"
             "record/replay, history or instruction trace;\n"
             "docs/architecture.md)",
     .man = "Host threads that run the CPUs: 1 (the default) runs every CPU in turns on one\n"
            "host thread, deterministically (the same inputs give the same run; record and\n"
            "replay and the history need it). N equal to\n"
            ".B \\-\\-cpus\n"
            "(experimental) runs each CPU on a host thread of its own, as QEMU's multi-threaded\n"
            "TCG does: devices, timers and DMA run under one machine lock, guest memory is\n"
            "shared, LL/SC is a host compare-and-swap, and the debugger stops every thread\n"
            "before it does anything; \\fBinfo cpus\\fR prints each thread's CPU time and\n"
            "counters (runs, naps, the machine lock, device timers and how late they fired).\n"
            "It is not yet faster than one thread for Linux on this project's 2-core host\n"
            "(performance.md); it is not repeatable, and\n"
            ".BR \\-\\-record ,\n"
            ".BR \\-\\-replay ,\n"
            "the history (reverse execution) and the instruction trace are refused; snapshots\n"
            "of the stopped machine work. See architecture.md, \"One host thread per CPU\"."},
    {.kind = UI_OPT_NUMBER,
     .name = "--mem",
     .arg = "MB",
     UI_FIELD(cfg.mem_mb),
     .lo = 32,
     .hi = 4096,
     .help = "memory of each node in MB (default 512): banks of 512 MB,\n"
             "or of up to 128 MB for the remainder, 8 banks at most",
     .man = "Memory of each node in MB (default 512, at least 32): with 3 or 4 CPUs the\n"
            "machine has twice this much, the second half at physical address 4 GB (node 1).\n"
            "The memory is laid out in IP27 banks of 512 MB, or of up to 128 MB for the\n"
            "remainder, at 512 MB strides of the node's address space (256 MB is two 128 MB\n"
            "banks at 0 and 512 MB); a size that needs more than 8 banks is refused."},
    {.kind = UI_OPT_CHOICE,
     .name = "--engine",
     .arg = "ENGINE",
     .show_eq = true,
     UI_FIELD(cfg.engine),
     .choices = engines,
     .help = "how the CPUs execute: jit (default on x86-64 hosts: translated\n"
             "to host code) or interp (the interpreter; the default elsewhere)",
     .man = "How the CPUs execute guest code:\n"
            ".B jit\n"
            "(the default on x86-64 hosts) translates it to host code block by block and hands\n"
            "what it does not translate (pages with breakpoints, the trace hook, MMIO) to the\n"
            "interpreter;\n"
            ".B interp\n"
            "(the default on other hosts) interprets every instruction. Both give the same\n"
            "instruction counts, state and stops; only the speed differs (docs/cpu.md).\n"
            "Asking for\n"
            ".B jit\n"
            "on a host without a translator is an error."},
    {.kind = UI_OPT_STRING,
     .name = "--serial",
     .arg = "SPEC",
     UI_FIELD(cfg.serial),
     .help = "IOC3 UART A: stdio, pty, null or file:PATH (default stdio)",
     .man = "Where IOC3 UART A goes:\n"
            ".BR stdio \" (default), \" pty \", \" null \" or \" file:\\fIPATH\\fR.\n"
            "With\n"
            ".BR stdio ,\n"
            "the guest reads standard input: a file, or a pipe whose writer keeps up, gives the\n"
            "same run every time; a terminal is polled at most 100 times a second of host time.\n"
            ".B pty\n"
            "creates a pseudo-terminal in raw mode (its name is in\n"
            ".BR \"info device ioc3.uart-a state\" )\n"
            "for a terminal program such as screen or minicom."},
    {.kind = UI_OPT_STRING,
     .name = "--append",
     .arg = "TEXT",
     UI_FIELD(cfg.append),
     .help = "kernel command line (ARCS argv after the kernel's path)",
     .man = "Kernel command line, passed as ARCS argv: argv[0] is the kernel's path, then\n"
            "one argument per word of\n"
            ".IR TEXT ."},
    {.kind = UI_OPT_STRING,
     .name = "--prom",
     .arg = "FILE",
     UI_FIELD(cfg.prom),
     .help = "start a PROM image (raw or ELF, up to 4 MB) at the reset\n"
             "vector instead of the synthetic PROM",
     .man = "Load a PROM image (raw binary or ELF, at most 4 MB) into the PROM window at\n"
            "0xbfc00000 and start every CPU at the reset vector, instead of the synthetic\n"
            "PROM's hand-off. The synthetic PROM's tables and entry points are then absent\n"
            "and the image must set up the Bridge and the console itself; a\n"
            ".I KERNEL\n"
            "given too is loaded into memory but not entered. In batch mode the PROM runs\n"
            "without a kernel."},
    {.kind = UI_OPT_CHOICE,
     .name = "--on-reset",
     .arg = "WHAT",
     UI_FIELD(cfg.on_reset),
     .choices = reset_policies,
     .help = "when the guest resets the machine: stop (default; resuming\n"
             "carries out the reset), exit, or restart (reload the kernel)",
     .man = "What a machine reset by the guest (HUB NI_PORT_RESET, as Linux's reboot and\n"
            "halt write it) does:\n"
            ".B stop\n"
            "(default) stops the machine and reports it; resuming it carries out the reset.\n"
            ".B exit\n"
            "stops and leaves xbow (status 0).\n"
            ".B restart\n"
            "resets at once: devices and CPUs are reset, the PROM's data rebuilt, and the\n"
            "kernel reloaded and entered again. Batch mode exits with status 0 after a\n"
            "reset unless the policy is\n"
            ".BR restart ."},
    {.kind = UI_OPT_TRUE,
     .name = "--rtc-fixed",
     UI_FIELD(cfg.rtc_fixed),
     .help = "start the real-time clock at 2024-01-01 00:00 UTC\n"
             "instead of the host's time (reproducible runs)",
     .man = "Start the IOC3's M48T35 real-time clock at 2024-01-01 00:00:00 UTC instead of\n"
            "the host's time, for reproducible runs. Either way the clock then follows\n"
            "virtual time."},
    {.kind = UI_OPT_TRUE,
     .name = "--testdev",
     UI_FIELD(cfg.test_device),
     .help = "plug the PCI DMA test device (5842:0001) into the highest\n"
             "free Bridge slot",
     .man = "Plug the PCI DMA test device (vendor 0x5842, device 0x0001; see hardware.md)\n"
            "into the highest free Bridge slot."},
    {.kind = UI_OPT_CALL,
     .name = "--disk",
     .arg = "FILE[,bus=B][,id=N][,ro]",
     .fn = opt_disk,
     .help = "a SCSI disk backed by the image FILE (repeatable) on the\n"
             "BaseIO's QLogic ISP1040B of bus B (0: isp0, slot 0; 1:\n"
             "isp1, slot 1) at SCSI ID N (default: the lowest free from\n"
             "1); ro: write-protected.  The image is locked while in use\n"
             "and its size must be a multiple of 512 (docs/storage.md)",
     .man = "Attach a SCSI disk backed by the image file\n"
            ".IR FILE .\n"
            "Repeatable. With any disk, the machine has the BaseIO's two QLogic ISP1040B SCSI\n"
            "controllers in Bridge slots 0 and 1 (isp0 drives bus 0, isp1 bus 1; Linux's\n"
            "qla1280 drives them).\n"
            ".BI bus= B\n"
            "picks the bus (default 0),\n"
            ".BI id= N\n"
            "the SCSI ID, 0 to 15 but 7, the controller's own (default: the lowest free ID from\n"
            "1),\n"
            ".B ro\n"
            "makes the disk write-protected (writes fail with DATA PROTECT). Writes reach the\n"
            "file. The image must exist and be a whole number of 512-byte blocks; it is locked\n"
            "(flock) so that a second xbow cannot use it at the same time. See storage.md."},
    {.kind = UI_OPT_FALSE,
     .name = "--no-idle-skip",
     UI_FIELD(cfg.idle_skip),
     .help = "execute every instruction of a CPU that only waits (the\n"
             "reference timing) instead of moving its clock on to what\n"
             "can end the wait (idle skip, the default; docs/cpu.md)",
     .man = "Execute every instruction of a CPU that only waits. By default (idle skip) a CPU\n"
            "in the operating system's idle routine (Linux's\n"
            ".BR arch_cpu_idle )\n"
            "or in a loop that polls memory or a device register executes nothing while its\n"
            "clock moves on to what can end the wait: an interrupt, a store or DMA to what it\n"
            "polls, a timer. It is a timing model (as if the R10000 had a WAIT instruction):\n"
            "the guest sees the same time, fewer instructions executed and fewer passes through\n"
            "its idle loop; runs are repeatable either way. This option gives the reference\n"
            "timing."},
    {.kind = UI_OPT_TRUE,
     .name = "--idle-skip",
     UI_FIELD(cfg.idle_skip),
     .help = "idle skip on (the default; undoes --no-idle-skip)",
     .man = "Turn idle skip on again (the default) after\n"
            ".BR \\-\\-no\\-idle\\-skip ."},
    {.kind = UI_OPT_STRING,
     .name = "--record",
     .arg = "FILE",
     UI_FIELD(record),
     .help = "log every input from outside the machine (console\n"
             "bytes, frames from tap/socket/vde, the RTC's start) with\n"
             "the virtual time the guest took it (docs/record-replay.md)",
     .man = "Record the run: every input from outside the machine (the bytes the console\n"
            "takes, the frames tap, socket and vde backends hand to a NIC and what they\n"
            "could not carry, the host time the RTC starts from) goes to FILE with the\n"
            "virtual time at which the guest took it, after a header with the settings and\n"
            "the machine configuration. See docs/record-replay.md."},
    {.kind = UI_OPT_STRING,
     .name = "--replay",
     .arg = "FILE",
     UI_FIELD(replay),
     .help = "run with the inputs of a --record log instead of the\n"
             "outside world (same options as the recording; tap,\n"
             "socket and vde are not opened; typed input is ignored)",
     .man = "Replay a recording: give the options of the recording with\n"
            ".B \\-\\-replay FILE\n"
            "instead of\n"
            ".BR \\-\\-record .\n"
            "The machine takes its inputs from FILE: tap, socket and vde backends are\n"
            "replaced by the log (no tap device, no root, no peer needed), the console reads\n"
            "the logged bytes and ignores typed input, the RTC starts where the recording's\n"
            "did and idle skip is set as it was. A log that is damaged, of a newer format or\n"
            "recorded on a differently configured machine or kernel is refused with a\n"
            "message; a guest that does not take an input where the log has it stops the\n"
            "machine there with a message, as does the end of the recording."},
    UI_OPT_SECTION("Network (gigabit NICs in PCI slots 3 to 7, in order):", "Network",
                   "Gigabit NICs go into PCI slots 3 to 7 in the order given."),
    {.kind = UI_OPT_CALL,
     .name = "--nic",
     .arg = "MODEL",
     .fn = opt_nic,
     .help = "add a NIC: tigon2 (SGI Gigabit Ethernet), acenic,\n"
             "acenic-copper, hamachi, e1000-82543, e1000-82544\n"
             "(= e1000) (repeatable, at most 5); none for no NIC.\n"
             "Without --nic: one tigon2 on the echo peer",
     .man = "Add a NIC:\n"
            ".B tigon2\n"
            "(SGI Gigabit Ethernet, Alteon Tigon2, PCI 10a9:0009; the default machine's NIC),\n"
            ".BR acenic \" and \" acenic\\-copper\n"
            "(the same chip with Alteon's IDs 12ae:0001 and 12ae:0002),\n"
            ".B hamachi\n"
            "(Packet Engines GNIC-II),\n"
            ".B e1000\\-82543\n"
            "(Intel 82543GC copper),\n"
            ".B e1000\\-82544\n"
            "or\n"
            ".B e1000\n"
            "(Intel 82544EI copper). Repeatable, at most five.\n"
            ".B none\n"
            "gives a machine without a NIC. Without any\n"
            ".BR \\-\\-nic ,\n"
            "the machine has one tigon2 on the\n"
            ".B echo\n"
            "peer."},
    {.kind = UI_OPT_TEXT,
     .name = "--net",
     .arg = "SPEC",
     UI_NIC_FIELD(net),
     .help = "backend of the preceding --nic: sink (default), echo,\n"
             "gen:size=N,rate=PPS,count=N, tap:IF, socket:..., vde:PATH,\n"
             "or none (no cable)",
     .man = "Frame backend of the preceding\n"
            ".BR \\-\\-nic :\n"
            ".BR sink \" (default: count and drop), \" echo ,\n"
            ".BI gen: size=N,rate=PPS,count=N\\fR,\n"
            ".BI tap: IF\\fR,\n"
            ".BR socket: ...,\n"
            ".BI vde: PATH\n"
            "or\n"
            ".B none\n"
            "(no cable: the link stays down)."},
    {.kind = UI_OPT_TEXT,
     .name = "--pcap",
     .arg = "FILE",
     UI_NIC_FIELD(pcap),
     .help = "capture the preceding --nic's frames to FILE",
     .man = "Write every frame of the preceding\n"
            ".B \\-\\-nic\n"
            "to\n"
            ".I FILE\n"
            "(pcap format).\n"
            "Like\n"
            ".BR \\-\\-serial \" file:\" ,\n"
            "the file is emptied only once the whole command line is valid and the kernel\n"
            "loaded: a mistake leaves an existing file as it was."},
    {.kind = UI_OPT_CALL,
     .name = "--mac",
     .arg = "MAC",
     .per_nic = true,
     .fn = opt_mac,
     .help = "station address of the preceding --nic (in its EEPROM),\n"
             "unicast, e.g. 02:00:00:00:00:01.  Default: 02:58:42 and\n"
             "3 bytes hashed from the model, slot, --net and --append,\n"
             "so machines on one wire differ; printed at start-up",
     .man = "Station address of the preceding\n"
            ".BR \\-\\-nic ,\n"
            "as its EEPROM holds it: six hex bytes separated by\n"
            ".B :\n"
            "or\n"
            ".BR \\- ,\n"
            "a unicast address other than all zeros, once per NIC.\n"
            "The default is\n"
            ".B 02:58:42\n"
            "followed by three bytes hashed from the NIC's model, PCI slot,\n"
            ".B \\-\\-net\n"
            "spec and the\n"
            ".B \\-\\-append\n"
            "text: the same command line always gives the same address, and machines\n"
            "that share a wire get different ones as soon as their command lines differ.\n"
            "Each NIC's address is printed at start-up (standard error in batch mode) and by\n"
            ".BR \"info pci\" .\n"
            "A frame arriving with the NIC's own address as its source (another machine\n"
            "with the same MAC) is reported once."},
    {.kind = UI_OPT_CHOICE,
     .name = "--nic-dma",
     .arg = "MODE",
     .show_eq = true,
     UI_FIELD(cfg.nic_dma_per_word),
     .choices = nic_dma_modes,
     .help = "payload DMA: raw (default, bulk copies) or per-word (each\n"
             "32-bit word through the swapping path, the old artifact)",
     .man =
         "How NICs move payload:\n"
         ".B raw\n"
         "(default) as bulk copies, or\n"
         ".B per\\-word\n"
         "one 32-bit word at a time through the Bridge's swapping path (the historical artifact;\n"
         "the bytes are the same, the per-word DMA counter shows the cost)."},
    UI_OPT_SECTION(
        "The BaseIO's own 10/100 Ethernet (IOC3, ioc3_eth0; always there):", "On-board Ethernet",
        "The IOC3's 10/100 Ethernet (Linux's ioc3-eth, IRIX's ef0) is always part of\n"
        "the machine, as\n"
        ".BR ioc3_eth0 ,\n"
        "with its address in the IOC3's 1-wire NIC. It is unplugged (no cable, link\n"
        "down) unless\n"
        ".B \\-\\-ioc3\\-net\n"
        "connects it."),
    {.kind = UI_OPT_TEXT,
     .name = "--ioc3-net",
     .arg = "SPEC",
     UI_FIELD(cfg.ioc3.net),
     .help = "connect the on-board Ethernet to a backend (as --net:\n"
             "sink, echo, gen:..., tap:IF, socket:..., vde:PATH);\n"
             "default none (unplugged)",
     .man = "Connect the on-board Ethernet to a frame backend, with the same specs as\n"
            ".BR \\-\\-net .\n"
            "The default is\n"
            ".B none\n"
            "(unplugged: the link stays down)."},
    {.kind = UI_OPT_TEXT,
     .name = "--ioc3-pcap",
     .arg = "FILE",
     UI_FIELD(cfg.ioc3.pcap),
     .help = "capture the on-board Ethernet's frames to FILE\n"
             "(needs --ioc3-net)",
     .man = "Write every frame of the on-board Ethernet to\n"
            ".I FILE\n"
            "(pcap format, as\n"
            ".BR \\-\\-pcap );\n"
            "it needs\n"
            ".BR \\-\\-ioc3\\-net ."},
    {.kind = UI_OPT_CALL,
     .name = "--ioc3-mac",
     .arg = "MAC",
     .fn = opt_ioc3_mac,
     .help = "the on-board Ethernet's address, as its 1-wire NIC\n"
             "holds it.  Default: SGI's 08:00:69 and 3 bytes hashed\n"
             "like --mac's",
     .man = "The on-board Ethernet's station address, which the guest reads from the IOC3's\n"
            "1-wire NIC (a DS1981U). The default is SGI's\n"
            ".B 08:00:69\n"
            "followed by three bytes hashed as for\n"
            ".BR \\-\\-mac ."},
    UI_OPT_SECTION("", NULL, NULL),
    {.kind = UI_OPT_CALL,
     .name = "--help",
     .short_name = "-h",
     .fn = opt_help,
     .help = "show this help and exit",
     .man = "Show the options and exit."},
    {.kind = UI_OPT_CALL,
     .name = "--version",
     .short_name = "-V",
     .fn = opt_version,
     .help = "show the version and exit",
     .man = "Show the version and exit."},
};
const unsigned ui_option_count = ARRAY_SIZE(ui_option_table);

/* ---- defaults -------------------------------------------------------------------- */

void ui_options_init(ui_options *o, int argc)
{
    memset(o, 0, sizeof *o);
    machine_config_default(&o->cfg);
    o->log_level = log_get_level();
    o->cmds = xcalloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof *o->cmds);
}

void ui_options_free(ui_options *o)
{
    free(o->cmds);
    o->cmds = NULL;
}

/* Every device with a "station" view (the NICs): its line. */
void ui_show_nics(machine *m, FILE *f)
{
    strbuf b;
    sb_init(&b);
    for (device *d = m->devices; d; d = d->next) {
        const dev_view *v = dev_view_find(d, "station");
        if (!v)
            continue;
        sb_reset(&b);
        v->show(d, "", NULL, &b);
        fprintf(f, "xbow: %s", b.s ? b.s : "\n");
    }
    sb_free(&b);
}

void ui_default_machine(ui_options *o)
{
    if (o->cfg.nnics || o->no_nic)
        return;
    nic_config *nc = &o->cfg.nics[o->cfg.nnics++];
    memset(nc, 0, sizeof *nc);
    snprintf(nc->model, sizeof nc->model, "tigon2");
    snprintf(nc->net, sizeof nc->net, "echo");
}

/* The demo guest: next to the binary in a build tree, else where `make
 * install` put the examples. */
const char *ui_default_guest(char *buf, size_t len)
{
    static const char rel[] = "examples/tigon/tigon_echo.elf";
    char exe[2048];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(buf, len, "%s/%s", exe, rel);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    snprintf(buf, len, "%s/%s", XBOW_PKGDATADIR, rel);
    return access(buf, R_OK) == 0 ? buf : NULL;
}
