/* SPDX-License-Identifier: GPL-2.0-or-later */ /* DMA and PIO to nothing, from a guest (xbow --testdev): each error shows in
 * the device's status, in the Bridge's INT_STATUS and error address
 * registers, and as the Bridge error interrupt on a HUB level; a PIO read
 * nothing answers is a data bus error; and the machine carries on. */
#include "td.h"

u64 td_base;
static int slot;
static volatile int err_irqs;
volatile int dbe; /* data bus errors caught by dbe_check */

/* A general exception vector of our own: a data bus error (ExcCode 7) is
 * counted and the faulting instruction skipped (it is never in a branch
 * delay slot here, see load32); anything else goes to the runtime's
 * handler. */
extern char dbe_vector[], dbe_vector_end[];
__asm__(".text\n"
        ".set push\n.set noreorder\n.set noat\n"
        ".globl dbe_vector, dbe_vector_end\n"
        "dbe_vector:\n"
        "	dla	$k0, dbe_check\n"
        "	jr	$k0\n"
        "	nop\n"
        "dbe_vector_end:\n"
        "dbe_check:\n"
        "	mfc0	$k0, $13\n"
        "	andi	$k0, $k0, 0x7c\n"
        "	xori	$k0, $k0, 0x1c\n"
        "	bnez	$k0, 1f\n"
        "	nop\n"
        "	dla	$k1, dbe\n"
        "	lw	$k0, 0($k1)\n"
        "	addiu	$k0, $k0, 1\n"
        "	sw	$k0, 0($k1)\n"
        "	dmfc0	$k0, $14\n"
        "	daddiu	$k0, $k0, 4\n"
        "	dmtc0	$k0, $14\n"
        "	eret\n"
        "1:	dla	$k0, exc_entry\n"
        "	jr	$k0\n"
        "	nop\n"
        ".set pop\n");
static int failures;

#define ERR_LEVEL 41

static u8 buf[64] __attribute__((aligned(64)));

static void check(int ok, const char *what)
{
    printf("testdev-err: %s: %s\n", what, ok ? "ok" : "FAIL");
    if (!ok)
        failures++;
}

/* The error interrupt only sets its HUB level: the handler clears it. */
static void err_irq(int level, void *arg)
{
    (void)arg;
    err_irqs++;
    hub_write(PI_INT_PEND_MOD, (u64)level);
}

static void wait_err(int n)
{
    while (err_irqs < n)
        ;
}

/* DEVIO window n in the Bridge's widget space. */
static u32 devio(int n) { return n <= 1 ? 0x200000u + n * 0x200000u : 0x600000u + (n - 2) * 0x100000u; }

/* Clear the Bridge's latched errors; the error interrupt re-arms. */
static void clear_errors(void)
{
    bridge_write(BRIDGE_INT_RST_STAT, 0x7f);
    (void)bridge_read(BRIDGE_TFLUSH);
}

