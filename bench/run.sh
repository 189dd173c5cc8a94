#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build in Release and run the benchmarks; write their part of bench/RESULTS.md.
#   bench/run.sh [--quick] [BUILD_DIR]
# --quick skips the long parts (the 7-8 set, Korf's 24-puzzles, 3x4 tables);
# they take about 20 minutes on a 2-core machine.
#
# bench/RESULTS.md holds two kinds of text: this script's tables, between the
# lines "<!-- bench/run.sh: begin -->" and "<!-- bench/run.sh: end -->", and
# sections written by hand (runs of other scripts, before/after comparisons,
# each with its commit and date). Only the text between the markers is
# replaced; the hand-written sections stay as they are.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
build=${1:-build-bench}
. bench/data_dir.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 >/dev/null
gen=$build/slidedb-gen
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One generator run into a fresh database: "| what | wall s | peak MiB | stored MB |"
gen_row() {
	local label=$1; shift
	rm -f "$work/g.lmdb" "$work/g.lmdb-lock"
	local t0 t1 line
	t0=$(date +%s.%N)
	line=$("$gen" "$@" --db "$work/g.lmdb" --no-progress | tail -1)
	t1=$(date +%s.%N)
	local peak=${line##*peak memory }
	peak=${peak%% MiB*}
	local stored
	stored=$(du -m "$work/g.lmdb" | cut -f1)
	printf '| %s | %.1f s | %s MiB | %s MB |\n' "$label" "$(awk "BEGIN { print $t1 - $t0 }")" \
		"$peak" "$stored"
}

{
	echo "Produced by \`bench/run.sh$( [ $quick = 1 ] && echo ' --quick')\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')."
	echo
	echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores,"\
	     "$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(uname -sr), $(cc --version | head -1)."
	echo "Release build (-O3), no -march flags. Medians of repeated runs unless said otherwise."
	echo
	"$build/bench/bench_full" "$gen" "$build/slidedb-lookup" "$work"

	echo "## Pattern-database sets (4x4, blank region, whole \`slidedb-gen pdb\` run, 2 threads)"
	echo
	echo "| set | wall | peak memory | stored |"
	echo "|---|---|---|---|"
	gen_row "5-5-5" pdb 4x4 --partition 5-5-5
	gen_row "5-5-5, --blank min" pdb 4x4 --partition 5-5-5 --blank min
	gen_row "6-6-3" pdb 4x4 --partition 6-6-3
	if [ $quick = 0 ]; then
		gen_row "7-8" pdb 4x4 --partition 7-8
		echo
		"$build/bench/bench_korf" "$work/g.lmdb" "$data/korf100.txt"
		# one 4x4 query, process start to exit: includes the CRC check of the
		# whole 7-8 set before its first use
		cat "$work/g.lmdb" > /dev/null
		ms=$("$build/bench/time_exec" 11 "$build/slidedb-lookup" --db "$work/g.lmdb" \
			"1 2 3 4 5 6 7 8 9 x 10 12 13 14 11 15")
		echo
		echo "One 4x4 query (3 moves) with the 7-8 set, whole process, median of 11, the set's"
		echo "CRC-32 checked before first use (747 MB read from the page cache): $ms ms."
		echo
		# the 24-puzzle: the 6-6-6-6 set built, Korf's 10 easiest (about 5 minutes)
		bench/korf50.sh -b "$build" -t 2 || echo "(a length differed from the published one)"
	else
		echo
		echo "(7-8 and Korf's 100 skipped: --quick)"
	fi
	echo

	if [ $quick = 0 ]; then
		echo "## Full tables of 10 and 12 cells (whole \`slidedb-gen full\` run)"
		echo
		echo "| board and threads | wall | peak memory | stored |"
		echo "|---|---|---|---|"
		for size in 2x5 5x2; do
			gen_row "$size (every goal class), 1 thread" full $size -t 1
			gen_row "$size (every goal class), 2 threads" full $size -t 2
		done
		gen_row "3x4 (standard goal), 1 thread" full 3x4 -t 1
		gen_row "3x4 (standard goal), 2 threads" full 3x4 -t 2
		gen_row "3x4 (standard goal), 2 bits per state, 2 threads" full 3x4 --bits 2 -t 2
		echo
		echo "Published counts per distance (\`$data/distributions.txt\`):"
		echo
		echo "| table | | counts |"
		echo "|---|---|---|"
		"$build/bench/check_counts" "$work/g.lmdb" full-3x4-b0 "$(sed -n 's/^3x4 [^ ]* //p' "$data/distributions.txt")"
		# one 3x4 query, process start to exit, table in the page cache
		cat "$work/g.lmdb" > /dev/null
		ms=$("$build/bench/time_exec" 31 "$build/slidedb-lookup" --db "$work/g.lmdb" \
			"1 2 3 4 5 6 7 8 9 10 11 0" "0 11 10 9 8 7 6 5 4 3 2 1")
		echo "| one 3x4 query (a 53-move answer), whole process, median of 31 | | $ms ms |"
		rm -f "$work/g.lmdb"*
		"$gen" full 4x3 --db "$work/g.lmdb" -q
		"$build/bench/check_counts" "$work/g.lmdb" full-4x3-b0 "$(sed -n 's/^3x4 [^ ]* //p' "$data/distributions.txt")"
		rm -f "$work/g.lmdb"*
		"$gen" full 5x2 --db "$work/g.lmdb" -q
		"$build/bench/check_counts" "$work/g.lmdb" full-5x2-b0 "$(sed -n 's/^5x2 [^ ]* //p' "$data/distributions.txt")"
		echo
	fi
	bench/people.sh "$build" $( [ $quick = 1 ] && echo --quick)
	echo
	# 150 s of wrk: about 10 million requests, for the server's memory
	bench/serve.sh "$build" $( [ $quick = 1 ] && echo 10 || echo 150)
	echo
	echo "## Hostile trial (\`bench/hostile.sh\`)"
	echo
	bench/hostile.sh "$build"
	# fuzz campaigns take hours: recorded by hand when run (tests/fuzz/README.md)
} > "$work/block.md"

# Replace the text between the markers (or start the file); refuse a file
# whose markers are missing or out of order rather than lose what it holds.
results=bench/RESULTS.md
begin='<!-- bench/run.sh: begin -->'
end='<!-- bench/run.sh: end -->'
if [ ! -e "$results" ]; then
	printf '# Benchmark results\n\n%s\n%s\n' "$begin" "$end" > "$results"
fi
if ! awk -v b="$begin" -v e="$end" '
	$0 == b { nb++; if (ne) bad = 1 }
	$0 == e { ne++; if (!nb) bad = 1 }
	END { exit !(nb == 1 && ne == 1 && !bad) }' "$results"; then
	echo "bench/run.sh: $results: the lines '$begin' and '$end' must appear once each," \
	     "in that order; the tables were left in $work/block.md" >&2
	trap - EXIT
	exit 1
fi
awk -v b="$begin" -v e="$end" -v block="$work/block.md" '
	$0 == b { print; while ((getline line < block) > 0) print line; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$results" > "$results.new"
mv "$results.new" "$results"
cat "$work/block.md"
