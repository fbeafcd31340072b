#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Dependencies point downward only (docs/architecture.md, "Layers"): every
# #include "DIR/..." in ui/ and src/ must follow an edge listed here.  A
# layer may always include its own headers and the generated config.h.
# src/dev/ is split by family (src/dev/FAMILY/, a NIC model in a folder below
# its family's): each family is a layer of its own here, named dev/FAMILY,
# and an edge to "dev" reaches every family.
set -u
top=${top_srcdir:-.}

# LAYER: the layers it may include.
allowed() {
    case $1 in
    ui) echo "dbg machine core" ;;
    dbg) echo "machine cpu core" ;;
    machine) echo "cpu dev net core" ;;
    cpu) echo "core" ;;
    dev/nic) echo "dev/pci net core" ;;
    dev/sgi) echo "dev/chip dev/pci core" ;;
    dev/scsi) echo "dev/pci core" ;;
    dev/pci) echo "core" ;;
    dev/chip) echo "core" ;;
    net) echo "core" ;;
    core) echo "" ;;
    *) echo "?" ;;
    esac
}

# Single includes that do not follow the edges yet, each with its reason.
exception() {
    case "$1 $2" in
    "src/dbg/watch.c dev/nic/nic.h") return 0 ;; # a DMA's ring ids are the NIC engine's
    esac
    return 1
}

# The layer of PATH (below src/, or an include): its first folder, or
# dev/FAMILY for a device (a file directly in src/dev/ is in no layer).
layer_of() {
    case $1 in
    dev/*/*) fam=${1#dev/}; echo "dev/${fam%%/*}" ;;
    *) echo "${1%%/*}" ;;
    esac
}

# Does one of the layers after TO allow it?  "dev" allows every dev/FAMILY.
reaches() {
    to=$1
    shift
    for e in "$@"; do
        case $to in
        "$e" | "$e"/*) return 0 ;;
        esac
    done
    return 1
}

bad=0
files=0
for f in $(cd "$top" && find ui src -name '*.[ch]' | LC_ALL=C sort); do
    files=$((files + 1))
    case $f in
    ui/*) layer=ui ;;
    src/*) layer=$(layer_of "${f#src/}") ;;
    esac
    ok=$(allowed "$layer")
    if [ "$ok" = "?" ]; then
        case $f in
        src/dev/*) echo "FAIL: $f: a device lives in its family's folder, src/dev/FAMILY/ (docs/architecture.md, \"Layers\")" ;;
        *) echo "FAIL: $f: layer \"$layer\" is not in tests/lint/layers.sh" ;;
        esac
        bad=$((bad + 1))
        continue
    fi
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$top/$f"); do
        case $inc in
        */*) to=$(layer_of "$inc") ;;
        *) continue ;; # config.h, or a header beside the file
        esac
        [ "$to" = "$layer" ] && continue
        reaches "$to" $ok && continue
        exception "$f" "$inc" && continue
        echo "FAIL: $f includes \"$inc\": $layer may include only ${ok:-its own headers} (docs/architecture.md, \"Layers\")"
        bad=$((bad + 1))
    done
done
if [ "$files" -eq 0 ]; then
    echo "FAIL: no sources found under $top"
    exit 1
fi
echo "layers: $files files, $bad includes against the layer edges"
[ "$bad" -eq 0 ]
