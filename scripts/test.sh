#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Quick start, command 2: run the whole test suite (configuring and building
# first when needed).
set -eu
cd "$(dirname "$0")/.."
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc)" check
