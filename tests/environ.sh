#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The library reads the environment only for the user's two settings,
# SLIDEDB_DB (store/env.c) and SLIDEDB_BUSY_TIMEOUT (store/hold.c): test
# knobs reach it through sdb_engine_tune(), from the programs.
#   tests/environ.sh OBJECTS   (a ;-separated list, as $<TARGET_OBJECTS:...>)
set -euo pipefail
IFS=';' read -r -a objects <<<"$1"
allowed='/store/env\.c\.o$|/store/hold\.c\.o$'
bad=0
for o in "${objects[@]}"; do
	if nm --undefined-only "$o" | grep -qwE 'getenv|secure_getenv|environ'; then
		if ! [[ $o =~ $allowed ]]; then
			echo "reads the environment: $o" >&2
			bad=1
		fi
	fi
done
[ "$bad" = 0 ] || exit 1
echo "environ: ${#objects[@]} objects, the environment read only for SLIDEDB_DB and SLIDEDB_BUSY_TIMEOUT"
