# SPDX-License-Identifier: MIT
"""Database.states(): every state of a table once, at the distances asked,
against a plain BFS: whole arrays and chunks, every goal class, tables of
two bits and none, the arguments refused as random() refuses them, and the
listing shared by threads."""

import threading

import numpy as np
import pytest

import slidedb
from conftest import GEN, run, run_python
from reference import bfs

GOALS_3X3 = ["1 2 3 4 5 6 7 8 0",        # the tables' own goals: corner, edge, centre
             "1 0 2 3 4 5 6 7 8", "1 2 3 4 0 5 6 7 8",
             "0 8 7 6 5 4 3 2 1",        # corners and edges the symmetries map
             "8 7 6 5 4 3 2 0 1"]


def as_dict(states, distances):
    return dict(zip(map(tuple, states.tolist()), distances.tolist()))


@pytest.mark.parametrize("goal", GOALS_3X3)
def test_every_3x3_state(db, goal):
    want = bfs(tuple(int(t) for t in goal.split()), 3)
    states, distances = db.states(goal=goal)
    assert states.dtype == np.uint8 and states.shape == (181440, 9)
    assert distances.dtype == np.int16 and distances.shape == (181440,)
    assert len(np.unique(states, axis=0)) == 181440           # each state once
    assert as_dict(states, distances) == want
    assert np.array_equal(db.distance(states, goal), distances)


def test_distances_and_ranges(db):
    table = next(t for t in db.tables() if t["name"] == "full-3x3-b0")
    s, d = db.states("3x3", distance=20)
    assert len(s) == table["counts"][20] and np.all(d == 20)
    assert np.all(db.distance(s) == 20)
    s, d = db.states("3x3", min_distance=25, max_distance=27)
    assert len(s) == sum(table["counts"][25:28]) and set(d.tolist()) == {25, 26, 27}
    s, d = db.states((3, 3), min_distance=30)                  # the other end open
    assert sorted(d.tolist()) == [30] * table["counts"][30] + [31, 31]
    s, d = db.states("3x3", max_distance=1)
    assert sorted(d.tolist()) == [0, 1, 1]
    s, d = db.states("3x3", distance=32)                       # beyond the table: none
    assert s.shape == (0, 9) and d.shape == (0,)


def test_chunks(db):
    whole, dist = db.states("3x3", min_distance=10, max_distance=12)
    chunks = db.states("3x3", min_distance=10, max_distance=12, chunk=1000)
    assert isinstance(chunks, slidedb.States) and iter(chunks) is chunks
    assert chunks.count == len(whole) and chunks.size == "3x3"
    assert chunks.goal == "1 2 3 4 5 6 7 8 0" and chunks.chunk == 1000
    assert repr(chunks) == (f"<slidedb.States {len(whole)} states of 3x3 goal "
                            "'1 2 3 4 5 6 7 8 0' in chunks of 1000>")
    parts = list(chunks)
    assert all(len(s) == len(d) == 1000 for s, d in parts[:-1]) and 0 < len(parts[-1][0]) <= 1000
    assert np.array_equal(np.concatenate([s for s, _ in parts]), whole)    # the same order
    assert np.array_equal(np.concatenate([d for _, d in parts]), dist)
    with pytest.raises(StopIteration):
        next(chunks)
    assert repr(chunks).endswith("(closed)>")
    with db.states("2x3", goal="0 1 2 3 4 5", chunk=7) as c:  # a context manager
        first, _ = next(c)
        assert first.shape == (7, 6)
    assert list(c) == []


def test_2x3_every_goal_class(db):
    for goal in ("1 2 3 4 5 0", "1 2 0 3 4 5", "5 4 3 2 0 1", "1 0 2 3 4 5"):
        want = bfs(tuple(int(t) for t in goal.split()), 2)
        s, d = db.states("2x3", goal=goal)
        assert as_dict(s, d) == want and len(s) == len(want) == 360


