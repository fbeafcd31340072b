/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call-frame information: libdw reads the CIEs and FDEs of .debug_frame
 * (or .eh_frame) with dwarf_next_cfi; the CFA programs run here, because
 * libdw 0.188 has no MIPS backend to set up a CIE's initial state and its
 * dwarf_cfi_addrframe fails on MIPS.  DWARF 5 section 6.4. */
#include "dbg/dwarf_int.h"

#include <stdio.h>
#include <stdlib.h>

#define NCOLS 66 /* GPRs 0-31, FPRs 32-63, hi 64, lo 65 */
#define MAX_STATE_STACK 16

typedef struct cie {
    Dwarf_Off off;
    uint64_t code_align;
    int64_t data_align;
    unsigned ra;
    const uint8_t *insns, *insns_end;
    bool signal;     /* 'S': frames of this CIE are exception frames */
    bool z;          /* 'z': FDEs have an augmentation length */
    uint8_t ptr_enc; /* 'R' (.eh_frame) */
} cie;

typedef struct fde {
    uint64_t lo, hi;
    const cie *c;
    const uint8_t *insns, *insns_end;
} fde;

struct dw_cfi {
    cie *cies;
    size_t ncies;
    fde *fdes;
    size_t nfdes;
    bool eh;
    bool be;
    unsigned addr_size;
    uint64_t sec_addr; /* .eh_frame's address, for pc-relative pointers */
    const uint8_t *sec_start;
};

void dw_cfi_free(dw_cfi *c)
{
    if (!c)
        return;
    free(c->cies);
    free(c->fdes);
    free(c);
}

/* ---- reading -------------------------------------------------------------- */

typedef struct reader {
    const uint8_t *p, *end;
    bool be, bad;
} reader;

