# SPDX-License-Identifier: MIT
"""Database.random() and slidedb.dataset(): the CLI's boards for the same
seed, distances in range, labels that check out."""

import subprocess

import numpy as np
import pytest

import slidedb
from conftest import LOOKUP


def cli_random(db_path, *args):
    out = subprocess.run([LOOKUP, "--db", str(db_path), "random", *args], capture_output=True,
                         text=True, check=True).stdout
    return np.array([[int(v) for v in line.split()] for line in out.splitlines()], dtype=np.uint8)


@pytest.mark.parametrize("args, kw", [
    (("--distance", "20", "--count", "50", "--seed", "7"), {"distance": 20, "seed": 7}),
    (("--min-distance", "3", "--max-distance", "30", "--count", "50", "--seed", "1"),
     {"min_distance": 3, "max_distance": 30, "seed": 1}),
    (("--distance", "31", "--count", "50", "--seed", "2"), {"distance": 31, "seed": 2}),
    (("--count", "50", "--seed", "3"), {"seed": 3}),
    (("--walk", "12", "--count", "50", "--seed", "4"), {"walk": 12, "seed": 4}),
    (("--goal", "1 0 3 8 2 4 7 6 5", "--distance", "9", "--count", "50", "--seed", "5"),
     {"goal": "1 0 3 8 2 4 7 6 5", "distance": 9, "seed": 5}),
])
def test_same_boards_as_cli(db, db_path, args, kw):
    got = db.random("3x3", 50, **kw)
    assert got.dtype == np.uint8 and got.shape == (50, 9)
    assert np.array_equal(got, cli_random(db_path, *args))
    goal = kw.get("goal")
    d = db.distance(got, goal)
    if "distance" in kw:
        assert np.all(d == kw["distance"])
    elif "min_distance" in kw:
        assert np.all((d >= 3) & (d <= 30))
    elif "walk" in kw:
        assert np.all((d >= 0) & (d <= 12))
    else:
        assert np.all(d >= 0)


def test_random_sizes_and_goals(db, db15):
    assert db.random((2, 3), 4, distance=21, seed=0).shape == (4, 6)
    assert np.all(db.distance(db.random("2x3", 100, distance=21, seed=9), size="2x3") == 21)
    with pytest.raises(slidedb.InvalidBoardError, match="count must be an integer from 1"):
        db.random("3x3", 0)                    # one verdict everywhere: at least one board
    a = db.random("3x3", 1000)
    b = db.random("3x3", 1000)
    assert not np.array_equal(a, b)            # no seed: fresh boards each time
    big = db15.random("4x4", 3, seed=1)         # no distance: any size, no table
    assert big.shape == (3, 16) and np.all(np.sort(big, axis=1) == np.arange(16))
    assert np.all(db.random(goal="1 2 3 4 0 5", count=10, distance=3, seed=1).shape == (10, 6))


def test_random_errors(db, db15):
    with pytest.raises(slidedb.InvalidBoardError, match="distances run from 0 to 31"):
        db.random("3x3", 1, distance=32)
    with pytest.raises(slidedb.BoardTooLargeError) as e:
        db15.random("4x4", 1, distance=3)
    assert isinstance(e.value, ValueError)
    with pytest.raises(slidedb.TableNotFoundError, match="slidedb-gen full 2x2"):
        db.random("2x2", 1, distance=3)
    with pytest.raises(slidedb.InvalidBoardError, match="do not combine"):
        db.random("3x3", 1, distance=3, max_distance=4)
    with pytest.raises(slidedb.InvalidBoardError, match="does not combine"):
        db.random("3x3", 1, walk=3, distance=4)
    with pytest.raises(slidedb.InvalidBoardError, match="above max_distance"):
        db.random("3x3", 1, min_distance=5, max_distance=4)
    with pytest.raises(slidedb.InvalidBoardError, match="needs a size"):
        db.random(count=3)
    with pytest.raises(slidedb.InvalidBoardError, match="count"):
        db.random("3x3", -1)


