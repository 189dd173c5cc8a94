# SPDX-License-Identifier: MIT
"""The multi-tile metric through Python: solve, check, the arrays, random and
states with metric='mtm', against a simple MTM BFS (reference.py) and
slidedb-lookup --json --metric mtm; the errors of a metric that is none."""

import numpy as np
import pytest

import slidedb
from conftest import GEN, lookup_json, run
from reference import bfs, cells, letters, replay

GOAL = "1 2 3 4 5 6 7 8 0"


@pytest.fixture(scope="module")
def mtm_db(workdir):
    """The 3x3's STM and MTM tables, side by side."""
    path = workdir / "metric.lmdb"
    run(GEN, "full", "3x3", "--db", str(path), "-q")
    run(GEN, "full", "3x3", "--metric", "mtm", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        yield path, d


@pytest.fixture(scope="module")
def dist():
    return bfs(cells(GOAL), 3, "mtm")


def runs(moves):
    """The number of runs of one letter: an MTM sequence's length."""
    return sum(1 for i, m in enumerate(moves) if i == 0 or m != moves[i - 1])


def test_solve_like_the_bfs(mtm_db, dist):
    path, db = mtm_db
    starts = sorted(dist)[::997]
    for s in starts:
        text = " ".join(map(str, s))
        a = db.solve(text, metric="mtm", solutions=True)
        assert a.metric == "mtm" and a.distance == dist[s]
        assert replay(s, a.moves, 3) == cells(GOAL)
        assert runs(letters(a.moves)) == a.distance
        assert a.to_dict()["metric"] == "mtm"
        [j] = lookup_json(path, "--json", "-m", "mtm", "--solutions", text)
        assert (j["distance"], j["moves"], j["solutions"]) == (a.distance, a.moves, a.solutions)
    stm = db.solve("8 6 7 2 5 4 3 0 1")
    assert stm.metric == "stm" and stm.distance == 31 and "metric" not in stm.to_dict()
    far = db.solve("8 6 7 2 5 4 3 0 1", metric="mtm", all=True)
    assert far.distance == 20 and all(runs(letters(m)) == 20 for m in far.all_moves)
    assert all(replay(cells("8 6 7 2 5 4 3 0 1"), m, 3) == cells(GOAL) for m in far.all_moves)


def test_check_counts_moves(mtm_db):
    _, db = mtm_db
    c = db.check("1 2 3 4 5 6 0 7 8", "r2", metric="mtm")
    assert c.optimal and c.length == 1 and c.to_dict()["metric"] == "mtm"
    c = db.check("1 2 3 4 5 6 0 7 8", "r2")
    assert c.optimal and c.length == 2
    assert db.check("1 2 3 4 5 6 0 7 8", "ur3", metric="mtm").illegal_step == 2


def test_arrays(mtm_db, dist):
    _, db = mtm_db
    boards = np.array(sorted(dist)[::101], dtype=np.uint8)
    d, best = db.label(boards, metric="mtm")
    assert list(d) == [dist[tuple(b)] for b in boards]
    assert list(db.distance(boards, metric="mtm")) == list(d)
    for b, m, n in zip(boards, best, d):
        assert (m == -1) == (n == 0)


def test_random_and_states(mtm_db, dist):
    _, db = mtm_db
    rows = db.random("3x3", 50, distance=17, metric="mtm", seed=5)
    assert all(dist[tuple(r)] == 17 for r in rows)
    walked = db.random("3x3", 20, walk=3, metric="mtm", seed=5)
    assert all(dist[tuple(r)] <= 3 for r in walked)
    states, d = db.states("3x3", distance=23, metric="mtm")
    assert len(states) == sum(1 for v in dist.values() if v == 23)
    assert all(dist[tuple(s)] == 23 for s in states) and set(d) == {23}


def test_metric_errors(mtm_db):
    _, db = mtm_db
    with pytest.raises(ValueError, match="metric: 'xtm' is not 'stm' or 'mtm'"):
        db.solve(GOAL, metric="xtm")
    with pytest.raises(TypeError):
        db.solve(GOAL, metric=1)
    with pytest.raises(slidedb.TableNotFoundError, match="--metric mtm"):
        db.solve("1 2 3 4 5 0", size="2x3", metric="mtm")


def test_the_15_puzzle_by_search(mtm_db):
    """Past 14 cells an MTM question is searched: the answer replays, a
    label's distance is the solve's, and sets (STM) are refused."""
    _, db = mtm_db
    board = "1 2 3 4 0 6 7 8 5 10 11 12 9 13 14 15"   # the blank slid l3, then u2
    a = db.solve(board, metric="mtm")
    assert (a.distance, a.moves, a.metric) == (2, "d2r3", "mtm")
    goal = tuple(range(1, 16)) + (0,)
    assert replay(cells(board), a.moves, 4) == goal
    d, best = db.label(np.array([cells(board)], dtype=np.uint8), metric="mtm")
    assert list(d) == [2]
    with pytest.raises(ValueError, match="single-tile"):
        db.solve(board, metric="mtm", sets="pdb-4x4-b15-5-5-5")
