/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ui_main: build the machine, then batch mode or the interactive debugger. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "core/log.h"
#include "core/outfile.h"
#include "ui/tui.h"
#include "dbg/gdbstub.h"
#include "dbg/srcview.h"
#include "machine/snapshot.h"
#include "core/rr.h"
#include "machine/record.h"
#include "ui/ui.h"

static machine *sig_machine;

static void on_sigint(int sig)
{
    dbg_interrupt(); /* a long command or script stops at its next check */
    machine *m = sig_machine;
    if (!m)
        return;
    /* Async-signal-safe: plain stores only. */
    if (m->stop_reason == STOP_NONE)
        m->stop_reason = STOP_USER;
    for (unsigned i = 0; i < m->ncpus; i++)
        cpu_request_exit(m->cpus[i]);
}

void ui_install_sigint(machine *m)
{
    sig_machine = m;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
}

/* Batch mode without commands: run the guest until it stops. */
static int batch_run(dbg *d, uint64_t max_insns)
{
    machine *m = d->m;
    int r = machine_run(m, max_insns);
    chardev_flush(m->console);
    uint64_t n = 0, ticks = 0;
    for (unsigned i = 0; i < m->ncpus; i++) {
        n += cpu_retired(m->cpus[i]);
        ticks += cpu_ticks(m->cpus[i]);
    }
    /* Idle skip: ticks the CPUs waited count against --max-insns too. */
    char waited[64] = "";
    if (ticks > n)
        snprintf(waited, sizeof waited, " and %llu ticks waiting", (unsigned long long)(ticks - n));
    switch (r) {
    case STOP_REPLAY: /* the end of the recording is where a replay ends */
        fprintf(stderr, "xbow: %s (after %llu instructions%s)\n", m->stop_msg,
                (unsigned long long)n, waited);
        return m->clock.rr && m->clock.rr->state == RR_DONE && m->clock.rr->complete ? 0 : 1;
    case STOP_RESET:
        fprintf(stderr, "xbow: the guest reset the machine after %llu instructions%s%s%s\n",
                (unsigned long long)n, waited, m->stop_msg[0] ? ": " : "", m->stop_msg);
        return 0;
    case STOP_LIMIT:
        fprintf(stderr, "xbow: stopped after the instruction limit (%llu instructions%s)\n",
                (unsigned long long)n, waited);
        return 1;
    default:
        fprintf(stderr, "xbow: stopped (%s) after %llu instructions%s%s%s\n", stop_reason_name(r),
                (unsigned long long)n, waited, m->stop_msg[0] ? ": " : "", m->stop_msg);
        return 1;
    }
}