static uint64_t rd(reader *r, unsigned n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = r->be ? v << 8 | r->p[i] : v | (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

static uint64_t uleb(reader *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (r->bad || r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        uint8_t b = *r->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
}

static int64_t sleb(reader *r)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (r->bad || r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        b = *r->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40))
        v |= ~0ull << shift;
    return (int64_t)v;
}

/* A pointer of an .eh_frame encoding (DW_EH_PE_*). */
static uint64_t enc_ptr(dw_cfi *c, reader *r, uint8_t enc)
{
    const uint8_t *at = r->p;
    uint64_t v;
    switch (enc & 0x0f) {
    case 0x00: v = rd(r, c->addr_size); break;                  /* absptr */
    case 0x01: v = uleb(r); break;                              /* uleb128 */
    case 0x02: v = rd(r, 2); break;                             /* udata2 */
    case 0x03: v = rd(r, 4); break;                             /* udata4 */
    case 0x04: v = rd(r, 8); break;                             /* udata8 */
    case 0x09: v = (uint64_t)sleb(r); break;                    /* sleb128 */
    case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd(r, 2); break; /* sdata2 */
    case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd(r, 4); break; /* sdata4 */
    case 0x0c: v = rd(r, 8); break;                             /* sdata8 */
    default: r->bad = true; return 0;
    }
    if ((enc & 0x70) == 0x10) /* pcrel */
        v += c->sec_addr + (uint64_t)(at - c->sec_start);
    return v;
}

static uint64_t enc_size(dw_cfi *c, reader *r, uint8_t enc)
{
    /* the address range has the encoding's size but is never relative */
    return enc_ptr(c, r, enc & 0x0f);
}

static int cmp_fde(const void *a, const void *b)
{
    const fde *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static const cie *find_cie(dw_cfi *c, Dwarf_Off off)
{
    for (size_t i = 0; i < c->ncies; i++)
        if (c->cies[i].off == off)
            return &c->cies[i];
    return NULL;
}

static bool parse_cie(dw_cfi *c, Dwarf_Off off, const Dwarf_CIE *e, cie *out)
{
    memset(out, 0, sizeof *out);
    out->off = off;
    out->code_align = e->code_alignment_factor;
    out->data_align = e->data_alignment_factor;
    out->ra = (unsigned)e->return_address_register;
    out->insns = e->initial_instructions;
    out->insns_end = e->initial_instructions_end;
    const char *aug = e->augmentation ? e->augmentation : "";
    reader r = {e->augmentation_data, e->augmentation_data + e->augmentation_data_size, c->be,
                false};
    for (const char *s = aug; *s; s++) {
        switch (*s) {
        case 'z': out->z = true; break;
        case 'S': out->signal = true; break;
        case 'R': out->ptr_enc = (uint8_t)rd(&r, 1); break;
        case 'L': rd(&r, 1); break;
        case 'P': {
            uint8_t pe = (uint8_t)rd(&r, 1);
            enc_ptr(c, &r, pe);
            break;
        }
        default:
            /* unknown augmentation: without 'z' the data cannot be skipped */
            if (!out->z)
                return false;
            s = ""; /* stop: the rest is in the data 'z' sized */
            s--;
            break;
        }
    }
    return !r.bad && out->insns <= out->insns_end;
}

dw_cfi *dw_cfi_load(Elf *elf, xerr *err)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return NULL;
    Elf_Scn *scn = NULL, *found = NULL;
    bool eh = false;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (!name || sh.sh_type == SHT_NOBITS)
            continue;
        if (!strcmp(name, ".debug_frame")) {
            found = scn;
            eh = false;
            break;
        }
        if (!strcmp(name, ".eh_frame") && !found) {
            found = scn;
            eh = true;
        }
    }
    if (!found)
        return NULL; /* no CFI: not an error */
    GElf_Shdr sh;
    gelf_getshdr(found, &sh);
    if (sh.sh_flags & SHF_COMPRESSED)
        elf_compress(found, 0, 0);
    Elf_Data *data = elf_getdata(found, NULL);
    if (!data || !data->d_buf) {
        xerr_set(err, "%s: cannot read the section: %s", eh ? ".eh_frame" : ".debug_frame",
                 elf_errmsg(-1));
        return NULL;
    }
    size_t idn;
    const char *ident = elf_getident(elf, &idn);
    if (!ident || idn <= EI_DATA) {
        xerr_set(err, "cannot read the ELF identification: %s", elf_errmsg(-1));
        return NULL;
    }
    dw_cfi *c = xcalloc(1, sizeof *c);
    c->eh = eh;
    c->be = ident[EI_DATA] == ELFDATA2MSB;
    c->addr_size = ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
    c->sec_addr = sh.sh_addr;
    c->sec_start = data->d_buf;
    /* Two passes: CIEs, then FDEs (an FDE names its CIE by offset). */
    size_t ncap = 0, fcap = 0;
    for (int pass = 0; pass < 2; pass++) {
        Dwarf_Off off = 0, next;
        for (unsigned guard = 0; off != (Dwarf_Off)-1; off = next, guard++) {
            Dwarf_CFI_Entry e;
            int rc = dwarf_next_cfi((const unsigned char *)ident, data, eh, off, &next, &e);
            if (rc == 1)
                break;
            if (rc != 0 || next <= off) {
                xerr_set(err, "%s is malformed at offset 0x%llx: %s",
                         eh ? ".eh_frame" : ".debug_frame", (unsigned long long)off,
                         dwarf_errmsg(-1));
                dw_cfi_free(c);
                return NULL;
            }
            if (dwarf_cfi_cie_p(&e)) {
                if (pass)
                    continue;
                if (c->ncies == ncap) {
                    ncap = ncap ? 2 * ncap : 16;
                    c->cies = xrealloc(c->cies, ncap * sizeof *c->cies);
                }
                if (!parse_cie(c, off, &e.cie, &c->cies[c->ncies])) {
                    xerr_set(err,
                             "%s: a CIE at offset 0x%llx has an augmentation "
                             "xbow cannot read (\"%s\")",
                             eh ? ".eh_frame" : ".debug_frame", (unsigned long long)off,
                             e.cie.augmentation);
                    dw_cfi_free(c);
                    return NULL;
                }
                c->ncies++;
                continue;
            }
            if (!pass)
                continue;
            const cie *ci = find_cie(c, e.fde.CIE_pointer);
            if (!ci) {
                xerr_set(err, "%s: the FDE at offset 0x%llx names no CIE",
                         eh ? ".eh_frame" : ".debug_frame", (unsigned long long)off);
                dw_cfi_free(c);
                return NULL;
            }
            reader r = {e.fde.start, e.fde.end, c->be, false};
            uint64_t lo, len;
            if (eh) {
                lo = enc_ptr(c, &r, ci->ptr_enc);
                len = enc_size(c, &r, ci->ptr_enc);
            } else {
                lo = rd(&r, c->addr_size);
                len = rd(&r, c->addr_size);
            }
            if (ci->z) {
                uint64_t alen = uleb(&r);
                if (alen > (uint64_t)(r.end - r.p))
                    r.bad = true;
                else
                    r.p += alen;
            }
            if (r.bad) {
                xerr_set(err, "%s: the FDE at offset 0x%llx is truncated",
                         eh ? ".eh_frame" : ".debug_frame", (unsigned long long)off);
                dw_cfi_free(c);
                return NULL;
            }
            if (!len)
                continue;
            if (c->nfdes == fcap) {
                fcap = fcap ? 2 * fcap : 64;
                c->fdes = xrealloc(c->fdes, fcap * sizeof *c->fdes);
            }
            c->fdes[c->nfdes++] = (fde){lo, lo + len, ci, r.p, e.fde.end};
        }
    }
    if (c->nfdes)
        qsort(c->fdes, c->nfdes, sizeof *c->fdes, cmp_fde);
    return c;
}

