# SPDX-License-Identifier: GPL-2.0-or-later
# ui/: the xbow binary's front ends.
bin_PROGRAMS += xbow
xbow_SOURCES = ui/main.c ui/ui.h ui/run.c ui/cli.c ui/options.c \
	ui/tui.c ui/tui.h ui/tui_layout.c ui/tui_panes.c ui/tui_src.c
xbow_CFLAGS = $(AM_CFLAGS) $(NCURSES_CFLAGS) $(READLINE_CFLAGS)
xbow_LDADD = $(XBOW_LIBS) $(NCURSES_LIBS) $(READLINE_LIBS)
EXTRA_DIST += docs/tui.md
# The TUI's commands are declared in ui/tui_layout.cmds (see src/dbg/dbg.mk).
BUILT_SOURCES += ui/tui_layout.cmds.h
CLEANFILES += ui/tui_layout.cmds.h
EXTRA_DIST += ui/tui_layout.cmds
src/dbg/commands.checked: ui/tui_layout.cmds
# The command line: the option table (ui/options.c) and its engine, which
# make the parsing, --help and docs/xbow.1's OPTIONS (make options-doc).
xbow_SOURCES += ui/options.h ui/optparse.c
UI_OPTION_FILES = ui/options.c ui/options.h ui/optparse.c ui/ui.h
