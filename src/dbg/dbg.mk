# SPDX-License-Identifier: GPL-2.0-or-later
# src/dbg: the command language (docs/commands.md is generated from it).
DBG_SOURCES = \
	src/dbg/dbg.c src/dbg/dbg.h src/dbg/dbg_int.h \
	src/dbg/interrupt.c \
	src/dbg/expr.c src/dbg/expr.h \
	src/dbg/eval.c \
	src/dbg/frames.c \
	src/dbg/cmd_core.c \
	src/dbg/modules.c \
	src/dbg/args.c \
	src/dbg/cmd_run.c \
	src/dbg/cmd_record.c \
	src/dbg/cmd_state.c \
	src/dbg/cmd_frame.c \
	src/dbg/display.c \
	src/dbg/snapshots.c \
	src/dbg/history.c \
	src/dbg/break.c \
	src/dbg/watch.c \
	src/dbg/track.c \
	src/dbg/evbreak.c \
	src/dbg/stall.c \
	src/dbg/views.c \
	src/dbg/trace.c \
	src/dbg/script.c \
	src/dbg/symbols.c \
	src/dbg/settings.c \
	src/dbg/complete.c \
	src/dbg/rsp.c src/dbg/rsp.h \
	src/dbg/gdbstub.c src/dbg/gdbstub.h src/dbg/gdbstub_int.h \
	src/dbg/gdbstub_run.c src/dbg/gdbstub_regs.c src/dbg/gdbstub_net.c \
	src/dbg/gdbstub_cmds.c \
	src/dbg/ctype.c src/dbg/ctype.h \
	src/dbg/dwarf.c src/dbg/dwarf.h src/dbg/dwarf_int.h \
	src/dbg/dwarf_cfi.c src/dbg/dwarf_loc.c src/dbg/dwarf_type.c \
	src/dbg/source.c src/dbg/source.h src/dbg/srcview.h \
	src/dbg/srcframe.c src/dbg/srcstep.c src/dbg/srcvars.c src/dbg/cvalue.c \
	src/dbg/profile.c
libxbow_a_SOURCES += $(DBG_SOURCES)
EXTRA_DIST += docs/gdb.md
