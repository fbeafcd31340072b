# flavour.sh -- kernel flavours for linux/build.sh (sourced by it for
# --patches; not a program of its own).
#
# A flavour is the pristine kernel of the current key with the *.patch files
# of one or more patch sets applied, each set's files in name order, with
# `patch -p1`.  It is keyed by the pristine key and the patches' names and
# contents (and this file), and built in its own tree under the cache:
#
#   $CACHE/patched/<fkey>/src/linux-source-6.1-<pkgver>/   the patched source:
#       hard links to the pristine source, except the files the patches
#       touch, which are the flavour's own copies (the pristine source is
#       never written)
#   $CACHE/patched/<fkey>/build-<pkgver>/   a copy of the pristine build tree
#   $CACHE/patched/<fkey>/stage-<pkgver>/   a copy of the pristine stage
#   $CACHE/patched/vmlinux-<fkey>, System.map-<fkey>, config-<fkey>
#   $CACHE/patched/<fkey>.log              the patch and make output
#
# The three trees sit in the same places relative to each other as the
# pristine ones, so the relative paths in .config hold.  The copies keep
# their modification times, and the absolute paths Kbuild recorded in the
# build tree (the .cmd files: command lines and dependencies) are rewritten
# to the flavour's trees, so Kbuild finds every object up to date except
# those whose sources the patches touched (patch gives them the current
# time): those are compiled again and vmlinux is linked again.
# <fkey> = <key>+<set>[+<set>...]-<12 hex digits>.

FLAVOUR_KEEP=4 # installed flavours kept (the newest)

