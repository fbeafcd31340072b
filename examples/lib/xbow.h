/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The IP27 guest runtime: addresses and helpers shared by the bare-metal
 * examples.  Everything runs in 64-bit kernel mode (the PROM hands over with
 * Status.KX set) from XKPHYS cached memory. */
#ifndef XBOW_GUEST_H
#define XBOW_GUEST_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long u64;
typedef long s64;
typedef unsigned long size_t;
#define NULL ((void *)0)

/* XKPHYS windows of node 0 (asm/mach-ip27/spaces.h); node n's are at
 * n << 32 in each (M mode, NASID_SHFT 32). */
#define CAC_BASE 0xa800000000000000ul
#define IO_BASE 0x9200000000000000ul
#define UNCAC_BASE 0x9600000000000000ul

/* HUB registers (asm/sn/sn0/hubpi.h, hubni.h) through LOCAL_HUB_ADDR (the
 * HUB of the CPU doing the access) or REMOTE_HUB_ADDR(nasid) (one node's). */
#define HUB_BASE (IO_BASE + 0x01000000ul)
#define REMOTE_HUB_BASE(nasid) (IO_BASE + ((u64)(nasid) << 32) + 0x01800000ul)
#define PI_CPU_NUM 0x000020
#define PI_CPU_PRESENT_A 0x000040
#define PI_CPU_PRESENT_B 0x000048
#define PI_INT_PEND_MOD 0x000090
#define PI_INT_PEND0 0x000098
#define PI_INT_PEND1 0x0000a0
#define PI_INT_MASK0_A 0x0000a8
#define PI_INT_MASK1_A 0x0000b0
#define PI_INT_MASK0_B 0x0000b8
#define PI_INT_MASK1_B 0x0000c0
#define PI_RT_COUNT 0x030100
#define PI_RT_COMPARE_A 0x000108
#define PI_RT_PEND_A 0x000120
#define PI_RT_EN_A 0x000140
#define NI_STATUS_REV_ID 0x600000
#define NI_PORT_RESET 0x600008
#define RT_HZ 1250000u /* the HUB RT counter runs at 1.25 MHz */

static inline u64 hub_read(u64 reg) { return *(volatile u64 *)(HUB_BASE + reg); }
static inline void hub_write(u64 reg, u64 v) { *(volatile u64 *)(HUB_BASE + reg) = v; }
/* This CPU's slice: 0 = A, 1 = B. */
static inline int cpu_slice(void) { return (int)hub_read(PI_CPU_NUM); }
/* This CPU's node: the node id in NI_STATUS_REV_ID (get_nasid()). */
static inline int cpu_nasid(void) { return (int)(hub_read(NI_STATUS_REV_ID) >> 8) & 0x1ff; }
/* This CPU's number among the examples' per-CPU data: 2 * nasid + slice. */
static inline int cpu_id(void) { return 2 * cpu_nasid() + cpu_slice(); }
#define MAX_CPUS 4
static inline u64 remote_hub_read(int nasid, u64 reg)
{
    return *(volatile u64 *)(REMOTE_HUB_BASE(nasid) + reg);
}
static inline void remote_hub_write(int nasid, u64 reg, u64 v)
{
    *(volatile u64 *)(REMOTE_HUB_BASE(nasid) + reg) = v;
}

/* The Bridge, widget 8, and its PCI slots (asm/pci/bridge.h). */
#define BRIDGE_BASE (IO_BASE + 0x08000000ul)
#define BRIDGE_WID_INT_UPPER 0x34
#define BRIDGE_WID_INT_LOWER 0x3c
#define BRIDGE_INT_STATUS 0x104
#define BRIDGE_INT_ENABLE 0x10c
#define BRIDGE_INT_MODE 0x11c
#define BRIDGE_INT_DEVICE 0x124
#define BRIDGE_INT_ADDR(n) (0x134 + 8 * (n))
#define BRIDGE_DEVICE(n) (0x204 + 8 * (n))
#define BRIDGE_TFLUSH 0x54
#define HUB_WIDGET 0xa

