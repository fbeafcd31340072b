/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A whole machine: CPUs, memory, devices, the clock and the event bus.
 *
 * machine_new() builds the IP27 (Origin 200) from a machine_config; the
 * debugger drives it with machine_run() and reads it through the bus, the
 * devices' declarations and the CPUs' debugger interface. */
#ifndef XBOW_MACHINE_H
#define XBOW_MACHINE_H

#include "core/bus.h"
#include "core/chardev.h"
#include "core/dev.h"
#include "core/elf.h"
#include "core/event.h"
#include "core/sched.h"
#include "core/symtab.h"
#include "cpu/cpu.h"

#define MAX_CPUS 4
#define MAX_NICS 5
#define MAX_DISKS 30 /* two SCSI buses of 15 targets */

enum on_reset { RESET_STOP, RESET_EXIT, RESET_RESTART };

typedef struct nic_config {
    char model[16]; /* "hamachi", "tigon2", "e1000-82543", "e1000-82544" */
    char net[128];  /* backend spec: "sink", "echo", "gen:...", "tap:IF", ... */
    char pcap[256]; /* capture file, "" for none */
    uint8_t mac[6]; /* station address (--mac), if mac_set */
    bool mac_set;   /* else the default: nic_default_mac() of the model, slot, net
                         and the kernel command line */
} nic_config;

/* A SCSI disk (--disk FILE[,bus=B][,id=N][,ro]) on the BaseIO's QLogic
 * ISP1040B of bus B (isp0 in Bridge slot 0, isp1 in slot 1). */
typedef struct disk_config {
    char path[1024];
    int bus; /* 0 or 1 */
    int id;  /* 0-15 but 7, or -1: the lowest free ID from 1 */
    bool ro;
} disk_config;

typedef struct machine_config {
    unsigned ncpus;     /* 1..4 */
    uint64_t mem_mb;    /* RAM of each node (node 1 with --cpus 3, 4), default 512 */
    const char *kernel; /* ELF to load, or NULL */
    const char *prom;   /* user PROM image (starts at the reset vector), or NULL */
    const char *append; /* kernel command line (ARCS argv) */
    const char *serial; /* "stdio", "pty", "null", "file:PATH" */
    enum on_reset on_reset;
    bool rtc_fixed; /* RTC starts at a fixed epoch for reproducible runs */
    /* The RTC starts at rtc_epoch (Unix time) when rtc_epoch_set: a replay
     * starts it where the recording did.  Else the host's time, read once
     * (machine.rtc_epoch says which). */
    bool rtc_epoch_set;
    int64_t rtc_epoch;
    /* Record or replay the machine's outside inputs (core/rr.h; --record,
     * --replay), NULL for neither.  Owned by the caller; not configuration. */
    struct rr *rr;
    unsigned nnics;
    nic_config nics[MAX_NICS];
    /* The BaseIO's own Ethernet (IOC3, ioc3_eth0): always there; its net
     * "" = "none" (unplugged, the default), model unused. */
    nic_config ioc3;
    int nic_dma_per_word; /* --nic-dma=per-word */
    bool test_device;     /* add the PCI DMA test device */
    /* SCSI disks; with any, both ISP1040Bs are in Bridge slots 0 and 1. */
    unsigned ndisks;
    disk_config disks[MAX_DISKS];
    /* Idle skip (default on; --no-idle-skip): a CPU that only waits stops
     * executing and its clock jumps to what can end the wait (src/cpu/idle.c,
     * docs/cpu.md "Waiting").  Part of the timing model: runs with it on
     * and off differ, and a recording must be replayed with the same. */
    bool idle_skip;
    int engine; /* enum cpu_engine (--engine) */
    /* Host threads (--threads, experimental): 1, the deterministic run
     * loop (the default), or one per CPU (src/machine/threads.c). */
    unsigned threads;
} machine_config;

void machine_config_default(machine_config *cfg);

/* For front ends that fill nics[] (--nic MODEL, --mac MAC): whether MODEL
 * names a NIC model, and their names for a message. */
