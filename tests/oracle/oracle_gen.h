/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals of the code generator (gen.c, gen_values.c). */
#ifndef XBOW_ORACLE_GEN_H
#define XBOW_ORACLE_GEN_H

#include <string.h>

#include "core/common.h"
#include "oracle.h"

unsigned rnd(orc_rng *r, unsigned n);
bool chance(orc_rng *r, unsigned percent);
uint64_t val_int(orc_rng *r, bool se);
uint32_t val_f32(orc_rng *r);
uint64_t val_f64(orc_rng *r);
uint64_t val_fpr(orc_rng *r);

/* Instruction encodings. */
#define ENC_R(op, rs, rt, rd, sa, fn)                                                            \
    ((uint32_t)(op) << 26 | (uint32_t)(rs) << 21 | (uint32_t)(rt) << 16 | (uint32_t)(rd) << 11 | \
     (uint32_t)(sa) << 6 | (uint32_t)(fn))
#define ENC_I(op, rs, rt, imm) \
    ((uint32_t)(op) << 26 | (uint32_t)(rs) << 21 | (uint32_t)(rt) << 16 | ((uint32_t)(imm)&0xffff))

enum { OPC_SPECIAL = 0, OPC_REGIMM = 1, OPC_COP1 = 0x11, OPC_COP1X = 0x13 };
enum { FMT_S = 16, FMT_D = 17, FMT_W = 20, FMT_L = 21 };

#endif
