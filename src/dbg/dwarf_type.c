/* SPDX-License-Identifier: GPL-2.0-or-later */
/* DWARF type DIEs as C types (ctype.h), built once per DIE.  A type is
 * entered in the file's map before its parts are read, so recursive
 * structures (a list node pointing at its own type) end. */
#include "dbg/dwarf_int.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_DEPTH 200

static const ctype *type_of(dw_file *f, Dwarf_Die *die, unsigned depth);
static const ctype *pointee(void *ctx, uint64_t off);

static const ctype *ref_type(dw_file *f, Dwarf_Die *die, unsigned depth)
{
    Dwarf_Attribute a;
    Dwarf_Die t;
    if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
        return NULL; /* void */
    return type_of(f, &t, depth + 1);
}

static uint64_t byte_size(Dwarf_Die *die)
{
    int n = dwarf_bytesize(die);
    return n > 0 ? (uint64_t)n : 0;
}

/* The children of a DIE that have the tag, in order, in *out (malloc'd;
 * NULL when there are none; out may be NULL to count them). */
static unsigned tagged_children(Dwarf_Die *die, int tag, Dwarf_Die **out)
{
    unsigned n = 0;
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0)
        do
            n += dwarf_tag(&c) == tag;
        while (dwarf_siblingof(&c, &c) == 0);
    if (!out)
        return n;
    *out = n ? xmalloc(n * sizeof **out) : NULL;
    if (!n)
        return 0;
    unsigned k = 0;
    if (dwarf_child(die, &c) == 0)
        do
            if (dwarf_tag(&c) == tag && k < n)
                (*out)[k++] = c;
        while (dwarf_siblingof(&c, &c) == 0);
    return k;
}

/* The children with the tag (in *cs, malloc'd) and an array of as many
 * zeroed elements of `elem` bytes in the file's arena (in *arr); 0 with
 * nothing to free when there are none. */
static unsigned tagged_array(dw_file *f, Dwarf_Die *die, int tag, size_t elem, Dwarf_Die **cs,
                             void **arr)
{
    unsigned n = tagged_children(die, tag, cs);
    *arr = n ? ctype_alloc(dw_file_arena(f), n * elem) : NULL;
    return n;
}

static ctype *unknown(dw_file *f, const char *why)
{
    ctype *t = ctype_new(dw_file_arena(f), CT_VOID, why);
    return t;
}

/* DW_AT_data_member_location: a constant, or (DWARF 2) an expression
 * DW_OP_plus_uconst N. */
static uint64_t member_offset(Dwarf_Die *m)
{
    Dwarf_Attribute a;
    Dwarf_Word w;
    if (!dwarf_attr(m, DW_AT_data_member_location, &a))
        return 0;
    if (dwarf_formudata(&a, &w) == 0)
        return w;
    Dwarf_Op *ops;
    size_t n;
    if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 && ops[0].atom == DW_OP_plus_uconst)
        return ops[0].number;
    return 0;
}

static void fill_struct(dw_file *f, Dwarf_Die *die, ctype *t, unsigned depth)
{
    t->size = byte_size(die);
    if (dwarf_hasattr(die, DW_AT_declaration)) {
        /* Only declared here: another unit may define it. */
        char key[256];
        Dwarf_Die def;
        if (t->name) {
            snprintf(key, sizeof key, "%s %s", t->kind == CT_UNION ? "union" : "struct", t->name);
            if (dw_find_type_die(f, key, &def) && !dwarf_hasattr(&def, DW_AT_declaration)) {
                const ctype *full = type_of(f, &def, depth + 1);
                if (full && full->kind == t->kind) {
                    *t = *full; /* the same members, owned by the same arena */
                    t->ptr_to = NULL;
                    return;
                }
            }
        }
        t->incomplete = true;
        return;
    }
    Dwarf_Die *cs;
    cmember *ms;
    unsigned n = tagged_array(f, die, DW_TAG_member, sizeof *ms, &cs, (void **)&ms);
    for (unsigned k = 0; k < n; k++) {
        Dwarf_Die *c = &cs[k];
        cmember *m = &ms[k];
        m->name = dwarf_diename(c);
        m->type = ref_type(f, c, depth);
        m->offset = member_offset(c);
        uint64_t bits, dbo;
        if (dw_attr_u(c, DW_AT_bit_size, &bits) && bits && bits <= 64) {
            m->bit_size = (uint16_t)bits;
            if (dw_attr_u(c, DW_AT_data_bit_offset, &dbo)) {
                /* from the start of the struct, big-endian bit order */
                m->offset = dbo / 8;
                m->bit_offset = (uint16_t)(dbo % 8);
            } else {
                /* DWARF 2/3: DW_AT_bit_offset counts from the most
                 * significant bit of the storage unit at the member's
                 * offset */
                int64_t bo = 0;
                dw_attr_s(c, DW_AT_bit_offset, &bo);
                uint64_t at = m->offset * 8 + (uint64_t)bo;
                m->offset = at / 8;
                m->bit_offset = (uint16_t)(at % 8);
            }
        }
    }
    free(cs);
    t->members = ms;
    t->nmembers = n;
}

