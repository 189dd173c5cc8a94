#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install the Debian 12 packages slidedb needs, only those that are missing.
#   scripts/deps.sh        everything: the programs, their tests and benchmarks
#   scripts/deps.sh demo   what scripts/demo.sh needs: the library and programs
set -euo pipefail
# The library and programs (slidedb-serve: libmicrohttpd).
demo=(build-essential cmake pkg-config zlib1g-dev liblmdb-dev libisal-dev libmicrohttpd-dev)
# The tests: the suites (Criterion), the fuzzers (clang), slidedb-serve's tests
# (pytest, a real browser: Chromium driven by Selenium; curl) and load benchmark
# (wrk); the Python package (headers, venv, NumPy); slidedb-gen-mpi,
# slidedb-lookup-mpi and their tests (Open MPI; OpenSSL's libcrypto seals the
# search checkpoints).
tests=(libcriterion-dev clang libclang-rt-14-dev python3 python3-pytest python3-selenium chromium
	chromium-driver wrk curl
	python3-dev python3-venv python3-numpy
	libopenmpi-dev openmpi-bin libssl-dev)
packages=("${demo[@]}")
[ "${1:-}" = demo ] || packages+=("${tests[@]}")
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
