/* The interpreter's handlers for integer arithmetic, logic, shifts,
 * conditional moves, HI/LO, multiply and divide.
 *
 * Not a header: exec.c includes it inside run_inner(), whose dispatch macros
 * (OP, NEXT, EXC, ...) and locals (c, d, R) it uses. */

OP(NOP) NEXT();
OP(SLL) R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] << d->sa); NEXT();
OP(SRL) R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] >> d->sa); NEXT();
OP(SRA) R[d->rd] = (uint64_t)sext32((uint32_t)((int32_t)R[d->rt] >> d->sa)); NEXT();
OP(SLLV) R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] << (R[d->rs] & 31)); NEXT();
OP(SRLV) R[d->rd] = (uint64_t)sext32((uint32_t)R[d->rt] >> (R[d->rs] & 31)); NEXT();
OP(SRAV) R[d->rd] = (uint64_t)sext32((uint32_t)((int32_t)R[d->rt] >> (R[d->rs] & 31))); NEXT();
OP(DSLL) R[d->rd] = R[d->rt] << d->sa; NEXT();
OP(DSLL32) R[d->rd] = R[d->rt] << d->sa; NEXT();
OP(DSRL) R[d->rd] = R[d->rt] >> d->sa; NEXT();
OP(DSRL32) R[d->rd] = R[d->rt] >> d->sa; NEXT();
OP(DSRA) R[d->rd] = (uint64_t)((int64_t)R[d->rt] >> d->sa); NEXT();
OP(DSRA32) R[d->rd] = (uint64_t)((int64_t)R[d->rt] >> d->sa); NEXT();
OP(DSLLV) R[d->rd] = R[d->rt] << (R[d->rs] & 63); NEXT();
OP(DSRLV) R[d->rd] = R[d->rt] >> (R[d->rs] & 63); NEXT();
OP(DSRAV) R[d->rd] = (uint64_t)((int64_t)R[d->rt] >> (R[d->rs] & 63)); NEXT();
OP(MOVZ) if (R[d->rt] == 0) R[d->rd] = R[d->rs]; NEXT();
OP(MOVN) if (R[d->rt] != 0) R[d->rd] = R[d->rs]; NEXT();
OP(MOVCI)
    if (unlikely(!(c->status & ST_CU1)))
        EXC_CE(1);
    CHK4();
    if (fpu_cc(&c->fpu, d->sa) == (d->imm != 0))
        R[d->rd] = R[d->rs];
    NEXT();
