/* SPDX-License-Identifier: GPL-2.0-or-later */ /* The whole interrupt path of a PCI device: IOC3 UART A interrupt ->
 * SIO_IR -> IOC3 INTB -> Bridge pin 4 -> interrupt packet to the HUB's
 * PI_INT_PEND_MOD -> PEND0 level -> IP2.  First a THR-empty interrupt, then
 * received bytes by interrupt until a newline (or 'q'). */
#include "xbow.h"

#define LEVEL 20   /* a HUB level Linux would hand out (ip27-irq.c) */
#define PIN 4      /* IOC3 INTB on the BaseIO (pci-xtalk-bridge.c) */
#define IER_RX 0x01
#define IER_THRE 0x02

static volatile int thre_irqs, rx_irqs, done;
static volatile u32 last_sio_ir;
static char line[80];
static volatile int len;

static void uart_irq(int level, void *arg)
{
    (void)arg;
    (void)level;
    last_sio_ir = ioc3_read(IOC3_SIO_IR);
    u8 iir = uart_read(UART_IIR) & 0x0f;
    if (iir == 0x02) { /* THR empty */
        thre_irqs++;
        uart_write(UART_IER, IER_RX); /* keep only the receive interrupt */
    } else if (iir == 0x04 || iir == 0x0c) {
        rx_irqs++;
        int c;
        while ((c = getchar_nowait()) >= 0) {
            if (c == '\n' || c == '\r' || c == 'q' || len == (int)sizeof line - 1)
                done = 1;
            else
                line[len++] = (char)c;
        }
    }
}

int main(void)
{
    irq_init();
    bridge_irq_route(PIN, LEVEL);
    irq_connect(LEVEL, uart_irq, NULL);
    ioc3_write(IOC3_SIO_IES, SIO_IR_SA_INT);
    irq_enable();
    uart_write(UART_IER, IER_RX | IER_THRE);
    while (!thre_irqs)
        ;
    printf("serial-irq: THRE interrupt on HUB level %d (SIO_IR 0x%x, Bridge INT_STATUS 0x%x)\n",
           LEVEL, last_sio_ir, bridge_read(BRIDGE_INT_STATUS));
    printf("serial-irq: type a line\n");
    while (!done)
        ;
    irq_disable();
    line[len] = 0;
    printf("serial-irq: got \"%s\" in %d receive interrupt%s\n", line, rx_irqs,
           rx_irqs == 1 ? "" : "s");
    return 0;
}
