# SPDX-License-Identifier: MIT
"""The build backend of slidedb: setuptools' own, after a check.

pip's ``--no-build-isolation`` (the README's offline install) builds with the
Python it runs in. A venv of a Python without setuptools (pyenv's 3.12, for
one) made pip print a traceback of its own internals ending in "No module
named 'setuptools'"; this says in one line what to do instead.
"""

import sys

try:
    from setuptools import build_meta as _build_meta
except ImportError:
    sys.stderr.write(
        f"slidedb: {sys.executable} has no setuptools to build with: make the venv from "
        "Debian's python3 (/usr/bin/python3 -m venv --system-site-packages .venv), or install "
        "setuptools and numpy into it, or leave out --no-build-isolation where a package index "
        "is reachable\n")
    raise SystemExit(1) from None

from setuptools.build_meta import *  # noqa: E402,F401,F403 (the hooks pip calls)

__all__ = _build_meta.__all__
