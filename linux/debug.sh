#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# debug.sh -- the edit-rebuild-debug loop on the real-Linux guest: rebuild
# the kernel (or a flavour of it), then start xbow on the new vmlinux with
# the same arguments (a command file with -x, breakpoints with -ex, ...).
#
#   linux/debug.sh [--loop] [--patches SET]... -- XBOW [XBOW-ARGS...]
#   make linux-debug PATCHES=ip27-dma64 XBOW_ARGS='--nic hamachi -x s.xbow' [LOOP=1]
#
# xbow gets "-ex 'directory SRC BUILD'" first (the kernel's source and build
# trees, the flavour's patched ones for a flavour, so that list, step and
# break FILE:LINE find the sources), then XBOW-ARGS, then the vmlinux path.
# --patches is linux/build.sh's (patch sets, linux/flavour.sh).  Without --loop: build, run xbow once,
# exit with its status (or build.sh's, if the build fails).  With --loop:
# when xbow exits, or the build fails, ask on the terminal whether to
# rebuild and start again (edit the patches in between) or to quit.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() {
	echo "debug.sh: error: $*" >&2
	exit 2
}

loop=0
build_args=()
while (($#)); do
	case $1 in
	--loop) loop=1 ;;
	--patches)
		(($# >= 2)) || die "--patches needs a set"
		build_args+=(--patches "$2")
		shift
		;;
	--patches=*) build_args+=("$1") ;;
	--) shift && break ;;
	-h | --help)
		awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
		exit 0
		;;
	*) die "unknown argument '$1' (the xbow command goes after --; try --help)" ;;
	esac
	shift
done
(($#)) || die "no xbow command (linux/debug.sh [--loop] [--patches SET]... -- XBOW [ARGS...])"
[[ -x $1 ]] || command -v "$1" >/dev/null 2>&1 || die "$1 is not an executable"

# Ask on the terminal whether to go round again; false means quit.
again() {
	local answer
	((loop)) || return 1
	[[ -r /dev/tty ]] || return 1
	while :; do
		printf 'debug.sh: %s; edit your patches, then [r]ebuild and restart or [q]uit? ' "$1" >/dev/tty
		read -r answer </dev/tty || return 1
		case $answer in
		r | R | "") return 0 ;;
		q | Q) return 1 ;;
		esac
	done
}

while :; do
	if vmlinux=$(bash "$HERE/build.sh" "${build_args[@]}" | tail -n 1) && [[ -f $vmlinux ]]; then
		# the trees next to the vmlinux: <dir>/<key>/ for a flavour
		trees=$(dirname "$vmlinux")
		[[ -d $trees/${vmlinux##*/vmlinux-} ]] && trees=$trees/${vmlinux##*/vmlinux-}
		dirs=$(ls -d "$trees"/src/linux-source-* "$trees"/build-* 2>/dev/null | tr '\n' ' ')
		xbow=("$1" ${dirs:+-ex "directory ${dirs% }"} "${@:2}" "$vmlinux")
		echo "debug.sh: ${xbow[*]}" >&2
		"${xbow[@]}"
		status=$?
		again "xbow exited with status $status" || exit $status
	else
		status=2
		again "the build failed" || exit $status
	fi
done
