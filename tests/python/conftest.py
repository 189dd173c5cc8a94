# SPDX-License-Identifier: MIT
"""Fixtures of the Python package's suite: the programs to compare with, and
databases built by them once per session (small boards, so the whole suite
takes seconds)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def program(name):
    """A slidedb program: $SLIDEDB_GEN / $SLIDEDB_LOOKUP (ctest sets them), else a build's."""
    env = os.environ.get("SLIDEDB_" + name.split("-")[1].upper())
    if env:
        return env
    for build in ("build-py", "build"):
        p = ROOT / build / name
        if p.exists():
            return str(p)
    pytest.exit(f"no {name}: set SLIDEDB_{name.split('-')[1].upper()} or build it", 2)


GEN = program("slidedb-gen")
LOOKUP = program("slidedb-lookup")


def run(*args, input=None, check=True):
    """Run a program; its CompletedProcess (text)."""
    return subprocess.run([*args], input=input, capture_output=True, text=True, check=check)


def run_python(script, *args, timeout=120):
    """Run Python code in a child interpreter (argv[1:] = args): a crash there
    fails the test that asks, with its output, instead of killing the suite."""
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)


def lookup_json(db, *args, input=None):
    """slidedb-lookup --json's objects, one per line."""
    out = run(LOOKUP, "--db", str(db), *args, input=input, check=False)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def workdir():
    base = os.environ.get("SLIDEDB_TEST_TMP")
    if base:
        os.makedirs(base, exist_ok=True)
    d = tempfile.mkdtemp(prefix="pytest-slidedb-", dir=base)
    yield Path(d)
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def db_path(workdir):
    """Every 3x3 and 2x3 goal, and a pattern set for 3x3 (two groups)."""
    path = workdir / "main.lmdb"
    run(GEN, "full", "3x3", "--db", str(path), "-q")
    run(GEN, "full", "2x3", "--db", str(path), "-q")
    run(GEN, "pdb", "3x3", "--partition", "1,2,3,4/5,6,7,8", "--db", str(path), "-q")
    return path


@pytest.fixture(scope="session")
def db(db_path):
    import slidedb

    with slidedb.open(db_path) as d:
        yield d


@pytest.fixture(scope="session")
def db15_path(workdir):
    """The 15-puzzle's 5-5-5 set (a fraction of a second), for searches."""
    path = workdir / "fifteen.lmdb"
    run(GEN, "pdb", "4x4", "--partition", "5-5-5", "--db", str(path), "-q")
    return path


@pytest.fixture(scope="session")
def db15(db15_path):
    import slidedb

    with slidedb.open(db15_path) as d:
        yield d


@pytest.fixture(scope="session")
def db24(workdir):
    """A 24-puzzle set of 2x2 squares: seconds to build, a real bound."""
    import slidedb

    path = workdir / "twentyfour.lmdb"
    run(GEN, "pdb", "5x5", "--partition", "2x2", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        yield d