static void fill_enum(dw_file *f, Dwarf_Die *die, ctype *t, unsigned depth)
{
    t->size = byte_size(die);
    const ctype *base = ctype_strip(ref_type(f, die, depth));
    t->sgn = base ? base->sgn : false;
    Dwarf_Die *cs;
    cenum *es;
    unsigned n = tagged_array(f, die, DW_TAG_enumerator, sizeof *es, &cs, (void **)&es);
    for (unsigned k = 0; k < n; k++) {
        es[k].name = dwarf_diename(&cs[k]);
        if (!es[k].name)
            es[k].name = "?";
        Dwarf_Attribute a;
        Dwarf_Sword sv;
        Dwarf_Word uv;
        if (dwarf_attr(&cs[k], DW_AT_const_value, &a)) {
            if (a.form == DW_FORM_sdata || a.form == DW_FORM_implicit_const) {
                if (dwarf_formsdata(&a, &sv) == 0)
                    es[k].value = sv;
            } else if (dwarf_formudata(&a, &uv) == 0) {
                es[k].value = (int64_t)uv;
                /* data1/2/4 of a signed enum: sign-extend */
                if (t->size && t->size < 8 && (base ? base->sgn : false)) {
                    unsigned bits = (unsigned)t->size * 8;
                    uint64_t m = 1ull << (bits - 1);
                    es[k].value = (int64_t)(((uv & MASK(bits)) ^ m) - m);
                }
            }
        }
        if (es[k].value < 0)
            t->sgn = true;
    }
    free(cs);
    t->enums = es;
    t->nenums = n;
}

static const ctype *array_of(dw_file *f, Dwarf_Die *die, unsigned depth, ctype *outer)
{
    /* Subranges outermost first: int a[2][3] has [2] then [3]. */
    Dwarf_Die subs[16];
    unsigned ns = 0;
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0)
        do
            if ((dwarf_tag(&c) == DW_TAG_subrange_type ||
                 dwarf_tag(&c) == DW_TAG_enumeration_type) &&
                ns < 16)
                subs[ns++] = c;
        while (dwarf_siblingof(&c, &c) == 0);
    const ctype *elem = ref_type(f, die, depth);
    if (!ns)
        ns = 1, subs[0] = *die; /* no subrange: an array of unknown size */
    ctype_arena *ar = dw_file_arena(f);
    const ctype *t = elem;
    for (unsigned i = ns; i-- > 0;) {
        ctype *a = i == 0 ? outer : ctype_new(ar, CT_ARRAY, NULL);
        if (!a)
            return outer;
        a->kind = CT_ARRAY;
        a->target = t;
        uint64_t count = 0, ub, lb = 0;
        int64_t sub;
        bool known = false;
        if (dw_attr_u(&subs[i], DW_AT_count, &count)) {
            known = true;
        } else if (dwarf_hasattr(&subs[i], DW_AT_upper_bound)) {
            dw_attr_u(&subs[i], DW_AT_lower_bound, &lb);
            if (dw_attr_s(&subs[i], DW_AT_upper_bound, &sub) && sub >= (int64_t)lb - 1) {
                ub = (uint64_t)sub;
                count = ub + 1 - lb;
                known = true;
            } else if (dw_attr_u(&subs[i], DW_AT_upper_bound, &ub) && ub + 1 >= lb) {
                count = ub + 1 - lb;
                known = true;
            }
        }
        const ctype *e = ctype_strip(t);
        a->count = known ? count : 0;
        a->incomplete = !known;
        a->size = known && e ? count * e->size : 0;
        t = a;
    }
    return outer;
}

