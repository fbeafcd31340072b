/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loader for big-endian MIPS ELF32 and ELF64 executables.
 *
 * elf_parse() validates everything it reads: a malformed, truncated,
 * wrong-class, wrong-architecture or wrong-endian file is rejected with a
 * one-line message naming the problem. */
#ifndef XBOW_ELF_H
#define XBOW_ELF_H

#include "core/bus.h"
#include "core/symtab.h"

typedef struct elf_segment {
    uint64_t vaddr;
    uint64_t bus_addr; /* where the bytes go (see elf_vaddr_to_bus) */
    uint64_t offset, filesz, memsz;
    uint32_t flags;
} elf_segment;

typedef struct elf_image {
    bool is64;
    uint64_t entry;
    elf_segment *segs;
    unsigned nsegs;
    uint8_t *data; /* the whole file */
    size_t size;
    bool mapped; /* data is the file mapped read-only (elf_read_file), not a copy */
} elf_image;

/* The bus address behind an unmapped MIPS virtual address (KSEG0, KSEG1,
 * CKSEG0/1, XKPHYS), by the rule the CPU applies in kernel mode, without
 * the TLB.  Returns false for mapped segments and XKPHYS addresses with
 * bits set between the physical address and the attributes. */
bool elf_vaddr_to_bus(uint64_t vaddr, uint64_t *bus_addr);
/* The R10000 segment a 64-bit virtual address is in, by its kernel-mode
 * name ("KUSEG", "XKUSEG", "XKSSEG", "XKPHYS", "XKSEG", "KSEG0", "KSEG1",
 * "KSSEG", "KSEG3"), or NULL in the holes no segment covers. */
const char *mips_segment_name(uint64_t vaddr);

/* Parse an in-memory image (copied).  Returns 0, or -1 with err set. */
int elf_parse(const uint8_t *data, size_t size, elf_image *img, xerr *err);
int elf_read_file(const char *path, elf_image *img, xerr *err);
void elf_free(elf_image *img);
/* Copy the PT_LOAD segments into the machine through the debugger port
 * (bus_poke), zero-filling the BSS part.  Fails if a segment lands outside
 * RAM/ROM. */
int elf_load(const elf_image *img, bus *b, xerr *err);
/* Add the function and object symbols to st.  Returns the count, or -1. */
int elf_symbols(const elf_image *img, symtab *st, xerr *err);

#endif