static const fde *find_fde(const dw_cfi *c, uint64_t pc)
{
    size_t lo = 0, hi = c->nfdes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->fdes[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo)
        return NULL;
    const fde *f = &c->fdes[lo - 1];
    return pc < f->hi ? f : NULL;
}

/* ---- running a CFA program --------------------------------------------------- */

enum { R_UNSPEC, R_UNDEF, R_SAME, R_OFFSET, R_VAL_OFFSET, R_REGISTER, R_EXPR, R_VAL_EXPR };

typedef struct rule {
    uint8_t how;
    int64_t n; /* offset or register */
} rule;

typedef struct row_state {
    unsigned cfa_reg;
    int64_t cfa_off;
    bool cfa_expr;
    rule r[NCOLS];
} row_state;

typedef struct frame_row {
    row_state s;
    rule ra_before; /* a signal frame: the rule its RA column had before it became the pc */
    uint64_t func;  /* where its FDE starts */
} frame_row;

static void set_rule(frame_row *fr, const cie *ci, uint64_t col, rule nr)
{
    if (col >= NCOLS)
        return;
    if (col == ci->ra && ci->signal && fr->s.r[col].how == R_OFFSET &&
        (nr.how != R_OFFSET || nr.n != fr->s.r[col].n))
        fr->ra_before = fr->s.r[col];
    fr->s.r[col] = nr;
}

/* Run insns until the location passes pc (pc = UINT64_MAX: the whole
 * program, for a CIE's initial instructions). */
