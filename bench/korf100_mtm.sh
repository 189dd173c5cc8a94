#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Korf's 100 15-puzzle instances in the multi-tile metric (issue #38),
# solved by slidedb-lookup --metric mtm, each length checked against the
# bounds the single-tile length the file gives allows (ceil(STM / 3) <= MTM
# <= STM), with nodes and seconds.
#
#   bench/korf100_mtm.sh [-b BUILD_DIR] [-t THREADS] [-T SECONDS] [-s SPLIT] [-e] [N...]
#
# N...: instance numbers, 1 to 100 (default: all). -e: the N easiest by
# their STM length instead (N the count). -s 7-8: the split tables of
# groups 7-8 (SLIDEDB_MTM_SPLIT; default 5-5-5). One slidedb-lookup answers
# every instance, a line at a time: its split tables are built in memory
# on its first question, whose time is said apart. Prints a Markdown
# table; exits 1 if a length breaks the bounds or a search fails (-T: its
# time limit, default none).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench threads=$(nproc) timeout=0 easiest=0 split=5-5-5
while getopts b:t:T:s:e opt; do
	case $opt in
	b) build=$OPTARG ;;
	t) threads=$OPTARG ;;
	T) timeout=$OPTARG ;;
	s) split=$OPTARG ;;
	e) easiest=1 ;;
	*) sed -n 3,16p "$0" >&2; exit 2 ;;
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

echo "## Korf's 100 in the multi-tile metric, split $split, $threads thread$([ "$threads" = 1 ] || echo s)"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores."
# one process, a question at a time: it answers each before reading on
coproc LOOKUP { SLIDEDB_MTM_SPLIT=$split exec "$build/slidedb-lookup" --db "$db" -m mtm \
	--threads "$threads" --timeout "$timeout" --json 2>"$work/err"; }
ask() {   # one question; its answer in $out, its seconds in $secs
	local t1
	t1=$(date +%s.%N)
	echo "$1" >&"${LOOKUP[1]}"
	IFS= read -r out <&"${LOOKUP[0]}" || { echo "slidedb-lookup ended: $(cat "$work/err")" >&2; exit 1; }
	secs=$(awk "BEGIN { printf \"%.3f\", $(date +%s.%N) - $t1 }")
}
ask "$goal ; $goal"
echo "The split tables built in $secs s ($(ps -o rss= -p "$LOOKUP_PID" | awk '{ printf "%.0f", $1 / 1024 }') MiB resident after)."
echo
echo "| # | STM | MTM | bound at the start | nodes | seconds | M nodes/s |"
echo "|---|---|---|---|---|---|---|"
bad=0 total_s=0 total_n=0 sum_mtm=0
for n in "${list[@]}"; do
	row=$(awk -v n="$n" '$1 == n' <<<"$instances")
	[ -n "$row" ] || { echo "no instance $n in $file" >&2; exit 2; }
	read -r _ c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12 c13 c14 c15 stm <<<"$row"
	ask "$c0 $c1 $c2 $c3 $c4 $c5 $c6 $c7 $c8 $c9 $c10 $c11 $c12 $c13 $c14 $c15 ; $goal"
	len=$(sed -n 's/.*"distance":\([0-9]*\).*/\1/p' <<<"$out")
	nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$out")
	h0=$(sed -n 's/.*"heuristic":\([0-9]*\).*/\1/p' <<<"$out")
	if [ -z "$len" ]; then
		echo "| $n | $stm | $(sed -n 's/.*"error":"\([^"]*\)".*/\1/p' <<<"$out" | head -c 200) | | | $secs | |"
		bad=1
		continue
	fi
	ok=$(( len * 3 >= stm && len <= stm ))
	[ "$ok" = 1 ] || bad=1
	total_s=$(awk "BEGIN { print $total_s + $secs }")
	total_n=$((total_n + nodes))
	sum_mtm=$((sum_mtm + len))
	printf '| %s | %s | %s%s | %s | %s | %.1f | %.2f |\n' "$n" "$stm" "$len" \
		"$([ "$ok" = 1 ] || echo ' **out of bounds**')" "$h0" "$nodes" "$secs" \
		"$(awk "BEGIN { print $nodes / ($secs > 0 ? $secs : 1e-9) / 1e6 }")"
done
exec {LOOKUP[1]}>&-
wait "$LOOKUP_PID" || true
printf '| all (%d) | | %d | | %s | %.1f | %.2f |\n' "${#list[@]}" "$sum_mtm" "$total_n" "$total_s" \
	"$(awk "BEGIN { print $total_n / ($total_s > 0 ? $total_s : 1) / 1e6 }")"
exit $bad
