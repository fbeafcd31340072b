#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Quick start, command 1: install what xbow needs, build it, and start it on
# the built-in default machine.  Pass --no-run to stop after the build.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)"
if [ "${1:-}" = "--no-run" ]; then
    exit 0
fi
exec ./xbow