static void fill_func(dw_file *f, Dwarf_Die *die, ctype *t, unsigned depth)
{
    t->target = ref_type(f, die, depth);
    t->size = 1;
    Dwarf_Attribute a;
    bool proto = false;
    if (dwarf_attr_integrate(die, DW_AT_prototyped, &a))
        dwarf_formflag(&a, &proto);
    t->prototyped = proto;
    t->varargs = tagged_children(die, DW_TAG_unspecified_parameters, NULL) > 0;
    Dwarf_Die *cs;
    unsigned n = tagged_children(die, DW_TAG_formal_parameter, &cs);
    const ctype **ps = n ? ctype_alloc(dw_file_arena(f), n * sizeof *ps) : NULL;
    for (unsigned k = 0; ps && k < n; k++)
        ps[k] = ref_type(f, &cs[k], depth);
    free(cs);
    if (!ps)
        return;
    t->params = ps;
    t->nparams = n;
}

static const ctype *pointee(void *ctx, uint64_t off)
{
    dw_file *f = ctx;
    Dwarf_Die d;
    return dwarf_offdie(f->dw, off, &d) ? type_of(f, &d, 0) : NULL;
}

/* A new type, entered in the file's map before its parts are read. */
static ctype *entered(dw_file *f, Dwarf_Off off, int kind, const char *name)
{
    ctype *t = ctype_new(dw_file_arena(f), kind, name);
    if (t)
        dw_map_put(&f->types, off, t);
    return t;
}

static const ctype *type_of(dw_file *f, Dwarf_Die *die, unsigned depth)
{
    Dwarf_Off off = dwarf_dieoffset(die);
    const ctype *have = dw_map_get(&f->types, off);
    if (have)
        return have;
    if (depth > MAX_DEPTH)
        return unknown(f, "<type nested too deeply>");
    int tag = dwarf_tag(die);
    const char *name = dwarf_diename(die);
    ctype *t;
    switch (tag) {
    case DW_TAG_base_type: {
        uint64_t enc = 0;
        dw_attr_u(die, DW_AT_encoding, &enc);
        t = entered(f, off, CT_INT, name);
        if (!t)
            return NULL;
        t->size = byte_size(die);
        switch (enc) {
        case DW_ATE_boolean: t->kind = CT_BOOL; break;
        case DW_ATE_float: t->kind = CT_FLOAT; break;
        case DW_ATE_signed: t->sgn = true; break;
        case DW_ATE_signed_char:
            t->sgn = true;
            t->is_char = true;
            break;
        case DW_ATE_unsigned_char: t->is_char = true; break;
        case DW_ATE_unsigned:
        case DW_ATE_UTF: break;
        default: t->kind = CT_VOID; break; /* complex, decimal...: shown as unknown */
        }
        return t;
    }
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type: {
        t = entered(f, off, CT_PTR, NULL);
        if (!t)
            return NULL;
        t->size = byte_size(die) ? byte_size(die) : 8;
        /* what it points at is read when first needed (ctype_target) */
        Dwarf_Attribute a;
        Dwarf_Die to;
        if (dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, &to)) {
            t->lazy_target = pointee;
            t->lazy_ctx = f;
            t->lazy_key = dwarf_dieoffset(&to);
        }
        return t;
    }
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_typedef:
        t = entered(f, off,
                    tag == DW_TAG_typedef      ? CT_TYPEDEF
                    : tag == DW_TAG_const_type ? CT_CONST
                                               : CT_VOLATILE,
                    tag == DW_TAG_typedef ? name : NULL);
        if (!t)
            return NULL;
        t->target = ref_type(f, die, depth);
        t->size = t->target ? t->target->size : 0;
        return t;
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type:
    case DW_TAG_immutable_type: {
        const ctype *u = ref_type(f, die, depth);
        if (u)
            dw_map_put(&f->types, off, (void *)u);
        return u;
    }
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type:
        t = entered(f, off, tag == DW_TAG_union_type ? CT_UNION : CT_STRUCT, name);
        if (t)
            fill_struct(f, die, t, depth);
        return t;
    case DW_TAG_enumeration_type:
        t = entered(f, off, CT_ENUM, name);
        if (t)
            fill_enum(f, die, t, depth);
        return t;
    case DW_TAG_array_type:
        t = entered(f, off, CT_ARRAY, NULL);
        return t ? array_of(f, die, depth, t) : NULL;
    case DW_TAG_subroutine_type:
    case DW_TAG_subprogram:
        t = entered(f, off, CT_FUNC, NULL);
        if (t)
            fill_func(f, die, t, depth);
        return t;
    case DW_TAG_unspecified_type: return entered(f, off, CT_VOID, name ? name : "void");
    default: return entered(f, off, CT_VOID, "<unknown type>");
    }
}

const ctype *dw_type_of(dw_file *f, Dwarf_Die *die) { return type_of(f, die, 0); }
