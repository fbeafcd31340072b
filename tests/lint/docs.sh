#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation points only at what the repository holds, and reads as
# one text (DEVELOPERS.md, "How work gets done"):
#
# - in the Markdown pages (docs/*.md and the READMEs, outside code blocks):
#   no line repeated on the next line, no sentence repeated within one
#   paragraph (what a bad merge leaves behind), no heading twice in a page;
# - every Markdown link to a file, and every backticked path such as
#   `src/dev/nic/nic.c` or `tests/batch/cli.sh`, names a file or directory of
#   the tree or a file the build makes (a target named in Makefile.am or a
#   .mk fragment);
# - in the sources, tests, examples and pages: every `*.md` named exists
#   (from the top of the tree or beside the file that names it), every
#   `docs/PAGE.md, "Section"` names a heading of that page, paths such as
#   src/dev/nic/nic.c or tests/batch/cli.sh in code comments exist or are built,
#   and nothing refers to notes outside the repository (the hardware facts
#   the code relies on are in docs/hardware.md with their public sources).
#   DEVELOPERS.md alone may name ../shared, where the developers' notes are;
#   a reference that cannot change yet goes into exception() with its
#   reason.
set -u
top=${top_srcdir:-.}
cd "$top" || exit 1
self=tests/lint/docs.sh

if [ ! -f docs/architecture.md ] || [ ! -d src ]; then
    echo "SKIP: $top is not a whole source tree (a distribution tarball has no docs/)"
    exit 77
