#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every path a document names exists: a document that points at a file
# that moved sends its reader nowhere.
#   tests/doc/doc_paths.sh SOURCE_DIR [DOCUMENT...]
# With no documents: README.md, doc/*.md, doc/*.1, tests/README.md, tests/*/README.md,
# python/README.md and bench/RESULTS.md. Prints every path that is missing,
# as DOCUMENT:LINE: PATH, and exits 1 if there is one.
#
# What counts as a path: in Markdown, a word of inline code or of a code
# block, and every link's target; in a man page, any word. A word is checked
# when it has a '/' and starts with a folder of the source tree's top
# (db/store/table.c, tests/cli/*.md, bench/run.sh/) or of the document's own
# folder (corpus/query in tests/fuzz/README.md); build outputs (build/...,
# build-test/...), absolute paths, paths beside the tree (../shared/data),
# home and user paths are not the tree's. A program the tree builds is
# named by its source without the .c (bench/bfs_levels: bench/bfs_levels.c).
# A link is relative to its document, as GitHub reads it. Globs are allowed
# (tests/cli/*.md: one match is enough); <placeholder> reads as *.
set -euo pipefail
src=$1
shift
cd "$src"
if [ $# -eq 0 ]; then
	set -- README.md doc/*.md doc/*.1 tests/README.md tests/*/README.md python/README.md bench/RESULTS.md
fi

# The tree's top folders: not hidden, not a build tree.
tops=$(for d in */; do d=${d%/}; case $d in build*) ;; *) echo "$d" ;; esac; done)

# DOCUMENT LINE KIND WORD, one a line: KIND is "link" for a link's target,
# "word" for a word that may be a path.
candidates() {
	awk '
	function words(text,    n, i, w, parts) {
		gsub(/<[^>]*>/, "*", text)              # <target> is a placeholder
		n = split(text, parts, /[][ \t"'"'"'`(),;=|&{}:]+/)
		for (i = 1; i <= n; i++) {
			w = parts[i]
			sub(/^\.\//, "", w)
			sub(/[.!?]+$/, "", w)
			sub(/\/+$/, "", w)
			if (w ~ /\//)
				print FILENAME, FNR, "word", w
		}
	}
	FNR == 1 { fence = 0; man = FILENAME ~ /\.[1-9]$/ }
	man {
		line = $0
		gsub(/\\f[BIRP]/, "", line)
		gsub(/\\-/, "-", line)
		gsub(/\\e/, "\\", line)
		if (line !~ /^\.\\"/)                    # not a comment
			words(line)
		next
	}
	/^[ \t]*```/ { fence = !fence; next }
	fence { words($0); next }
	{
		line = $0
		while (match(line, /\]\([^) ]+\)/)) {
			print FILENAME, FNR, "link", substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
		}
		line = $0
		while (match(line, /`[^`]+`/)) {
			words(substr(line, RSTART + 1, RLENGTH - 2))
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$@"
}

exists() {   # a path, a glob allowed
	compgen -G "$1" >/dev/null
}

bad=0
checked=0
while read -r doc line kind word; do
	dir=$(dirname "$doc")
	case $kind in
	link)
		case $word in http:* | https:* | mailto:* | \#*) continue ;; esac
		path=${word%%#*}
		path=$dir/$path
		;;
	word)
		first=${word%%/*}
		if grep -qxF -- "$first" <<<"$tops"; then
			path=$word
		elif [ "$dir" != . ] && [ -n "$first" ] && [ "$first" != .. ] && [ -d "$dir/$first" ]; then
			path=$dir/$word
		else
			continue
		fi
		;;
	esac
	checked=$((checked + 1))
	if ! exists "$path" && ! exists "$path.c"; then
		echo "$doc:$line: $word" >&2
		bad=1
	fi
done < <(candidates "$@")
[ $bad = 0 ] && echo "doc paths: $checked paths named in $# documents, each exists"
exit $bad
