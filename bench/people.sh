#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Answers for people, end to end through slidedb-lookup (issue #9's targets):
# every best move and the solution count over a batch of random 3x3 pairs,
# random boards at a common 3x3 distance and at the rarest 3x4 distance, and
# counting the solutions of the hardest 3x4 positions. Prints Markdown.
#   bench/people.sh BUILD_DIR [--quick]    (--quick: no 3x4 table)
set -euo pipefail
build=$1
quick=${2:-}
lookup=$build/slidedb-lookup
gen=$build/slidedb-gen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median wall seconds of 3 runs of a command, stdin from a file (or
# /dev/null), stdout to /dev/null.
wall_in() {
	local input=$1 runs=() t0 t1
	shift
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" < "$input" > /dev/null
		t1=$(date +%s.%N)
		runs+=("$(awk "BEGIN { print $t1 - $t0 }")")
	done
	printf '%s\n' "${runs[@]}" | sort -g | sed -n 2p
}
wall() {
	wall_in /dev/null "$@"
}
rate() {   # COUNT SECONDS -> "N/s"
	awk "BEGIN { printf \"%.0f\", $1 / $2 }"
}
met() {    # VALUE OP TARGET
	awk "BEGIN { exit !($1 $2 $3) }" && echo yes || echo NO
}

"$gen" full 3x3 --db "$work/s.lmdb" -q
pairs=500000
"$lookup" --db "$work/s.lmdb" random --count $pairs --seed 1 > "$work/a"
"$lookup" --db "$work/s.lmdb" random --count $pairs --seed 2 > "$work/b"
paste -d';' "$work/a" "$work/b" > "$work/pairs"
plain=$(wall_in "$work/pairs" "$lookup" --db "$work/s.lmdb" --json)
one=$(wall_in "$work/pairs" "$lookup" --db "$work/s.lmdb" --json --all-best --solutions)
two=$(wall_in "$work/pairs" "$lookup" --db "$work/s.lmdb" --json --all-best --solutions -t 2)
boards=2000000
common=$(wall "$lookup" --db "$work/s.lmdb" random --distance 22 --count $boards --seed 1)
common_json=$(wall "$lookup" --db "$work/s.lmdb" random --distance 22 --count 200000 --seed 1 --json)

echo "## Answers for people (\`bench/people.sh\`, whole \`slidedb-lookup\` runs, median of 3)"
echo
echo "| what | measured | target | met |"
echo "|---|---|---|---|"
echo "| batch of $pairs random 3x3 pairs, \`--json\` (for comparison) | $(rate $pairs "$plain")/s | | |"
r1=$(rate $pairs "$one")
r2=$(rate $pairs "$two")
echo "| same, \`--all-best --solutions\`, 1 thread | $r1/s | | |"
echo "| same, \`--all-best --solutions -t 2\` | $r2/s | >= 200,000/s | $(met "$r2" '>=' 200000) |"
rc=$(rate $boards "$common")
echo "| \`random --distance 22\` on 3x3 (24,047 states; read at random), $boards boards | $rc/s | >= 500,000/s | $(met "$rc" '>=' 500000) |"
echo "| same with \`--json\` (an answer walked per board), 200000 boards | $(rate 200000 "$common_json")/s | | |"

if [ "$quick" != "--quick" ]; then
	"$gen" full 3x4 --db "$work/b.lmdb" -q
	cat "$work/b.lmdb" > /dev/null   # into the page cache
	rare1=$(wall "$lookup" --db "$work/b.lmdb" random --size 3x4 --distance 53 --count 1 --seed 1)
	rare=$(wall "$lookup" --db "$work/b.lmdb" random --size 3x4 --distance 53 --count $boards --seed 1)
	echo "| \`random --size 3x4 --distance 53\` (18 states of 239,500,800: one pass lists them), 1 board | $(awk "BEGIN { printf \"%.3f\", $rare1 }") s | <= 1 s | $(met "$rare1" '<=' 1) |"
	echo "| same, $boards boards | $(rate $boards "$rare")/s | | |"
	# the 18 hardest 3x4 positions: every one is drawn among 2000
	"$lookup" --db "$work/b.lmdb" random --size 3x4 --distance 53 --count 2000 --seed 3 \
		| sort -u > "$work/hardest"
	n=$(wc -l < "$work/hardest")
	worst=0 most=0
	while read -r board; do
		t=$("$build/bench/time_exec" 3 "$lookup" --db "$work/b.lmdb" --size 3x4 --solutions "$board")
		worst=$(awk "BEGIN { print ($t > $worst) ? $t : $worst }")
		c=$("$lookup" --db "$work/b.lmdb" --size 3x4 --only solutions "$board")
		most=$(( c > most ? c : most ))
	done < "$work/hardest"
	echo "| \`--solutions\` on each of the $n hardest 3x4 positions (53 moves), slowest, whole process | $worst ms | <= 1,000 ms | $(met "$worst" '<=' 1000) |"
	echo
	echo "The hardest 3x4 positions have up to $most optimal solutions each."
fi
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores."
