#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# build.sh -- build the xbow guest kernel: a Linux 6.1 vmlinux for the SGI
# Origin 200 (IP27) with a built-in initramfs (linux/initramfs/).
#
#   linux/build.sh                 build (or reuse) and print the vmlinux path
#   linux/build.sh --print-path    print the path without building; exit 1 if
#                                  that vmlinux has not been built yet
#   linux/build.sh --force         rebuild even if the keyed vmlinux exists
#   linux/build.sh --record-hash   record the sha256 of the built vmlinux for
#                                  its key in linux/vmlinux.sha256
#   linux/build.sh --patches SET   a flavour instead: the kernel above with the
#                                  *.patch files of SET (a directory, or a set
#                                  in linux/patches/) applied; repeatable,
#                                  combines with --print-path and --force
#                                  (linux/flavour.sh, linux/patches/README.md)
#
# The kernel source comes from Debian's linux-source-6.1 package and is never
# modified: ip27_defconfig + linux/xbow.config is the whole customisation.
# Everything generated lives in a cache outside the repository:
#   ${XBOW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xbow}/linux/
# The result is keyed by the linux-source-6.1 package version plus a hash of
# xbow.config, the initramfs sources, this script and the cross gcc version;
# installed as vmlinux-<key> (+ System.map-<key>, config-<key>) with stable
# symlinks vmlinux, System.map and config.  The last line printed on stdout is
# the path of vmlinux-<key>.
#
# The build is reproducible: the same key gives the same vmlinux, bit for bit,
# whatever the machine, the cache directory or the time of the build.  The
# expected sha256 of each key is in linux/vmlinux.sha256 (not a key input);
# tests/batch/linux_hash.sh compares it with the built vmlinux.
set -euo pipefail

PKG=linux-source-6.1
TARBALL=/usr/src/linux-source-6.1.tar.xz
CROSS=${XBOW_CROSS_COMPILE:-mips64-linux-gnuabi64-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${XBOW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xbow}/linux
FRAGMENT=$HERE/xbow.config
INITRAMFS_SRC=$HERE/initramfs
HASHES=$HERE/vmlinux.sha256

# Everything a build would otherwise take from the build host.  The time is
# fixed (2024-01-01 00:00:00 UTC): it is in `uname -v`, and it is the mtime
# of every file in the initramfs.  KBUILD_BUILD_VERSION is the "#1" that the
# kernel would otherwise count up in the reused build tree.  LOCALVERSION
# set (empty) keeps scripts/setlocalversion from appending "+" when the
# source tree is inside a git checkout.
BUILD_EPOCH=1704067200
export KBUILD_BUILD_TIMESTAMP="Mon Jan  1 00:00:00 UTC 2024"
export KBUILD_BUILD_USER=xbow KBUILD_BUILD_HOST=xbow KBUILD_BUILD_VERSION=1
export SOURCE_DATE_EPOCH=$BUILD_EPOCH LOCALVERSION= TZ=UTC LC_ALL=C

# Options that must be set in the final .config (beyond every line of
# xbow.config, which is checked as well).
REQUIRED=(
	CONFIG_SGI_IP27=y CONFIG_64BIT=y CONFIG_CPU_BIG_ENDIAN=y CONFIG_CPU_R10000=y
	CONFIG_NUMA=y CONFIG_SMP=y CONFIG_PCI=y CONFIG_PCI_XTALK_BRIDGE=y
	CONFIG_W1=y CONFIG_W1_MASTER_SGI=y CONFIG_W1_SLAVE_DS250X=y CONFIG_NVMEM=y
	CONFIG_SGI_MFD_IOC3=y CONFIG_SERIAL_8250=y CONFIG_SERIAL_8250_CONSOLE=y
	CONFIG_SERIAL_8250_IOC3=y
	CONFIG_NET_VENDOR_PACKET_ENGINES=y CONFIG_HAMACHI=y
	CONFIG_NET_VENDOR_ALTEON=y CONFIG_ACENIC=y
	CONFIG_NET_VENDOR_INTEL=y CONFIG_E1000=y
	CONFIG_BLK_DEV_INITRD=y CONFIG_DEVTMPFS=y CONFIG_TMPFS=y CONFIG_PROC_FS=y
	CONFIG_SYSFS=y CONFIG_PRINTK=y CONFIG_INET=y CONFIG_PACKET=y CONFIG_UNIX=y
	CONFIG_CMDLINE_BOOL=y
)

die() {
	echo "build.sh: error: $*" >&2
	exit 1
}

note() {
	echo "build.sh: $*" >&2
}

usage() {
	awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
}

mode=build
force=0
patch_sets=()
while (($#)); do
	case $1 in
	--print-path) mode=print ;;
	--record-hash) mode=record ;;
	--force) force=1 ;;
	--patches | --patches=*)
		if [[ $1 == --patches ]]; then
			(($# >= 2)) || die "--patches needs a directory of *.patch files or a set of linux/patches/"
			shift
		fi
		patch_sets+=("${1#--patches=}")
		;;
	-h | --help)
		usage
		exit 0
		;;
	*) die "unknown argument '$1' (try --help)" ;;
	esac
	shift
