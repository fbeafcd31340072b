# src/dbg: the command language.
libxbow_a_SOURCES += \
	src/dbg/dbg.c src/dbg/dbg.h \
	src/dbg/cmd_core.c \
	src/dbg/cmd_run.c
