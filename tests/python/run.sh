#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python package's suite, as a user gets it: a venv of Debian's python3
# with its system packages (NumPy, pytest), the package installed by the
# README's command (offline: no build isolation), then pytest. Run by ctest
# (test `python`) with the build's programs in SLIDEDB_GEN and SLIDEDB_LOOKUP.
# The extension is built by pip without sanitizers (a sanitized library
# cannot be loaded into an uninstrumented interpreter); the programs it is
# compared with are the build's own.
# Usage: tests/python/run.sh WORKDIR [PYTEST ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$1
shift
mkdir -p "$work"
work=$(cd "$work" && pwd)   # absolute: the suite runs in it (the README's relative one too)
venv="$work/venv"
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
# pip builds in python/build/, where setuptools keeps the objects of earlier
# builds and recompiles what changed.
"$venv/bin/pip" install -q --no-build-isolation --no-index "$here/../../python"
export SLIDEDB_TEST_TMP="$work/tmp"
for v in SLIDEDB_GEN SLIDEDB_LOOKUP SLIDEDB_SERVE; do   # absolute: the suite runs in $work
	[ -z "${!v:-}" ] || export "$v=$(realpath "${!v}")"
done
cd "$work"   # not the source tree: import the installed package
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider -c "$here/pytest.ini" "$here" "$@"
