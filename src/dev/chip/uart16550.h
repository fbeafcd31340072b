/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A National Semiconductor 16550A UART, reusable by any board.
 *
 * Registers (offset 0..7, one byte each): RBR/THR/DLL, IER/DLM, IIR/FCR,
 * LCR, MCR, LSR, MSR, SCR.  16-byte receive FIFO with the four trigger
 * levels, divisor latch, loopback, and the four interrupt sources (line
 * status, received data / character timeout, THR empty, modem status)
 * with the 16550's IIR priorities.
 *
 * Transmission is instantaneous in virtual time: a byte written to THR goes
 * to the chardev at once and THR is empty again (LSR.THRE and TEMT always
 * read 1).  Input is pulled from the chardev one byte per character time
 * (10 bits at the programmed baud rate), so pasted text arrives at line
 * speed; the character-timeout interrupt fires after one idle character
 * time instead of the 16550's four (docs/hardware.md). */
#ifndef XBOW_UART16550_H
#define XBOW_UART16550_H

#include "core/chardev.h"
#include "core/dev.h"

typedef struct uart16550 uart16550;

/* The interrupt output (active high, level). */
typedef void (*uart_irq_fn)(void *ctx, bool level);

typedef struct uart16550_config {
    const char *name;  /* device name, e.g. "ioc3.uart-a" */
    uint32_t clock_hz; /* input clock: baud = clock_hz / (16 * divisor) */
    chardev *ch;       /* the line: NULL means nothing attached */
    uart_irq_fn irq;
    void *irq_ctx;
} uart16550_config;

/* Register offsets, which are also the registers' ids in the declaration
 * (dev_peek(uart16550_device(u), UART_LSR, 0)). */
/* clang-format off */
enum {
    UART_RBR = 0, UART_THR = 0, UART_DLL = 0,
    UART_IER = 1, UART_DLM = 1,
    UART_IIR = 2, UART_FCR = 2,
    UART_LCR = 3, UART_MCR = 4, UART_LSR = 5, UART_MSR = 6, UART_SCR = 7,
    UART_NREGS
};
/* clang-format on */

uart16550 *uart16550_new(const uart16550_config *cfg, event_bus *eb, sched *clock);
void uart16550_free(uart16550 *u);
/* The register block (8 bytes); reset it with device_reset(). */
device *uart16550_device(uart16550 *u);
/* Register access with the hardware's side effects (reg 0..7). */
uint8_t uart16550_read(uart16550 *u, unsigned reg);
void uart16550_write(uart16550 *u, unsigned reg, uint8_t val);
bool uart16550_irq_level(const uart16550 *u);
/* Ticks of virtual time per character at the current baud rate. */
uint64_t uart16550_char_ticks(const uart16550 *u);

#endif
