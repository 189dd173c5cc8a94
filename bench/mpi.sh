#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# slidedb-gen-mpi against slidedb-gen (OpenMP) on one machine, and two-bit
# tables against bytes; prints Markdown for bench/RESULTS.md.
#   bench/mpi.sh [BOARD] [BUILD_DIR]      (default 3x4, build-bench)
#   bench/mpi.sh search [OPTIONS] [N...]  slidedb-lookup-mpi's searches against
#                                         slidedb-lookup's (bench/mpi_search.sh)
# Each build is checked to give the same bytes (CRC-32 of every table) as
# slidedb-gen's. mpirun runs with --oversubscribe: 4 ranks on 2 cores share
# them. Exchange figures come from SLIDEDB_MPI_STATS (man slidedb-gen-mpi).
set -euo pipefail
if [ "${1:-}" = search ]; then
	shift
	exec "$(dirname "$0")/mpi_search.sh" "$@"
fi
cd "$(dirname "$0")/.."
board=${1:-3x4}
build=${2:-build-bench}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 >/dev/null
gen=$build/slidedb-gen
mpigen=$build/slidedb-gen-mpi
lookup=$build/slidedb-lookup
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

crcs() { "$lookup" --db "$1" --json info | tr ',' '\n' | grep '"crc32"' | tr '\n' ' '; }
seconds() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }

echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores," \
	"$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(uname -sr); $(mpirun --version | head -1)."
echo "Board $board, commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)."
echo

echo "| build | wall | peak memory | stored | same bytes |"
echo "|---|---|---|---|---|"
for bits in 8 2; do
	t0=$(date +%s.%N)
	line=$("$gen" full "$board" --bits $bits --db "$work/one-$bits.lmdb" --no-progress | tail -1)
	t1=$(date +%s.%N)
	peak=${line##*peak memory }
	echo "| slidedb-gen full $board --bits $bits (OpenMP, $(nproc) threads) | $(seconds "$t0" "$t1") s |" \
		"${peak%% MiB*} MiB | $(du -m "$work/one-$bits.lmdb" | cut -f1) MB | reference |"
done
for bits in 8 2; do
	for ranks in 1 2 4; do
		rm -f "$work/stats"
		t0=$(date +%s.%N)
		SLIDEDB_MPI_STATS="$work/stats" mpirun -n $ranks --oversubscribe "$mpigen" full "$board" \
			--bits $bits --db "$work/mpi.lmdb" -q --no-progress
		t1=$(date +%s.%N)
		same=no
		[ "$(crcs "$work/mpi.lmdb")" = "$(crcs "$work/one-$bits.lmdb")" ] && same=yes
		peaks=$(awk '$1 == "peak" { printf "%s%.0f", n++ ? "/" : "", $3 / 1024 }' "$work/stats")
		echo "| slidedb-gen-mpi full $board --bits $bits, $ranks rank$([ $ranks = 1 ] || echo s) |" \
			"$(seconds "$t0" "$t1") s | $peaks MiB (rank 0/1/...) | |" "$same |"
		cp "$work/stats" "$work/stats-$bits-$ranks"
		rm -f "$work/mpi.lmdb" "$work/mpi.lmdb-lock"
	done
done
echo
echo "Bytes each rank sent, per level (MB; the largest level, and the whole build):"
echo
echo "| build | ranks | largest level | level's MB per rank | whole build, MB per rank |"
echo "|---|---|---|---|---|"
for bits in 8 2; do
	for ranks in 2 4; do
		awk -v bits=$bits -v ranks=$ranks -v board="$board" '
			$1 != "peak" { sent[$1] += $3; per[$1 "," $2] = $3; total[$2] += $3
			               if ($1 > last) last = $1 }
			END {
				best = 0
				for (l = 0; l <= last; l++) if (sent[l] > sent[best]) best = l
				lv = ""; tt = ""
				for (r = 0; r < ranks; r++) {
					lv = lv sprintf("%s%.1f", r ? "/" : "", per[best "," r] / 1e6)
					tt = tt sprintf("%s%.1f", r ? "/" : "", total[r] / 1e6)
				}
				printf "| full %s --bits %s | %d | %d | %s | %s |\n", board, bits, ranks, best, lv, tt
			}' "$work/stats-$bits-$ranks"
	done
done
