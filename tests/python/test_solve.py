# SPDX-License-Identifier: MIT
"""Database.solve() and Database.check(): every board notation, agreement
with slidedb-lookup --json, every move sequence replayed, and the errors."""

import numpy as np
import pytest

import slidedb
from conftest import GEN, lookup_json, run, run_python
from reference import bfs, cells, replay

GOAL = "1 2 3 4 5 6 7 8 0"
GOAL_CELLS = [1, 2, 3, 4, 5, 6, 7, 8, 0]


@pytest.fixture(scope="module")
def dist3():
    return bfs(cells(GOAL), 3)


def test_answer_fields(db, dist3):
    a = db.solve("1 2 3 4 0 6 7 5 8")
    assert (a.start, a.goal, a.size, a.solvable) == ("1 2 3 4 0 6 7 5 8", GOAL, "3x3", True)
    assert a.distance == dist3[cells(a.start)] == 2
    assert a.best_move == a.moves[0] and replay(cells(a.start), a.moves, 3) == cells(GOAL)
    assert a.method == "table" and a.nodes is None and a.heuristic is None and a.note is None
    assert a.best_moves is None and a.solutions is None and a.all_moves is None
    assert a.path == ["1 2 3 4 0 6 7 5 8", "1 2 3 4 5 6 7 0 8", GOAL]
    assert a.tiles == [5, 8]
    assert repr(a) == ("Answer(start='1 2 3 4 0 6 7 5 8', goal='1 2 3 4 5 6 7 8 0', distance=2, "
                       "best_move='d', moves='dr')")


def test_goal_and_unsolvable(db):
    at_goal = db.solve(GOAL)
    assert (at_goal.distance, at_goal.best_move, at_goal.moves, at_goal.path) == (0, None, "", [GOAL])
    u = db.solve("1 2 3 4 5 6 8 7 0", all_best=True, solutions=True)
    assert not u.solvable and u.distance is None and u.moves is None and u.method is None
    assert u.best_moves is None and u.solutions is None and u.path is None
    assert repr(u).endswith("solvable=False)")


@pytest.mark.parametrize("board", [
    "1 2 3 x 4 6 7 5 8", "1,2,3,_,4,6,7,5,8", "123.46758", "[[1,2,3],[0,4,6],[7,5,8]]",
    "1 2 3\nx 4 6\n7 5 8", [1, 2, 3, 0, 4, 6, 7, 5, 8], (1, 2, 3, 0, 4, 6, 7, 5, 8),
    [[1, 2, 3], [0, 4, 6], [7, 5, 8]], np.array([1, 2, 3, 0, 4, 6, 7, 5, 8], dtype=np.uint8),
    np.array([[1, 2, 3], [0, 4, 6], [7, 5, 8]], dtype=np.int64),
    np.array([[1, 0, 7], [2, 4, 5], [3, 6, 8]], dtype=np.int16).T,   # not contiguous
])
def test_notations(db, board):
    a = db.solve(board)
    assert a.start == "1 2 3 0 4 6 7 5 8" and a.moves == "rdr"


def test_goal_notations(db, dist3):
    goal = "1 0 3 8 2 4 7 6 5"
    d = bfs(cells(goal), 3)
    for start in ("1 2 3 0 8 4 7 6 5", "5 4 1 2 0 3 7 8 6"):
        for g in (goal, [1, 0, 3, 8, 2, 4, 7, 6, 5], np.array([[1, 0, 3], [8, 2, 4], [7, 6, 5]])):
            a = db.solve(start, g)
            assert a.goal == goal and a.distance == d[cells(start)]
            assert replay(cells(start), a.moves, 3) == cells(goal)
    assert db.solve("1 2 3 0 8 4 7 6 5 ; 1 0 3 8 2 4 7 6 5").moves == "ru"


