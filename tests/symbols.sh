#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The library exports exactly what its public headers declare with SDB_API:
#   tests/symbols.sh LIBSLIDEDB.so HEADER...
set -euo pipefail
lib=$1
shift
declared=$(sed -n 's/^SDB_API [^(]*[ *]\(sdb_[a-z0-9_]*\)(.*/\1/p' "$@" | sort -u)
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TtWw]/ { print $3 }' | sort -u)
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
[ -z "$extra" ] || echo "exported but not declared with SDB_API:" $extra >&2
[ -z "$missing" ] || echo "declared with SDB_API but not exported:" $missing >&2
[ -z "$extra$missing" ] || exit 1
echo "symbols: $(echo "$exported" | wc -l) exported, each declared with SDB_API"
