# SPDX-License-Identifier: GPL-2.0-or-later
# src/net: frame backends (the port, the built-in peers, host links, pcap).
libxbow_a_SOURCES += \
	src/net/net.h src/net/backend.h \
	src/net/port.c \
	src/net/netstate.c \
	src/net/pcap.c \
	src/net/util.c \
	src/net/sink.c \
	src/net/echo.c \
	src/net/gen.c \
	src/net/tap.c \
	src/net/socket.c \
	src/net/vde.c \
	src/net/writer.c \
	src/net/replay.c
EXTRA_DIST += docs/networking.md
