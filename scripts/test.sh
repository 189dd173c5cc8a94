#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set up on a fresh Debian 12 machine, build with warnings as errors under
# AddressSanitizer and UndefinedBehaviorSanitizer, install into a scratch
# prefix and build the example against the installed package with
# pkg-config and with CMake's find_package, run the fuzz targets for a smoke
# time (clang), the threaded test under ThreadSanitizer, then every test
# suite. ctest's summary is the last thing printed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=build-test
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSLIDEDB_WERROR=ON -DSLIDEDB_SANITIZE=ON \
	-DCMAKE_C_FLAGS="-O1" >/dev/null
cmake --build "$build" -j"$(nproc)"
echo "== install and link as an outside program"
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake -S . -B "$prefix/build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF -DSLIDEDB_BENCH=OFF \
	-DCMAKE_INSTALL_PREFIX="$prefix/usr" >/dev/null
cmake --build "$prefix/build" -j"$(nproc)" >/dev/null
cmake --install "$prefix/build" >/dev/null
for f in bin/slidedb-gen bin/slidedb-gen-mpi bin/slidedb-lookup bin/slidedb-serve include/slidedb.h \
	include/slidedb_engine.h lib/libslidedb.so lib/pkgconfig/slidedb.pc \
	lib/cmake/slidedb/slidedbConfig.cmake share/man/man1/slidedb-gen.1 \
	share/man/man1/slidedb-lookup.1 share/man/man1/slidedb-serve.1 \
	share/man/man1/slidedb-gen-mpi.1; do
	[ -e "$prefix/usr/$f" ] || { echo "install is missing $f" >&2; exit 1; }
done
export PKG_CONFIG_PATH="$prefix/usr/lib/pkgconfig"
cc examples/hint.c $(pkg-config --cflags --libs slidedb) -Wl,-rpath,"$prefix/usr/lib" \
	-o "$prefix/hint-pc"
cmake -S examples -B "$prefix/ex" -DCMAKE_PREFIX_PATH="$prefix/usr" >/dev/null
cmake --build "$prefix/ex" >/dev/null
# both link the soname CMakeLists.txt's SLIDEDB_ABI names
abi=$(sed -n 's/^set(SLIDEDB_ABI \([0-9]*\))$/\1/p' CMakeLists.txt)
for prog in "$prefix/hint-pc" "$prefix/ex/slidedb-example"; do
	readelf -d "$prog" | grep -q "NEEDED.*\[libslidedb\.so\.$abi\]" ||
		{ echo "$prog does not link libslidedb.so.$abi" >&2; exit 1; }
done
"$prefix/usr/bin/slidedb-gen" full 3x3 --db "$prefix/t.lmdb" -q
for hint in "$prefix/hint-pc" "$prefix/ex/slidedb-example"; do
	out=$("$hint" "$prefix/t.lmdb" "1 2 3 4 5 6 0 7 8")
	[ "$out" = "2 moves left; move the blank r (rr)" ] || { echo "$hint printed: $out" >&2; exit 1; }
done
echo "install, pkg-config and find_package: ok"

echo "== fuzz smoke (libFuzzer, clang; tests/fuzz/README.md)"
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DSLIDEDB_FUZZ=ON -DSLIDEDB_WERROR=ON \
	-DSLIDEDB_TESTS=OFF -DSLIDEDB_BENCH=OFF -DCMAKE_C_FLAGS="-O1" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_board fuzz_query fuzz_partition fuzz_import \
	fuzz_open >/dev/null
scratch=$(mktemp -d)
serve_pid=
trap 'if [ -n "$serve_pid" ]; then kill -KILL "$serve_pid" 2>/dev/null || true; fi; rm -rf "$prefix" "$scratch"' EXIT
fuzz_smoke() {   # TARGET ARGS...: run it, show its figures, or its finding and fail
	local target=$1
	shift
	if ! "build-fuzz/tests/fuzz/fuzz_$target" "$@" >"$scratch/$target.log" 2>&1; then
		cat "$scratch/$target.log" >&2
		echo "fuzz_$target: a finding (above)" >&2
		exit 1
	fi
	grep -E "^(stat::number_of_executed_units|Done)" "$scratch/$target.log" | sed "s/^/fuzz_$target: /"
}
for target in board query partition import open; do
	mkdir -p "$scratch/$target"
	fuzz_smoke $target -max_total_time=10 -print_final_stats=1 "$scratch/$target" \
		tests/fuzz/corpus/$target
done

echo "== threads on one database handle (ThreadSanitizer)"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DSLIDEDB_TSAN=ON -DSLIDEDB_WERROR=ON \
	-DSLIDEDB_BENCH=OFF -DCMAKE_C_FLAGS="-O1" >/dev/null
cmake --build build-tsan -j"$(nproc)" --target test_threads slidedb-gen >/dev/null
TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/test_threads \
	build-tsan/slidedb-gen "$scratch/tsan"
echo "== slidedb-serve's threads (ThreadSanitizer): requests while tables are committed"
cmake --build build-tsan -j"$(nproc)" --target slidedb-serve >/dev/null
tsan_db="$scratch/tsan/serve.lmdb"
build-tsan/slidedb-gen full 2x3 --db "$tsan_db" -q -t 1
port=$((20000 + RANDOM % 20000))
TSAN_OPTIONS=halt_on_error=1 build-tsan/slidedb-serve --db "$tsan_db" --listen "127.0.0.1:$port" \
	--threads 4 --timeout 2 -q &
serve_pid=$!
until curl -sf "http://127.0.0.1:$port/healthz" >/dev/null; do sleep 0.1; done
for client in 1 2 3 4; do
	for _ in $(seq 100); do
		curl -sf "http://127.0.0.1:$port/v1/solve?start=1%202%203%204%200%205&size=2x3&all_best=1" >/dev/null
		curl -sf "http://127.0.0.1:$port/v1/random?size=2x3&distance=5&count=3" >/dev/null
	done &
done
# searches on the search pool (4x4 by Manhattan distance): answered, streamed
# line by line from a batch, and abandoned by clients that leave mid-search
easy4="1%202%203%204%205%206%207%208%209%2010%2011%2012%2013%2014%200%2015"
hard4="0%2012%209%2013%2015%2011%2010%2014%203%207%202%205%204%208%206%201"
for client in 1 2; do
	for _ in $(seq 20); do
		curl -s "http://127.0.0.1:$port/v1/solve?start=$easy4" >/dev/null
		printf '1 2 3 4 0 5\n1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15\n2 3 1 4 0 5\n' |
			curl -s --data-binary @- "http://127.0.0.1:$port/v1/solve" >/dev/null
		curl -s -m 0.3 "http://127.0.0.1:$port/v1/solve?start=$hard4" >/dev/null || true
	done &
done
build-tsan/slidedb-gen full 3x2 --db "$tsan_db" -q -t 1
build-tsan/slidedb-gen full 2x2 --db "$tsan_db" -q -t 1
wait $(jobs -p | grep -v "^$serve_pid\$")
sleep 0.5   # the snapshot with the new tables
curl -sf "http://127.0.0.1:$port/v1/solve?start=1%202%200%203&size=2x2" >/dev/null
curl -s "http://127.0.0.1:$port/v1/solve?start=$hard4" >/dev/null &   # a search as it stops
sleep 0.5
kill -TERM $serve_pid
wait $serve_pid
serve_pid=
echo "slidedb-serve under ThreadSanitizer: ok"

echo "== test suites (ASan + UBSan)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$build" && ctest --output-on-failure -j"$(nproc)")
