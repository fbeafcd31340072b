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

# The command tables: each module declares its commands in FILE.cmds beside
# its C file (docs/declaring-commands.md); scripts/cmds.awk makes the C table the
# file includes (FILE.cmds.h, a build product) and stops the build on a bad
# declaration.  src/dbg/commands.checked: no name declared twice in all of
# them (a fragment that adds a .cmds file makes it a prerequisite).
CMDS_AWK = scripts/cmds.awk
DBG_CMDS = \
	src/dbg/break.cmds \
	src/dbg/cmd_core.cmds \
	src/dbg/cmd_frame.cmds \
	src/dbg/cmd_record.cmds \
	src/dbg/cmd_run.cmds \
	src/dbg/cmd_state.cmds \
	src/dbg/display.cmds \
	src/dbg/evbreak.cmds \
	src/dbg/gdbstub_cmds.cmds \
	src/dbg/history.cmds \
	src/dbg/profile.cmds \
	src/dbg/script.cmds \
	src/dbg/settings.cmds \
	src/dbg/snapshots.cmds \
	src/dbg/source.cmds \
	src/dbg/srcvars.cmds \
	src/dbg/stall.cmds \
	src/dbg/symbols.cmds \
	src/dbg/trace.cmds \
	src/dbg/track.cmds \
	src/dbg/views.cmds \
	src/dbg/watch.cmds
%.cmds.h: %.cmds $(CMDS_AWK)
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	{ $(AWK) -f $(srcdir)/$(CMDS_AWK) $< >$@.tmp && mv $@.tmp $@; } || { rm -f $@.tmp; exit 1; }
src/dbg/commands.checked: $(DBG_CMDS) $(CMDS_AWK)
	$(AM_V_GEN)$(AWK) -v check=1 -f $(srcdir)/$(CMDS_AWK) $(filter %.cmds,$^) && touch $@
BUILT_SOURCES += $(DBG_CMDS:.cmds=.cmds.h) src/dbg/commands.checked
CLEANFILES += $(DBG_CMDS:.cmds=.cmds.h) src/dbg/commands.checked
EXTRA_DIST += $(DBG_CMDS) $(CMDS_AWK)
# The generated tables are in the build tree: #include "dbg/FILE.cmds.h".
AM_CPPFLAGS += -I$(top_builddir)/src
EXTRA_DIST += docs/gdb.md
