#!/usr/bin/env bash
# Build in Release and run the benchmarks; write bench/RESULTS.md.
# Usage: bench/run.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
	echo "# Benchmark results"
	echo
	echo "Produced by \`bench/run.sh\` on $(date -u +%Y-%m-%d) at commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')."
	echo
	echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores,"\
	     "$(free -g | awk '/^Mem:/ {print $2}') GiB RAM, $(uname -sr), $(cc --version | head -1)."
	echo "Release build (-O3), no -march flags. Medians of repeated runs."
	echo
	"$build/bench/bench_full" "$build/slidedb-gen" "$build/slidedb-lookup" "$work"
} > bench/RESULTS.md.new
mv bench/RESULTS.md.new bench/RESULTS.md
cat bench/RESULTS.md