bool machine_nic_model_known(const char *model);
const char *machine_nic_models(void);
/* A station address for nics[].mac: six hex bytes separated by ':' or '-',
 * unicast and not all zeros.  0, or -1 with why in err. */
int machine_parse_station_mac(const char *text, uint8_t mac[6], xerr *err);

/* Parse a --disk value "FILE[,bus=0|1][,id=N][,ro]" into dc.  0, or -1
 * with why in err. */
int machine_parse_disk(const char *text, disk_config *dc, xerr *err);

/* Why machine_run() returned. */
enum stop_reason {
    STOP_NONE = 0,
    STOP_LIMIT, /* instruction budget used up */
    STOP_BREAKPOINT,
    STOP_WATCHPOINT,
    STOP_EVENT,  /* an event subscriber (breakpoint on a device event) asked */
    STOP_USER,   /* Ctrl-C */
    STOP_RESET,  /* the guest reset the machine (HUB NI_PORT_RESET) */
    STOP_HALT,   /* a CPU cannot continue */
    STOP_STEP,   /* a single step finished */
    STOP_REPLAY, /* the replay diverged from the log, or reached its end */
};

/* What a turn of the one-thread run loop was (machine.c, turn_end). */
enum turn_kind {
    TURN_SHARED, /* two or more CPUs ran code */
    TURN_SOLO,   /* one ran, every other waited at an idle point (docs/cpu.md) */
    TURN_ONE,    /* one ran, the others waited otherwise (polling, a delay loop) */
    TURN_QUIET,  /* every CPU waited */
    TURN_KINDS
};
/* What set the end of a turn. */
enum turn_end_why {
    TURN_END_QUANTUM, /* the quantum of its kind */
    TURN_END_TIMER,   /* a device timer */
    TURN_END_WAIT,    /* the end of a waiting CPU's wait */
    TURN_END_REPLAY,  /* the end of a replay */
    TURN_END_WHYS
};

typedef struct machine_threads machine_threads;

typedef struct machine {
    machine_config cfg;
    bus bus;
    sched clock;
    event_bus events;
    symtab syms;
    cpu *cpus[MAX_CPUS];
    char cpu_names[MAX_CPUS][16]; /* "cpu0" ... */
    unsigned ncpus;
    int cur_cpu;      /* CPU running now (or last) */
    int stop_cpu;     /* cur_cpu when the stop reason was set (threads: the CPU that stopped) */
    device *devices;  /* every device, in creation order */
    ram_block *ram;   /* node 0's memory */
    ram_block *ram1;  /* node 1's memory (--cpus 3, 4), or NULL */
    chardev *console; /* IOC3 UART A's terminal */
    void *board;      /* machine-specific state (ip27.c) */
    /* Stop handling. */
    volatile enum stop_reason stop_reason;
    char stop_msg[400];
    int debugger_initiator;
    uint64_t quantum;      /* instructions per CPU turn at most */
    uint64_t solo_quantum; /* ... when one CPU runs and every other is parked */
    int solo_running;      /* the CPU running a solo turn now, or -1 */
    uint64_t solo_wakes;   /* solo turns ended by an interrupt for a parked CPU */
    bool solo_woke;        /* (the running one's run was asked to end so) */
    /* Turns of run_turns by kind (enum turn_kind) and by what ended them
     * (enum turn_end_why): info cpus. */
    uint64_t turns[TURN_KINDS];
    uint64_t turn_ends[TURN_END_WHYS];
    uint64_t local_time[MAX_CPUS]; /* each CPU's own clock (ticks) */
    uint64_t reset_count;
    int64_t rtc_epoch; /* Unix time the RTC started from (the host's, or the fixed one) */
    /* The guest asked for a reset (HUB NI_PORT_RESET): performed at once
     * with --on-reset=restart, else when the machine next runs. */
    bool reset_pending;
    char reset_why[96];
    machine_threads *threads; /* one host thread per CPU (--threads), or NULL */
} machine;

