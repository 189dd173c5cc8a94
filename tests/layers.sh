#!/usr/bin/env bash
# The library's layers only look down: puzzle <- store <- answer.
#   tests/layers.sh SOURCE_DIR PUZZLE_OBJECTS STORE_OBJECTS ANSWER_OBJECTS
# (each a ;-separated list, as CMake's $<TARGET_OBJECTS:...> gives it).
# Two checks: no file includes a header of a layer above its own (nor, in
# the puzzle layer, LMDB's or zlib's), and no layer's objects call a function
# that only a layer above defines.
set -euo pipefail
src=$1
IFS=';' read -r -a puzzle <<<"$2"
IFS=';' read -r -a store <<<"$3"
IFS=';' read -r -a answer <<<"$4"
bad=0

# 1. Includes.
up=$( { grep -lE '#\s*include\s*[<"](store|answer)/|lmdb\.h|zlib\.h' "$src"/db/puzzle/*.[ch] || true
        grep -lE '#\s*include\s*[<"]answer/' "$src"/db/store/*.[ch] || true; } )
if [ -n "$up" ]; then
	echo "a lower layer includes a higher one (puzzle <- store <- answer):" >&2
	echo "$up" >&2
	bad=1
fi

# 2. Calls: what each layer's objects need and a higher layer defines.
defined() { nm --defined-only "$@" 2>/dev/null | awk '$2 ~ /[TtDdBbRr]/ { print $3 }' | sort -u; }
needed() { nm --undefined-only "$@" 2>/dev/null | awk '{ print $2 }' | sort -u; }
defined "${store[@]}" >"${TMPDIR:-/tmp}/layers-store.$$"
defined "${answer[@]}" >"${TMPDIR:-/tmp}/layers-answer.$$"
trap 'rm -f "${TMPDIR:-/tmp}"/layers-*.$$' EXIT
calls=$(needed "${puzzle[@]}" | comm -12 - <(sort -u "${TMPDIR:-/tmp}/layers-store.$$" "${TMPDIR:-/tmp}/layers-answer.$$"))
if [ -n "$calls" ]; then
	echo "the puzzle layer calls functions of a layer above it:" $calls >&2
	bad=1
fi
calls=$(needed "${store[@]}" | comm -12 - "${TMPDIR:-/tmp}/layers-answer.$$")
if [ -n "$calls" ]; then
	echo "the store layer calls functions of the answer layer:" $calls >&2
	bad=1
fi
[ $bad = 0 ] && echo "layers: puzzle <- store <- answer, by includes and by calls"
exit $bad
