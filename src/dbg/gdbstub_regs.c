/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gdb stub's register file and target description: gdb's numbering for
 * a 64-bit MIPS (the features org.gnu.gdb.mips.cpu, .cp0 and .fpu, which
 * gdb requires by name), every register 64 bits wide. */
#include <stdio.h>

#include "dbg/gdbstub_int.h"

enum { CP0_BADVADDR_N = 8, CP0_STATUS_N = 12, CP0_CAUSE_N = 13 };

uint64_t gdb_pc(const cpu *c) { return cpu_in_delay_slot(c) ? cpu_pc(c) - 4 : cpu_pc(c); }

bool gdb_reg_get(cpu *c, unsigned n, uint64_t *v)
{
    if (n < 32)
        *v = cpu_gpr(c, n);
    else if (n >= 38 && n < 70)
        *v = cpu_fpr(c, n - 38); /* raw: gdb shows 64-bit FPRs whatever Status.FR */
    else
        switch (n) {
        case 32: *v = cpu_cp0(c, CP0_STATUS_N); break;
        case 33: *v = cpu_lo(c); break;
        case 34: *v = cpu_hi(c); break;
        case 35: *v = cpu_cp0(c, CP0_BADVADDR_N); break;
        case 36: *v = cpu_cp0(c, CP0_CAUSE_N); break;
        case GDB_REG_PC: *v = gdb_pc(c); break;
        case 70: *v = cpu_fcsr(c); break;
        case 71: *v = cpu_fir(c); break;
        default: return false;
        }
    return true;
}

bool gdb_reg_set(cpu *c, unsigned n, uint64_t v)
{
    if (n < 32) {
        if (n)
            cpu_set_gpr(c, n, v);
    } else if (n >= 38 && n < 70) {
        cpu_set_fpr(c, n - 38, v);
    } else
        switch (n) {
        case 32: cpu_set_cp0(c, CP0_STATUS_N, v); break;
        case 33: cpu_set_lo(c, v); break;
        case 34: cpu_set_hi(c, v); break;
        case 35: cpu_set_cp0(c, CP0_BADVADDR_N, v); break;
        case 36: cpu_set_cp0(c, CP0_CAUSE_N, v); break;
        case GDB_REG_PC:
            /* gdb writes back the pc it was shown (G rewrites every register):
         * that keeps the CPU in its delay slot.  Any other value is a jump. */
            if (v != gdb_pc(c)) {
                cpu_set_pc(c, v);
                cpu_set_delay(c, false, 0);
            }
            break;
        case 70: cpu_set_fcsr(c, (uint32_t)v); break;
        case 71: break; /* FIR is read-only */
        default: return false;
        }
    return true;
}

/* gdb matches registers by name; the order and regnums give the layout of
 * the 'g' packet (0..71).  "mips" (not mips:10000, which gdb finds
 * ambiguous with the mips:8000 of a vmlinux) works with and without an ELF. */
static char xml[8192];
static size_t xml_len;

static void build_xml(void)
{
    strbuf b;
    sb_init(&b);
    sb_puts(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
                "<target version=\"1.0\">\n<architecture>mips</architecture>\n"
                "<feature name=\"org.gnu.gdb.mips.cpu\">\n");
    for (int i = 0; i < 32; i++)
        sb_printf(&b, "<reg name=\"r%d\" bitsize=\"64\" regnum=\"%d\"/>\n", i, i);
    sb_puts(&b, "<reg name=\"lo\" bitsize=\"64\" regnum=\"33\"/>\n"
                "<reg name=\"hi\" bitsize=\"64\" regnum=\"34\"/>\n"
                "<reg name=\"pc\" bitsize=\"64\" regnum=\"37\"/>\n</feature>\n"
                "<feature name=\"org.gnu.gdb.mips.cp0\">\n"
                "<reg name=\"status\" bitsize=\"64\" regnum=\"32\"/>\n"
                "<reg name=\"badvaddr\" bitsize=\"64\" regnum=\"35\"/>\n"
                "<reg name=\"cause\" bitsize=\"64\" regnum=\"36\"/>\n</feature>\n"
                "<feature name=\"org.gnu.gdb.mips.fpu\">\n");
    for (int i = 0; i < 32; i++)
        sb_printf(&b, "<reg name=\"f%d\" bitsize=\"64\" type=\"ieee_double\" regnum=\"%d\"/>\n", i,
                  38 + i);
    sb_puts(&b, "<reg name=\"fcsr\" bitsize=\"64\" group=\"float\" regnum=\"70\"/>\n"
                "<reg name=\"fir\" bitsize=\"64\" group=\"float\" regnum=\"71\"/>\n"
                "</feature>\n</target>\n");
    xml_len = b.len < sizeof xml ? b.len : sizeof xml - 1;
    memcpy(xml, b.s, xml_len);
    sb_free(&b);
}

const char *gdb_target_xml(size_t *len)
{
    if (!xml_len)
        build_xml();
    *len = xml_len;
    return xml;
}

/* CPUs 0 and 1 are slices A and B of node 0; 2 and 3 those of node 1. */
void gdb_thread_info(dbg *d, int i, strbuf *out)
{
    sb_printf(out, "cpu%d, node %d slice %c", i, i / 2, 'A' + i % 2);
}