done

# ---------------------------------------------------------------- prerequisites
# One line naming the Debian package for each missing piece.
if ! command -v dpkg-query >/dev/null 2>&1 ||
	[[ $(dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null || true) != *" installed" ]] ||
	[[ ! -f $TARBALL ]]; then
	die "$PKG is not installed (apt-get install $PKG)"
fi
command -v "${CROSS}gcc" >/dev/null 2>&1 ||
	die "${CROSS}gcc not found (apt-get install gcc-mips64-linux-gnuabi64)"
VERSION=$(dpkg-query -W -f='${Version}' "$PKG")

# ---------------------------------------------------------------- key
key_inputs() {
	printf 'pkg %s\n' "$VERSION"
	printf 'gcc %s\n' "$("${CROSS}gcc" --version | head -n 1)"
	local f
	for f in "$FRAGMENT" "$HERE/build.sh" "$INITRAMFS_SRC"/*.c "$INITRAMFS_SRC"/*.h \
		"$INITRAMFS_SRC"/initramfs.list.in; do
		printf '%s %s\n' "${f#"$HERE"/}" "$(sha256sum <"$f" | cut -d' ' -f1)"
	done
}
HASH=$(key_inputs | sha256sum | cut -c1-12)
KEY=$VERSION-$HASH
OUT=$CACHE/vmlinux-$KEY
JOBS=$(nproc)
SRC=$CACHE/src/$PKG-$VERSION
OBJ=$CACHE/build-$VERSION
STAGE=$CACHE/stage-$VERSION
# The vDSO is compiled with -g and its build-id, which the kernel embeds, is
# a hash over its debug info: map the source and build trees' absolute paths
# out of it (KCPPFLAGS reaches the vDSO's flags, KCFLAGS does not).
KMAKE=(make -C "$SRC" O="$OBJ" ARCH=mips CROSS_COMPILE="$CROSS" LOCALVERSION=
	KCPPFLAGS="-fdebug-prefix-map=$SRC=. -fdebug-prefix-map=$OBJ=.")

# A flavour is built by linux/flavour.sh (not a key input) on top of this
# key's build.
if ((${#patch_sets[@]})); then
	# shellcheck source=linux/flavour.sh
	. "$HERE/flavour.sh"
	flavour_main
	exit 0
fi

if [[ $mode == print ]]; then
	echo "$OUT"
	[[ -f $OUT ]] || exit 1
	exit 0
fi

# The sha256 recorded for KEY in linux/vmlinux.sha256 (empty if none).
recorded_hash() {
	[[ -f $HASHES ]] || return 0
	awk -v k="$KEY" '$1 == k { print $2 }' "$HASHES" | tail -n 1
}

if [[ $mode == record ]]; then
	[[ -f $OUT ]] || die "$OUT is not built (run linux/build.sh first)"
	sum=$(sha256sum <"$OUT" | cut -d' ' -f1)
	tmp=$(mktemp "$HASHES.XXXXXX")
	{
		if [[ -f $HASHES ]]; then
			awk -v k="$KEY" '$1 != k' "$HASHES"
		else
			echo "# <key> <sha256 of vmlinux-<key>>, as linux/build.sh builds it on any machine."
			echo "# Update with 'bash linux/build.sh --record-hash' (linux/README.md)."
		fi
		echo "$KEY $sum"
	} >"$tmp"
	mv "$tmp" "$HASHES"
	note "recorded $KEY $sum in linux/vmlinux.sha256"
	exit 0
fi

# Remaining build prerequisites (after --print-path, which needs none).
need_tool() { # tool package
	command -v "$1" >/dev/null 2>&1 || die "$1 not found (apt-get install $2)"
}
need_tool make make
need_tool gcc gcc
need_tool flex flex
need_tool bison bison
need_tool bc bc
need_tool xz xz-utils
need_tool perl perl
need_tool "${CROSS}objdump" binutils-mips64-linux-gnuabi64
need_tool "${CROSS}readelf" binutils-mips64-linux-gnuabi64
[[ -f /usr/mips64-linux-gnuabi64/include/sys/socket.h ]] ||
	die "cross libc headers missing (apt-get install libc6-dev-mips64-cross)"

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9

link_outputs() {
	ln -sfn "vmlinux-$KEY" "$CACHE/vmlinux"
	ln -sfn "System.map-$KEY" "$CACHE/System.map"
	ln -sfn "config-$KEY" "$CACHE/config"
}

if [[ $force == 0 && -f $OUT && -f $CACHE/System.map-$KEY ]]; then
	link_outputs
	note "up to date (key $KEY)"
	echo "$OUT"
	exit 0
fi

start_s=$SECONDS

# ---------------------------------------------------------------- source
if [[ ! -f $SRC/.xbow-extracted ]]; then
	note "extracting $TARBALL ($PKG $VERSION) into $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	[[ -f $SRC.tmp/arch/mips/configs/ip27_defconfig ]] || die "no ip27_defconfig in $TARBALL"
	touch "$SRC.tmp/.xbow-extracted"
	mv "$SRC.tmp" "$SRC"
fi

# ---------------------------------------------------------------- initramfs
# The tools are built for MIPS IV (R10000) against xlibc, not glibc: see
# initramfs/xlibc.h for why.
note "building initramfs tools"
rm -rf "$STAGE"
mkdir -p "$STAGE/bin" "$STAGE/firmware/acenic" "$STAGE/firmware/qlogic"
TOOL_CFLAGS=(-static -O2 -march=r10000 -mabi=64 -mno-abicalls -fno-pic -G0
	-ffreestanding -fno-builtin -fno-stack-protector -fno-asynchronous-unwind-tables
	-fno-tree-loop-distribute-patterns -ffunction-sections -fdata-sections
	-Wall -Wextra -nostdlib '-Wl,-e,__start' '-Wl,--gc-sections' '-Wl,--build-id=none' -s)
# Compiled from inside the source directory, so that no path of this
# checkout can reach a binary.
for tool in init ttcp ping disk; do
	(cd "$INITRAMFS_SRC" && "${CROSS}gcc" "${TOOL_CFLAGS[@]}" -o "$STAGE/bin/$tool" \
		"$tool.c" xlibc.c -lgcc)
done

# Refuse instructions the R10000 (MIPS IV) does not implement: MIPS32/64
# release 1/2 additions that a mips64r2 toolchain or library could leak in.
BAD_OPS='^(ext|ins|dext|dextm|dextu|dins|dinsm|dinsu|seb|seh|wsbh|dsbh|dshd|rotr|rotrv|drotr|drotr32|drotrv|ror|rorv|dror|dror32|drorv|clz|clo|dclz|dclo|mul|madd|maddu|msub|msubu|synci|rdhwr|rdpgpr|wrpgpr|ei|di|jalr\.hb|jr\.hb|mfhc1|mthc1|pause|lwx|lhx|lbux|ldx)$'
for tool in init ttcp ping disk; do
	bad=$("${CROSS}objdump" -d -m mips:isa64r2 --no-show-raw-insn "$STAGE/bin/$tool" |
		awk -F'\t' 'NF >= 2 && $1 ~ /^ *[0-9a-f]+:$/ { print $2 }' |
		grep -E "$BAD_OPS" | sort | uniq -c | tr '\n' ' ' || true)
	[[ -z $bad ]] || die "$tool contains non-MIPS-IV instructions: $bad"
done

# Placeholder AceNIC firmware (layout of acenic/tg2.bin as acenic.c parses it:
# version 12.4.11, BE32 start address 0x4000, BE32 load address 0x4000, then
# the image).  The emulated Tigon ignores the image; see xbow.config.
for fw in tg1 tg2; do
	{
		printf '\014\004\013\000\000\000\100\000\000\000\100\000'
		printf 'XBOW placeholder Tigon firmware; not executable.\000\000\000\000'
	} >"$STAGE/firmware/acenic/$fw.bin"
done

# QLogic ISP1040 firmware for qla1280 ("qlogic/1040.bin": version bytes
# 0-2, LE16 start address at 4, then LE16 words the driver writes into the
# RISC's RAM one mailbox command at a time).  xbow's ISP model implements the
# firmware's interface itself and runs no RISC code, so the image is not
# code: it is xbow's own 10-word image (docs/storage.md, "Firmware"):
# version 1.00.00, start 0x1000, the words "XBOWISP1040HLE", the image's
# length in words, and a word that makes the 16-bit sum of the image zero,
# which is what VERIFY CHECKSUM checks, as on the real chip.
isp_fw=$STAGE/firmware/qlogic/1040.bin
{
	printf '\001\000\000\000\000\020'
	printf 'XBOWISP1040HLE\000\000\012\000'
} >"$isp_fw"
isp_sum=0
for w in $(tail -c +7 "$isp_fw" | od -An -v -tu2 --endian=little); do
	isp_sum=$(((isp_sum + w) & 0xffff))
done
isp_ck=$(((0x10000 - isp_sum) & 0xffff))
printf "\\$(printf %03o $((isp_ck & 0xff)))\\$(printf %03o $((isp_ck >> 8)))" >>"$isp_fw"

# gen_init_cpio stores each file's mtime (and KBUILD_BUILD_TIMESTAMP for
# the rest): pin it.  Kbuild would then never find the files newer than the
# archive, so the archive is removed before the build (below).
touch -d "@$BUILD_EPOCH" "$STAGE"/bin/*

# The .config is built into the kernel (IKCONFIG), so its two paths are
# relative, and the same in every cache: INITRAMFS_SOURCE is relative to the
# build tree, EXTRA_FIRMWARE_DIR to the source tree.
sed "s|@STAGE@|$STAGE/bin|g" "$INITRAMFS_SRC/initramfs.list.in" >"$STAGE/initramfs.list"
sed -e "s|@XBOW_INITRAMFS_LIST@|../${STAGE##*/}/initramfs.list|g" \
	-e "s|@XBOW_FIRMWARE_DIR@|../../${STAGE##*/}/firmware|g" "$FRAGMENT" >"$STAGE/xbow.config"

# ---------------------------------------------------------------- configure
note "configuring ip27_defconfig + xbow.config in $OBJ"
mkdir -p "$OBJ"
"${KMAKE[@]}" -s ip27_defconfig
(cd "$SRC" && KCONFIG_CONFIG=$OBJ/.config \
	scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "$STAGE/xbow.config" \
	>"$STAGE/merge_config.log")
"${KMAKE[@]}" -s olddefconfig

# Every option of the fragment, and the REQUIRED list, must have survived
# olddefconfig; an option dropped for a missing dependency is an error.
check_option() { # CONFIG_X=value
	local name=${1%%=*} want=${1#*=} got
	got=$(grep -E "^$name=|^# $name is not set\$" "$OBJ/.config" | head -n 1 || true)
	if [[ $want == n ]]; then
		[[ -z $got || $got == "# $name is not set" ]] && return 0
	else
		[[ $got == "$name=$want" ]] && return 0
	fi
	echo "  $name: wanted '$want', final .config has '${got:-nothing}'" >&2
	return 1
}
failed=0
while IFS= read -r line; do
	check_option "$line" || failed=1
done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$STAGE/xbow.config")
for opt in "${REQUIRED[@]}"; do
	check_option "$opt" || failed=1
done
[[ $failed == 0 ]] || die "options above were dropped by olddefconfig (missing dependency?)"

# ---------------------------------------------------------------- build
note "building vmlinux with -j$JOBS (key $KEY)"
rm -f "$OBJ/usr/initramfs_data.cpio"
"${KMAKE[@]}" -j"$JOBS" vmlinux

VMLINUX=$OBJ/vmlinux
hdr=$("${CROSS}readelf" -h "$VMLINUX")
grep -q 'Class:[[:space:]]*ELF64' <<<"$hdr" || die "vmlinux is not ELF64"
grep -q 'big endian' <<<"$hdr" || die "vmlinux is not big-endian"
grep -q 'Machine:[[:space:]]*MIPS' <<<"$hdr" || die "vmlinux is not MIPS"
entry=$(awk '/Entry point address:/ { print $4 }' <<<"$hdr")
[[ $entry == 0xa800000000* ]] || die "unexpected entry point $entry (expected XKPHYS 0xa8000000...)"

# ---------------------------------------------------------------- install
cp "$VMLINUX" "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
cp "$OBJ/System.map" "$CACHE/System.map-$KEY"
cp "$OBJ/.config" "$CACHE/config-$KEY"
link_outputs
# Keep the three most recent builds.
while IFS= read -r old; do
	k=${old#"$CACHE"/vmlinux-}
	rm -f "$old" "$CACHE/System.map-$k" "$CACHE/config-$k"
done < <(find "$CACHE" -maxdepth 1 -name 'vmlinux-*' -type f -printf '%T@ %p\n' |
	sort -rn | tail -n +4 | cut -d' ' -f2-)

sum=$(sha256sum <"$OUT" | cut -d' ' -f1)
want=$(recorded_hash)
if [[ -z $want ]]; then
	note "no sha256 recorded for key $KEY in linux/vmlinux.sha256 (linux/README.md)"
elif [[ $want != "$sum" ]]; then
	note "WARNING: vmlinux sha256 $sum differs from the one recorded for key $KEY ($want)"
fi
note "entry $entry; sha256 $sum; built in $((SECONDS - start_s)) s"
echo "$OUT"
