# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash disable=SC2153,SC2154
# flavour.sh -- kernel flavours for linux/build.sh: sourced by it for
# --patches, after it has computed the pristine key (KEY, OUT, SRC, OBJ,
# STAGE, KMAKE); not a program of its own, and not a key input of the
# pristine kernel.
#
# A flavour is the pristine kernel of KEY with one or more patch sets
# applied.  A set is a directory (or the name of one in linux/patches/)
# holding *.patch files, applied in name order with `patch -p1` in the
# kernel source, and optionally *.config fragments (CONFIG_X=y lines, or
# "# CONFIG_X is not set"), merged into the pristine .config.  The flavour
# is keyed by KEY and the names and contents of those files (this script
# is the mechanics, not an input: a flavour gives the vmlinux of the same
# patched source and config, bit for bit, whichever tree it is built in):
#   <fkey> = <KEY>+<set>[+<set>...]-<12 hex digits>
# and built on top of the pristine build, so that only what the patches
# touch is compiled again:
#   $CACHE/patched/<fkey>/src/<pkg>-<ver>/  the patched source: hard links
#       to the pristine source, except the files the patches change, which
#       are the flavour's own (the pristine source is never written)
#   $CACHE/patched/<fkey>/build-<ver>/      a copy of the pristine build tree
#   $CACHE/patched/<fkey>/stage-<ver>/      a copy of the pristine stage
#   $CACHE/patched/vmlinux-<fkey>, System.map-<fkey>, config-<fkey>
#   $CACHE/patched/<fkey>.log               the patch and make output
# The copies keep their modification times, and the absolute paths Kbuild
# recorded (the .cmd files: command lines and dependencies) are rewritten
# to the flavour's trees (the mtimes kept), so Kbuild finds every object up
# to date except those whose sources the patches changed (patch gives them
# the current time), or whose config options a fragment changed: those are
# compiled again and vmlinux is linked again.  The trees stay after the
# build, for the debugger's "directory" (linux/debug.sh); the newest
# FLAVOUR_KEEP flavours are kept.  Nothing is installed unless the whole
# build succeeded; a failed or interrupted build leaves only its log.

FLAVOUR_KEEP=4

