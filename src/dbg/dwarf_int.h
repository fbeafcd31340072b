/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by dwarf.c, dwarf_cfi.c, dwarf_loc.c and dwarf_type.c. */
#ifndef XBOW_DWARF_INT_H
#define XBOW_DWARF_INT_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <libelf.h>

#include "dbg/dwarf.h"

/* An open-addressing map from a 64-bit key (a DIE offset) to a pointer. */
typedef struct dw_map {
    uint64_t *keys; /* key + 1; 0 = empty */
    void **vals;
    size_t n, cap;
} dw_map;
void *dw_map_get(const dw_map *m, uint64_t key);
void dw_map_put(dw_map *m, uint64_t key, void *val);
void dw_map_free(dw_map *m);

/* Names of the top-level DIEs of every unit: "struct foo", "foo" (typedef
 * or base type), variables and functions, built on first use; and the
 * enumerators of the units' top-level enums (off: the enum type's DIE),
 * indexed the first time dw_index_find is asked for one. */
typedef struct dw_name {
    const char *key; /* owned */
    Dwarf_Off off;
    uint8_t kind; /* NK_TYPE, NK_VAR, NK_FUNC, NK_ENUMERATOR */
} dw_name;
enum { NK_TYPE = 1, NK_VAR = 2, NK_FUNC = 4, NK_ENUMERATOR = 8 };
/* An open-addressing hash table of them, by key (dwarf.c's table_slot). */
typedef struct dw_names {
    dw_name *e;
    size_t n, cap;
} dw_names;

struct dw_file {
    char *path;
    int fd;
    char *image; /* an ELF read from memory (dwdb_add_image), owned */
    Elf *elf;
    Dwarf *dw;
    dw_cfi *cfi;
    bool cfi_loaded;
    char cfi_err[160];
    ctype_arena *arena;
    dw_map types;   /* DIE offset -> const ctype * */
    dw_names names; /* built by dw_index() */
    bool indexed;
    bool enumerators_indexed;
    dw_names paths; /* absolute source paths, interned (the keys; kind 0) */
};

struct dwarf_db {
    dw_file **files;
    unsigned n;
};

/* The unit containing pc, in one of the files. */
bool dw_cu_for_pc(dwarf_db *db, uint64_t pc, dw_file **f, Dwarf_Die *cudie);
/* Build the name index of a file (once). */
void dw_index(dw_file *f);
const dw_name *dw_index_find(dw_file *f, const char *key, unsigned kinds);
/* The file-name table of a unit: DW_AT_call_file / decl_file index -> name. */
const char *dw_file_name(dw_file *f, Dwarf_Die *cudie, Dwarf_Word idx);
/* A source file name as an absolute path (relative names are under the
 * unit's DW_AT_comp_dir), interned: equal paths are equal pointers. */
const char *dw_abs_path(dw_file *f, Dwarf_Die *cudie, const char *name);
/* An attribute as a number (any constant form), false if absent. */
bool dw_attr_u(Dwarf_Die *die, unsigned at, uint64_t *v);
bool dw_attr_s(Dwarf_Die *die, unsigned at, int64_t *v);
/* Big-endian or not, as the ELF says. */
bool dw_file_be(const dw_file *f);

#endif