int ui_main(ui_options *o)
{
    xerr err;
    bool interactive = !o->batch;
    ui_default_machine(o);
    char demo[4096];
    if (interactive && !o->kernel && !o->cfg.prom && !o->restore &&
        ui_default_guest(demo, sizeof demo))
        o->kernel = demo;
    /* Output files named on the command line (--pcap, --serial file:) are
     * truncated only once the machine is built and the kernel loaded. */
    outfile_hold();
    rr *log = NULL;
    if (o->record && o->replay) {
        fprintf(stderr, "xbow: --record and --replay exclude each other\n");
        return 2;
    }
    if (o->restore && (o->record || o->replay)) {
        fprintf(stderr, "xbow: --restore cannot be combined with --%s (a log starts at power-on)\n",
                o->record ? "record" : "replay");
        return 2;
    }
    if (o->replay) {
        log = rr_replay_open(o->replay, &err);
        if (log && machine_replay_settings(log, &o->cfg, &err) != 0) {
            rr_close(log);
            log = NULL;
        }
    } else if (o->record) {
        log = rr_record_open(o->record, &err);
    }
    if ((o->replay || o->record) && !log) {
        fprintf(stderr, "xbow: %s\n", err.msg);
        outfile_release(false, NULL);
        return 2;
    }
    o->cfg.rr = log;
    machine *m = machine_new(&o->cfg, &err);
    if (!m) {
        fprintf(stderr, "xbow: %s\n", err.msg);
        outfile_release(false, NULL);
        rr_close(log);
        return 2;
    }
    /* A replay is checked before the output files are emptied, a
     * recording's header written once its file is handed over. */
    if ((o->kernel && machine_load_kernel(m, o->kernel, &err) != 0) ||
        (o->replay && machine_rr_begin(m, log, o->kernel, &err) != 0) ||
        outfile_release(true, &err) != 0 ||
        (o->record && machine_rr_begin(m, log, o->kernel, &err) != 0)) {
        fprintf(stderr, "xbow: %s\n", err.msg);
        outfile_release(false, NULL);
        machine_free(m);
        rr_close(log);
        return 2;
    }
    if (o->restore) {
        snapshot *s = snapshot_read(o->restore, &err);
        xerr e2;
        if (!s || snapshot_restore(m, s, &e2) != 0) {
            if (s)
                fprintf(stderr, "xbow: --restore %s: %s\n", o->restore, e2.msg);
            else
                fprintf(stderr, "xbow: --restore %s\n", err.msg);
            snapshot_free(s);
            machine_free(m);
            rr_close(log);
            return 2;
        }
        snapshot_free(s);
    }
    if (o->kernel && !o->quiet && m->syms.n == 0)
        printf("(No debugging symbols found in %s: no symbol table; was it stripped?  "
               "\"symbol-file\" adds a System.map.)\n",
               o->kernel);
    dbg *d = dbg_new(m);
    d->batch = o->batch;
    d->allow_shell = !o->batch || o->allow_shell;
    tui_register_commands(d);
    if (o->kernel) /* its debug information, read when first needed */
        dbg_set_kernel(d, o->kernel);
    ui_install_sigint(m);
    if (o->gdb && gdbstub_listen(d, o->gdb) != 0) {
        dbg_free(d);
        machine_free(m);
        return 2;
    }
    bool use_tui = interactive && (o->tui || (!o->cli && isatty(0) && isatty(1)));
    if (interactive && !use_tui && !o->quiet)
        printf("xbow %s: SGI Origin 200 (IP27), %u CPU%s, %llu MB%s.  \"help\" lists commands.\n",
               PACKAGE_VERSION, m->ncpus, m->ncpus > 1 ? "s" : "",
               (unsigned long long)m->cfg.mem_mb, m->ncpus > 2 ? " on each of 2 nodes" : "");
    /* The NICs' addresses: what another machine on the same wire will see
     * (the TUI has no banner either: info pci shows them there). */
    if (!o->quiet && !use_tui)
        ui_show_nics(m, interactive && !use_tui ? stdout : stderr);
    int status = 0;
    for (unsigned i = 0; i < o->ncmds && !d->quit; i++) {
        int rc =
            o->cmds[i].is_file ? dbg_source(d, o->cmds[i].text) : dbg_execute(d, o->cmds[i].text);
        if (rc != 0)
            status = 1;
    }
    if (o->batch) {
        if (gdbstub_active(d) && !d->quit)
            gdbstub_serve_session(d); /* one gdb session, then exit */
        else if (o->ncmds == 0 && (o->kernel || o->cfg.prom || o->restore))
            status = batch_run(d, o->max_insns);
        else if (d->collecting)
            status = dbg_error(d, "missing \"end\"") ? 1 : 1;
    } else if (!d->quit) {
        if (use_tui)
            ui_tui(d);
        else
            ui_cli(d);
    }
    if (d->quit)
        status = d->exit_status ? d->exit_status : status;
    else if (o->batch && d->failures)
        status = 1;
    chardev_flush(m->console);
    dbg_free(d);
    if (log) {
        if (!o->quiet && rr_recording(log))
            fprintf(stderr, "xbow: recorded %llu inputs to %s (up to time %llu)\n",
                    (unsigned long long)log->records, log->path, (unsigned long long)m->clock.now);
        m->clock.rr = NULL;
        chardev_set_rr(m->console, NULL);
        rr_close(log);
    }
    machine_free(m);
    return status;
}