/* Build the machine described by cfg; on error returns NULL with err set. */
machine *machine_new(const machine_config *cfg, xerr *err);
void machine_free(machine *m);
/* Load an ELF into memory, add its symbols, and set up the boot state (the
 * synthetic PROM's hand-off: pc = entry, argv...). */
int machine_load_kernel(machine *m, const char *path, xerr *err);
/* Power-on reset of CPUs and devices (memory kept unless clear_ram). */
void machine_reset(machine *m, bool clear_ram);

/* Run until `max_insns` instructions were retired in total (0 = no limit)
 * or something stops the machine.  Returns enum stop_reason. */
int machine_run(machine *m, uint64_t max_insns);
/* Run only CPU `only` for max_insns instructions (the others are held, and
 * catch up when their turn comes): single stepping.  Ends with STOP_STEP. */
int machine_run_cpu(machine *m, int only, uint64_t max_insns);
/* An interrupt line (or NMI) of CPU i was raised (the board's wiring
 * calls it): during a solo turn, a parked CPU it wakes ends the running
 * CPU's run after this instruction, so that it sees it at that time. */
void machine_cpu_irq_raised(machine *m, unsigned i);
/* Ask a running machine to stop after the current instruction (safe from
 * event callbacks and signal handlers). */
void machine_request_stop(machine *m, int reason, const char *msg);
/* The guest reset the machine (`why`: "NI_PORT_RESET ...").  Safe from
 * inside a CPU's access: the reset happens between instructions, as the
 * --on-reset policy says (stop: machine_run returns STOP_RESET and the
 * reset is done when the machine is resumed; restart: at once; exit: like
 * stop, and the front end exits). */
void machine_guest_reset(machine *m, const char *why);
/* Perform a guest-requested reset now: devices, CPUs, PROM data, and the
 * kernel reloaded and re-entered. */
void machine_restart(machine *m);

/* The symbols changed (a kernel or a symbol file was loaded): find the idle
 * routines they name (Linux's arch_cpu_idle) and make their entries idle
 * points of every CPU, when idle skip is on.  Returns how many. */
unsigned machine_update_idle_points(machine *m);

void machine_add_device(machine *m, device *d);
device *machine_find_device(machine *m, const char *name);
cpu *machine_cpu(machine *m, unsigned i);

const char *stop_reason_name(int reason);

/* One host thread per CPU (threads.c; cfg.threads > 1).  init makes the
 * CPUs threaded (cpu_set_threaded) and starts their threads (they wait for
 * machine_threads_run); free stops them.  machine_threads_run runs every
 * CPU on its thread until a stop (*budget: ticks in all, UINT64_MAX for no
 * limit; what is left is written back) and returns the stop reason once
 * every thread has parked. */
int machine_threads_init(machine *m, xerr *err);
/* Shared by both run loops: the stop reason of a cpu_run() result, and the
 * time every CPU has reached (device timers fire up to there). */
int machine_cpu_stop_reason(int rc);
uint64_t machine_common_time(const machine *m);
void machine_threads_free(machine *m);
int machine_threads_run(machine *m, uint64_t *budget);
/* Host CPU time CPU i's thread has used (ns), as of its last park. */
uint64_t machine_threads_cpu_ns(const machine *m, unsigned i);
/* Each CPU thread's counters (runs, naps, the machine lock, device timers
 * and how late they fired), a few lines for info cpus. */
struct strbuf;
void machine_threads_describe(const machine *m, struct strbuf *b);
/* "" when the machine runs on one host thread, else why `what` (a
 * feature that needs a deterministic run) is refused: for messages. */
const char *machine_threads_refuse(const machine *m, const char *what);
/* The debugger (not the guest) changed the machine: a register, memory, a
 * device register, a reset or a loaded snapshot.  A recording or replay
 * says so once (rr_outside_change); the history of the run (the debugger's
 * reverse execution) cannot re-execute across it. */
void machine_outside_change(machine *m, const char *what);

#endif