# The patch sets of patch_sets[] (build.sh's --patches arguments): a
# directory, or the name of one in linux/patches/.  Sets PATCH_FILES (in
# the order they apply), PATCH_LABELS (set/file, for messages), FNAME,
# FKEY, FDIR, FOUT and FLAVOUR_ARGS.
flavour_resolve() {
	local arg dir name f names=() files sums
	PATCH_FILES=() PATCH_LABELS=() FLAVOUR_ARGS=
	for arg in "${patch_sets[@]}"; do
		if [[ -d $arg ]]; then
			dir=$arg
		elif [[ $arg != */* && -d $HERE/patches/$arg ]]; then
			dir=$HERE/patches/$arg
		else
			die "patch set '$arg' not found: no directory '$arg', and linux/patches/ has no set of that name (it has: $(flavour_known_sets))"
		fi
		dir=$(cd "$dir" && pwd)
		name=$(basename "$dir" | LC_ALL=C tr -c 'A-Za-z0-9._\n-' '_')
		mapfile -t files < <(cd "$dir" && find . -maxdepth 1 -name '*.patch' -printf '%f\n' | LC_ALL=C sort)
		((${#files[@]})) || die "patch set '$arg' ($dir) has no *.patch file"
		for f in "${files[@]}"; do
			[[ -f $dir/$f && -r $dir/$f ]] || die "$dir/$f is not a readable file"
			PATCH_FILES+=("$dir/$f")
			PATCH_LABELS+=("$name/$f")
		done
		names+=("$name")
		FLAVOUR_ARGS+=" --patches $arg"
	done
	FNAME=$(IFS=+ && echo "${names[*]}")
	sums=$(
		echo "base $KEY"
		echo "flavour.sh $(sha256sum <"$HERE/flavour.sh" | cut -d' ' -f1)"
		for f in "${!PATCH_FILES[@]}"; do
			echo "${PATCH_LABELS[$f]} $(sha256sum <"${PATCH_FILES[$f]}" | cut -d' ' -f1)"
		done
	)
	FKEY=$KEY+$FNAME-$(sha256sum <<<"$sums" | cut -c1-12)
	FDIR=$CACHE/patched
	FOUT=$FDIR/vmlinux-$FKEY
}

flavour_known_sets() {
	local sets
	sets=$(cd "$HERE/patches" 2>/dev/null && find . -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
	echo "${sets% }"
}

# Stop on a patch that does not apply, with its name and patch's first
# complaint, then all that patch said.
flavour_patch_failed() { # label output
	local first
	first=$(grep -m1 -E 'FAILED|[Cc]an.t find file|garbage|Reversed|malformed|\*\*\*\*|No such file|ignored|Skipping' <<<"$2" ||
		head -n 1 <<<"$2")
	{
		echo "build.sh: patch output:"
		sed 's/^/  /' <<<"$2"
	} >>"$FLOG"
	sed 's/^/  /' <<<"$2" >&2
	die "patch $1 does not apply to $PKG $VERSION: ${first:-patch failed} (nothing was built; log $FLOG)"
}

# Apply every patch in order to the flavour's source.  Before a patch is
# applied, the files it will change are replaced by copies of their own, so
# that the pristine source they are linked to cannot be written through
# them (GNU patch replaces a file rather than rewriting it, but this does
# not depend on it).  Fills TOUCHED_BY[file] with the labels of the patches
# that touch it.
flavour_apply() {
	local i p label out f
	declare -gA TOUCHED_BY=()
	local opts=(-d "$FSRC" -p1 --batch --forward --fuzz=0)
	for i in "${!PATCH_FILES[@]}"; do
		p=${PATCH_FILES[$i]} label=${PATCH_LABELS[$i]}
		out=$(patch "${opts[@]}" --dry-run -i "$p" 2>&1) || flavour_patch_failed "$label" "$out"
		while IFS= read -r f; do
			TOUCHED_BY[$f]+="${TOUCHED_BY[$f]:+, }$label"
			if [[ -f $FSRC/$f ]]; then
				cp -p "$FSRC/$f" "$FSRC/$f.xbow-own"
				mv -f "$FSRC/$f.xbow-own" "$FSRC/$f"
			fi
		done < <(sed -n 's/^checking file \([^ ]*\).*/\1/p' <<<"$out")
		out=$(patch "${opts[@]}" --no-backup-if-mismatch --reject-file=- -i "$p" 2>&1) ||
			flavour_patch_failed "$label" "$out"
		printf '%s\n' "patch $label:" "$out" >>"$FLOG"
		note "applied $label: $(grep -c '^patching file' <<<"$out") file(s)$(grep -q 'offset' <<<"$out" && echo ' (with offsets)')"
	done
	for f in "${!TOUCHED_BY[@]}"; do
		[[ ! -e $FSRC/$f || $(stat -c %h "$FSRC/$f") == 1 ]] ||
			die "internal error: $FSRC/$f still shares its inode with the pristine source"
	done
}

# Rewrite the absolute paths of the pristine trees in the flavour's copies
# (text files only: the .cmd files, generated makefiles and .S wrappers, the
# initramfs list).  Kbuild records real paths; build.sh passes the cache's
# path as given: both are rewritten.
flavour_rewrite_paths() {
	local from to
	local -A seen=()
	for from in "$CACHE" "$(cd "$CACHE" && pwd -P)"; do
		[[ -z ${seen[$from]:-} ]] || continue
		seen[$from]=1
		to=$from/patched/$FKEY
		grep -rlIZF -e "$from/" "$FOBJ" "$FSTAGE" |
			XF=$from/ XT=$to/ xargs -0r perl -pi -e 's/\Q$ENV{XF}\E(?=src\/|build-|stage-)/$ENV{XT}/g'
	done
	ln -sfn "$FSRC" "$FOBJ/source"
}

# Stop on a failed build, with the first error and the patches that touched
# the file it is in.
flavour_build_failed() {
	local first file by=
	first=$(grep -m1 -E ': (fatal )?error:|undefined reference|multiple definition|Error [0-9]+' "$FLOG" || true)
	file=$(sed -n 's/^\([^: ]*\):[0-9].*/\1/p' <<<"$first")
	file=${file#"$FSRC"/}
	file=${file#../}
	first=${first//"$FSRC"\//}
	[[ -n $file ]] && by=${TOUCHED_BY[$file]:-}
	if [[ -n $by ]]; then
		die "the build of flavour $FNAME failed in $file, which $by changes: ${first:-see the log} (log $FLOG)"
	fi
	die "the build of flavour $FNAME ($(IFS=' ' && echo "${PATCH_LABELS[*]}")) failed: ${first:-see the log} (log $FLOG)"
}

# Remove what a failed or interrupted flavour build leaves: its tree and
# temporary outputs (the log stays).
flavour_abandon() {
	[[ -n ${FTREE:-} && ! -f $FTREE/.done ]] || return 0
	rm -rf "$FTREE" "$FOUT.tmp" "$FDIR/System.map-$FKEY.tmp" "$FDIR/config-$FKEY.tmp"
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
		[[ -d $d && ! -f $FDIR/vmlinux-${d##*/} ]] || continue
		[[ ${d##*/} == "$FKEY" && -f $d/.done ]] && continue
		note "removing $d (left by an unfinished build)"
		rm -rf "$d"
	done
}

# Build the flavour FKEY on top of the pristine build of KEY (which must be
# complete: build.sh checks) and print its path.
flavour_build() {
	local t0=$SECONDS ncc
	FTREE=$FDIR/$FKEY
	FSRC=$FTREE/src/$PKG-$VERSION FOBJ=$FTREE/build-$VERSION FSTAGE=$FTREE/stage-$VERSION
	FLOG=$FDIR/$FKEY.log
	mkdir -p "$FDIR"
	flavour_prune
	rm -rf "$FTREE"
	trap flavour_abandon EXIT
	: >"$FLOG"

	note "flavour $FKEY: linking the pristine source"
	mkdir -p "$FTREE/src"
	if ! cp -al "$SRC" "$FSRC" 2>/dev/null; then
		note "hard links failed; copying the whole source instead"
		rm -rf "$FSRC"
		cp -a "$SRC" "$FSRC"
	fi
	flavour_apply
	note "copying the pristine build tree of key $KEY"
	cp -a "$OBJ" "$FOBJ"
	cp -a "$STAGE" "$FSTAGE"
	rm -f "$FOBJ/.xbow-key"
	flavour_rewrite_paths

	kmake_for "$FSRC" "$FOBJ"
	note "building flavour $FNAME with -j$JOBS (key $FKEY)"
	"${KMAKE[@]}" -j"$JOBS" vmlinux 2>&1 | tee -a "$FLOG" >&2 || flavour_build_failed
	check_vmlinux "$FOBJ/vmlinux"

	# vmlinux last: its presence says the flavour is installed.
	cp "$FOBJ/System.map" "$FDIR/System.map-$FKEY.tmp"
	mv "$FDIR/System.map-$FKEY.tmp" "$FDIR/System.map-$FKEY"
	cp "$FOBJ/.config" "$FDIR/config-$FKEY.tmp"
	mv "$FDIR/config-$FKEY.tmp" "$FDIR/config-$FKEY"
	cp "$FOBJ/vmlinux" "$FOUT.tmp"
	mv "$FOUT.tmp" "$FOUT"
	touch "$FTREE/.done"
	trap - EXIT
	flavour_prune

	ncc=$(grep -cE '^  CC ' "$FLOG" || true)
	check_hash "$FKEY" "$FOUT"
	note "compiled again: $ncc file(s): $(sed -n 's/^  CC *//p' "$FLOG" | tr '\n' ' ')"
	note "patched source in $FSRC"
	note "entry $entry; sha256 $sum; flavour built in $((SECONDS - t0)) s"
	echo "$FOUT"
}