OP(MFHI) R[d->rd] = c->hi; NEXT();
OP(MTHI) c->hi = R[d->rs]; NEXT();
OP(MFLO) R[d->rd] = c->lo; NEXT();
OP(MTLO) c->lo = R[d->rs]; NEXT();
OP(MULT) {
    int64_t p = (int64_t)(int32_t)R[d->rs] * (int64_t)(int32_t)R[d->rt];
    c->lo = (uint64_t)sext32((uint64_t)p);
    c->hi = (uint64_t)sext32((uint64_t)p >> 32);
    NEXT();
}
OP(MULTU) {
    uint64_t p = (uint64_t)(uint32_t)R[d->rs] * (uint32_t)R[d->rt];
    c->lo = (uint64_t)sext32(p);
    c->hi = (uint64_t)sext32(p >> 32);
    NEXT();
}
OP(DIV) {
    int32_t r;
    int64_t q = div_fix32((int32_t)R[d->rs], (int32_t)R[d->rt], &r);
    c->lo = (uint64_t)sext32((uint64_t)q);
    c->hi = (uint64_t)(int64_t)r;
    NEXT();
}
OP(DIVU) {
    uint32_t a = (uint32_t)R[d->rs], b = (uint32_t)R[d->rt];
    if (b == 0)
        b = 1;
    c->lo = (uint64_t)sext32(a / b);
    c->hi = (uint64_t)sext32(a % b);
    NEXT();
}
OP(DMULT) {
    __int128 p = (__int128)(int64_t)R[d->rs] * (int64_t)R[d->rt];
    c->lo = (uint64_t)p;
    c->hi = (uint64_t)((unsigned __int128)p >> 64);
    NEXT();
}
OP(DMULTU) {
    unsigned __int128 p = (unsigned __int128)R[d->rs] * R[d->rt];
    c->lo = (uint64_t)p;
    c->hi = (uint64_t)(p >> 64);
    NEXT();
}
OP(DDIV) {
    int64_t a = (int64_t)R[d->rs], b = (int64_t)R[d->rt];
    if (b == 0 || (a == INT64_MIN && b == -1)) {
        c->lo = (uint64_t)a;
        c->hi = 0;
    } else {
        c->lo = (uint64_t)(a / b);
        c->hi = (uint64_t)(a % b);
    }
    NEXT();
}
OP(DDIVU) {
    uint64_t a = R[d->rs], b = R[d->rt];
    if (b == 0)
        b = 1;
    c->lo = a / b;
    c->hi = a % b;
    NEXT();
}
OP(ADD) {
    int32_t r;
    if (__builtin_add_overflow((int32_t)R[d->rs], (int32_t)R[d->rt], &r))
        EXC(EXC_OV);
    R[d->rd] = (uint64_t)(int64_t)r;
    NEXT();
}
OP(ADDU) R[d->rd] = (uint64_t)sext32(R[d->rs] + R[d->rt]); NEXT();
OP(SUB) {
    int32_t r;
    if (__builtin_sub_overflow((int32_t)R[d->rs], (int32_t)R[d->rt], &r))
        EXC(EXC_OV);
    R[d->rd] = (uint64_t)(int64_t)r;
    NEXT();
}
OP(SUBU) R[d->rd] = (uint64_t)sext32(R[d->rs] - R[d->rt]); NEXT();
OP(AND) R[d->rd] = R[d->rs] & R[d->rt]; NEXT();
OP(OR) R[d->rd] = R[d->rs] | R[d->rt]; NEXT();
OP(XOR) R[d->rd] = R[d->rs] ^ R[d->rt]; NEXT();
OP(NOR) R[d->rd] = ~(R[d->rs] | R[d->rt]); NEXT();
OP(SLT) R[d->rd] = (int64_t)R[d->rs] < (int64_t)R[d->rt]; NEXT();
OP(SLTU) R[d->rd] = R[d->rs] < R[d->rt]; NEXT();
OP(DADD) {
    int64_t r;
    if (__builtin_add_overflow((int64_t)R[d->rs], (int64_t)R[d->rt], &r))
        EXC(EXC_OV);
    R[d->rd] = (uint64_t)r;
    NEXT();
}
OP(DADDU) R[d->rd] = R[d->rs] + R[d->rt]; NEXT();
OP(DSUB) {
    int64_t r;
    if (__builtin_sub_overflow((int64_t)R[d->rs], (int64_t)R[d->rt], &r))
        EXC(EXC_OV);
    R[d->rd] = (uint64_t)r;
    NEXT();
}
OP(DSUBU) R[d->rd] = R[d->rs] - R[d->rt]; NEXT();
OP(ADDI) {
    int32_t r;
    if (__builtin_add_overflow((int32_t)R[d->rs], d->imm, &r))
        EXC(EXC_OV);
    R[d->rd] = (uint64_t)(int64_t)r;
    NEXT();
}
OP(ADDIU) R[d->rd] = (uint64_t)sext32(R[d->rs] + (uint64_t)(int64_t)d->imm); NEXT();
OP(SLTI) R[d->rd] = (int64_t)R[d->rs] < d->imm; NEXT();
OP(SLTIU) R[d->rd] = R[d->rs] < (uint64_t)(int64_t)d->imm; NEXT();
OP(ANDI) R[d->rd] = R[d->rs] & (uint64_t)(int64_t)d->imm; NEXT();
OP(ORI) R[d->rd] = R[d->rs] | (uint64_t)(int64_t)d->imm; NEXT();
OP(XORI) R[d->rd] = R[d->rs] ^ (uint64_t)(int64_t)d->imm; NEXT();
OP(LUI) R[d->rd] = (uint64_t)(int64_t)d->imm; NEXT();
OP(DADDI) {
    int64_t r;
    if (__builtin_add_overflow((int64_t)R[d->rs], (int64_t)d->imm, &r))
        EXC(EXC_OV);
    R[d->rd] = (uint64_t)r;
    NEXT();
}
OP(DADDIU) R[d->rd] = R[d->rs] + (uint64_t)(int64_t)d->imm; NEXT();