static int run(const dw_cfi *c, const cie *ci, const uint8_t *p, const uint8_t *end, uint64_t loc,
               uint64_t pc, frame_row *fr, const row_state *initial, xerr *err)
{
    reader r = {p, end, c->be, false};
    row_state stack[MAX_STATE_STACK];
    unsigned depth = 0;
    while (r.p < r.end && !r.bad) {
        uint8_t op = (uint8_t)rd(&r, 1);
        uint8_t hi = op & 0xc0, low = op & 0x3f;
        uint64_t adv = 0;
        bool advance = false;
        if (hi == 0x40) { /* advance_loc */
            adv = low;
            advance = true;
        } else if (hi == 0x80) { /* offset */
            set_rule(fr, ci, low, (rule){R_OFFSET, (int64_t)uleb(&r) * ci->data_align});
        } else if (hi == 0xc0) { /* restore */
            if (low < NCOLS)
                set_rule(fr, ci, low, initial ? initial->r[low] : (rule){R_UNSPEC, 0});
        } else {
            uint64_t reg, v;
            switch (op) {
            case DW_CFA_nop: break;
            case DW_CFA_set_loc:
                v = rd(&r, c->addr_size);
                if (v > pc)
                    return 0;
                loc = v;
                break;
            case DW_CFA_advance_loc1:
            case DW_CFA_advance_loc2:
            case DW_CFA_advance_loc4:
            case DW_CFA_MIPS_advance_loc8: /* a delta of 1, 2, 4 or 8 bytes */
                adv = rd(&r, op == DW_CFA_MIPS_advance_loc8 ? 8 : 1u << (op - DW_CFA_advance_loc1));
                advance = true;
                break;
            case DW_CFA_offset_extended:
                reg = uleb(&r);
                set_rule(fr, ci, reg, (rule){R_OFFSET, (int64_t)uleb(&r) * ci->data_align});
                break;
            case DW_CFA_offset_extended_sf:
                reg = uleb(&r);
                set_rule(fr, ci, reg, (rule){R_OFFSET, sleb(&r) * ci->data_align});
                break;
            case DW_CFA_GNU_negative_offset_extended:
                reg = uleb(&r);
                set_rule(fr, ci, reg, (rule){R_OFFSET, -(int64_t)uleb(&r) * ci->data_align});
                break;
            case DW_CFA_val_offset:
                reg = uleb(&r);
                set_rule(fr, ci, reg, (rule){R_VAL_OFFSET, (int64_t)uleb(&r) * ci->data_align});
                break;
            case DW_CFA_val_offset_sf:
                reg = uleb(&r);
                set_rule(fr, ci, reg, (rule){R_VAL_OFFSET, sleb(&r) * ci->data_align});
                break;
            case DW_CFA_restore_extended:
                reg = uleb(&r);
                if (reg < NCOLS)
                    set_rule(fr, ci, reg, initial ? initial->r[reg] : (rule){R_UNSPEC, 0});
                break;
            case DW_CFA_undefined: set_rule(fr, ci, uleb(&r), (rule){R_UNDEF, 0}); break;
            case DW_CFA_same_value: set_rule(fr, ci, uleb(&r), (rule){R_SAME, 0}); break;
            case DW_CFA_register:
                reg = uleb(&r);
                set_rule(fr, ci, reg, (rule){R_REGISTER, (int64_t)uleb(&r)});
                break;
            case DW_CFA_remember_state:
                if (depth >= MAX_STATE_STACK) {
                    xerr_set(err, "CFI remembers more than %d states", MAX_STATE_STACK);
                    return -1;
                }
                stack[depth++] = fr->s;
                break;
            case DW_CFA_restore_state:
                if (!depth) {
                    xerr_set(err, "CFI restores a state it never remembered");
                    return -1;
                }
                fr->s = stack[--depth];
                break;
            case DW_CFA_def_cfa:
                fr->s.cfa_reg = (unsigned)uleb(&r);
                fr->s.cfa_off = (int64_t)uleb(&r);
                fr->s.cfa_expr = false;
                break;
            case DW_CFA_def_cfa_sf:
                fr->s.cfa_reg = (unsigned)uleb(&r);
                fr->s.cfa_off = sleb(&r) * ci->data_align;
                fr->s.cfa_expr = false;
                break;
            case DW_CFA_def_cfa_register:
                fr->s.cfa_reg = (unsigned)uleb(&r);
                fr->s.cfa_expr = false;
                break;
            case DW_CFA_def_cfa_offset: fr->s.cfa_off = (int64_t)uleb(&r); break;
            case DW_CFA_def_cfa_offset_sf: fr->s.cfa_off = sleb(&r) * ci->data_align; break;
            case DW_CFA_def_cfa_expression:
                v = uleb(&r);
                if (v > (uint64_t)(r.end - r.p))
                    r.bad = true;
                else
                    r.p += v;
                fr->s.cfa_expr = true;
                break;
            case DW_CFA_expression:
            case DW_CFA_val_expression:
                reg = uleb(&r);
                v = uleb(&r);
                if (v > (uint64_t)(r.end - r.p))
                    r.bad = true;
                else
                    r.p += v;
                set_rule(fr, ci, reg, (rule){op == DW_CFA_expression ? R_EXPR : R_VAL_EXPR, 0});
                break;
            case DW_CFA_GNU_args_size: uleb(&r); break;
            default: xerr_set(err, "CFI instruction 0x%02x is not supported", op); return -1;
            }
        }
        if (advance) {
            uint64_t next = loc + adv * ci->code_align;
            if (next > pc)
                return 0;
            loc = next;
        }
    }
    if (r.bad) {
        xerr_set(err, "a CFI program runs past its end");
        return -1;
    }
    return 0;
}

