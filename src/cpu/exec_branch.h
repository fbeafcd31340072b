/* The interpreter's handlers for jumps and branches (BC1 included).
 *
 * Not a header: exec.c includes it inside run_inner(). */

OP(JR) GO(R[d->rs]);
OP(JALR) {
    uint64_t t = R[d->rs];
    R[d->rd] = PC() + 8;
    GO(t);
}
OP(BLTZ) BRANCH((int64_t)R[d->rs] < 0);
OP(BGEZ) BRANCH((int64_t)R[d->rs] >= 0);
OP(BLTZL) BRANCH_LIKELY((int64_t)R[d->rs] < 0);
OP(BGEZL) BRANCH_LIKELY((int64_t)R[d->rs] >= 0);
OP(BLTZAL) {
    bool t = (int64_t)R[d->rs] < 0;
    R[31] = PC() + 8;
    BRANCH(t);
}
OP(BGEZAL) {
    bool t = (int64_t)R[d->rs] >= 0;
    R[31] = PC() + 8;
    BRANCH(t);
}
OP(BLTZALL) {
    bool t = (int64_t)R[d->rs] < 0;
    R[31] = PC() + 8;
    BRANCH_LIKELY(t);
}
OP(BGEZALL) {
    bool t = (int64_t)R[d->rs] >= 0;
    R[31] = PC() + 8;
    BRANCH_LIKELY(t);
}
OP(J) GO(((PC() + 4) & ~0x0fffffffull) | (uint64_t)(int64_t)d->imm);
OP(JAL) {
    uint64_t pc_ = PC();
    R[31] = pc_ + 8;
    GO(((pc_ + 4) & ~0x0fffffffull) | (uint64_t)(int64_t)d->imm);
}
OP(BEQ) BRANCH(R[d->rs] == R[d->rt]);
OP(BNE) BRANCH(R[d->rs] != R[d->rt]);
OP(BLEZ) BRANCH((int64_t)R[d->rs] <= 0);
OP(BGTZ) BRANCH((int64_t)R[d->rs] > 0);
OP(BEQL) BRANCH_LIKELY(R[d->rs] == R[d->rt]);
OP(BNEL) BRANCH_LIKELY(R[d->rs] != R[d->rt]);
OP(BLEZL) BRANCH_LIKELY((int64_t)R[d->rs] <= 0);
OP(BGTZL) BRANCH_LIKELY((int64_t)R[d->rs] > 0);
OP(BC1) {
    if (unlikely(!(c->status & ST_CU1)))
        EXC_CE(1);
    if (d->sa)
        CHK4(); /* condition codes other than 0 are MIPS IV */
    bool t = fpu_cc(&c->fpu, d->sa) == ((d->rt & 1) != 0);
    if (d->rt & 2)
        BRANCH_LIKELY(t);
    BRANCH(t);
}