def test_sizes(db):
    # 2x3 is built, 3x2 is not: six cells are 2x3
    a = db.solve("1 2 3 4 0 5")
    assert a.size == "2x3"
    d = bfs((1, 2, 3, 4, 5, 0), 2)
    assert a.distance == d[(1, 2, 3, 4, 0, 5)]
    assert db.solve("1 2 3 4 0 5", size=(2, 3)).size == "2x3"
    with pytest.raises(slidedb.TableNotFoundError) as e:
        db.solve("1 2 3 4 0 5", size="3x2")
    assert e.value.command == "slidedb-gen full 3x2" + f" --db '{db.path}'"
    with pytest.raises(slidedb.InvalidBoardError, match="not a board size"):
        db.solve("1 2 3 4 0 5", size="3by2")
    with pytest.raises(TypeError):
        db.solve("1 2 3 4 0 5", size=6)


def test_agrees_with_cli(db, db_path):
    """The same queries through slidedb-lookup --json and through solve(): equal objects."""
    rng = np.random.default_rng(12)
    queries = []
    for _ in range(60):
        start = rng.permutation(9)
        goal = rng.permutation(9)
        queries.append((" ".join(map(str, start)), " ".join(map(str, goal))))
    queries += [(GOAL, GOAL), ("8 6 7 2 5 4 3 0 1", GOAL), ("1 2 3 4 0 5", "1 2 3 4 5 0")]
    text = "".join(f"{s} ; {g}\n" for s, g in queries)
    for flags, kw in [((), {}), (("--path", "--tiles"), {"path": True, "tiles": True}),
                      (("--all-best", "--solutions", "--all", "--limit", "5"),
                       {"all_best": True, "solutions": True, "all": True, "limit": 5})]:
        cli = lookup_json(db_path, "--json", *flags, input=text)
        assert len(cli) == len(queries)
        for (s, g), want in zip(queries, cli):
            got = db.solve(s, g, **kw)
            assert got.to_dict() == want
            if got.solvable:
                assert replay(cells(s), got.moves, 3 if len(cells(s)) == 9 else 2) == cells(g)
                for seq in got.all_moves or []:
                    assert len(seq) == got.distance and replay(cells(s), seq, 3) == cells(g)


def test_counts_match_bfs(db, dist3):
    """Optimal solutions counted by the library against a count by BFS layers."""
    from reference import neighbours

    def count(board):
        d = dist3[board]
        if d == 0:
            return 1
        return sum(count(n) for _, n in neighbours(board, 3) if dist3.get(n) == d - 1)

    some = [" ".join(map(str, b)) for b in db.random("3x3", 4, distance=16, seed=8).tolist()]
    for start in ["8 6 7 2 5 4 3 0 1", "1 2 3 4 0 8 7 6 5", *some]:
        a = db.solve(start, solutions=True, all=True, limit=1000)
        assert a.solutions == count(cells(start)) == len(a.all_moves)
        assert sorted(a.all_moves, key=lambda s: ["udlr".index(c) for c in s]) == a.all_moves
        assert a.best_moves == "".join(sorted({m[0] for m in a.all_moves}, key="udlr".index))


@pytest.mark.parametrize("board, match", [
    ("1 2 3 4 5 6 7 8 8", "start: tile 8 appears twice"),
    ("1 2 3 4 5 6 7 8 9", "start: tile 9 is out of range 1..8 for 3x3"),
    ("bad", "unknown notation"),
    ([1, 2, 3, -1, 5, 6, 7, 8, 0], "start: tile -1 is out of range"),
    ([1.0, 2, 3, 4, 5, 6, 7, 8, 0], "start: tiles must be integers"),
    (np.zeros((2, 2, 2), dtype=int), "not an array of 3 dimensions"),
])
def test_invalid_boards(db, board, match):
    with pytest.raises(slidedb.InvalidBoardError, match=match) as e:
        db.solve(board)
    assert isinstance(e.value, ValueError) and e.value.code == -1


def test_wrong_types(db):
    with pytest.raises(TypeError):
        db.solve(b"123456780")
    with pytest.raises(TypeError):
        db.solve()
    with pytest.raises(TypeError):
        db.solve(GOAL, GOAL, "positional")


