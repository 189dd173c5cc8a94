#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# slidedb-serve under load (issue #10's targets): wrk on loopback with
# keep-alive, GET /v1/solve on random 3x3 pairs with arbitrary goals (server
# and load generator share the machine); a POST /v1/solve batch; the
# server's resident memory across the run. Prints Markdown.
#   bench/serve.sh BUILD_DIR [SECONDS]     (SECONDS of wrk, default 60)
set -euo pipefail
build=$1
seconds=${2:-60}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" || true
	rm -rf "$work"
}
trap cleanup EXIT
"$build/slidedb-gen" full 3x3 --db "$work/s.lmdb" -q
"$build/slidedb-serve" --db "$work/s.lmdb" --listen "127.0.0.1:$port" --max-body 134217728 -q &
server_pid=$!
until curl -sf "http://127.0.0.1:$port/healthz" > /dev/null; do sleep 0.1; done
rss() { awk '/^VmRSS/ { print $2 / 1024 }' "/proc/$server_pid/status"; }

# 100000 random pairs: starts and goals drawn uniformly (the goal's blank anywhere)
n=100000
"$build/slidedb-lookup" --db "$work/s.lmdb" random --count $n --seed 11 > "$work/a"
"$build/slidedb-lookup" --db "$work/s.lmdb" random --count $n --seed 12 > "$work/b"
paste -d'|' "$work/a" "$work/b" | sed 's/ /%20/g; s/^/\/v1\/solve?start=/; s/|/\&goal=/' \
	> "$work/paths"
# warm up, then measure
wrk -t1 -c32 -d2s -s bench/serve.lua "http://127.0.0.1:$port" -- "$work/paths" > /dev/null
rss0=$(rss)
wrk -t1 -c32 -d"${seconds}s" --latency -s bench/serve.lua "http://127.0.0.1:$port" \
	-- "$work/paths" > "$work/wrk.txt"
rss1=$(rss)
rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$work/wrk.txt")
total=$(awk '/requests in/ { print $1 }' "$work/wrk.txt")
p50=$(awk '$1 == "50%" { print $2 }' "$work/wrk.txt")
p99=$(awk '$1 == "99%" { print $2 }' "$work/wrk.txt")
errors=$(grep -E "Non-2xx|Socket errors" "$work/wrk.txt" || echo none)
# every answer of the run was right: the server's own count of 200s
ok=$(curl -s "http://127.0.0.1:$port/metrics" | awk -F' ' '/^slidedb_requests_total\{endpoint="solve",status="200"\}/ { print $2 }')

# a batch: 1,000,000 lines in one POST
for _ in 1 2 3 4 5 6 7 8 9 10; do paste -d';' "$work/a" "$work/b"; done > "$work/batch"
t0=$(date +%s.%N)
lines=$(curl -s --data-binary @"$work/batch" "http://127.0.0.1:$port/v1/solve" | wc -l)
t1=$(date +%s.%N)
batch_rate=$(awk "BEGIN { printf \"%.0f\", $lines / ($t1 - $t0) }")

met() { awk "BEGIN { exit !($1 $2 $3) }" && echo yes || echo NO; }
p99ms=$(awk -v v="$p99" 'BEGIN { if (v ~ /us$/) print v / 1000; else if (v ~ /ms$/) print v + 0; else print v * 1000 }')
echo "## slidedb-serve under load (\`bench/serve.sh\`, wrk on loopback, keep-alive)"
echo
echo "Server: \`--threads 2\`; wrk: 1 thread, 32 connections, ${seconds} s, GET /v1/solve on"
echo "$n random 3x3 pairs with arbitrary goals, server and load generator on the same 2 cores."
echo
echo "| what | measured | target | met |"
echo "|---|---|---|---|"
echo "| requests/s | $rps | >= 50,000 | $(met "$rps" '>=' 50000) |"
echo "| latency p50 / p99 | $p50 / $p99 | p99 <= 5 ms | $(met "$p99ms" '<=' 5) |"
echo "| requests in the run (answered 200, server's count, warm-up included) | $total ($ok) | | |"
echo "| errors reported by wrk | $errors | none | |"
echo "| POST /v1/solve, one body of $lines lines | $batch_rate answers/s | >= 1,000,000/s | $(met "$batch_rate" '>=' 1000000) |"
echo "| server resident memory after warm-up / after the run | $(printf '%.1f' "$rss0") / $(printf '%.1f' "$rss1") MiB | flat | |"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores."
