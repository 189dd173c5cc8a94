#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One name, one thing: a reader who meets a file's or a header's name knows
# which one is meant.
#   tests/names.sh SOURCE_DIR
# Four checks over the library and the programs (db/ cli/ gen/ lookup/
# serve/ python/ext/), each listing every offender:
# 1. every base name is unique (x.c and x.h of one folder are one module):
#    two files of one name, and "random.c" no longer tells which is meant;
# 2. every include guard is unique: a header whose guard another shares is
#    silently empty when both are included;
# 3. the programs' headers are guarded SLIDEDB_<FOLDER>_<FILE>_H (the
#    library's, SLIDEDB_<LAYER>_<FILE>_H, are tests/layers.sh's to check);
# 4. the programs include their own headers by folder ("cli/out.h"), from the
#    top of the tree, so that no include path decides which file is meant.
set -euo pipefail
cd "$1"
folders=(db cli gen lookup serve python/ext)
programs=(cli gen lookup serve python/ext)
bad=0

# 1. Base names.
same=$(find "${folders[@]}" -name '*.[ch]' | sed -E 's/\.[ch]$//' | sort -u |
       awk -F/ '{ n[$NF]++; at[$NF] = at[$NF] " " $0 ".[ch]" }
                END { for (b in n) if (n[b] > 1) print b ":" at[b] }' | sort)
if [ -n "$same" ]; then
	echo "base names that more than one folder uses:" >&2
	echo "$same" >&2
	bad=1
fi

# 2. Guards: the first #ifndef of each header (a generated one may have none).
guards=$(for h in $(find "${folders[@]}" -name '*.h' | sort); do
	g=$(awk '/^#ifndef [A-Z0-9_]+_H$/ { print $2; exit }' "$h")
	[ -n "$g" ] && echo "$g $h"
done)
twice=$(awk '{ n[$1]++; at[$1] = at[$1] " " $2 }
             END { for (g in n) if (n[g] > 1) print g ":" at[g] }' <<<"$guards" | sort)
if [ -n "$twice" ]; then
	echo "include guards that more than one header uses:" >&2
	echo "$twice" >&2
	bad=1
fi

# 3. The programs' guards say their folder and file.
for h in $(find "${programs[@]}" -name '*.h' | sort); do
	folder=$(dirname "$h")
	want="SLIDEDB_${folder^^}_$(basename "${h^^}" .H)_H"
	want=${want//\//_}
	if ! grep -qx "#ifndef $want" "$h" || ! grep -qx "#define $want" "$h"; then
		echo "$h: its guard should be $want" >&2
		bad=1
	fi
done

# 4. The programs' includes of their own headers name the folder.
bare=$(grep -HnE '#\s*include\s*"' cli/*.[ch] gen/*.[ch] lookup/*.[ch] serve/*.[ch] |
       grep -vE '#\s*include\s*"((cli|gen|lookup|serve)/[a-z_]+\.h|slidedb(_engine)?\.h)"' || true)
if [ -n "$bare" ]; then
	echo "includes that do not name the header's folder (\"cli/out.h\"):" >&2
	echo "$bare" >&2
	bad=1
fi

[ $bad = 0 ] && echo "names: base names and include guards unique; the programs' headers named by folder"
exit $bad
