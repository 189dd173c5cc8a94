#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Korf's 24-puzzle instances solved by slidedb-lookup, each checked against
# its published optimal length, with nodes and seconds beside the nodes
# Korf and Felner's IDA* generated (6-6-6-6 and its reflection).
#
#   bench/korf50.sh [-b BUILD_DIR] [-d DATABASE] [-s SETS] [-t THREADS] [-T SECONDS] [-o FILE] [N...]
#
# N...: instance numbers (default: the 10 easiest by Korf and Felner's counts,
# #38 #40 #25 #32 #44 #37 #30 #13 #1 #28). The database must hold a 5x5 set
# for the goal 0 1 ... 24 (`slidedb-gen pdb 5x5 --partition 6-6-6-6 --goal
# "$(seq -s ' ' 0 24)"`); without -d, that set is built into a temporary one.
# The search uses the database's strongest set for that goal, or SETS (set
# names joined by '+', maxed: slidedb-lookup --set). -o FILE also writes, per
# instance, its number, length, nodes and seconds in the layout of
# clausecker/24puzzle's doc/combined-results.txt (`no dst COLUMN...`), so the
# two can be laid side by side with paste(1) or join(1). Prints a
# Markdown table; exits 1 if a length differs from the published one.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench db= sets= results= threads=$(nproc) timeout=0
while getopts b:d:o:s:t:T: opt; do
	case $opt in
	b) build=$OPTARG ;;
	d) db=$OPTARG ;;
	s) sets=$OPTARG ;;
	o) results=$OPTARG ;;
	t) threads=$OPTARG ;;
	T) timeout=$OPTARG ;;
	*) sed -n 3,18p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
. bench/korf50_list.sh
korf50_chosen "$@"
data=$korf50_data
goal=$korf50_goal
. bench/set24.sh
set24_programs "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$db" ] || set24_default "$build" "$work"

echo "## Korf's 24-puzzle instances, $threads thread$([ "$threads" = 1 ] || echo s)"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; database $(basename "$db")."
echo "Nodes: ours are nodes expanded; Korf and Felner's (2002) are nodes generated with 6-6-6-6"
echo "and its reflection."
echo
echo "| # | length | published | nodes | K&F nodes | ours / K&F | seconds | M nodes/s |"
echo "|---|---|---|---|---|---|---|---|"
bad=0 total_s=0 total_n=0
if [ -n "$results" ]; then
	printf 'no dst %13s %9s\n' "nodes" "seconds" >"$results"
fi
for n in "${list[@]}"; do
	row=$(awk -v n="$n" '$1 == n' "$data")
	[ -n "$row" ] || { echo "no instance $n in $data" >&2; exit 2; }
	read -r _ c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12 c13 c14 c15 c16 c17 c18 c19 c20 c21 c22 \
		c23 c24 published kf <<<"$row"
	start="$c0 $c1 $c2 $c3 $c4 $c5 $c6 $c7 $c8 $c9 $c10 $c11 $c12 $c13 $c14 $c15 $c16 $c17 $c18 $c19 $c20 $c21 $c22 $c23 $c24"
	t0=$(date +%s.%N)
	out=$("$build/slidedb-lookup" --db "$db" --threads "$threads" --timeout "$timeout" \
		${sets:+--set "$sets"} --json "$start ; $goal" 2>"$work/err") || true
	t1=$(date +%s.%N)
	secs=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
	len=$(sed -n 's/.*"distance":\([0-9]*\).*/\1/p' <<<"$out")
	nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$out")
	if [ -z "$len" ]; then
		echo "| $n | $(head -c 200 "$work/err") | $published | | $kf | | $secs | |"
		[ -z "$results" ] || printf '%2d %3d %13d %9s\n' "$n" "$published" -1 "$secs" >>"$results"
		bad=1
		continue
	fi
	[ "$len" = "$published" ] || bad=1
	[ -z "$results" ] || printf '%2d %3d %13d %9s\n' "$n" "$len" "$nodes" "$secs" >>"$results"
	total_s=$(awk "BEGIN { print $total_s + $t1 - $t0 }")
	total_n=$((total_n + nodes))
	printf '| %s | %s%s | %s | %s | %s | %.3f | %s | %.2f |\n' "$n" "$len" \
		"$([ "$len" = "$published" ] || echo ' **wrong**')" "$published" "$nodes" "$kf" \
		"$(awk "BEGIN { print $nodes / $kf }")" "$secs" \
		"$(awk "BEGIN { print $nodes / ($t1 - $t0) / 1e6 }")"
done
printf '| all | | | %s | | | %.1f | %.2f |\n' "$total_n" "$total_s" \
	"$(awk "BEGIN { print $total_n / ($total_s > 0 ? $total_s : 1) / 1e6 }")"
exit $bad
