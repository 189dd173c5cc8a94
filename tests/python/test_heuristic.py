# SPDX-License-Identifier: MIT
"""Database.heuristic(): lower bounds that never exceed the true distance,
change by at most one per move, and read as the library's sdb_heuristic_*."""

import numpy as np
import pytest

import slidedb
from reference import all_boards, neighbours

SET3 = "pdb-3x3-b0-1,2,3,4_5,6,7,8"


def test_pattern_set_3x3(db):
    boards = all_boards(9)
    dist = db.distance(boards)
    boards = boards[dist >= 0]
    dist = dist[dist >= 0]
    with db.heuristic(SET3) as h:
        assert h.name == SET3 and h.size == "3x3" and h.goal == "1 2 3 4 5 6 7 8 0"
        assert repr(h) == f"<slidedb.Heuristic '{SET3}' for 3x3 goal '1 2 3 4 5 6 7 8 0'>"
        v = h.values(boards)
        assert v.dtype == np.int16
        assert np.all(v <= dist) and np.all(v >= 0) and v[dist == 0].tolist() == [0]
        assert v.mean() > 0.5 * dist.mean()          # a real bound, not zeros
        for i in range(0, len(boards), 5003):
            b = tuple(boards[i].tolist())
            assert h.value(b) == v[i] == h.value(" ".join(map(str, b)))
            for _, n in neighbours(b, 3):
                assert abs(h.value(n) - v[i]) <= 1
    assert repr(h).endswith("(closed)>")
    with pytest.raises(ValueError, match="closed"):
        h.value(boards[0])


def test_strongest_set_and_goals(db):
    with db.heuristic(size="3x3") as h:          # the set the database has
        assert h.name == SET3
    goal = "8 7 6 5 4 3 2 1 0"                    # the same class of goals: one set serves it
    with db.heuristic(goal=goal) as h:
        boards = db.random("3x3", 300, goal=goal, seed=3)
        assert np.all(h.values(boards) <= db.distance(boards, goal))
    with pytest.raises(slidedb.TableNotFoundError, match="slidedb-gen pdb 3x3") as e:
        db.heuristic(goal="1 2 3 4 0 5 6 7 8")   # centre: no set built
    assert e.value.command.startswith("slidedb-gen pdb 3x3")
    with pytest.raises(slidedb.TableNotFoundError):
        db.heuristic("pdb-3x3-nonesuch")
    with pytest.raises(slidedb.InvalidBoardError, match="needs a goal"):
        db.heuristic()


def test_manhattan(db):
    with db.heuristic("manhattan", size="3x3") as h:
        assert h.name == "manhattan+linear-conflicts"
        boards = db.random("3x3", 2000, seed=5)
        v = h.values(boards)
        assert np.all(v <= db.distance(boards))
        md = [sum(abs(i % 3 - (t - 1) % 3) + abs(i // 3 - (t - 1) // 3)
                  for i, t in enumerate(b) if t) for b in boards.tolist()]
        assert np.all(v >= np.array(md))         # Manhattan distance, plus conflicts


def test_fifteen(db15):
    with db15.heuristic(size="4x4") as h:
        assert h.name == "pdb-4x4-b0-5-5-5"
        boards = db15.random("4x4", 20, walk=30, seed=2)
        d = db15.distance(boards)
        assert np.all(h.values(boards) <= d)
        assert np.all(h.values(boards.reshape(-1, 4, 4)) == h.values(boards))
        with pytest.raises(slidedb.InvalidBoardError, match="rows of 9 cells but 4x4"):
            h.values(np.zeros((1, 9), dtype=np.uint8))
        with pytest.raises(slidedb.InvalidBoardError, match="state"):
            h.value("1 2 3 4 5 6 7 8 0")


def test_heuristic_keeps_database_open(db15_path):
    d = slidedb.open(db15_path)
    h = d.heuristic(size="4x4")
    d.close()
    assert d.closed
    with pytest.raises(ValueError, match="closed"):
        d.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
    assert h.value("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15") == 1   # its tables stay mapped
    h.close()
    h.close()


def test_twenty_four(db24):
    """5x5 boards in every notation, heuristic(size="5x5"), batch values, and
    solve() with limits and threads: the answer replayed, the same on 1 and 2
    threads, and never below the bound."""
    with db24.heuristic(size="5x5") as h:
        assert h.name == "pdb-5x5-b0-2x2" and h.size == "5x5"
        boards = db24.random("5x5", 50, walk=24, seed=7)
        assert boards.shape == (50, 25)
        v = h.values(boards)
        assert np.all(v >= 0) and h.values(boards.reshape(-1, 5, 5)).tolist() == v.tolist()
        start = boards[int(np.argmin(v))]
        one = db24.solve(start, path=True)
        two = db24.solve(start, threads=2)
        assert one.method == "search" and one.moves == two.moves
        assert one.distance == len(one.moves) >= h.value(start)
        assert one.path[-1] == " ".join(map(str, range(1, 25))) + " 0"
        assert db24.solve(start, sets="pdb-5x5-b0-2x2").moves == one.moves
        with pytest.raises(slidedb.TableNotFoundError, match="nonesuch"):
            db24.solve(start, sets="pdb-5x5-nonesuch")
        compact = "".join("x" if t == 0 else "0123456789abcdefghijklmnopqrstuvw"[t]
                          for t in start.tolist())
        assert db24.solve(compact).moves == one.moves
    with pytest.raises(slidedb.SearchLimitError):
        db24.solve("10 3 24 12 0 7 8 11 14 21 22 23 2 1 9 17 18 6 20 4 13 15 5 19 16",
                   max_nodes=1000)
    with pytest.raises(slidedb.InvalidBoardError, match="threads"):
        db24.solve(start, threads=0)


def test_sets_maxed(workdir):
    """Two sets joined by '+': the larger of their bounds, on every 3x3 state."""
    from conftest import GEN, run
    other = "pdb-3x3-b0-1,2,4,5_3,6,7,8"
    path = workdir / "maxed.lmdb"
    run(GEN, "full", "3x3", "--db", str(path), "-q")
    run(GEN, "pdb", "3x3", "--partition", "1,2,3,4/5,6,7,8", "--db", str(path), "-q")
    run(GEN, "pdb", "3x3", "--partition", "1,2,4,5/3,6,7,8", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        boards = all_boards(9)
        dist = d.distance(boards)
        boards, dist = boards[dist >= 0], dist[dist >= 0]
        with d.heuristic(SET3) as a, d.heuristic(other) as b, \
                d.heuristic(SET3 + "+" + other) as both:
            assert both.name == SET3 + "+" + other and both.size == "3x3"
            va, vb, v = a.values(boards), b.values(boards), both.values(boards)
            assert np.array_equal(v, np.maximum(va, vb)) and np.all(v <= dist)
            assert np.any(v > va)