def test_without_distances(workdir, db15):
    """No table for the goal: every state of its class, in rank order, and no
    distances (None); a distance needs the table."""
    path = workdir / "states-none.lmdb"
    run(GEN, "full", "2x2", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        s, dist = d.states("2x4")
        assert dist is None and s.shape == (20160, 8)
        assert set(map(tuple, s.tolist())) == set(bfs((1, 2, 3, 4, 5, 6, 7, 0), 2))
        chunks = list(d.states("2x4", chunk=5000))
        assert [len(c) for c, _ in chunks] == [5000] * 4 + [160]
        assert all(dist is None for _, dist in chunks)
        assert np.array_equal(np.concatenate([c for c, _ in chunks]), s)
        with pytest.raises(slidedb.TableNotFoundError, match="slidedb-gen full 2x4"):
            d.states("2x4", distance=3)
    with pytest.raises(slidedb.BoardTooLargeError, match="listed up to 14 cells"):
        db15.states("4x4")


def test_two_bit_table(tmp_path):
    path = tmp_path / "two.lmdb"
    run(GEN, "full", "3x3", "--bits", "2", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        s, dist = d.states("3x3")
        assert dist is None and len(s) == 181440
        with pytest.raises(slidedb.InvalidBoardError, match="--bits 8"):
            d.states("3x3", distance=5)


@pytest.mark.parametrize("kw, error, match", [
    ({"size": "3x3", "distance": 3, "max_distance": 4},
     slidedb.InvalidBoardError, "do not combine"),
    ({"size": "3x3", "min_distance": 5, "max_distance": 4},
     slidedb.InvalidBoardError, "above max_distance"),
    ({"size": "3x3", "distance": 128},
     slidedb.InvalidBoardError, "distance 128: distances run from 0 to 127"),
    ({"size": "3x3", "chunk": 0}, slidedb.InvalidBoardError, "chunk must be an integer from 1 to"),
    ({"size": "3x3", "chunk": 2.5}, TypeError, ""),
    ({}, slidedb.InvalidBoardError, r"states\(\) needs a size"),
    ({"size": "3x3", "goal": "1 2 3 4 5 6 7 8 8"},
     slidedb.InvalidBoardError, "goal: tile 8 appears twice"),
    ({"size": "3x3", "walk": 3}, TypeError, "walk"),
    ({"size": "3x3\x00"}, slidedb.InvalidBoardError, "NUL"),
])
def test_arguments_refused(db, kw, error, match):
    with pytest.raises(error, match=match):
        db.states(**kw)


def test_a_listing_keeps_its_database(db_path):
    d = slidedb.open(db_path)
    chunks = d.states("3x3", distance=31, chunk=1)
    d.close()
    assert d.closed
    assert [s.tolist() for s, _ in chunks] == [[[8, 6, 7, 2, 5, 4, 3, 0, 1]],
                                               [[6, 4, 7, 8, 5, 0, 3, 2, 1]]]
    with pytest.raises(ValueError, match="closed"):
        d.states("3x3")


def test_threads_share_a_listing(db):
    """Two threads read one listing: every chunk goes to one of them, or the
    other is told the listing is busy; together they see each state once."""
    chunks = db.states("3x3", chunk=20_000)
    seen, errors = [], []

    def work():
        while True:
            try:
                part = next(chunks, None)
            except ValueError as e:
                errors.append(str(e))
                continue
            if part is None:
                return
            seen.append(part[0])

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all("in use by another thread" in e for e in errors)
    assert len(np.unique(np.concatenate(seen), axis=0)) == 181440


CLOSE_DURING_NEXT = """
import sys, threading, time
import slidedb
db = slidedb.open(sys.argv[1])
chunks = db.states("3x3", chunk=200_000)
out = {}
t = threading.Thread(target=lambda: out.setdefault("part", next(chunks)))
t.start()
time.sleep(0.001)
chunks.close()              # the call under way keeps the listing
t.join()
assert out["part"][0].shape == (181440, 9), out
assert list(chunks) == []
db.close()
print("ok")
"""


def test_close_during_next(db_path):
    for _ in range(3):
        r = run_python(CLOSE_DURING_NEXT, db_path)
        assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stderr[-2000:])