/* The row of the CFI table for pc: 1, 0 when no FDE covers pc, -1. */
static int row_for(const dw_cfi *c, uint64_t pc, frame_row *fr, const cie **ci_out, xerr *err)
{
    const fde *f = c ? find_fde(c, pc) : NULL;
    if (!f)
        return 0;
    const cie *ci = f->c;
    memset(fr, 0, sizeof *fr);
    if (run(c, ci, ci->insns, ci->insns_end, 0, UINT64_MAX, fr, NULL, err))
        return -1;
    row_state initial = fr->s;
    fr->ra_before = (rule){R_UNSPEC, 0};
    if (run(c, ci, f->insns, f->insns_end, f->lo, pc, fr, &initial, err))
        return -1;
    *ci_out = ci;
    fr->func = f->lo;
    return 1;
}

static int read_reg(const dw_mem *mem, uint64_t addr, unsigned size, uint64_t *v)
{
    uint8_t b[8];
    if (mem->read(mem->ctx, addr, b, size) != 0)
        return -1;
    *v = load_be(b, size);
    if (size == 4)
        *v = (uint64_t)(int64_t)(int32_t)*v;
    return 0;
}

static dw_cfi *cfi_for(dwarf_db *db, uint64_t pc, const dw_cfi **cout)
{
    for (unsigned i = 0; db && i < db->n; i++) {
        dw_cfi *c = db->files[i]->cfi;
        if (c && find_fde(c, pc)) {
            *cout = c;
            return c;
        }
    }
    return NULL;
}

static bool cfa_of(const row_state *s, const dw_regs *in, uint64_t *cfa)
{
    if (s->cfa_expr || s->cfa_reg >= 32 || !(in->valid & (1u << s->cfa_reg)))
        return false;
    *cfa = in->r[s->cfa_reg] + (uint64_t)s->cfa_off;
    return true;
}

bool dw_cfi_cfa(dwarf_db *db, const dw_regs *in, const dw_mem *mem, uint64_t *cfa)
{
    (void)mem;
    const dw_cfi *c;
    frame_row fr;
    const cie *ci;
    uint64_t pc = dw_lookup_pc(in);
    if (!cfi_for(db, pc, &c) || row_for(c, pc, &fr, &ci, NULL) != 1)
        return false;
    return cfa_of(&fr.s, in, cfa);
}

/* Registers a function must preserve for its caller (n64 and o32): s0-s7,
 * gp, sp, s8; $0 is always 0. */
static bool callee_saved(unsigned r) { return r == 0 || (r >= 16 && r <= 23) || r >= 28; }

/* The value the caller sees in column col: 1 with *v, 0 when not known,
 * -1 when the memory it was saved in cannot be read. */
static int apply_rule(const row_state *s, unsigned col, const cie *ci, const dw_regs *in,
                      uint64_t cfa, const dw_mem *mem, unsigned size, uint64_t *v)
{
    const rule *ru = &s->r[col];
    bool have = col < 32 && (in->valid & (1u << col));
    switch (ru->how) {
    case R_UNSPEC:
        /* The innermost frame's caller-saved registers are lost in the
         * caller; what it must preserve (and an unsaved return address) it
         * has not changed. */
        if (have && (callee_saved(col) || col == ci->ra)) {
            *v = in->r[col];
            return 1;
        }
        return 0;
    case R_SAME:
        if (!have)
            return 0;
        *v = in->r[col];
        return 1;
    case R_OFFSET: return read_reg(mem, cfa + (uint64_t)ru->n, size, v) == 0 ? 1 : -1;
    case R_VAL_OFFSET: *v = cfa + (uint64_t)ru->n; return 1;
    case R_REGISTER:
        if (ru->n < 0 || ru->n >= 32 || !(in->valid & (1u << ru->n)))
            return 0;
        *v = in->r[ru->n];
        return 1;
    default: /* undefined, or an expression rule xbow does not run */ return 0;
    }
}

/* The caller's registers from a row and a CFA: 1, 0 when the return
 * address is not known (the outermost frame), -1 when a saved register
 * cannot be read (err). */
