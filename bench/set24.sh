# SPDX-License-Identifier: MIT
# What the 24-puzzle benchmarks share (sourced by bench/korf50.sh and
# bench/deepcubea24.sh, from the source tree's root): a Release build of the
# programs when BUILD has none, and Korf and Felner's 6-6-6-6 set built into
# a scratch database when no database was given.

# set24_programs BUILD: build the programs into BUILD (Release, no tests)
# unless it holds them already.
set24_programs() {
	if [ ! -x "$1/slidedb-lookup" ]; then
		cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
		cmake --build "$1" -j2 >/dev/null
	fi
}

# set24_default BUILD WORK: the 6-6-6-6 set for the goal 0 1 ... 24 (it
# serves every goal with the blank in a corner) built into WORK/k24.lmdb,
# its time said; sets db to that file.
set24_default() {
	db=$2/k24.lmdb
	local t0
	t0=$(date +%s.%N)
	"$1/slidedb-gen" pdb 5x5 --partition 6-6-6-6 --goal "$(seq -s ' ' 0 24)" --db "$db" -q
	echo "(built the 6-6-6-6 set in $(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }") s)"
	echo
}