flavour_known_sets() {
	local sets
	sets=$(cd "$HERE/patches" 2>/dev/null && find . -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
	echo "${sets% }"
}

# The sets of patch_sets[] (build.sh's --patches arguments).  Sets
# PATCH_FILES and PATCH_LABELS (set/file, for messages) in the order they
# apply, CONFIG_FILES, FNAME, FKEY, FDIR and FOUT.
flavour_resolve() {
	local arg dir name f files names=() sums
	PATCH_FILES=() PATCH_LABELS=() CONFIG_FILES=()
	for arg in "${patch_sets[@]}"; do
		[[ -n $arg ]] || die "--patches needs a directory of *.patch files or a set of linux/patches/"
		if [[ -d $arg ]]; then
			dir=$arg
		elif [[ $arg != */* && -d $HERE/patches/$arg ]]; then
			dir=$HERE/patches/$arg
		else
			die "patch set '$arg' not found: no directory '$arg', and linux/patches/ has no set of that name (it has: $(flavour_known_sets))"
		fi
		dir=$(cd "$dir" && pwd)
		name=$(basename "$dir" | LC_ALL=C tr -c 'A-Za-z0-9._\n-' '_')
		mapfile -t files < <(cd "$dir" && find . -maxdepth 1 \( -name '*.patch' -o -name '*.config' \) -printf '%f\n' | LC_ALL=C sort)
		((${#files[@]})) || die "patch set '$arg' ($dir) has no *.patch or *.config file"
		for f in "${files[@]}"; do
			[[ -f $dir/$f && -r $dir/$f ]] || die "$dir/$f is not a readable file"
			if [[ $f == *.patch ]]; then
				PATCH_FILES+=("$dir/$f")
				PATCH_LABELS+=("$name/$f")
			else
				CONFIG_FILES+=("$dir/$f")
			fi
		done
		names+=("$name")
	done
	FNAME=$(IFS=+ && echo "${names[*]}")
	sums=$(
		echo "base $KEY"
		for f in "${PATCH_FILES[@]}" "${CONFIG_FILES[@]}"; do
			echo "$(basename "$(dirname "$f")")/$(basename "$f") $(sha256sum <"$f" | cut -d' ' -f1)"
		done
	)
	flavour_check_fragments
	FKEY=$KEY+$FNAME-$(sha256sum <<<"$sums" | cut -c1-12)
	FDIR=$CACHE/patched
	FOUT=$FDIR/vmlinux-$FKEY
}

# The pristine build tree holds KEY's build: the vmlinux and .config that
# build.sh installed for KEY.  (The tree is shared by every key: a build
# of another key, another checkout's, may have reused it since.)
flavour_base_ok() {
	[[ -f $OUT && -f $CACHE/config-$KEY && -f $OBJ/vmlinux && -f $OBJ/.config ]] &&
		cmp -s "$OBJ/vmlinux" "$OUT" && cmp -s "$OBJ/.config" "$CACHE/config-$KEY"
}

# Stop on a patch that does not apply, with its name and patch's first
# complaint (all of patch's output goes to stderr and the log).
flavour_patch_failed() { # label output
	local first
	first=$(grep -m1 -E 'FAILED|[Cc]an.t find file|garbage|Reversed|malformed|Only garbage|No such file|ignored|Skipping' <<<"$2" ||
		head -n 1 <<<"$2")
	printf '%s\n' "patch $1 failed:" "$2" >>"$FLOG"
	sed 's/^/  /' <<<"$2" >&2
	die "patch $1 does not apply to $PKG $VERSION: ${first:-patch failed} (nothing was built or installed; log $FLOG)"
}

# Apply every patch in order to the flavour's source.  Before a patch
# changes a file, the file is replaced by a copy of its own, so that the
# pristine source it is linked to cannot be written through it.  Fills
# TOUCHED_BY[file] with the labels of the patches that change it.
flavour_apply() {
	local i p label out f
	declare -gA TOUCHED_BY=()
	local opts=(-d "$FSRC" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch)
	for i in "${!PATCH_FILES[@]}"; do
		p=${PATCH_FILES[$i]} label=${PATCH_LABELS[$i]}
		out=$(patch "${opts[@]}" --dry-run -i "$p" 2>&1) || flavour_patch_failed "$label" "$out"
		grep -q '^checking file ' <<<"$out" || flavour_patch_failed "$label" "${out:-no diff in the file}"
		while IFS= read -r f; do
			TOUCHED_BY[$f]+="${TOUCHED_BY[$f]:+, }$label"
			if [[ -f $FSRC/$f ]]; then
				cp -p "$FSRC/$f" "$FSRC/$f.xbow-own"
				mv -f "$FSRC/$f.xbow-own" "$FSRC/$f"
			fi
		done < <(sed -n 's/^checking file \(.*\)$/\1/p' <<<"$out")
		out=$(patch "${opts[@]}" -i "$p" 2>&1) || flavour_patch_failed "$label" "$out"
		printf '%s\n' "patch $label:" "$out" >>"$FLOG"
		note "applied $label ($(grep -c '^patching file' <<<"$out") file(s)$(grep -q 'offset' <<<"$out" && echo ', with offsets'))"
	done
	for f in "${!TOUCHED_BY[@]}"; do
		[[ ! -e $FSRC/$f || $(stat -c %h "$FSRC/$f") == 1 ]] ||
			die "internal error: $FSRC/$f still shares its inode with the pristine source"
	done
}

# Rewrite the pristine trees' absolute paths in the flavour's copies of the
# build tree and the stage (text files: the .cmd files, generated makefiles
# and .S wrappers, the initramfs list), keeping each file's mtime.  Both
# the cache's path as given and its real path are rewritten.
flavour_rewrite_paths() {
	local from
	local -A seen=()
	for from in "$CACHE" "$(cd "$CACHE" && pwd -P)"; do
		[[ -z ${seen[$from]:-} ]] || continue
		seen[$from]=1
		grep -rlIZF -e "$from/" "$FOBJ" "$FSTAGE" |
			XF=$from/ XT=$from/patched/$FKEY/ xargs -0r perl -e '
				for my $f (@ARGV) {
					my @st = stat($f) or die "$f: $!\n";
					open(my $in, "<", $f) or die "$f: $!\n";
					local $/;
					my $s = <$in>;
					close($in);
					$s =~ s/\Q$ENV{XF}\E(?=src\/|build-|stage-)/$ENV{XT}/g;
					open(my $out, ">", $f) or die "$f: $!\n";
					print $out $s;
					close($out) or die "$f: $!\n";
					utime($st[8], $st[9], $f) or die "$f: $!\n";
				}'
	done
	ln -sfn "$FSRC" "$FOBJ/source"
}

# The config fragments hold only CONFIG_X=value (not m: the kernel has no
# modules) and "# CONFIG_X is not set" lines, comments and blank lines.
flavour_check_fragments() {
	local f line
	for f in "${CONFIG_FILES[@]}"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=m) die "$f: '$line': the kernel has no modules (=y or 'is not set' only)" ;;
			'# CONFIG_'*' is not set') [[ $line =~ ^#\ CONFIG_[A-Za-z0-9_]+\ is\ not\ set$ ]] ;;
			'# CONFIG_'* | '#CONFIG_'*) false ;;
			'' | '#'*) true ;;
			*) [[ $line =~ ^CONFIG_[A-Za-z0-9_]+=. ]] ;;
			esac || die "$f: '$line' is neither CONFIG_X=value nor '# CONFIG_X is not set'"
		done <"$f"
	done
}

# Merge the sets' config fragments into the flavour's .config.  Every
# option must hold afterwards (one dropped for a missing dependency is an
# error); the kernel has no modules, so =m is refused.
flavour_configure() {
	local line name want got failed=0
	((${#CONFIG_FILES[@]})) || return 0
	note "merging $(printf '%s ' "${CONFIG_FILES[@]##*/}")into the pristine .config"
	(cd "$FSRC" && KCONFIG_CONFIG=$FOBJ/.config \
		scripts/kconfig/merge_config.sh -m -O "$FOBJ" "$FOBJ/.config" "${CONFIG_FILES[@]}" >>"$FLOG" 2>&1) ||
		die "merging the config fragments failed (log $FLOG)"
	"${FMAKE[@]}" -s olddefconfig >>"$FLOG" 2>&1 || die "make olddefconfig failed (log $FLOG)"
	while IFS= read -r line; do
		if [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			name=${BASH_REMATCH[1]} want=n
		else
			name=${line%%=*} want=${line#*=}
		fi
		got=$(grep -E "^$name=|^# $name is not set\$" "$FOBJ/.config" | head -n 1 || true)
		if [[ $want == n ]]; then
			[[ -z $got || $got == "# $name is not set" ]] && continue
		else
			[[ $got == "$name=$want" ]] && continue
		fi
		echo "  $name: wanted '$want', the flavour's .config has '${got:-nothing}'" >&2
		failed=1
	done < <(cat "${CONFIG_FILES[@]}" | grep -E '^CONFIG_[A-Za-z0-9_]+=|^# CONFIG_[A-Za-z0-9_]+ is not set$')
	((failed == 0)) || die "options above were dropped by olddefconfig (missing dependency?); nothing was built"
}

# Stop on a failed build, with the first error and the patches that
# changed the file it is in.
flavour_build_failed() {
	local first file by=
	first=$(grep -m1 -E ': (fatal )?error:|undefined reference|multiple definition|\*\*\* ' "$FLOG" || true)
	first=${first//"$FSRC"\//}
	file=$(sed -n 's/^\([^: ]*\):[0-9].*/\1/p' <<<"$first")
	[[ -n $file ]] && by=${TOUCHED_BY[$file]:-}
	[[ -n $by ]] && by=" in $file, which $by changes"
	die "the build of flavour $FNAME failed$by: ${first:-see the log} (nothing was installed; log $FLOG)"
}

# Remove what a failed or interrupted flavour build leaves (the log stays),
# and with it the flavour it was rebuilding (--force): a flavour is its
# vmlinux and its trees, or nothing.
flavour_abandon() {
	[[ -n ${FTREE:-} && ! -f $FTREE/.done ]] || return 0
	rm -rf "$FTREE" "$FOUT.tmp" "$FDIR/System.map-$FKEY.tmp" "$FDIR/config-$FKEY.tmp"
	((force == 0)) || rm -f "$FOUT" "$FDIR/System.map-$FKEY" "$FDIR/config-$FKEY"
}

# The flavour is installed (and --force does not ask for it again).
flavour_up_to_date() {
	[[ $force == 0 && -f $FOUT && -f $FDIR/System.map-$FKEY ]]
}

# Keep the newest FLAVOUR_KEEP installed flavours; remove trees that belong
# to no installed flavour (a build that was killed).  Runs under the lock.
flavour_prune() {
	local old k d
	while IFS= read -r old; do
		k=${old#"$FDIR"/vmlinux-}
		rm -rf "$old" "$FDIR/System.map-$k" "$FDIR/config-$k" "$FDIR/$k.log" "${FDIR:?}/$k"
	done < <(find "$FDIR" -maxdepth 1 -name 'vmlinux-*' -type f -printf '%T@ %p\n' |
		sort -rn | tail -n +$((FLAVOUR_KEEP + 1)) | cut -d' ' -f2-)
	for d in "$FDIR"/*/; do
		d=${d%/}
		[[ -d $d && ! -f $FDIR/vmlinux-${d##*/} && $d != "${FTREE:-}" ]] || continue
		note "removing $d (left by an unfinished build)"
		rm -rf "$d"
	done
}

# Check that FILE is a 64-bit big-endian MIPS ELF entered in XKPHYS.
flavour_check_elf() {
	local hdr
	hdr=$("${CROSS}readelf" -h "$1")
	grep -q 'Class:[[:space:]]*ELF64' <<<"$hdr" && grep -q 'big endian' <<<"$hdr" &&
		grep -q 'Machine:[[:space:]]*MIPS' <<<"$hdr" || die "$1 is not a 64-bit big-endian MIPS ELF"
	entry=$(awk '/Entry point address:/ { print $4 }' <<<"$hdr")
	[[ $entry == 0xa800000000* ]] || die "unexpected entry point $entry (expected XKPHYS 0xa8000000...)"
}

# The flavour's source: hard links to the pristine source, the patches
# applied (a patch that does not apply stops here, before anything is
# built).  Runs under the lock; $FTREE/.patched marks it complete.
flavour_prepare_source() {
	flavour_prune
	rm -rf "$FTREE"
	: >"$FLOG"
	mkdir -p "$FTREE/src"
	if ! cp -al "$SRC" "$FSRC" 2>/dev/null; then
		note "hard links failed; copying the whole source instead"
		rm -rf "$FSRC"
		cp -a "$SRC" "$FSRC"
	fi
	flavour_apply
	touch "$FTREE/.patched"
}

# Build the flavour FKEY on top of the pristine build of KEY (which must be
# in the build tree: flavour_main checks, under the lock) and print its path.
flavour_build() {
	local t0=$1 ncc
	# build.sh's make command, on the flavour's trees.
	FMAKE=("${KMAKE[@]//"$SRC"/$FSRC}")
	FMAKE=("${FMAKE[@]//"$OBJ"/$FOBJ}")
	[[ -f $FTREE/.patched ]] || flavour_prepare_source
	note "copying the pristine build tree of key $KEY"
	rm -rf "$FOBJ" "$FSTAGE"
	cp -a "$OBJ" "$FOBJ"
	cp -a "$STAGE" "$FSTAGE"
	flavour_rewrite_paths
	flavour_configure

	local t1=$SECONDS
	note "building vmlinux with -j$JOBS (log $FLOG)"
	# Kbuild's own output whatever the calling make's flags (make -s).
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${FMAKE[@]}" -j"$JOBS" vmlinux 2>&1 | tee -a "$FLOG" >&2 ||
		flavour_build_failed
	flavour_check_elf "$FOBJ/vmlinux"

	# vmlinux last: its presence says the flavour is installed.
	cp "$FOBJ/System.map" "$FDIR/System.map-$FKEY.tmp"
	mv "$FDIR/System.map-$FKEY.tmp" "$FDIR/System.map-$FKEY"
	cp "$FOBJ/.config" "$FDIR/config-$FKEY.tmp"
	mv "$FDIR/config-$FKEY.tmp" "$FDIR/config-$FKEY"
	cp "$FOBJ/vmlinux" "$FOUT.tmp"
	mv "$FOUT.tmp" "$FOUT"
	touch "$FTREE/.done"
	trap - EXIT INT TERM HUP
	flavour_prune

	ncc=$(grep -cE '^  CC ' "$FLOG" || true)
	note "compiled again: $ncc file(s):$(sed -n 's/^  CC */ /p' "$FLOG" | tr -d '\n')"
	note "patched source and build tree: $FSRC $FOBJ"
	note "entry $entry; sha256 $(sha256sum <"$FOUT" | cut -d' ' -f1); flavour built in $((SECONDS - t0)) s ($((SECONDS - t1)) s in make)"
	echo "$FOUT"
}

flavour_lock() {
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
}

flavour_unlock() {
	exec 9>&-
}

# Another build of the same flavour may have installed it while this one
# waited for the lock: then that is the result (under the lock).
flavour_installed_meanwhile() {
	flavour_up_to_date || return 0
	trap - EXIT INT TERM HUP
	note "up to date (key $FKEY, built meanwhile)"
	echo "$FOUT"
	exit 0
}

flavour_main() {
	local t0=$SECONDS
	flavour_resolve
	case $mode in
	print)
		echo "$FOUT"
		[[ -f $FOUT ]] || exit 1
		exit 0
		;;
	record) die "--record-hash records the pristine kernel only (linux/vmlinux.sha256); a flavour has no recorded hash" ;;
	esac
	command -v patch >/dev/null 2>&1 || die "patch not found (apt-get install patch)"
	if flavour_up_to_date; then
		note "up to date (key $FKEY)"
		echo "$FOUT"
		exit 0
	fi
	FTREE=$FDIR/$FKEY
	FSRC=$FTREE/src/$PKG-$VERSION FOBJ=$FTREE/build-$VERSION FSTAGE=$FTREE/stage-$VERSION
	FLOG=$FDIR/$FKEY.log
	mkdir -p "$FDIR"
	note "flavour $FNAME (key $FKEY) on the pristine build of key $KEY"
	trap flavour_abandon EXIT
	trap 'exit 130' INT TERM HUP
	# The patches first, if the pristine source is there: a patch that
	# does not apply stops before any build.
	if [[ -f $SRC/.xbow-extracted ]]; then
		flavour_lock
		flavour_installed_meanwhile
		flavour_prepare_source
		flavour_unlock
	fi
	# The pristine build of KEY (build.sh takes the lock itself).
	if ! flavour_base_ok; then
		note "the pristine build tree does not hold key $KEY: building it first"
		if [[ -f $OUT ]]; then
			bash "$HERE/build.sh" --force >&2
		else
			bash "$HERE/build.sh" >&2
		fi
	fi
	flavour_lock
	flavour_installed_meanwhile
	flavour_base_ok || die "the pristine build tree does not hold key $KEY (another build changed it meanwhile?): run again"
	flavour_build "$t0"
}
