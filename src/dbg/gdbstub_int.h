/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gdb stub's parts (gdbstub.c: packets and the session; gdbstub_run.c:
 * resuming and stopping; gdbstub_regs.c: registers and the target
 * description; gdbstub_net.c: sockets and waiting; gdbstub_cmds.c: the
 * gdbserver commands).  Not for front ends: they use gdbstub.h. */
#ifndef XBOW_GDBSTUB_INT_H
#define XBOW_GDBSTUB_INT_H

#include "dbg/dbg_int.h"
#include "dbg/gdbstub.h"
#include "dbg/rsp.h"

/* Registers in gdb's numbering for a 64-bit MIPS: r0-r31, sr, lo, hi,
 * badvaddr, cause, pc, f0-f31, fcsr, fir; 8 bytes each, big-endian. */
#define GDB_NREGS 72
#define GDB_REG_SP 29
#define GDB_REG_PC 37

/* Signals in stop replies (gdb's numbers). */
#define GDB_SIGINT 2
#define GDB_SIGTRAP 5

enum gdb_detach { DETACH_RUN, DETACH_STOP };

/* A breakpoint or watchpoint gdb inserted (Z0..Z4). */
enum gdb_point_type { GP_SW, GP_HW, GP_WRITE, GP_READ, GP_ACCESS };
typedef struct gdb_point {
    enum gdb_point_type type;
    uint64_t addr, len;
    int ids[MAX_CPUS]; /* watchpoints: each CPU's id */
} gdb_point;

#define GDB_MAX_POINTS 256
#define GDB_MAX_REFUSED 4

typedef struct gdbstub {
    dbg *d;
    /* Listening (lfd < 0: not listening). */
    int lfd;
    char where[200];     /* "127.0.0.1:1234", "unix:/tmp/s" */
    char unix_path[108]; /* removed when we stop listening */
    enum gdb_detach on_detach;
    struct {
        int fd;
        bool answered; /* sent the refusal: drain until it is read */
        double until;  /* then close it anyway */
    } refused[GDB_MAX_REFUSED];
    /* The client (one at a time). */
    bool connected;
    int cfd; /* -1 for a virtual client */
    char peer[96];
    gdbstub_send_fn vsend;
    void *vctx;
    uint64_t budget;                      /* instructions per resume, 0: no limit */
    bool (*monitor_ok)(const char *line); /* NULL: every command (fuzzing: some) */
    uint8_t in[4096];
    size_t in_len, in_pos;
    rsp_decoder dec;
    bool noack;
    strbuf last;           /* the last packet sent, for a '-' */
    int g_cpu;             /* Hg: registers and memory */
    int c_cpu;             /* Hc: s and c without vCont (-1: any) */
    bool swbreak, hwbreak; /* gdb takes these stop reasons */
    /* Running. */
    bool waiting;   /* gdb resumed and waits for a stop reply */
    bool gdb_run;   /* the run under way was started by gdb */
    bool interrupt; /* gdb sent Ctrl-C */
    bool reversing; /* serving bs or bc: the history re-executes */
    struct {
        char kind; /* 0, 's'wbreak, 'h'wbreak, 'w'atch, 'r'watch, 'a'watch */
        uint64_t addr;
        int cpu;
        uint64_t retired; /* the CPU's instructions then (which stop of a scan) */
    } hit;
    struct {
        int sig, cpu;
        char reason[48]; /* "swbreak:;", "watch:ADDR;" */
        char *text;      /* what gdb's console shows first (O packets), or NULL */
    } stop;
    gdb_point *pts;
    unsigned npts;
    bool seen;        /* gdb was told where the machine stopped ('?', a stop) */
    bool hinted;      /* told the xbow user once that gdb keeps an old view */
    bool hint_due;    /* ... to be said once the stop has been reported */
    unsigned depth;   /* packets being handled (nested while the guest runs) */
    bool off_pending; /* gdbserver off from a monitor command: after the reply */
    bool run_after_detach;
    uint64_t sessions; /* sessions ended so far */
} gdbstub;

gdbstub *gdb_stub(dbg *d);
gdbstub *gdb_stub_new(dbg *d);
void gdb_stub_free(gdbstub *s);

/* gdbstub.c: a client's bytes, a session's start and end, replies. */
void gdb_session_start(gdbstub *s, int fd, const char *peer);
void gdb_session_end(gdbstub *s, const char *why);
void gdb_feed(gdbstub *s);         /* handle s->in[in_pos..in_len) */
void gdb_after_packet(gdbstub *s); /* work deferred until a reply went out */
void gdb_send_packet(gdbstub *s, const char *data, size_t len);
void gdb_reply(gdbstub *s, const char *text);
void gdb_reply_sb(gdbstub *s, const strbuf *b);
/* E01: a malformed or impossible request (bs, bc without a history); E14 (EFAULT): memory that cannot
 * be accessed; E16 (EINVAL): an argument out of range. */
void gdb_reply_err(gdbstub *s, int code);
/* Text for gdb's console (O packets: while gdb waits for a stop or a
 * monitor command). */
void gdb_console(gdbstub *s, const char *text);
/* Thread ids: "-1" (TH_ALL), "0" (TH_ANY) or CPU n + 1 (n); TH_BAD else. */
enum { TH_BAD = -3, TH_ALL = -2, TH_ANY = -1 };
int gdb_parse_thread(gdbstub *s, const char **p);
/* "ADDR,LEN", then `sep` (skipped) unless sep is 0; -1 if malformed. */
int gdb_parse_range(const char **p, uint64_t *addr, uint64_t *len, char sep);
cpu *gdb_g_cpu(gdbstub *s); /* the CPU of Hg: registers, memory */

/* gdbstub_run.c: resuming, stopping, the resume loop's client hooks. */
extern const dbg_client gdb_client_ops;
void gdb_stop_reply(gdbstub *s, strbuf *b, bool with_reason);
void gdb_send_stop(gdbstub *s);                             /* the stop reply gdb waits for */
void gdb_simple_resume(gdbstub *s, char op, const char *p); /* c, C, s, S */
void gdb_vcont(gdbstub *s, const char *p);                  /* after "vCont" */
void gdb_reverse(gdbstub *s, const char *p);                /* bs, bc: through the history */
/* gdbstub_net.c */
void gdb_net_write(gdbstub *s, const char *data, size_t len);
void gdb_net_close_client(gdbstub *s);
void gdb_net_poll(gdbstub *s, int timeout_ms);
void gdb_net_stop_listening(gdbstub *s);

/* gdbstub_regs.c */
bool gdb_reg_get(cpu *c, unsigned n, uint64_t *v);
bool gdb_reg_set(cpu *c, unsigned n, uint64_t v);
/* The pc gdb sees: the branch while the CPU is in its delay slot (gdb
 * cannot step out of a slot; the branch and its slot are one step). */
uint64_t gdb_pc(const cpu *c);
const char *gdb_target_xml(size_t *len);
void gdb_thread_info(dbg *d, int cpu, strbuf *out);

#endif
