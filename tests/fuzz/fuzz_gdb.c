/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target for the gdb stub: the input is what a gdb client sends, fed
 * to a stub with a virtual client on a real two-CPU machine (no kernel: the
 * CPUs run the PROM).  Each input line is one packet: the target frames it
 * with a correct checksum, so the packet handlers see it (registers, memory
 * through the CPU's translation, Z/z points, threads, vCont, monitor
 * commands, bs/bc with and without "monitor record", detach and kill); a
 * line that starts with '!' goes out as it is, so the framing decoder sees
 * bad checksums, stray bytes, Ctrl-C and packets that never end.  Every resume runs at most BUDGET instructions.
 *
 * Invariants: the stub answers with acknowledgements ('+', '-') and
 * well-formed packets only (checksum right, nothing unescaped inside, no
 * larger than the advertised size); when the session ends, none of gdb's
 * breakpoints or watchpoints is left in the machine. */
#include <stdio.h>
#include <stdlib.h>

#include "core/log.h"
#include "dbg/gdbstub_int.h"
#include "../unit/machine/example_config.h"

#define BUDGET 1000

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_gdb: invariant broken: %s\n", what);
    abort();
}

static void check_sent(void *ctx, const char *data, size_t len)
{
    (void)ctx;
    if (len == 1) {
        if (data[0] != '+' && data[0] != '-')
            fail("a single byte that is not an acknowledgement");
        return;
    }
    if (len < 4 || data[0] != '$' || data[len - 3] != '#')
        fail("a reply that is not $...#cs");
    if (len - 4 > RSP_MAX_PACKET)
        fail("a reply larger than PacketSize");
    uint8_t sum = 0;
    for (size_t i = 1; i < len - 3; i++) {
        if (data[i] == '$' || data[i] == '#')
            fail("an unescaped '$' or '#' inside a reply");
        sum = (uint8_t)(sum + (uint8_t)data[i]);
    }
    char cs[3];
    snprintf(cs, sizeof cs, "%02x", sum);
    if (memcmp(cs, data + len - 2, 2) != 0)
        fail("a reply with a wrong checksum");
}

static void quiet(void *ctx, const char *text)
{
    (void)ctx;
    (void)text;
}

static void quiet_log(void *ctx, int level, const char *who, const char *msg)
{
    (void)ctx;
    (void)level;
    (void)who;
    (void)msg;
}

/* Monitor commands that only look (the rest could write files, open
 * sockets or run the guest without a budget). */
static bool monitor_ok(const char *line)
{
    static const char *const ok[] = {"info ", "help",  "print ", "p ",
                                     "x",     "ring ", "echo ",  "record"};
    line = dbg_skip_ws(line);
    for (unsigned i = 0; i < ARRAY_SIZE(ok); i++)
        if (!strncmp(line, ok[i], strlen(ok[i])))
            return true;
    return false;
}

static dbg *setup(void)
{
    static dbg *d;
    if (d)
        return d;
    machine_config cfg = example_config(2, false, NULL, NULL, NULL);
    cfg.mem_mb = 32;
    xerr err;
    machine *m = machine_new(&cfg, &err);
    if (!m) {
        fprintf(stderr, "fuzz_gdb: %s\n", err.msg);
        exit(1);
    }
    d = dbg_new(m);
    d->batch = true;
    dbg_set_output(d, quiet, NULL);
    log_set_sink(quiet_log, NULL);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dbg *d = setup();
    machine_reset(d->m, false);
    d->cur_cpu = 0;
    if (gdbstub_attach_virtual(d, check_sent, NULL, BUDGET) != 0)
        fail("cannot attach a virtual client");
    gdbstub *s = gdb_stub(d);
    s->monitor_ok = monitor_ok;
    s->on_detach = size & 1 ? DETACH_RUN : DETACH_STOP;
    strbuf pkt;
    sb_init(&pkt);
    for (size_t i = 0; i < size && s->connected;) {
        size_t n = 0;
        while (i + n < size && data[i + n] != '\n')
            n++;
        sb_reset(&pkt);
        if (n && data[i] == '!') {
            for (size_t k = 1; k < n; k++)
                sb_putc(&pkt, (char)data[i + k]);
            gdbstub_input(d, (const uint8_t *)pkt.s, pkt.len);
        } else {
            rsp_frame(&pkt, (const char *)data + i, n);
            gdbstub_input(d, (const uint8_t *)pkt.s, pkt.len);
        }
        i += n + 1;
    }
    sb_free(&pkt);
    if (s->connected)
        gdb_session_end(s, "fuzz input done");
    if (s->npts)
        fail("gdb's points left after the session");
    if (hist_recording(d)) /* each input starts without a history */
        dbg_execute(d, "record stop");
    gdb_net_stop_listening(s);
    return 0;
}