static inline u32 bridge_read(u32 reg) { return *(volatile u32 *)(BRIDGE_BASE + reg); }
static inline void bridge_write(u32 reg, u32 v) { *(volatile u32 *)(BRIDGE_BASE + reg) = v; }

/* PCI configuration space through the Bridge's type-0 window. */
u32 pci_cfg_read(int slot, int where, int size);
void pci_cfg_write(int slot, int where, int size, u32 v);
/* First slot holding vendor:device, or -1. */
int pci_find(u16 vendor, u16 device);
/* CPU address of BAR0 of a slot the PROM set up (IO space), or 0. */
u64 pci_bar0(int slot);
/* Route Bridge interrupt pin `pin` to HUB level `level` (as Linux does). */
void bridge_irq_route(int pin, int level);

/* IOC3 (slot 2) and its UART A, the console. */
#define IOC3_SLOT 2
#define IOC3_BASE (IO_BASE + 0x08600000ul)
#define IOC3_SIO_IR 0x1c
#define IOC3_SIO_IES 0x20
#define IOC3_SIO_IEC 0x24
#define SIO_IR_SA_INT 0x40
#define UARTA (IOC3_BASE + 0x20178)
enum { UART_RBR = 0, UART_THR = 0, UART_IER = 1, UART_IIR = 2, UART_FCR = 2, UART_LCR = 3,
       UART_MCR = 4, UART_LSR = 5, UART_MSR = 6, UART_SCR = 7 };
static inline u8 uart_read(int reg) { return *(volatile u8 *)(UARTA + reg); }
static inline void uart_write(int reg, u8 v) { *(volatile u8 *)(UARTA + reg) = v; }
static inline u32 ioc3_read(u32 reg) { return *(volatile u32 *)(IOC3_BASE + reg); }
static inline void ioc3_write(u32 reg, u32 v) { *(volatile u32 *)(IOC3_BASE + reg) = v; }

/* Console (UART A, polled). */
void putchar(int c);
void puts(const char *s); /* no newline added */
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A byte from the console, or -1 if none is waiting. */
int getchar_nowait(void);

/* Interrupts.  irq_init() installs the general exception vector at
 * 0xffffffff80000180 and clears Status.BEV; irq_enable() sets IE. */
typedef void (*irq_fn)(int level, void *arg);
void irq_init(void);
void irq_enable(void);
void irq_disable(void);
/* A HUB interrupt level 0..127 for this CPU: handler and mask bit. */
void irq_connect(int level, irq_fn fn, void *arg);
/* The HUB RT comparator of this CPU (IP4). */
void rt_irq_connect(void (*fn)(void *arg), void *arg);
/* Ask for an RT interrupt `ticks` RT ticks from now. */
void rt_arm(u64 ticks);
static inline u64 rt_count(void) { return hub_read(PI_RT_COUNT); }
void rt_delay_us(u64 us);

/* Another CPU: run fn(parm) on CPU `slice` of node `nasid` with its own
 * stack (PROM LAUNCH_SLAVE at 0xffffffffbfc00038, asm/sn/launch.h);
 * launch_slave() is the same on node 0. */
void launch_cpu(int nasid, int slice, void (*fn)(u64 parm), u64 parm, void *stack_top);
void launch_slave(int slice, void (*fn)(u64 parm), u64 parm, void *stack_top);
/* The nodes the PROM lists in the GDA's nasid table (KLDIR entry 3): at
 * most `max` nasids into `nasids`; returns how many. */
int gda_nasids(int *nasids, int max);

/* Spin lock (LL/SC). */
typedef struct { volatile u32 v; } spinlock_t;
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);

/* Reset the machine through the HUB (NI_PORT_RESET), as Linux does. */
void __attribute__((noreturn)) machine_reset(void);

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
size_t strlen(const char *s);

#endif
