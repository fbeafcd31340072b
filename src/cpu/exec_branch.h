/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The handlers and tables here are macros laid out by hand: */
/* clang-format off */
/* The interpreter's handlers for jumps and branches (BC1 included).
 *
 * Not a header: exec.c includes it inside cpu_interp().  GO(), BRANCH() and
 * BRANCH_LIKELY() (exec.c) run the delay slot and go on at the target;
 * whether a branch is taken, likely or links is insn.h's. */

/* A conditional branch: the link and likely forms come from the op, a
 * constant, so each handler keeps only its own form. */
#define COND_BRANCH(n)                                                  \
    OP(n) {                                                             \
        bool taken_ = insn_branch_taken(OP_##n, R[d->rs], R[d->rt]);    \
        if (insn_branch_links(OP_##n))                                  \
            R[31] = PC() + 8;                                           \
        if (insn_branch_likely(OP_##n))                                 \
            BRANCH_LIKELY(taken_);                                      \
        BRANCH(taken_);                                                 \
    }

COND_BRANCH(BEQ) COND_BRANCH(BNE) COND_BRANCH(BLEZ) COND_BRANCH(BGTZ)
COND_BRANCH(BEQL) COND_BRANCH(BNEL) COND_BRANCH(BLEZL) COND_BRANCH(BGTZL)
COND_BRANCH(BLTZ) COND_BRANCH(BGEZ) COND_BRANCH(BLTZL) COND_BRANCH(BGEZL)
COND_BRANCH(BLTZAL) COND_BRANCH(BGEZAL) COND_BRANCH(BLTZALL) COND_BRANCH(BGEZALL)

OP(J) GO(insn_jump_target(PC(), (uint64_t)(int64_t)d->imm));
OP(JAL) {
    uint64_t pc_ = PC();
    R[31] = pc_ + 8;
    GO(insn_jump_target(pc_, (uint64_t)(int64_t)d->imm));
}
OP(JR) GO(R[d->rs]);
OP(JALR) {
    uint64_t t = R[d->rs];
    R[d->rd] = PC() + 8;
    GO(t);
}

OP(BC1) { /* BC1F, BC1T, BC1FL, BC1TL: cc in sa, nd (likely) and tf in rt */
    NEED_CU1();
    if (d->sa)
        CHK4(); /* condition codes other than 0 are MIPS IV */
    bool t = insn_fp_cond(c, d->sa, (d->rt & 1) != 0);
    if (d->rt & 2)
        BRANCH_LIKELY(t);
    BRANCH(t);
}

#undef COND_BRANCH
