/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ST M48T35 TIMEKEEPER: 32 KB of battery-backed SRAM whose top eight bytes
 * (0x7ff8-0x7fff) are the clock: control, seconds, minutes, hours, day,
 * date, month, year (BCD).  See docs/hardware.md.
 *
 * The clock is derived from virtual time: wall time = epoch + virtual
 * seconds since creation, so a run is repeatable given the epoch.  The READ
 * bit freezes the registers (snapshot), the WRITE bit freezes them for
 * setting; clearing WRITE loads the written time.  The STOP bit in the
 * seconds register stops the clock.
 *
 * Year register convention: SGI firmware and Linux's rtc-m48t35 store the
 * years since 1970 (Linux adds 70 and accepts 1970-2069) [SRC
 * drivers/rtc/rtc-m48t35.c]; `year_base` keeps that a parameter. */
#ifndef XBOW_M48T35_H
#define XBOW_M48T35_H

#include "core/dev.h"

#define M48T35_SIZE 0x8000

typedef struct m48t35 m48t35;

/* epoch: Unix time at virtual time 0; year_base: the year register's 00. */
m48t35 *m48t35_new(const char *name, event_bus *eb, sched *clock, int64_t epoch, int year_base);
void m48t35_free(m48t35 *r);
/* The clock registers as a device (offsets 0x7ff8-0x7fff; NVRAM below
 * them goes through the same dev_read/dev_write). */
device *m48t35_device(m48t35 *r);
uint8_t m48t35_read(m48t35 *r, unsigned addr);
void m48t35_write(m48t35 *r, unsigned addr, uint8_t v);
/* The time the clock shows now (Unix seconds). */
int64_t m48t35_time(const m48t35 *r);

#endif