/* A 32-bit load kept out of branch delay slots, so dbe_check can skip it. */
static u32 load32(u64 addr)
{
    u32 v;
    __asm__ volatile(".set push\n.set noreorder\n"
                     "nop\n lw %0, 0(%1)\n nop\n"
                     ".set pop" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

int main(void)
{
    slot = pci_find(TD_VENDOR, TD_DEVICE);
    if (slot < 0) {
        printf("testdev-err: no test device (start xbow with --testdev)\n");
        return 0;
    }
    td_base = pci_bar0(slot);
    pci_cfg_write(slot, 0x04, 2, pci_cfg_read(slot, 0x04, 2) | 0x4);
    irq_init();
    memcpy((void *)0xffffffff80000180ul, dbe_vector, (size_t)(dbe_vector_end - dbe_vector));
    irq_connect(ERR_LEVEL, err_irq, NULL);
    /* WID_INT_UPPER/LOWER: the HUB's PI_INT_PEND_MOD, as Linux sets it (the
     * error interrupt uses this address with INT_HOST_ERR's level). */
    bridge_irq_route(slot, 33);
    clear_errors();
    bridge_write(BRIDGE_INT_HOST_ERR, ERR_LEVEL);
    bridge_write(BRIDGE_INT_ENABLE, bridge_read(BRIDGE_INT_ENABLE) | 0x7ffffe00);
    irq_enable();

    /* 1. DMA from the Bridge's undecoded range. */
    u32 st = td_run(0x1000, 0, 16, TD_PCI_TO_BUF);
    u32 is = bridge_read(BRIDGE_INT_STATUS);
    printf("testdev-err: DMA read of PCI 0x1000: status 0x%x, INT_STATUS 0x%x, PCI_ERR 0x%x:%08x\n",
           st, is, bridge_read(BRIDGE_PCI_ERR_UPPER), bridge_read(BRIDGE_PCI_ERR_LOWER));
    check((st & TD_ERROR) && TD_CODE(st) == 1 && td_read(TD_ERR_ADDR_LO) == 0x1000,
          "local-range DMA aborted (read abort)");
    check((is & BRIDGE_ISR_PCI_ABORT) && bridge_read(BRIDGE_PCI_ERR_LOWER) == 0x1000,
          "Bridge latched PCI_ABORT at 0x1000");
    wait_err(1);
    check(err_irqs == 1, "error interrupt on its HUB level");
    clear_errors();

    /* 2. DMA write to memory that does not exist (direct window, 1.5 GB). */
    st = td_run(0, 0x80000000ul + 0x60000000ul, 16, TD_BUF_TO_PCI);
    is = bridge_read(BRIDGE_INT_STATUS);
    printf("testdev-err: DMA write to XIO 0x60000000: status 0x%x, INT_STATUS 0x%x\n", st, is);
    check(TD_CODE(st) == 2 && (is & BRIDGE_ISR_RESP_XTLK_ERR), "DMA to nowhere: write abort, RESP_XTLK_ERR");
    wait_err(2);
    clear_errors();

    /* 3. An invalid ATE. */
    *(volatile u64 *)(BRIDGE_BASE + BRIDGE_ATE(100)) = 0;
    st = td_run(0x40000000ul + 100 * 4096, 0, 8, TD_PCI_TO_BUF);
    is = bridge_read(BRIDGE_INT_STATUS);
    check(TD_CODE(st) == 1 && (is & BRIDGE_ISR_PMU_ESIZE_FAULT), "invalid ATE: PMU fault");
    wait_err(3);
    clear_errors();

    /* 4. PIO to a DEVIO window nothing answers: the read is a bus error,
     * the write is posted; both latch a master abort. */
    int empty = -1;
    for (int s = 7; s >= 0 && empty < 0; s--)
        if ((pci_cfg_read(s, 0, 4) & 0xffff) == 0xffff)
            empty = s;
    bridge_write(BRIDGE_DEVICE(empty), 0x1000 | (0x08000000u | devio(empty)) >> 20);
    u64 hole = BRIDGE_BASE + devio(empty);
    u32 v = load32(hole + 0x10);
    is = bridge_read(BRIDGE_INT_STATUS);
    printf("testdev-err: PIO read of empty slot %d window: %d bus error%s, INT_STATUS 0x%x, PCI_ERR_LOWER 0x%x\n",
           empty, dbe, dbe == 1 ? "" : "s", is, bridge_read(BRIDGE_PCI_ERR_LOWER));
    (void)v;
    check(dbe == 1 && (is & BRIDGE_ISR_PCI_MST_TIMEOUT), "PIO read to nothing: DBE and master abort");
    wait_err(4);
    clear_errors();
    *(volatile u32 *)(hole + 0x20) = 1;
    (void)bridge_read(BRIDGE_TFLUSH);
    is = bridge_read(BRIDGE_INT_STATUS);
    check(dbe == 1 && (is & BRIDGE_ISR_PCI_MST_TIMEOUT), "PIO write to nothing: posted, master abort latched");
    wait_err(5);
    clear_errors();

    /* 5. The machine carries on: a good transfer. */
    for (u32 i = 0; i < sizeof buf; i++)
        buf[i] = (u8)(0xc0 + i);
    u32 d = bridge_read(BRIDGE_DEVICE(slot));
    bridge_write(BRIDGE_DEVICE(slot), d | BRIDGE_DEV_SWAP_DIR);
    st = td_run(0x80000000ul + pa_of(buf), 0, sizeof buf, TD_PCI_TO_BUF);
    int same = !(st & TD_ERROR);
    for (u32 i = 0; i < sizeof buf && same; i++)
        same = td_buf_read(i) == buf[i];
    check(same, "a good DMA afterwards");
    printf("testdev-err: %d failure%s, %d error interrupt%s\n", failures, failures == 1 ? "" : "s",
           err_irqs, err_irqs == 1 ? "" : "s");
    return 0;
}