def test_search_4x4(db15, db15_path):
    start = "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15"
    a = db15.solve(start, solutions=True)
    want = lookup_json(db15_path, "--json", "--solutions", start)[0]
    assert a.to_dict() == want and a.method == "search"
    assert a.heuristic_name == "pdb-4x4-b0-5-5-5" and a.nodes >= 1 and a.distance == 2
    hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"   # 80 moves, one of the hardest
    with pytest.raises(slidedb.SearchLimitError, match="limit") as e:
        db15.solve(hard, max_nodes=1000)
    assert e.value.code == -10
    # the nodes it took, as the message says them: the limit, not 0
    assert 1000 <= e.value.nodes < 1000 + 1024 and f"({e.value.nodes} searched" in str(e.value)
    with pytest.raises(slidedb.SearchLimitError) as e:
        db15.solve(hard, timeout=0.01)
    assert e.value.nodes > 0 and f"{e.value.nodes} nodes" in str(e.value)
    assert db15.solve(start, max_nodes=2).nodes == 2
    with pytest.raises(slidedb.SearchLimitError, match="while counting") as e:
        db15.solve(start, all=True, max_nodes=3)   # the sequences' search, stopped
    assert e.value.nodes == 3
    with pytest.raises(slidedb.InvalidBoardError, match="max_nodes"):
        db15.solve(hard, max_nodes=0)


