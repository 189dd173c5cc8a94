#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python package's figures (issue #12's targets): installs it into a venv
# of Debian's python3 as the README says, builds the 3x3 tables, and runs
# bench/bench_python.py, which prints Markdown.
#   bench/python.sh BUILD_DIR     (a Release build with slidedb-gen)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
venv="$build/python-bench-venv"
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install -q --no-build-isolation --no-index ./python
"$build/slidedb-gen" full 3x3 --db "$work/bench.lmdb" -q
echo "Machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/^Mem:/ { print $2 }') GiB;" \
	"$("$venv/bin/python" -c 'import platform, numpy; print("Python", platform.python_version(), "NumPy", numpy.__version__)')"
echo
"$venv/bin/python" bench/bench_python.py "$work/bench.lmdb"
