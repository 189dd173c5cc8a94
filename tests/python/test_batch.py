# SPDX-License-Identifier: MIT
"""NumPy batches: distance(), best_move(), label() on every 3x3 board against
a plain BFS, every integer dtype and layout, and shapes refused clearly."""

import numpy as np
import pytest

import slidedb
from conftest import run_python
from reference import all_boards, bfs, neighbours

STANDARD = (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.fixture(scope="module")
def every3():
    """Every arrangement of 9 cells (both parity classes) and its BFS distance or -1."""
    boards = all_boards(9)
    dist = bfs(STANDARD, 3)
    want = np.array([dist.get(tuple(b), -1) for b in boards.tolist()], dtype=np.int16)
    return boards, want, dist


def test_every_3x3_board(db, every3):
    boards, want, dist = every3
    got, best = db.label(boards)
    assert got.dtype == np.int16 and best.dtype == np.int8 and got.shape == (len(boards),)
    assert np.array_equal(got, want)
    assert np.array_equal(db.distance(boards), want)
    assert np.array_equal(db.best_move(boards), best)
    # every best move leads one closer, by the BFS; none where there is none
    assert np.all(best[want <= 0] == -1) and np.all(best[want > 0] >= 0)
    sample = np.flatnonzero(want > 0)[::97]
    for i in sample:
        b = tuple(boards[i].tolist())
        nxt = dict(neighbours(b, 3))[slidedb.MOVES[best[i]]]
        assert dist[nxt] == want[i] - 1


def test_any_goal_2x3(db):
    """Every 2x3 board against every goal class, with goals in several notations."""
    boards = all_boards(6)
    for goal in ((1, 2, 3, 4, 5, 0), (0, 1, 2, 3, 4, 5), (1, 0, 2, 3, 4, 5), (5, 4, 3, 2, 0, 1)):
        dist = bfs(goal, 2)
        want = np.array([dist.get(tuple(b), -1) for b in boards.tolist()])
        for g in (" ".join(map(str, goal)), list(goal), np.array(goal).reshape(3, 2)):
            assert np.array_equal(db.distance(boards, g), want)
        # the answers of solve() for the same boards
        for b in boards[::41]:
            a = db.solve(b, list(goal))
            d, m = db.label(b[None, :], list(goal))
            assert (a.distance if a.solvable else -1) == d[0]
            assert (slidedb.MOVES.index(a.best_move) if a.best_move else -1) == m[0]


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32,
                                   np.int64, np.uint64, np.intp])
def test_dtypes(db, every3, dtype):
    boards, want, _ = every3
    part = slice(0, 5000)
    assert np.array_equal(db.distance(boards[part].astype(dtype)), want[part])


def test_layouts(db, every3):
    boards, want, _ = every3
    b = boards[:4000]
    w = want[:4000]
    assert np.array_equal(db.distance(b[::3]), w[::3])                      # rows strided
    assert np.array_equal(db.distance(np.asfortranarray(b)), w)             # column-major
    assert np.array_equal(db.distance(b.T.copy().T), w)                     # a transposed view
    wide = np.zeros((4000, 18), dtype=np.int32)
    wide[:, ::2] = b
    assert np.array_equal(db.distance(wide[:, ::2]), w)                     # columns strided
    assert np.array_equal(db.distance(b.reshape(-1, 3, 3)), w)              # (N, H, W)
    assert np.array_equal(db.distance(b[:10].tolist()), w[:10])             # lists
    assert np.array_equal(db.distance(tuple(map(tuple, b[:10].tolist()))), w[:10])
    reversed_rows = b[::-1]
    assert np.array_equal(db.distance(reversed_rows), w[::-1])
    assert db.distance(np.zeros((0, 9), dtype=np.uint8)).shape == (0,)
    ro = b.copy()
    ro.setflags(write=False)
    assert np.array_equal(db.distance(ro), w)


@pytest.mark.parametrize("states, match", [
    (np.arange(9), "2-D array of boards.*got 1 dimension"),
    (np.zeros((2, 3, 3, 1), dtype=int), "got 4 dimensions"),
    (np.zeros((2, 3), dtype=int), "rows of 3 cells are no board"),
    (np.zeros((2, 65), dtype=int), "rows of 65 cells are no board"),
    (np.zeros((2, 17), dtype=int), "17 cells is not a board size"),
    (np.zeros((2, 7), dtype=int), "no board has 7 cells|7 cells"),
    (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]], dtype=float), "must hold integers"),
    (np.array([[True] * 9]), "must hold integers"),
    (np.array([["1"] * 9]), "must hold integers"),
])
def test_shapes_refused(db, states, match):
    with pytest.raises(slidedb.InvalidBoardError, match=match):
        db.distance(states)


def test_bad_rows_named(db):
    boards = np.array([STANDARD] * 5, dtype=np.int64)
    boards[3, 0] = 300
    with pytest.raises(slidedb.InvalidBoardError, match="board 3: tile 300 is out of range") as e:
        db.distance(boards)
    assert e.value.index is None or e.value.index == 3
    boards[3, 0] = -1
    with pytest.raises(slidedb.InvalidBoardError, match="board 3: tile -1"):
        db.distance(boards)
    boards[3, 0] = 2
    with pytest.raises(slidedb.InvalidBoardError, match="board 3: tile 2 appears twice") as e:
        db.best_move(boards.astype(np.uint8))
    assert e.value.index == 3
    with pytest.raises(slidedb.InvalidBoardError, match="board 3: tile 9 is out of range"):
        boards[3, 0] = 9
        db.label(boards)


def test_size_mismatch(db):
    with pytest.raises(slidedb.InvalidBoardError, match="rows of 9 cells but 2x3 boards have 6"):
        db.distance(np.zeros((1, 9), dtype=np.uint8) + np.arange(9, dtype=np.uint8), size="2x3")
    with pytest.raises(slidedb.InvalidBoardError, match="3x3 boards.*size asked is 2x3"):
        db.distance(np.arange(9).reshape(1, 3, 3), "1 2 3 4 5 0")
    with pytest.raises(slidedb.TableNotFoundError, match="slidedb-gen full 3x2"):
        db.distance(np.arange(6).reshape(1, 6), size="3x2")


def test_search_batch(db15):
    """Boards without full tables are searched, one by one, in a batch too."""
    boards = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15],
                       [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0],
                       [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 14, 15]])
    d, m = db15.label(boards)
    assert d.tolist() == [1, -1, 2] and m.tolist() == [3, -1, 3]
    with pytest.raises(slidedb.SearchLimitError) as e:
        db15.distance(np.array([[0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 2, 5, 4, 8, 6, 1]]),
                      max_nodes=100)
    assert e.value.index == 0


SEARCHED_BATCH = """
import sys
import slidedb
with slidedb.open(sys.argv[1]) as db:
    board = "4 1 12 0 2 14 13 3 8 6 9 7 11 15 10 5"   # 53 moves, 30921 nodes (5-5-5)
    want = db.solve(board)
    assert want.nodes > 16384, want.nodes
    d, m = db.label([[int(t) for t in board.split()]], max_nodes=10**9)
    assert (d[0], slidedb.MOVES[m[0]]) == (want.distance, want.best_move), (d, m)
    assert db.distance([[int(t) for t in board.split()]])[0] == want.distance
print("ok")
"""


def test_long_search_in_a_batch(db15_path):
    """A batch search long enough to reach its checkpoints (every 16384 nodes).
    The batch's limits were left uninitialised but for max_nodes and timeout,
    so the search called a garbage poll function there (SIGSEGV)."""
    r = run_python(SEARCHED_BATCH, db15_path)
    assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stderr[-2000:])
