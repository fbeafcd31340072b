/* SPDX-License-Identifier: GPL-2.0-or-later */
/* C types for the debugger's expressions: built from DWARF (dwarf_type.c)
 * and used by the expression evaluator (member access, indexing, pointer
 * arithmetic, casts to named types), print, ptype and whatis.  This file
 * knows nothing about DWARF or memory: it describes types and names them
 * the way C (and gdb) writes them. */
#ifndef XBOW_CTYPE_H
#define XBOW_CTYPE_H

#include "core/common.h"
#include "core/strbuf.h"

typedef enum ctype_kind {
    CT_VOID,
    CT_INT, /* integers and characters (is_char) */
    CT_BOOL,
    CT_FLOAT,
    CT_ENUM,
    CT_PTR,
    CT_STRUCT,
    CT_UNION,
    CT_ARRAY,
    CT_FUNC,
    CT_TYPEDEF,
    CT_CONST,
    CT_VOLATILE,
} ctype_kind;

typedef struct ctype ctype;
typedef struct ctype_arena ctype_arena;

typedef struct cmember {
    const char *name; /* NULL: an anonymous struct or union member */
    const ctype *type;
    uint64_t offset;     /* bytes from the start of the aggregate */
    uint16_t bit_offset; /* bit-fields: bits from the most significant bit of */
    uint16_t bit_size;   /* the byte at offset (big-endian); bit_size 0: none */
} cmember;

typedef struct cenum {
    const char *name;
    int64_t value;
} cenum;

struct ctype {
    ctype_kind kind;
    const char *name; /* base type, typedef, tag (NULL: anonymous) */
    uint64_t size;    /* bytes (arrays: the whole array) */
    bool sgn;         /* integers and enums */
    bool is_char;     /* char, signed char, unsigned char */
    bool incomplete;  /* a declaration only (struct foo;) or an array of unknown size */
    /* PTR: the pointee; ARRAY: the element; TYPEDEF, CONST, VOLATILE: the
     * type qualified or named; FUNC: the return type; NULL means void. */
    const ctype *target;
    uint64_t count;   /* ARRAY: elements */
    cmember *members; /* STRUCT, UNION */
    unsigned nmembers;
    cenum *enums; /* ENUM */
    unsigned nenums;
    const ctype **params; /* FUNC: parameter types */
    unsigned nparams;
    bool varargs, prototyped;
    ctype_arena *arena; /* where derived types (pointers to this) are made */
    ctype *ptr_to;      /* the pointer to this type, once made */
    /* A target made when first asked for (ctype_target): pointers in the
     * debug information, so that reading one type does not read every
     * type it can reach. */
    const ctype *(*lazy_target)(void *ctx, uint64_t key);
    void *lazy_ctx;
    uint64_t lazy_key;
};

/* t's target (see the field); use it rather than t->target. */
const ctype *ctype_target(const ctype *t);

/* Types and their strings live in an arena, freed at once. */
ctype_arena *ctype_arena_new(void);
void ctype_arena_free(ctype_arena *a);
ctype *ctype_new(ctype_arena *a, ctype_kind kind, const char *name);
void *ctype_alloc(ctype_arena *a, size_t size); /* zeroed (xcalloc: never NULL) */
const char *ctype_strdup(ctype_arena *a, const char *s);

/* The type behind typedefs and qualifiers (NULL stays NULL: void). */
const ctype *ctype_strip(const ctype *t);
/* A pointer to t (t NULL: void *, made in arena a). */
const ctype *ctype_pointer(ctype_arena *a, const ctype *t);
/* Integers, enums, pointers, bool and floats of 1 to 8 bytes. */
bool ctype_is_scalar(const ctype *t);
bool ctype_is_aggregate(const ctype *t); /* struct, union, array */
/* Bytes of one element a pointer or array steps over (1 for void). */
uint64_t ctype_stride(const ctype *t);
/* A member by name, also inside anonymous struct/union members; *offset
 * gets its offset from the start of t.  NULL if t has none. */
const cmember *ctype_member(const ctype *t, const char *name, uint64_t *offset);
/* The name of an enumerator value, NULL if none. */
const char *ctype_enum_name(const ctype *t, int64_t v);

/* "struct desc *", "u8 [64][1536]", "void (*)(int, void *)": as whatis
 * shows a type. */
void ctype_name(const ctype *t, strbuf *out);
/* A declaration of NAME with type t: "u8 buf[16]", "int (*fn)(int)". */
void ctype_declare(const ctype *t, const char *name, strbuf *out);
/* As ptype shows it: a struct, union or enum with its members (one level;
 * nested aggregates by name unless anonymous), otherwise as ctype_name. */
void ctype_ptype(const ctype *t, strbuf *out);

#endif