def test_missing_table_command_runs(workdir):
    """A missing table names the command that builds it; it runs as it is."""
    path = workdir / "empty-then-2x2.lmdb"
    run(GEN, "full", "2x3", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        with pytest.raises(slidedb.TableNotFoundError) as e:
            d.solve("1 2 0 3")
        assert isinstance(e.value, LookupError) and e.value.code == -4
        assert e.value.command.startswith("slidedb-gen full 2x2")
        import shlex

        run(GEN, *shlex.split(e.value.command)[1:])
        assert d.changed
        with d.reopen() as fresh:
            assert fresh.solve("1 2 0 3").moves == "r"


CHECKS = ["rr", "rlrr", "d", "r", ""]


def test_check_agrees_with_cli(db, db_path):
    cases = [("1 2 3 4 5 6 0 7 8", m) for m in CHECKS] + [("1 2 3 4 5 6 0 8 7", "rr"),
                                                          ("1 2 3 4 5 6 7 8 0", "")]
    text = "".join(f"{s} ; {m}\n" if m else f"{s} ; \n" for s, m in cases)
    cli = lookup_json(db_path, "check", "--json", input=text)
    for (s, m), want in zip(cases, cli):
        c = db.check(s, m)
        assert c.to_dict() == want
        assert c.end == " ".join(map(str, replay(cells(s), m[:c.illegal_step - 1] if not c.legal else m, 3)))
    c = db.check("1 2 3 4 5 6 0 7 8", "rlrr")
    assert (c.verdict, c.length, c.distance, c.optimal, c.legal) == (
        "valid, 2 moves longer than optimal", 4, 2, False, True)
    assert repr(c) == "Check(moves='rlrr', verdict='valid, 2 moves longer than optimal')"
    c = db.check([1, 0, 3, 8, 2, 4, 7, 6, 5], "d", goal="1 0 3 8 2 4 7 6 5")
    assert c.end == "1 2 3 8 0 4 7 6 5" and c.end_distance == 1


def test_check_errors(db):
    with pytest.raises(slidedb.InvalidBoardError, match="'x' at position 2 is not a move"):
        db.check(GOAL, "rx")
    with pytest.raises(slidedb.InvalidBoardError, match="one word"):
        db.check(GOAL, "r r")
    with pytest.raises(TypeError):
        db.check(GOAL, 5)


@pytest.mark.parametrize("call, match", [
    (lambda db: db.check("1 2 3 4 5 6 0 7 8", "rr\x00uuuuuu"),
     "moves: a NUL character at position 3"),
    (lambda db: db.solve("1 2 3 4 5 6 7 0 8\x00 8"), "start: a NUL character at position 18"),
    (lambda db: db.solve(GOAL, "1 2 3 4 5 6 7 8 0\x00"), "goal: a NUL character at position 18"),
    (lambda db: db.solve(GOAL, size="3x3\x00zz"), "size: a NUL character at position 4"),
    (lambda db: db.distance([[1, 2, 3, 4, 5, 6, 7, 8, 0]], "1 2 3 4 5 6 7 8 0\x00"), "goal: a NUL"),
    (lambda db: db.random("3x3\x00", 1), "size: a NUL"),
    (lambda db: db.random("3x3", 1, goal="\x001 2 3 4 5 6 7 8 0"),
     "goal: a NUL character at position 1"),
    (lambda db: db.heuristic("manhattan\x00", size="3x3"), "set: a NUL character at position 10"),
    (lambda db: db.heuristic("manhattan", size="3x3").value("1 2 3 4 5 6 7 8 0\x00"),
     "state: a NUL"),
])
def test_nul_characters(db, call, match):
    """The library reads C strings: a NUL would cut the text short there
    ('rr\\0uuuuuu' judged as 'rr': optimal). Refused instead, naming it."""
    with pytest.raises(slidedb.InvalidBoardError, match=match) as e:
        call(db)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("call, match", [
    (lambda db: db.solve([1, 2, 3, 4, 5, 6, 7, 8, 2**63]),
     r"start: tile 9223372036854775808 is out of range"),
    (lambda db: db.solve([1, 2, 3, 4, 5, 6, 7, 8, 2**64]),
     r"start: tile 18446744073709551616 is out of range"),
    (lambda db: db.solve(GOAL, [[1, 2, 3], [4, 5, 6], [7, 8, -2**63 - 1]]),
     r"goal: tile -9223372036854775809 is out"),
    (lambda db: db.distance([GOAL_CELLS, GOAL_CELLS[:8] + [2**63]]),
     r"board 1: tile 9223372036854775808 is out of range"),
    (lambda db: db.distance([[GOAL_CELLS[:3], GOAL_CELLS[3:6], GOAL_CELLS[6:8] + [2**70]]]),
     r"board 0: tile 1180591620717411303424 is out of range"),
    (lambda db: db.solve([1, 2, 3, 4, 5, 6, 7, 8, 0.5]),
     r"start: tiles must be integers, not float"),
    (lambda db: db.distance([GOAL_CELLS[:8] + [None]]),
     r"states must hold integers .* not NoneType"),
    (lambda db: db.solve(GOAL, max_nodes=-1),
     r"max_nodes must be an integer from 1 to 2\*\*64 - 1 \(None: no limit\), not -1"),
    (lambda db: db.distance([GOAL_CELLS], max_nodes=2**64),
     r"max_nodes must be an integer from 1 to 2\*\*64 - 1"),
    (lambda db: db.check(GOAL, "", max_nodes=0), r"max_nodes must be an integer from 1"),
    (lambda db: db.solve(GOAL, all=True, limit=-1),
     r"limit must be an integer from 0 to 2\*\*64 - 1, not -1"),
    (lambda db: db.solve(GOAL, size=(2**70, 3)),
     r"size: \(1180591620717411303424, 3\) is not a board"),
])
def test_numbers_out_of_range(db, call, match):
    """A number out of range is a ValueError that names it and says why (it
    was 'not numpy.float64' for 2**63, a bare OverflowError for -1)."""
    with pytest.raises(slidedb.InvalidBoardError, match=match):
        call(db)


INTERRUPTED = """
import os, signal, sys, threading, time
import numpy as np
import slidedb
db = slidedb.open(sys.argv[1])
hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"   # 80 moves: far beyond 10 s on 5-5-5
cells = [[int(t) for t in hard.split()]]
for call in (lambda: db.solve(hard, timeout=10), lambda: db.label(cells, timeout=10),
             lambda: db.check(hard, "", timeout=10)):
    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.perf_counter()
    try:
        call()
    except KeyboardInterrupt:
        took = time.perf_counter() - t0
        print("interrupted after %.1f s" % took if took < 2 else "late")
    else:
        print("not interrupted")
print(db.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").moves)
"""


def test_ctrl_c_stops_a_search(db15_path):
    """Ctrl-C (SIGINT) stops a search under way, in solve(), batches and
    check(): KeyboardInterrupt within the poll's interval (the search ran on
    to its own end, here its 10 s timeout, a SearchLimitError)."""
    r = run_python(INTERRUPTED, db15_path, timeout=100)
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 4, (r.stdout, r.stderr[-2000:])
    assert all(line.startswith("interrupted after 0.") for line in lines[:3]), lines
    assert lines[3] == "r"


HARD15 = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"   # 80 moves: minutes on 5-5-5


def test_progress_shows_a_search_and_stops_it(db15):
    """solve(progress=f): f(bound, nodes, seconds) during a long search, at
    most 4 times a second, from the calling thread; a true value stops the
    search (SearchLimitError naming the callback); an exception it raises
    stops it and is raised; a short search never calls it."""
    import threading
    import time

    calls = []

    def progress(bound, nodes, seconds):
        calls.append((bound, nodes, seconds, threading.get_ident()))
        return len(calls) == 3

    t0 = time.perf_counter()
    with pytest.raises(slidedb.SearchLimitError, match="stopped by its progress callback"):
        db15.solve(HARD15, progress=progress, timeout=60)
    took = time.perf_counter() - t0
    assert len(calls) == 3 and took < 5, (calls, took)
    for (b0, n0, s0, t), (b1, n1, s1, _) in zip(calls, calls[1:]):
        assert t == threading.get_ident() and isinstance(b0, int) and 0 < b0 <= b1 <= 80
        assert 0 < n0 < n1 and 0 < s0 < s1 and s1 - s0 >= 0.2, calls
    assert calls[-1][2] <= took

    class Enough(Exception):
        pass

    def impatient(bound, nodes, seconds):
        raise Enough(nodes)

    with pytest.raises(Enough):
        db15.solve(HARD15, progress=impatient, timeout=60)
    quick = []
    a = db15.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
                   progress=lambda *p: quick.append(p))
    assert a.moves == "r" and quick == []
    with pytest.raises(TypeError, match="progress must be a callable"):
        db15.solve(HARD15, progress=3)

    seen = []   # another thread than the main one: the callback runs there
    worker = threading.Thread(target=lambda: seen.append(
        pytest.raises(slidedb.SearchLimitError, db15.solve, HARD15, timeout=60,
                      progress=lambda *p: seen.append(threading.get_ident()) or True)))
    worker.start()
    worker.join(30)
    assert not worker.is_alive() and len(seen) == 2 and seen[0] == worker.ident, seen


INTERRUPTED_PROGRESS = """
import os, signal, sys, threading, time
import slidedb
db = slidedb.open(sys.argv[1])
shown = []
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
t0 = time.perf_counter()
try:
    db.solve("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", timeout=30, threads=2,
             progress=lambda *p: shown.append(p))
except KeyboardInterrupt:
    print("interrupted", time.perf_counter() - t0, len(shown))
else:
    print("not interrupted")
"""


def test_ctrl_c_stops_a_search_with_progress(db15_path):
    """Ctrl-C stops a search that shows its progress as promptly as one that
    does not (the callback's poll looks for signals too), on two threads."""
    r = run_python(INTERRUPTED_PROGRESS, db15_path, timeout=100)
    words = r.stdout.split()
    assert r.returncode == 0 and words[0] == "interrupted", (r.stdout, r.stderr[-2000:])
    assert 0.5 <= float(words[1]) < 1.5 and int(words[2]) >= 1, r.stdout