def test_dataset(db, tmp_path):
    data = slidedb.dataset(db, "3x3", 2000, min_distance=10, max_distance=20, seed=42)
    assert set(data) == {"states", "distances", "best_moves", "goal"}
    s, d, m = data["states"], data["distances"], data["best_moves"]
    assert s.shape == (2000, 9) and s.dtype == np.uint8
    assert d.dtype == np.int16 and m.dtype == np.int8 and data["goal"].tolist() == [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert np.all((d >= 10) & (d <= 20))
    for i in range(0, 2000, 199):
        a = db.solve(s[i])
        assert a.distance == d[i] and a.best_move == slidedb.MOVES[m[i]]
    again = slidedb.dataset(db, "3x3", 2000, min_distance=10, max_distance=20, seed=42)
    assert all(np.array_equal(data[k], again[k]) for k in data)
    np.savez(tmp_path / "train.npz", **data)
    with np.load(tmp_path / "train.npz") as f:
        assert np.array_equal(f["states"], s) and np.array_equal(f["distances"], d)
    other = slidedb.dataset(db, (2, 3), 50, goal="0 1 2 3 4 5", seed=1)
    assert other["goal"].tolist() == [0, 1, 2, 3, 4, 5]
    assert np.array_equal(other["distances"], db.distance(other["states"], "0 1 2 3 4 5"))
    assert np.all(slidedb.dataset(db, "3x3", 100, max_distance=5, seed=3)["distances"] <= 5)


@pytest.mark.parametrize("kw, match", [
    ({"walk": 2_000_000}, r"walk 2000000: walks run from 0 to 1000000 moves"),
    ({"walk": -1}, r"walk must be an integer from 0 to 1000000, not -1"),
    ({"seed": -1}, r"seed must be an integer from 0 to 2\*\*64 - 1 \(None: a fresh seed\), not -1"),
    ({"seed": 2**64}, r"seed must be an integer from 0 to 2\*\*64 - 1"),
    ({"distance": -2}, r"distance must be an integer from 0 to 127, not -2"),
    ({"min_distance": 2**80},
     r"min_distance must be an integer from 0 to 127, not 1208925819614629174706176"),
    ({"max_distance": 1000}, r"max_distance 1000: distances run from 0 to 127"),
    ({"count": -1}, r"count must be an integer from 1 to"),
])
def test_random_ranges(db, kw, match):
    """Out-of-range numbers are ValueErrors that name the argument and its
    range (they were bare OverflowErrors, or 'walk must be 0 or more')."""
    kw = {"count": 1, **kw}
    with pytest.raises(slidedb.InvalidBoardError, match=match):
        db.random("3x3", **kw)
    with pytest.raises(TypeError):
        db.random("3x3", 1, seed=1.5)


def test_dataset_limits(db15):
    """A 4x4 dataset searches every board: its searches are bounded by
    default (max_nodes, as solve() takes it), and the bounds can be given."""
    import inspect

    params = inspect.signature(slidedb.dataset).parameters
    assert params["max_nodes"].default == 50_000_000 and params["timeout"].default is None
    data = slidedb.dataset(db15, "4x4", 3, seed=5)           # 30921, 252684, 14590 nodes
    assert data["goal"].tolist() == [*range(1, 16), 0]
    want = [db15.solve(s) for s in data["states"]]
    assert data["distances"].tolist() == [a.distance for a in want]
    assert [slidedb.MOVES[m] for m in data["best_moves"]] == [a.best_move for a in want]
    with pytest.raises(slidedb.SearchLimitError) as e:
        slidedb.dataset(db15, "4x4", 3, seed=5, max_nodes=100_000)
    assert e.value.index == 1
    with pytest.raises(slidedb.SearchLimitError, match="time limit"):
        slidedb.dataset(db15, "4x4", 3, seed=6, timeout=0.01)
    with pytest.raises(slidedb.InvalidBoardError, match="max_nodes"):
        slidedb.dataset(db15, "4x4", 3, seed=5, max_nodes=0)