static int apply_row(const dw_cfi *c, const frame_row *fr, const cie *ci, dw_regs *in, uint64_t cfa,
                     const dw_mem *mem, dw_regs *out, xerr *err)
{
    memset(in->saved, 0, sizeof in->saved);
    memset(out, 0, sizeof *out);
    unsigned size = c->addr_size;
    in->saved_size = size;
    in->func = fr->func;
    for (unsigned col = 0; col < 32; col++) {
        uint64_t v;
        int k = apply_rule(&fr->s, col, ci, in, cfa, mem, size, &v);
        if (k < 0) {
            xerr_set(err, "cannot read the saved r%u at 0x%llx", col,
                     (unsigned long long)(cfa + (uint64_t)fr->s.r[col].n));
            return -1;
        }
        if (k > 0) {
            out->r[col] = v;
            out->valid |= 1u << col;
            if (fr->s.r[col].how == R_OFFSET)
                in->saved[col] = cfa + (uint64_t)fr->s.r[col].n;
        }
    }
    uint64_t ra = 0;
    int ra_known = ci->ra < NCOLS ? apply_rule(&fr->s, ci->ra, ci, in, cfa, mem, size, &ra) : 0;
    if (ra_known < 0) {
        xerr_set(err, "cannot read the saved return address at 0x%llx",
                 (unsigned long long)(cfa + (uint64_t)fr->s.r[ci->ra].n));
        return -1;
    }
    if (ra_known == 0) {
        xerr_set(err, "the outermost frame (no return address)");
        return 0;
    }
    out->pc = ra;
    /* The caller's $sp is the CFA (the n64 and o32 CFA is the $sp at the
     * call), unless the CFI says where it is (an exception frame's saved
     * $sp). */
    if (fr->s.r[29].how == R_UNSPEC || fr->s.r[29].how == R_SAME || !(out->valid & (1u << 29)))
        out->r[29] = cfa;
    out->r[0] = 0;
    out->valid |= 1u << 29 | 1u;
    out->exact_pc = ci->signal;
    if (ci->signal) {
        /* The interrupted code's own $ra: where the rule was before the
         * RA column took the exception pc (Linux's SAVE_SOME, crt0.S). */
        out->valid &= ~(1u << 31);
        if (fr->ra_before.how == R_OFFSET && ci->ra == 31) {
            uint64_t v;
            if (read_reg(mem, cfa + (uint64_t)fr->ra_before.n, size, &v) == 0) {
                out->r[31] = v;
                out->valid |= 1u << 31;
            }
        }
    } else if (ci->ra == 31) {
        /* After the call, the caller's $ra is the return address. */
        out->r[31] = ra;
        out->valid |= 1u << 31;
    }
    return 1;
}

/* Code the debug information knows: an interrupted pc worth believing. */
static bool known_code(dwarf_db *db, uint64_t pc)
{
    const dw_cfi *c;
    return !(pc & 3) && cfi_for(db, pc, &c);
}

int dw_cfi_unwind(dwarf_db *db, dw_regs *in, dw_regs *out, const dw_mem *mem, xerr *err)
{
    const dw_cfi *c;
    uint64_t pc = dw_lookup_pc(in);
    if (!cfi_for(db, pc, &c))
        return 0;
    frame_row fr;
    const cie *ci;
    int rc = row_for(c, pc, &fr, &ci, err);
    if (rc <= 0)
        return rc;
    uint64_t cfa;
    if (!cfa_of(&fr.s, in, &cfa)) {
        xerr_set(err, fr.s.cfa_expr ? "the CFA is a DWARF expression (not supported)"
                                    : "the CFA's register is not known in this frame");
        return -1;
    }
    in->signal = ci->signal;
    in->cfi = true;
    rc = apply_row(c, &fr, ci, in, cfa, mem, out, err);
    if (ci->signal && (rc <= 0 || !known_code(db, out->pc))) {
        /* An exception frame whose code moved $sp without saying so in its
         * CFI (Linux's handle_int switches to the IRQ stack after saving
         * the registers, keeping the old $sp in $s1): the frame is where
         * one of the registers it preserves points, if the interrupted pc
         * found there is code. */
        static const unsigned keep[] = {16, 17, 18, 19, 20, 21, 22, 23, 30};
        for (unsigned i = 0; i < ARRAY_SIZE(keep); i++) {
            unsigned r = keep[i];
            if (!(in->valid & (1u << r)) || in->r[r] == cfa || (in->r[r] & 7))
                continue;
            dw_regs alt;
            if (apply_row(c, &fr, ci, in, in->r[r], mem, &alt, NULL) == 1 &&
                known_code(db, alt.pc)) {
                cfa = in->r[r];
                break;
            }
        }
        rc = apply_row(c, &fr, ci, in, cfa, mem, out, err); /* the one chosen */
    }
    in->cfa = cfa;
    return rc > 0 ? 1 : -1; /* 0: no return address, the outermost frame */
}
