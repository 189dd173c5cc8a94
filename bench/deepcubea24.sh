#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# DeepCubeA's 24-puzzle test set solved by slidedb-lookup: the N easiest by
# the effort of its reference optimal solver (the file is sorted so), each
# length checked against the file's optimal one, our nodes beside the nodes
# and seconds of that solver.
#
#   bench/deepcubea24.sh [-b BUILD_DIR] [-d DATABASE] [-s SETS] [-t THREADS] [N]
#
# N: how many (default 100; the file has 496). The database must hold a 5x5
# set that serves the goal 1 2 ... 24 0 (a set for the goal 0 1 ... 24 does,
# by symmetry: `slidedb-gen pdb 5x5 --partition 6-6-6-6 --goal "$(seq -s ' '
# 0 24)"`); without -d, that set is built into a temporary one. SETS: set
# names joined by '+', maxed (slidedb-lookup --set). The boards go to one
# slidedb-lookup as a batch (the set opened once, the lines shared among the
# threads), so the seconds are the whole batch's: ours in all beside the
# reference solver's in all. Prints Markdown; exits 1 if a length differs.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench db= sets= threads=$(nproc)
while getopts b:d:s:t: opt; do
	case $opt in
	b) build=$OPTARG ;;
	d) db=$OPTARG ;;
	s) sets=$OPTARG ;;
	t) threads=$OPTARG ;;
	*) sed -n 8p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
n=${1:-100}
case $n in '' | *[!0-9]*) echo "deepcubea24.sh: N must be a count, not '$n'" >&2; exit 2 ;; esac
. bench/data_dir.sh
data=$data/deepcubea_24puzzle.txt
[ -r "$data" ] || { echo "deepcubea24.sh: cannot read $data" >&2; exit 2; }
. bench/set24.sh
set24_programs "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$db" ] || set24_default "$build" "$work"

# awk, not grep | head: head would close grep's pipe, a SIGPIPE that
# pipefail turns into the script's exit
awk -v n="$n" '!/^#/ && c++ < n' "$data" >"$work/rows"
have=$(wc -l <"$work/rows")
[ "$have" -eq "$n" ] || { echo "deepcubea24.sh: the file has $have boards, not $n" >&2; exit 2; }
cut -d';' -f1 "$work/rows" >"$work/boards"

t0=$(date +%s.%N)
"$build/slidedb-lookup" --db "$db" --threads "$threads" --timeout 0 ${sets:+--set "$sets"} \
	--goal "$(seq -s ' ' 1 24) 0" --json <"$work/boards" >"$work/answers"
t1=$(date +%s.%N)

echo "## DeepCubeA's $n easiest 24-puzzles, $threads thread$([ "$threads" = 1 ] || echo s)"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; database $(basename "$db")${sets:+, sets $sets}."
echo "Theirs: the nodes its reference optimal solver generated and its seconds (the file's)."
echo
echo "| # | length | optimal | nodes | their nodes | their seconds |"
echo "|---|---|---|---|---|---|"
bad=0 total_n=0
paste -d';' "$work/rows" "$work/answers" | while IFS=';' read -r _ opt their_n their_s answer; do
	i=$((${i:-0} + 1))
	len=$(sed -n 's/.*"distance":\([0-9]*\).*/\1/p' <<<"$answer")
	nodes=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' <<<"$answer")
	opt=${opt// /}
	mark=
	[ "$len" = "$opt" ] || mark=' **wrong**'
	echo "| $i | ${len:-$(head -c 120 <<<"$answer")}$mark | $opt | ${nodes:-} | ${their_n// /} | ${their_s// /} |"
done | tee "$work/table"
grep -q 'wrong' "$work/table" && bad=1
total_n=$(awk -F'|' '{ s += $5 } END { printf "%.0f", s }' "$work/table")
their_total=$(awk -F'|' '{ s += $7 } END { printf "%.1f", s }' "$work/table")
printf '| all | | | %s | | %s |\n' "$total_n" "$their_total"
echo
printf 'Ours: %.1f s in all (one batch, whole process); theirs: %s s.\n' \
	"$(awk "BEGIN { print $t1 - $t0 }")" "$their_total"
exit $bad
