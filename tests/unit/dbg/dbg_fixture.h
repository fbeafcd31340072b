/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The debugger unit tests' machine: the real machine loop and core with
 * the stand-in CPU (fake_cpu.c), a small guest program and test devices. */
#ifndef XBOW_DBG_FIXTURE_H
#define XBOW_DBG_FIXTURE_H

#include "dbg/dbg.h"

/* Guest layout (KSEG0 virtual addresses; physical = low 29 bits). */
#define G_MAIN 0xffffffff80010000ull    /* main: a loop calling func */
#define G_FUNC 0xffffffff80010030ull    /* func: returns 42 */
#define G_START 0xffffffff80010100ull   /* start: calls main */
#define G_COUNTER 0xffffffff80020000ull /* main stores its loop count here */
#define G_STRING 0xffffffff80020100ull  /* "hello, xbow" */
#define G_STACK 0xffffffff80030000ull
#define FAKENIC_PA 0x08000000ull /* fakenic registers (uncached, KSEG1 0xa8000000) */
#define DESC_PA 0x40000ull       /* where fakenic writes descriptors */
#define BUF_PA 0x41000ull        /* and payloads */

extern machine *M;
extern dbg *D;

/* Build a fresh machine and debugger (ncpus CPUs), load the guest. */
void fixture_setup(unsigned ncpus);
void fixture_teardown(void);

/* Run one command; returns everything it printed (valid until the next). */
const char *run(const char *cmd);
/* The same, and the command must succeed / fail. */
const char *ok(const char *cmd);
const char *bad(const char *cmd);
/* Failures counted by the debugger so far. */
int failures(void);

#endif
