#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Set up on a fresh Debian 12 machine, build, generate the default database
# (every 3x3 goal) in ./slidedb.lmdb and answer a sample query.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh demo
echo "Building the library and the programs in build/ (Release; about a minute on 2 cores):"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF -DSLIDEDB_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc)" | sed -n 's/^\[ *\([0-9]*%\)\] Built target \(.*\)/  \1 \2/p'
build/slidedb-gen full 3x3
echo "\$ slidedb-lookup 1 2 3 0 8 4 7 6 5 '1 0 3 8 2 4 7 6 5'"
build/slidedb-lookup 1 2 3 0 8 4 7 6 5 '1 0 3 8 2 4 7 6 5'
echo "\$ slidedb-lookup --path 2 3 4 1 5 x 7 6 8"
build/slidedb-lookup --path 2 3 4 1 5 x 7 6 8
echo "Serve the answers and the web page: build/slidedb-serve   (then open http://127.0.0.1:8080/)"
