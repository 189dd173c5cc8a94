#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Korf's 100 15-puzzle instances in the multi-tile metric (issue #38),
# solved by slidedb-lookup --metric mtm, each length checked against the
# bounds the single-tile length the file gives allows (ceil(STM / 3) <= MTM
# <= STM), with nodes and seconds.
#
#   bench/korf100_mtm.sh [-b BUILD_DIR] [-t THREADS] [-T SECONDS] [-e] [N...]
#
# N...: instance numbers, 1 to 100 (default: all). -e: the N easiest by
# their STM length instead (N the count). The search's split tables are
# built in memory on the run's first question (its time is said apart).
# Prints a Markdown table; exits 1 if a length breaks the bounds or a
# search fails (-T: its time limit, default none).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench threads=$(nproc) timeout=0 easiest=0
while getopts b:t:T:e opt; do
	case $opt in
	b) build=$OPTARG ;;
	t) threads=$OPTARG ;;
	T) timeout=$OPTARG ;;
	e) easiest=1 ;;
	*) sed -n 3,14p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
. bench/data_dir.sh
. bench/set24.sh
set24_programs "$build"
file=$data/korf100.txt
instances=$(grep -v '^#' "$file" | awk '{ print NR, $0 }')
if [ "$easiest" = 1 ]; then
	list=($(sort -k18,18n -k1,1n <<<"$instances" | head -n "${1:-10}" | awk '{ print $1 }'))
elif [ $# -gt 0 ]; then
	list=("$@")
else
	list=($(seq 1 100))
fi
goal="$(seq -s ' ' 0 15)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$work/none.lmdb
"$build/slidedb-gen" full 2x2 --db "$db" -q   # (a database to open: the search needs no table)

echo "## Korf's 100 in the multi-tile metric, $threads thread$([ "$threads" = 1 ] || echo s)"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores."
t0=$(date +%s.%N)
"$build/slidedb-lookup" --db "$db" -m mtm "$goal ; $goal" >/dev/null
echo "The split tables built in $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s (each run builds its own)."
echo
echo "| # | STM | MTM | bound at the start | nodes | seconds | M nodes/s |"
echo "|---|---|---|---|---|---|---|"
bad=0 total_s=0 total_n=0 sum_mtm=0
for n in "${list[@]}"; do
	row=$(awk -v n="$n" '$1 == n' <<<"$instances")
	[ -n "$row" ] || { echo "no instance $n in $file" >&2; exit 2; }
	read -r _ c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12 c13 c14 c15 stm <<<"$row"
	start="$c0 $c1 $c2 $c3 $c4 $c5 $c6 $c7 $c8 $c9 $c10 $c11 $c12 $c13 $c14 $c15"
	t1=$(date +%s.%N)
	out=$("$build/slidedb-lookup" --db "$db" -m mtm --threads "$threads" --timeout "$timeout" \
		--json "$start ; $goal" 2>"$work/err") || true
	t2=$(date +%s.%N)
	secs=$(awk "BEGIN { printf \"%.1f\", $t2 - $t1 }")
	len=$(sed -n 's/.*"distance":\([0-9]*\).*/\1/p' <<<"$out")
	nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$out")
	h0=$(sed -n 's/.*"heuristic":\([0-9]*\).*/\1/p' <<<"$out")
	if [ -z "$len" ]; then
		echo "| $n | $stm | $(head -c 200 "$work/err") | | | $secs | |"
		bad=1
		continue
	fi
	ok=$(( len * 3 >= stm && len <= stm ))
	[ "$ok" = 1 ] || bad=1
	total_s=$(awk "BEGIN { print $total_s + $t2 - $t1 }")
	total_n=$((total_n + nodes))
	sum_mtm=$((sum_mtm + len))
	printf '| %s | %s | %s%s | %s | %s | %s | %.2f |\n' "$n" "$stm" "$len" \
		"$([ "$ok" = 1 ] || echo ' **out of bounds**')" "$h0" "$nodes" "$secs" \
		"$(awk "BEGIN { print $nodes / ($t2 - $t1) / 1e6 }")"
done
printf '| all (%d) | | %d | | %s | %.1f | %.2f |\n' "${#list[@]}" "$sum_mtm" "$total_n" "$total_s" \
	"$(awk "BEGIN { print $total_n / ($total_s > 0 ? $total_s : 1) / 1e6 }")"
exit $bad
