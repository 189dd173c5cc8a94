#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One search over MPI ranks (slidedb-lookup-mpi, one thread a rank) against
# one search over as many threads (slidedb-lookup --threads), on Korf's
# 24-puzzle instances; prints Markdown for bench/RESULTS.md.
#
#   bench/mpi.sh search [-b BUILD_DIR] [-d DATABASE] [-r RANKS] [N...]
#
# N...: instance numbers (default: the 10 easiest by Korf and Felner's
# counts, as bench/korf50.sh). The database must hold a 5x5 set for the goal
# 0 1 ... 24; without -d, 6-6-6-6 is built into a temporary one. Each
# instance runs both ways, one after the other (this VM's speed drifts
# between minutes), the answers compared byte for byte (nodes aside) and
# checked against the published length. Exchange figures come from
# SLIDEDB_MPI_STATS (man slidedb-lookup-mpi).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench db= ranks=2
while getopts b:d:r: opt; do
	case $opt in
	b) build=$OPTARG ;;
	d) db=$OPTARG ;;
	r) ranks=$OPTARG ;;
	*) sed -n 3,14p "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
. bench/korf50_list.sh
korf50_chosen "$@"
data=$korf50_data
goal=$korf50_goal
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 >/dev/null
[ -x "$build/slidedb-lookup-mpi" ] || { echo "no slidedb-lookup-mpi in $build (MPI not found?)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ -z "$db" ]; then
	db=$work/k24.lmdb
	"$build/slidedb-gen" pdb 5x5 --partition 6-6-6-6 --goal "$goal" --db "$db" -q
fi
now() { date +%s.%N; }
fmt() { awk "BEGIN { printf \"$1\", $2 }"; }

echo "## One search over $ranks MPI ranks against $ranks threads"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(uname -sr);" \
	"$(mpirun --version | head -1); database $(basename "$db"); commit" \
	"$(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)."
echo "Threads: slidedb-lookup --threads $ranks. Ranks: mpirun -n $ranks slidedb-lookup-mpi (one thread"
echo "each). Per thread / per rank: nodes / seconds / $ranks. Exchange: what rank 0 sent and received."
echo
echo "| # | length | threads: s | ranks: s | ranks / threads | M nodes/s a thread | M nodes/s a rank |" \
	"iterations spread | subtrees | messages | bytes | bytes / subtree |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
bad=0 tt=0 tr=0
for n in "${list[@]}"; do
	row=$(awk -v n="$n" '$1 == n' "$data")
	[ -n "$row" ] || { echo "no instance $n in $data" >&2; exit 2; }
	read -r -a f <<<"$row"
	start="${f[*]:1:25}"
	published=${f[26]}
	t0=$(now)
	"$build/slidedb-lookup" --db "$db" --threads "$ranks" --timeout 0 --json "$start ; $goal" \
		>"$work/threads" 2>"$work/err" || true
	t1=$(now)
	rm -f "$work/stats"
	SLIDEDB_MPI_STATS="$work/stats" mpirun -n "$ranks" --oversubscribe "$build/slidedb-lookup-mpi" \
		--db "$db" --timeout 0 --json "$start ; $goal" >"$work/ranks" 2>>"$work/err" || true
	t2=$(now)
	len=$(sed -n 's/.*"distance":\([0-9]*\).*/\1/p' "$work/ranks")
	nt=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$work/threads")
	nr=$(sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' "$work/ranks")
	same=$(cmp -s <(sed 's/"nodes":[0-9]*//' "$work/threads") <(sed 's/"nodes":[0-9]*//' "$work/ranks") \
		&& echo yes || echo no)
	if [ -z "$len" ] || [ "$len" != "$published" ] || [ "$same" != yes ]; then
		echo "| $n | ${len:-none} (published $published; same answers: $same) | $(head -c 200 "$work/err") |"
		bad=1
		continue
	fi
	read -r iters subs msgs bytes < <(awk '!/^#/ { i++; s += $4; m += $7; b += $8 }
		END { print i + 0, s + 0, m + 0, b + 0 }' "$work/stats")
	st=$(fmt "%.2f" "$t1 - $t0") sr=$(fmt "%.2f" "$t2 - $t1")
	tt=$(fmt "%.2f" "$tt + $st") tr=$(fmt "%.2f" "$tr + $sr")
	echo "| $n | $len | $st | $sr | $(fmt "%.2f" "$sr / $st") |" \
		"$(fmt "%.2f" "$nt / $st / $ranks / 1e6") | $(fmt "%.2f" "$nr / $sr / $ranks / 1e6") |" \
		"$iters | $subs | $msgs | $bytes | $(fmt "%.1f" "$subs ? $bytes / $subs : 0") |"
done
echo "| all | | $tt | $tr | $(fmt "%.2f" "$tr / $tt") | | | | | | | |"
echo
echo "Efficiency of $ranks ranks against $ranks threads: $(fmt "%.0f" "100 * $tt / $tr")%" \
	"(wall time of the threads over the ranks', mpirun's start and each rank's check of the set included)."
exit $bad