fi
pages=$(ls docs/*.md README.md DEVELOPERS.md linux/README.md examples/README.md 2>/dev/null)
# Text files of the tree, without build products and unpacked test suites.
texts=$(find src ui tests docs examples linux \
            \( -path tests/torture/src -o -path 'tests/torture/out*' -o -path 'tests/fuzz/work*' \) -prune -o \
            -type f \( -name '*.[chS]' -o -name '*.md' -o -name '*.sh' -o -name '*.py' \
               -o -name '*.mk' -o -name '*.xbow' -o -name '*.ld' -o -name '*.config' \
               -o -name '*.1' -o -name '*.in' -o -name '*.list' \) -print 2>/dev/null |
        grep -v "^$self\$" | LC_ALL=C sort)
texts="$texts README.md DEVELOPERS.md Makefile.am configure.ac"

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

# Is $1 (a path from the top of the tree) a file or directory of the tree,
# or something the build makes?
makefiles="Makefile.am $(find src ui tests examples linux -name '*.mk' | LC_ALL=C sort)"
known_path() {
    [ -e "$1" ] && return 0
    grep -qwF -- "$1" $makefiles 2>/dev/null
}

# 1. Repeated lines, repeated sentences, repeated headings; links and
#    backticked paths (printed as "LINK file line target" for the shell).
for f in $pages; do
    awk -v F="$f" '
    function flush(   n, i, s, parts, w, seen) {
        if (para == "")
            return
        n = split(para, parts, /[.!?] +/)
        for (i = 1; i <= n; i++) {
            s = parts[i]
            gsub(/^ +| +$/, "", s)
            gsub(/[.!?:;]+$/, "", s)
            if (split(s, w, / +/) < 6)
                continue
            if (s in seen)
                printf "FAIL: %s:%d: a sentence is repeated in this paragraph: \"%s\"\n", F, pstart, s
            seen[s] = 1
        }
        para = ""
    }
    /^[ \t]*(```|~~~)/ { flush(); fence = !fence; prev = ""; next }
    fence { next }
    /^[ \t]*$/ { flush(); prev = ""; blank = 1; next }
    # An indented code block starts after a blank line.
    /^(    |\t)/ && (blank || icode) { flush(); icode = 1; blank = 0; prev = ""; next }
    {
        icode = 0; blank = 0
        if ($0 == prev)
            printf "FAIL: %s:%d: the line is repeated: \"%s\"\n", F, FNR, $0
        prev = $0
    }
    /^#+ / {
        flush()
        h = $0
        sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
        if (h in heading)
            printf "FAIL: %s:%d: heading \"%s\" is already at line %d\n", F, FNR, h, heading[h]
        else
            heading[h] = FNR
        next
    }
    {
        if (para == "")
            pstart = FNR
        line = $0
        gsub(/[ \t]+/, " ", line)
        para = para " " line
        # Markdown links [text](target) and reference definitions.
        rest = line
        while (match(rest, /\]\([^) ]+/)) {
            print "LINK", F, FNR, substr(rest, RSTART + 2, RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH)
        }
        if (match($0, /^\[[^]]+\]: +[^ ]*[.\/#][^ ]*/)) {
            t = substr($0, RSTART, RLENGTH); sub(/^.*\]: +/, "", t)
            print "LINK", F, FNR, t
        }
        # Backticked paths from the top of the tree.
        rest = line
        while (match(rest, /`[^` ]+`/)) {
            t = substr(rest, RSTART + 1, RLENGTH - 2)
            rest = substr(rest, RSTART + RLENGTH)
            if (t ~ /^(src|ui|tests|docs|examples|linux|scripts|m4|\.ci)\// &&
                t !~ /[*?[{<>$]/)
                print "PATH", F, FNR, t
        }
    }
    END { flush() }' "$f"
done >"$out"

grep '^FAIL' "$out"
bad=$(grep -c '^FAIL' "$out")

while read -r kind f line target; do
    case $kind in
    LINK)
        case $target in
        *://* | mailto:* | \#*) continue ;;
        esac
        path=${target%%#*}
        case $path in
        *.md) continue ;; # the NAME.md check below
        /*) ;;
        *) path=$(dirname "$f")/$path ;;
        esac
        if [ ! -e "$path" ]; then
            echo "FAIL: $f:$line: the link goes to $target, which is not in the tree"
            bad=$((bad + 1))
        fi
        ;;
    PATH)
        p=${target%/}
        p=${p%%:*}
        if ! known_path "$p"; then
            echo "FAIL: $f:$line: \`$target\` is not in the tree and no Makefile builds it"
            bad=$((bad + 1))
        fi
        ;;
    esac
done <<EOF
$(grep -v '^FAIL' "$out")
EOF

# 2. References in sources, tests, examples and pages.
# References that cannot change yet, each with its reason: FILE and TEXT.
exception() {
    case "$1" in
    DEVELOPERS.md) return 0 ;; # the guide says where the developers' notes are
    esac
    return 1
}
# Notes that live outside the repository: the shared folder (its notes
# named alone are caught by the NAME.md check below).
grep -nE '\.\./shared|/work/shared|(^|[^A-Za-z0-9_])shared/hw/' $texts |
    while IFS= read -r hit; do
        f=${hit%%:*}
        rest=${hit#*:}
        exception "$f" "${rest#*:}" ||
            echo "FAIL: $f:${rest%%:*}: refers to notes outside the repository: ${rest#*:}"
    done >"$out"
# Sections of those notes cited without their name ("(A.4)", "B.11 item 5",
# "[INF, A.5]", "§5.2").
grep -nE '(^|[][ (,])[A-F]\.[0-9]{1,2}([^0-9]|$)|§' $texts |
    while IFS= read -r hit; do
        f=${hit%%:*}
        rest=${hit#*:}
        exception "$f" "${rest#*:}" ||
            echo "FAIL: $f:${rest%%:*}: cites a section of notes outside the repository: ${rest#*:}"
    done >>"$out"
cat "$out"
bad=$((bad + $(grep -c '^FAIL' "$out")))

# Every NAME.md named must exist, from the top, beside the naming file or
# in docs/ (the man page names its fellow pages so); a "docs/PAGE.md,
# "Section"" citation must name one of the page's headings (the heading,
# or its text before " (" or ": ").
grep -noE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md\b(\)?,? "[^"]+")?' $texts |
    while IFS=: read -r f line ref; do
        md=${ref%%.md*}.md
        md=${md#./}
        case $md in
        ../* | /* | *shared/hw/*) continue ;; # reported above
        esac
        if [ -e "$md" ]; then page=$md
        elif [ -e "$(dirname "$f")/$md" ]; then page=$(dirname "$f")/$md
        elif [ -e "docs/$md" ]; then page=docs/$md
        else
            case ${md##*/} in
            ip27.md | nics.md | baseio.md | design.md | anchors.md | debug-interfaces.md)
                echo "FAIL: $f:$line: $md is a note outside the repository (cite docs/hardware.md or the public source)" ;;
            *)
                echo "FAIL: $f:$line: $md is not in the repository" ;;
            esac
            continue
        fi
        case $ref in
        *\"*)
            sect=${ref#*\"}
            sect=${sect%\"}
            if ! sed -n -E 's/^#+ +//p' "$page" |
                awk -v s="$sect" '$0 == s || index($0, s " (") == 1 || index($0, s ": ") == 1 { ok = 1 }
                                  END { exit !ok }'
            then
                echo "FAIL: $f:$line: $page has no heading \"$sect\""
            fi
            ;;
        esac
    done >"$out"
# Paths of the tree named in code, scripts and build files.
code=$(echo "$texts" | tr ' ' '\n' | grep -v '\.md$')
grep -noE '(^|[^A-Za-z0-9_./*$-])(src|ui|tests|docs|examples)/[A-Za-z0-9_./-]*\.(c|h|sh|py|mk|xbow|S|ld|1)\b' $code |
    while IFS=: read -r f line p; do
        p=$(printf '%s' "$p" | sed -E 's/^[^a-z]//')
        known_path "$p" || echo "FAIL: $f:$line: $p is not in the tree and no Makefile builds it"
    done >>"$out"
cat "$out"
bad=$((bad + $(grep -c '^FAIL' "$out")))

echo "docs: $(echo "$pages" | wc -w) pages, $(echo "$texts" | wc -w) files, $bad problems"
[ "$bad" -eq 0 ]
