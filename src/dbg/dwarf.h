/* SPDX-License-Identifier: GPL-2.0-or-later */
/* DWARF for the debugger: the ELF files whose debug information xbow has
 * read (the kernel given on the command line, symbol-file), through
 * elfutils' libdw.  Line tables, functions with their inlined instances,
 * variables, types (ctype.h) and call-frame information.  libdw decodes;
 * what it cannot do for MIPS in 0.188 (run a CFI program, evaluate a
 * location expression) is done here.  Nothing here prints or stops the
 * machine: the commands are in source.c, srcstep.c and srcvars.c. */
#ifndef XBOW_DWARF_H
#define XBOW_DWARF_H

#include <elfutils/libdw.h>

#include "core/common.h"
#include "dbg/ctype.h"

typedef struct dwarf_db dwarf_db;
typedef struct dw_file dw_file;

dwarf_db *dwdb_new(void);
void dwdb_free(dwarf_db *db);
/* Read the debug information of the ELF at path.  Returns 1 when it has
 * some (err empty, or a warning: a malformed .debug_frame, whose frames
 * are then not unwound with it), 0 when it has none (err says so), -1
 * when the file or its DWARF is malformed (err says what; nothing kept). */
int dwdb_add(dwarf_db *db, const char *path, xerr *err);
/* The same for an ELF image in memory (copied), named `name` (tests). */
int dwdb_add_image(dwarf_db *db, const char *name, const void *data, size_t size, xerr *err);
bool dwdb_empty(const dwarf_db *db);
unsigned dwdb_nfiles(const dwarf_db *db);
const char *dwdb_path(const dwarf_db *db, unsigned i);

/* Memory and registers as a frame sees them, for locations and CFI. */
typedef struct dw_mem {
    void *ctx;
    /* 0, or -1 when the bytes cannot be read */
    int (*read)(void *ctx, uint64_t addr, void *buf, unsigned len);
} dw_mem;

typedef struct dw_regs {
    uint64_t pc;
    uint64_t r[32];      /* GPRs */
    uint32_t valid;      /* bit n: r[n] is known in this frame */
    uint64_t saved[32];  /* where this frame saved its caller's GPR n (0: not saved) */
    unsigned saved_size; /* how wide those slots are (the CFI's address size) */
    uint64_t func;       /* where the code its CFI describes starts (the FDE's) */
    uint64_t cfa;        /* this frame's canonical frame address (0: unknown) */
    bool exact_pc; /* pc is where execution is (frame 0, or interrupted), not a return address */
    bool signal;   /* an exception frame: its caller was interrupted */
    bool cfi;      /* this frame was unwound with CFI (its CFA is exact) */
    /* Its caller (NULL: not known): where DW_OP_entry_value finds the
     * values the arguments had at the call (DW_TAG_call_site). */
    const struct dw_regs *caller;
} dw_regs;

/* The address to look up debug information for a frame: its pc, or for a
 * caller the call's delay slot (the return address is past the call). */
static inline uint64_t dw_lookup_pc(const dw_regs *r) { return r->exact_pc ? r->pc : r->pc - 4; }

/* ---- line tables ----------------------------------------------------------- */

typedef struct dw_line {
    const char *file; /* as the compiler recorded it (absolute with its directory) */
    unsigned line;
    uint64_t addr; /* where this row starts */
    uint64_t end;  /* where the next address of the table starts */
    bool stmt;     /* the row begins a statement (is_stmt) */
} dw_line;

/* The row covering pc (gdb's choice: the last row at or below pc,
 * preferring a statement among rows at the same address). */
bool dw_line_at(dwarf_db *db, uint64_t pc, dw_line *out);
/* The first address for FILE:LINE in each function or inlined copy that
 * has it (statements only); when LINE has no code, the next line that has.
 * *line_found gets that line, *file_found the file's full name.  Returns
 * the number of addresses (at most max), 0 when the file is unknown or has
 * no code from LINE on. */
unsigned dw_line_addrs(dwarf_db *db, const char *file, unsigned line, uint64_t *addrs, unsigned max,
                       unsigned *line_found, const char **file_found);
/* Does FILE (a name or a path suffix) name a source file of the program?
 * *full gets its full name. */
bool dw_find_file(dwarf_db *db, const char *file, const char **full);
/* Does the path end with the name at a directory boundary? */
bool dw_path_matches(const char *path, const char *name);

/* ---- functions and inlined instances -------------------------------------- */

typedef struct dw_scope {
    dw_file *f;
    Dwarf_Die die; /* DW_TAG_subprogram or DW_TAG_inlined_subroutine */
    const char *name;
    bool inlined;
    uint64_t lo, hi;       /* the range of it that contains the pc */
    uint64_t entry;        /* its first instruction */
    const char *call_file; /* inlined: where the call was */
    unsigned call_line;
} dw_scope;

/* The frames of code at pc, innermost first: the inlined instances it is
 * in, then the function.  Returns how many (0: no debug information). */
unsigned dw_scopes_at(dwarf_db *db, uint64_t pc, dw_scope *out, unsigned max);
/* Is addr anywhere in the ranges of the scope? */
bool dw_scope_has(const dw_scope *s, uint64_t addr);
/* The function (subprogram) whose code starts at or contains pc. */
bool dw_function_at(dwarf_db *db, uint64_t pc, dw_scope *out);
/* The first instructions of every inlined copy of the function NAME (up
 * to max), for breakpoints on a function the compiler only inlined. */
