#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A full table past 12 cells on this machine (issue #11): the build's time,
# peak memory and size, its counts per distance against the published ones
# (../shared/data/distributions.txt), verify (CRC and counts mod 3 re-read
# from the stored chunks), random queries whose printed sequences are
# replayed here, move by move, by a program of this script's own, and the
# time of one query from process start to exit with the table in the page
# cache. Prints Markdown for bench/RESULTS.md.
#   bench/big.sh [BOARD] [BUILD_DIR] [DB]      (default 7x2, build-bench, big.lmdb)
# BIG_BUILT=1 skips the build and checks DB as it is (a build run by hand:
# killed and resumed with --checkpoint, say).
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:-7x2}
build=${2:-build-bench}
db=${3:-big.lmdb}
. bench/data_dir.sh
data=$data/distributions.txt
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 >/dev/null
gen=$build/slidedb-gen
lookup=$build/slidedb-lookup
w=${board%x*}
h=${board#*x}
# the published counts are for the blank in a corner: w x h and h x w alike
counts=$(sed -n "s/^$board [^ ]* //p;s/^${h}x$w [^ ]* //p" "$data" | head -1)

echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores," \
	"$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(uname -sr); commit" \
	"$(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%d)."
echo
if [ "${BIG_BUILT:-}" != 1 ]; then
	rm -f "$db" "$db-lock"
	start=$(date +%s.%N)
	summary=$("$gen" full "$board" --db "$db" --progress | tail -1)   # progress on stderr
	end=$(date +%s.%N)
	echo "- \`slidedb-gen full $board\`: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s" \
		"wall; the program says: $summary"
fi
echo "- stored: $(du -B1 "$db" | cut -f1) bytes ($(du -h "$db" | cut -f1)) in $db"
name=$("$lookup" --db "$db" --json info | tr ',' '\n' | sed -n 's/.*"name":"\(full-[^"]*\)"/\1/p' | head -1)
echo
if [ -n "$counts" ]; then
	echo "| table | largest distance | counts per distance against the published ones |"
	echo "|---|---|---|"
	"$build/bench/check_counts" "$db" "$name" "$counts" || true
	echo
fi
t0=$(date +%s.%N)
"$lookup" --db "$db" verify | sed 's/^/    /'
t1=$(date +%s.%N)
echo
echo "verify (every chunk's CRC, counts mod 3): $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s"
echo
# random boards, answered with their sequences, replayed here
"$lookup" --db "$db" random --size "$board" --count 1000 --seed 11 >"$db.queries"
t0=$(date +%s.%N)
"$lookup" --db "$db" --size "$board" --json <"$db.queries" >"$db.answers"
t1=$(date +%s.%N)
/usr/bin/python3 - "$w" "$h" "$db.answers" <<'PY'
import json, sys
w, h = int(sys.argv[1]), int(sys.argv[2])
step = {"u": -w, "d": w, "l": -1, "r": 1}
n = longest = 0
for line in open(sys.argv[3]):
    a = json.loads(line)
    cells = [int(x) for x in a["start"].split()]
    goal = [int(x) for x in a["goal"].split()]
    for m in a["moves"]:
        b = cells.index(0)
        t = b + step[m]
        ok = 0 <= t < w * h and (m in "ud" or t // w == b // w)
        assert ok, ("illegal move", a)
        cells[b], cells[t] = cells[t], cells[b]
    assert cells == goal, ("does not reach the goal", a)
    assert len(a["moves"]) == a["distance"], ("length", a)
    n += 1
    longest = max(longest, a["distance"])
print(f"{n} random boards answered, every sequence replayed to the goal with its printed length "
      f"(longest {longest} moves)")
PY
echo "(answering them: $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s for 1000, one process)"
deep=$(python3 -c "
import json,sys
best=max((json.loads(l) for l in open('$db.answers')), key=lambda a: a['distance'])
print(best['start'])")
median=$("$build/bench/time_exec" 11 "$lookup" --db "$db" --size "$board" "$deep")
echo
echo "One query at the sample's largest distance ($deep), process start to exit," \
	"table in the page cache, median of 11: $median ms"
rm -f "$db.queries" "$db.answers"
