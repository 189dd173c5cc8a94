# SPDX-License-Identifier: MIT
"""One Database shared by threads (batches release the GIL), closed while
calls run, and opened again and again while a generator commits."""

import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import slidedb
from conftest import GEN, run, run_python


def test_threads_share_one_database(db):
    boards = db.random("3x3", 200_000, seed=11)
    want_d, want_m = db.label(boards)
    errors = []

    def work(k):
        try:
            for i in range(6):
                part = boards[(k * 7 + i) % 5::5]
                d, m = db.label(part)
                assert np.array_equal(d, want_d[(k * 7 + i) % 5::5])
                assert np.array_equal(m, want_m[(k * 7 + i) % 5::5])
                a = db.solve(boards[i + k])
                assert a.distance == want_d[i + k]
                r = db.random("3x3", 1000, distance=20, seed=k)
                assert np.all(db.distance(r) == 20)
        except Exception as e:   # noqa: BLE001 (reported below)
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_batches_run_in_parallel(db):
    """Two threads' batches overlap in time: the GIL is released."""
    boards = db.random("3x3", 1_000_000, seed=1)
    spans = []

    def work():
        t0 = time.perf_counter()
        db.distance(boards)
        spans.append((t0, time.perf_counter()))

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    # the main thread runs Python meanwhile: it would wait on a held GIL
    ticks = 0
    while any(t.is_alive() for t in threads):
        ticks += 1
        time.sleep(0)
    for t in threads:
        t.join()
    assert ticks > 10


def test_close_waits_for_calls(db_path):
    d = slidedb.open(db_path)
    boards = d.random("3x3", 2_000_000, seed=2)
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("d", d.distance(boards)))
    t.start()
    time.sleep(0.005)
    d.close()                       # the batch under way keeps the handle
    t.join()
    assert d.closed and out["d"].shape == (2_000_000,) and np.all(out["d"] >= 0)


def test_open_while_generator_commits(db_path, workdir):
    """Readers open and answer while slidedb-gen commits to the same file:
    every answer right, nothing raised."""
    path = workdir / "busy.lmdb"
    run(GEN, "full", "3x3", "--db", str(path), "-q")
    boards = slidedb.open(db_path).random("3x3", 2000, seed=3)
    with slidedb.open(db_path) as ref:
        want = ref.distance(boards)
    script = (f"for i in 1 2 3 4 5 6; do '{GEN}' full 2x4 --db '{path}' -q -t 1 && "
              f"'{GEN}' full 3x3 --db '{path}' -q -t 1 && '{GEN}' rm full-2x4 --db '{path}' -q; done")
    gen = subprocess.Popen(["sh", "-c", script])
    opened = 0
    try:
        while gen.poll() is None or opened < 5:
            with slidedb.open(path) as d:
                assert np.array_equal(d.distance(boards), want)
                assert d.solve(boards[opened % 2000]).distance == want[opened % 2000]
                names = {t["name"] for t in d.tables()}
                assert {"full-3x3-b0", "full-3x3-b1", "full-3x3-b4"} <= names
                opened += 1
    finally:
        gen.wait()
    assert gen.returncode == 0 and opened >= 5


CLOSE_DURING_VALUES = """
import sys, threading, time
import numpy as np
import slidedb
db = slidedb.open(sys.argv[1])
boards = db.random("4x4", 3_000_000, seed=1)
h = db.heuristic(size="4x4")
want = h.values(boards[:1000])
out = {}
t = threading.Thread(target=lambda: out.setdefault("v", h.values(boards)))
t.start()
time.sleep(0.01)
h.close()                           # the call under way keeps the heuristic
closed_at_once = repr(h).endswith("(closed)>")
t.join()
assert closed_at_once, repr(h)
assert out["v"].shape == (3_000_000,) and np.array_equal(out["v"][:1000], want)
try:
    h.values(boards[:1])
except ValueError as e:
    assert "closed" in str(e)
else:
    raise AssertionError("values() after close()")
db.close()
print("ok")
"""


def test_heuristic_close_waits_for_values(db15_path):
    """Heuristic.close() while another thread is in values() (without the GIL):
    the call finishes with right values, the heuristic is closed after it. It
    freed the heuristic under the call (SIGSEGV)."""
    for _ in range(3):
        r = run_python(CLOSE_DURING_VALUES, db15_path)
        assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stderr[-2000:])