unsigned dw_inline_entries(dwarf_db *db, const char *name, uint64_t *addrs, unsigned max);
/* Where its body starts: the first line-table row after the entry that
 * begins another line (gdb's "skip the prologue"); entry if none. */
uint64_t dw_post_prologue(dwarf_db *db, uint64_t entry);
/* Where a function is declared. */
bool dw_decl(dw_scope *s, const char **file, unsigned *line);
/* The type the function returns (NULL: void or unknown). */
const ctype *dw_return_type(dw_scope *s);
/* Details of the compilation unit at pc, for info source. */
typedef struct dw_cu_info {
    const char *name, *comp_dir, *producer;
    int lang;         /* DW_LANG_* */
    unsigned version; /* DWARF version */
} dw_cu_info;
bool dw_cu_at(dwarf_db *db, uint64_t pc, dw_cu_info *out);

/* ---- variables -------------------------------------------------------------- */

enum { DW_ARGS = 1, DW_LOCALS = 2, DW_GLOBALS = 4 };

typedef struct dw_var {
    dw_file *f;
    Dwarf_Die die;
    const char *name;
    bool is_param;
    unsigned depth; /* the scope it was found in (0: innermost) */
    /* An enumerator (die is its DW_TAG_enumerator): the enum type it
     * belongs to and its value; NULL for a variable. */
    const ctype *enum_type;
    int64_t enum_value;
} dw_var;

/* Visit the parameters and/or locals visible at pc (innermost blocks
 * first, then the function's), as gdb lists them; fn returns false to
 * stop.  skip: the number of innermost inlined calls to look past (a
 * frame that hides the inlined functions it is about to enter).  Returns
 * the number visited. */
unsigned dw_vars_at(dwarf_db *db, uint64_t pc, unsigned skip, unsigned which,
                    bool (*fn)(void *ctx, const dw_var *v), void *ctx);
/* A name as C sees it at pc: a local or parameter, a static of the file,
 * a global; or an enumerator of an enum declared in one of those scopes
 * (the innermost scope that has the name wins, as in C), then of any
 * unit's enums. */
bool dw_var_lookup(dwarf_db *db, uint64_t pc, unsigned skip, const char *name, dw_var *out);
const ctype *dw_var_type(const dw_var *v); /* an enumerator: its enum */

/* What a location said. */
enum dw_value_kind { DWV_MEM, DWV_REG, DWV_VALUE, DWV_OPTIMIZED_OUT, DWV_NOT_SAVED };
typedef struct dw_value {
    enum dw_value_kind kind;
    uint64_t addr;  /* DWV_MEM */
    unsigned reg;   /* DWV_REG: the GPR (DWARF numbers 0-31) */
    uint64_t value; /* DWV_REG (its value), DWV_VALUE */
} dw_value;

/* Evaluate the variable's location at the frame's pc with the frame's
 * registers (frame base: its CFA).  0, or -1 with err set (a location
 * xbow cannot evaluate). */
int dw_var_location(const dw_var *v, const dw_regs *frame, const dw_mem *mem, dw_value *out,
                    xerr *err);

/* ---- types ------------------------------------------------------------------- */

/* A type by C name ("struct desc", "union u", "enum e", a typedef or base
 * type name), looked up in the compilation unit at pc first. */
const ctype *dw_type_lookup(dwarf_db *db, uint64_t pc, const char *name);
/* The type of a function by name (also one that is only inlined). */
const ctype *dw_function_type(dwarf_db *db, const char *name);
/* Is the name that of a variable, parameter or function the program has
 * anywhere (for checking breakpoint conditions early)? */
bool dw_name_known(dwarf_db *db, uint64_t pc, const char *name);

/* ---- call-frame information ------------------------------------------------- */

/* Unwind one frame with the CFI: from the frame `in` (its pc and
 * registers), fill the caller's registers in *out and in->saved/in->cfa.
 * Returns 1 when done, 0 when no CFI covers the pc, -1 when it does but
 * the frame cannot be unwound (err says why). */
int dw_cfi_unwind(dwarf_db *db, dw_regs *in, dw_regs *out, const dw_mem *mem, xerr *err);
/* The CFA of the frame at pc with those registers, from the CFI (false
 * when none covers the pc). */
bool dw_cfi_cfa(dwarf_db *db, const dw_regs *in, const dw_mem *mem, uint64_t *cfa);

/* ---- internals shared by dwarf*.c ------------------------------------------- */

const ctype *dw_type_of(dw_file *f, Dwarf_Die *die); /* dwarf_type.c */
ctype_arena *dw_file_arena(dw_file *f);              /* dwarf.c */
/* Index of the type DIEs by name, built on first use (dwarf.c). */
bool dw_find_type_die(dw_file *f, const char *tag_and_name, Dwarf_Die *out);
/* The file's CFI section (dwarf_cfi.c) */
typedef struct dw_cfi dw_cfi;
dw_cfi *dw_cfi_load(Elf *elf, xerr *err);
void dw_cfi_free(dw_cfi *c);
dw_cfi *dw_file_cfi(dw_file *f);
/* Run a DWARF expression (dwarf_loc.c). */
int dw_eval_ops(dw_file *f, Dwarf_Attribute *attr, const Dwarf_Op *ops, size_t n,
                const dw_regs *frame, const dw_mem *mem, uint64_t frame_base, bool have_base,
                dw_value *out, xerr *err);

#endif
