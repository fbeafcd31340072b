#!/bin/sh
# Dependencies point downward only (docs/architecture.md, "Layers"): every
# #include "DIR/..." in ui/ and src/ must follow an edge listed here.  A
# layer may always include its own headers and the generated config.h.
set -u
top=${top_srcdir:-.}

# LAYER: the layers it may include.
allowed() {
    case $1 in
    ui) echo "dbg machine core" ;;
    dbg) echo "machine cpu core" ;;
    machine) echo "cpu dev net core" ;;
    cpu) echo "core" ;;
    dev) echo "net core" ;;
    net) echo "core" ;;
    core) echo "" ;;
    *) echo "?" ;;
    esac
}

# Single includes that do not follow the edges yet, each with its reason.
exception() {
    case "$1 $2" in
    "src/dbg/watch.c dev/nic.h") return 0 ;; # a DMA's ring ids are the NIC engine's
    esac
    return 1
}

bad=0
files=0
for f in $(cd "$top" && find ui src -name '*.[ch]' | LC_ALL=C sort); do
    files=$((files + 1))
    case $f in
    ui/*) layer=ui ;;
    src/*) layer=${f#src/}; layer=${layer%%/*} ;;
    esac
    ok=$(allowed "$layer")
    if [ "$ok" = "?" ]; then
        echo "FAIL: $f: layer \"$layer\" is not in tests/lint/layers.sh"
        bad=$((bad + 1))
        continue
    fi
    for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$top/$f"); do
        case $inc in
        */*) to=${inc%%/*} ;;
        *) continue ;; # config.h, or a header beside the file
        esac
        [ "$to" = "$layer" ] && continue
        case " $ok " in *" $to "*) continue ;; esac
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
