#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of slidedb-serve's HTTP/JSON API, over loopback.

Run with Debian's Python and pytest (python3-pytest), standard library only:

    SLIDEDB_SERVE=build-rel/slidedb-serve SLIDEDB_GEN=build-rel/slidedb-gen \\
    SLIDEDB_LOOKUP=build-rel/slidedb-lookup SLIDEDB_TEST_TMP=$(mktemp -d) \\
    /usr/bin/python3 -m pytest -q tests/serve

A session fixture builds a database (full 3x3 and 2x3) in a fresh folder under
SLIDEDB_TEST_TMP, starts the server on a free port of 127.0.0.1 and stops it
with SIGTERM at the end (it must exit 0). Tests that need other options
(--max-body, --max-connections, --idle-timeout, --max-nodes) or a database of their
own (SIGTERM with a response in flight) start servers of their own.

The answers are checked three ways: byte for byte against slidedb-lookup --json
for the same queries and options (both programs answer with the same code),
by replaying every move sequence in Python, and against breadth-first searches
written here (distances, solvability).
"""
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse

import pytest

MOVES = "udlr"                 # the blank's moves, in the order of --all
SEED = 20261122                # the random queries are the same on every run


def need_env(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"set {name} (SLIDEDB_SERVE, SLIDEDB_GEN, SLIDEDB_LOOKUP: the programs; "
                    f"SLIDEDB_TEST_TMP: a scratch folder)")
    return value


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- Boards, moves and an independent oracle.

def cells_of(text):
    """A board as the answers write it ("1 2 3 0 ..."): its cells."""
    return tuple(int(x) for x in text.split())


def size_of(text):
    w, h = text.split("x")
    return int(w), int(h)


def step(board, w, h, move):
    """The board after the blank moves, and the tile that slid; None if illegal."""
    z = board.index(0)
    r, c = divmod(z, w)
    if move == "u" and r > 0:
        n = z - w
    elif move == "d" and r < h - 1:
        n = z + w
    elif move == "l" and c > 0:
        n = z - 1
    elif move == "r" and c < w - 1:
        n = z + 1
    else:
        return None, None
    b = list(board)
    tile = b[n]
    b[z], b[n] = tile, 0
    return tuple(b), tile


def replay(board, w, h, moves):
    """Every board along the moves, and the tiles that slid (AssertionError if illegal)."""
    boards, tiles = [tuple(board)], []
    for i, m in enumerate(moves):
        nxt, tile = step(boards[-1], w, h, m)
        assert nxt is not None, f"move {i + 1} '{m}' of {moves!r} is illegal from {boards[-1]}"
        boards.append(nxt)
        tiles.append(tile)
    return boards, tiles


def solvable(start, goal, w):
    """Whether goal is reachable: the permutation's parity is the blank's distance's."""
    where = {t: i for i, t in enumerate(goal)}
    perm = [where[t] for t in start]
    seen, parity = [False] * len(perm), 0
    for i in range(len(perm)):
        j, n = i, 0
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            n += 1
        if n:
            parity += n - 1
    zs, zg = start.index(0), goal.index(0)
    blank = abs(zs // w - zg // w) + abs(zs % w - zg % w)
    return parity % 2 == blank % 2


_BFS = {}


def bfs_from(goal, w, h):
    """Every board's distance to goal: a plain breadth-first search."""
    key = (tuple(goal), w, h)
    if key not in _BFS:
        dist, frontier, d = {tuple(goal): 0}, [tuple(goal)], 0
        while frontier:
            d += 1
            nxt = []
            for s in frontier:
                for m in MOVES:
                    t, _ = step(s, w, h, m)
                    if t is not None and t not in dist:
                        dist[t] = d
                        nxt.append(t)
            frontier = nxt
        _BFS[key] = dist
    return _BFS[key]


def true_distance(start, goal, w, h):
    """The distance from start to goal (None: unsolvable). Tiles are relabelled so
    that the goal becomes the ordered goal with its blank in the same cell: one
    search per blank cell serves every goal."""
    n = w * h
    z = goal.index(0)
    canon = [0] * n
    label = 1
    for i in range(n):
        if i != z:
            canon[i] = label
            label += 1
    sigma = {goal[i]: canon[i] for i in range(n)}
    return bfs_from(canon, w, h).get(tuple(sigma[t] for t in start))


def notation(board, w, h, style):
    """A board written in one of the notations the programs read."""
    if style == "spaces":
        return " ".join(map(str, board))
    if style in ("x", ".", "_", "X"):
        return " ".join(style if t == 0 else str(t) for t in board)
    if style == "commas":
        return ",".join(map(str, board))
    if style == "compact":
        return "".join("0123456789abcdef"[t] for t in board)
    if style == "brackets":
        rows = [board[r * w:(r + 1) * w] for r in range(h)]
        return "[" + ",".join("[" + ",".join(map(str, row)) + "]" for row in rows) + "]"
    raise ValueError(style)


STYLES = ("spaces", "x", ".", "_", "commas", "compact", "brackets")


def grid_cells(rows, w, h):
    """A grid's rows ("1 2 3", "x 4 6", ...) as cells, whatever the blank's letter."""
    assert len(rows) == h, rows
    cells = []
    for row in rows:
        words = row.split()
        assert len(words) == w, rows
        cells += [int(x) if x.isdigit() else 0 for x in words]
    return tuple(cells)


def check_answer(a, opts=None):
    """An answer object checked against the oracle: solvability, the distance,
    and every move sequence replayed to the goal in exactly `distance` moves."""
    opts = opts or {}
    w, h = size_of(a["size"])
    start, goal = cells_of(a["start"]), cells_of(a["goal"])
    assert sorted(start) == list(range(w * h)) and sorted(goal) == list(range(w * h)), a
    ok = solvable(start, goal, w)
    assert a["solvable"] is ok, f"solvable should be {ok}: {a}"
    if not ok:
        assert a["distance"] is None and a["best_move"] is None and a["moves"] is None, a
        for key in ("best_moves", "solutions", "all_moves", "tiles"):
            if key in a:
                assert a[key] is None, f"{key} should be null when unsolvable: {a}"
        return
    d = a["distance"]
    if w * h <= 9:
        assert d == true_distance(start, goal, w, h), f"wrong distance: {a}"
    boards, tiles = replay(start, w, h, a["moves"])
    assert len(a["moves"]) == d, f"moves of length {len(a['moves'])}, distance {d}: {a}"
    assert boards[-1] == goal, f"the moves do not reach the goal: {a}"
    assert a["best_move"] == (a["moves"][0] if d else None), a
    if "path" in a:
        assert [cells_of(b) for b in a["path"]] == boards, f"path is not the moves' boards: {a}"
    if "tiles" in a:
        assert a["tiles"] == tiles, f"tiles are not those the moves slide: {a}"
    if "path_grids" in a:
        assert [grid_cells(g, w, h) for g in a["path_grids"]] == boards, a
    if "start_grid" in a:
        assert grid_cells(a["start_grid"], w, h) == start, a
        assert grid_cells(a["goal_grid"], w, h) == goal, a
    if "best_moves" in a:
        bm = a["best_moves"]
        assert list(bm) == sorted(set(bm), key=MOVES.index), f"best_moves not in u d l r order: {a}"
        assert (a["best_move"] in bm) if d else bm == "", a
        if w * h <= 9:   # every first move that keeps the distance optimal, and only those
            want = "".join(m for m in MOVES if step(start, w, h, m)[0] is not None and
                           true_distance(step(start, w, h, m)[0], goal, w, h) == d - 1)
            assert bm == want, f"best_moves should be {want!r}: {a}"
    if "all_moves" in a:
        seqs = a["all_moves"]
        limit = int(opts.get("limit", 100))
        assert seqs == sorted(seqs, key=lambda s: [MOVES.index(m) for m in s]), a
        assert len(set(seqs)) == len(seqs) and 1 <= len(seqs) <= limit, a
        if len(seqs) < limit:   # every optimal solution is listed: moves is one of them
            assert a["moves"] in seqs, f"moves is not among all_moves: {a}"
        for s in seqs:
            bs, _ = replay(start, w, h, s)
            assert len(s) == d and bs[-1] == goal, f"{s!r} is not an optimal solution: {a}"
        if "solutions" in a:
            assert len(seqs) == min(a["solutions"], limit), a
        if "best_moves" in a and len(seqs) < limit:
            assert "".join(sorted({s[:1] for s in seqs}, key=MOVES.index)) == a["best_moves"], a
    if "solutions" in a:
        assert isinstance(a["solutions"], int) and a["solutions"] >= 1, a


# --- Servers, HTTP and the command-line program.

class Server:
    """slidedb-serve on a free port of 127.0.0.1, its output in a log file."""

    def __init__(self, db, *options, folder):
        self.db = db
        self.options = options
        for attempt in range(5):   # a port taken between free_port() and the bind: another
            self.port = free_port()
            self.log_path = os.path.join(folder, f"serve-{self.port}.log")
            self.log = open(self.log_path, "wb")
            self.proc = subprocess.Popen(
                [SERVE, "--db", db, "--listen", f"127.0.0.1:{self.port}", "-q", *options],
                stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
            deadline = time.monotonic() + 10
            while self.proc.poll() is None and time.monotonic() < deadline:
                try:
                    status, _, body = request(self.port, "GET", "/healthz", timeout=1)
                    if status == 200 and body == b"ok\n":
                        return
                except OSError:
                    pass
                time.sleep(0.02)
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
                pytest.fail(f"slidedb-serve did not answer /healthz within 10 s: {self.output()}")
            self.log.close()
            if b"cannot listen" not in open(self.log_path, "rb").read():
                break
        pytest.fail(f"slidedb-serve would not start (exit {self.proc.returncode}): "
                    f"{self.output()}")

    def output(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()[-3000:]

    def alive(self):
        return self.proc.poll() is None

    def send(self, sig):
        self.signalled = True
        self.proc.send_signal(sig)

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Signal it (unless that was done) and wait: its exit status."""
        if self.proc.poll() is None and not getattr(self, "signalled", False):
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            pytest.fail(f"slidedb-serve did not stop within {timeout} s of {sig!r}")
        self.log.close()
        return rc

    def get(self, path, **kw):
        return request(self.port, "GET", path, **kw)


@contextlib.contextmanager
def server(db, *options, folder):
    """A server of a test's own; it must exit 0 on SIGTERM at the end."""
    s = Server(db, *options, folder=folder)
    failed = False
    try:
        yield s
    except BaseException:
        failed = True
        raise
    finally:
        rc = s.stop()
        if not failed:
            assert rc == 0, f"slidedb-serve {' '.join(options)} exited {rc} on SIGTERM: " \
                            f"{s.output()}"


def request(port, method, path, body=None, headers=None, timeout=30):
    """(status, headers with lower-case names, body) of one request on a new connection."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, data
    finally:
        c.close()


def query(path, params):
    """path?params, every value percent-encoded (spaces as %20)."""
    if not params:
        return path
    return path + "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def json_error(status, headers, body, want_status, *fragments):
    """A JSON error of the status wanted, its message holding every fragment."""
    assert status == want_status, f"status {status}, expected {want_status}: {body!r}"
    assert headers.get("content-type") == "application/json", headers
    assert body.endswith(b"\n"), body
    obj = json.loads(body)
    assert isinstance(obj, dict) and isinstance(obj.get("error"), str) and obj["error"], body
    for f in fragments:
        assert f in obj["error"], f"{f!r} not in the error {obj['error']!r}"
    return obj


def raw_exchange(port, data, wait=3.0, shut=False):
    """Send bytes on a fresh socket, read until the server closes (or wait runs out)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(wait)
    out = []
    try:
        try:
            s.sendall(data)
            if shut:
                s.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                b = s.recv(1 << 16)
            except socket.timeout:
                break
            except OSError:
                break
            if not b:
                break
            out.append(b)
    finally:
        s.close()
    return b"".join(out)


def dechunk(data):
    """The body of a chunked HTTP/1.1 response (AssertionError if it was cut short)."""
    parts, i = [], 0
    while True:
        j = data.find(b"\r\n", i)
        assert j >= 0, f"the chunked body is cut short after {sum(map(len, parts))} bytes"
        n = int(data[i:j].split(b";")[0], 16)
        if n == 0:
            assert data[j + 2:j + 4] == b"\r\n", "no end after the last chunk"
            return b"".join(parts)
        assert len(data) >= j + 2 + n + 2, \
            f"the chunked body is cut short after {sum(map(len, parts))} bytes"
        parts.append(data[j + 2:j + 2 + n])
        assert data[j + 2 + n:j + 4 + n] == b"\r\n"
        i = j + 4 + n


def lookup(db, *args, stdin=b""):
    """slidedb-lookup --db DB ARGS: (exit status, stdout)."""
    r = subprocess.run([LOOKUP, "--db", db, *args], input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return r.returncode, r.stdout


def parse_metrics(text):
    """Prometheus text: ({(name, labels as a sorted tuple): value}, {name: type}, helps)."""
    samples, types, helps = {}, {}, set()
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
        elif line.startswith("# HELP "):
            helps.add(line.split(" ", 3)[2])
        elif line and not line.startswith("#"):
            m = re.fullmatch(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (\S+)', line)
            assert m, f"not a Prometheus sample line: {line!r}"
            labels = tuple(sorted(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', m.group(2) or "")))
            key = (m.group(1), labels)
            assert key not in samples, f"sample twice: {line!r}"
            samples[key] = float(m.group(3))
    return samples, types, helps


def requests_total(samples, endpoint, status):
    return samples.get(("slidedb_requests_total",
                        (("endpoint", endpoint), ("status", str(status)))), 0)


SERVE = LOOKUP = GEN = None


@pytest.fixture(scope="session")
def env():
    """The database (full 3x3 and 2x3, and 3x3 in the multi-tile metric) and the
    server every test shares."""
    global SERVE, LOOKUP, GEN
    SERVE, GEN, LOOKUP = (need_env(n) for n in ("SLIDEDB_SERVE", "SLIDEDB_GEN",
                                                "SLIDEDB_LOOKUP"))
    top = need_env("SLIDEDB_TEST_TMP")
    os.makedirs(top, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="serve-api-", dir=top)
    db = os.path.join(folder, "api.lmdb")
    for size in ("3x3", "2x3"):
        subprocess.run([GEN, "full", size, "--db", db, "-q"], check=True, timeout=120)
    subprocess.run([GEN, "full", "3x3", "--metric", "mtm", "--db", db, "-q"], check=True,
                   timeout=120)
    s = Server(db, folder=folder)
    s.folder = folder
    yield s
    rc = s.stop()
    out = s.output()
    assert rc == 0, f"slidedb-serve exited {rc} on SIGTERM: {out}"
    shutil.rmtree(folder, ignore_errors=True)


def get_json(env, path, params=None, want=200):
    status, headers, body = env.get(query(path, params or {}))
    assert status == want, f"{path} {params}: {status} {body!r}"
    assert headers.get("content-type") == "application/json", headers
    return json.loads(body)


# --- GET /v1/solve

# The same board, 1 2 3 / x 4 6 / 7 5 8, in every notation (3 moves: r d r).
SAME_BOARD = ["1 2 3 x 4 6 7 5 8", "1 2 3 0 4 6 7 5 8", "1,2,3,0,4,6,7,5,8", "123046758",
              "[[1,2,3],[0,4,6],[7,5,8]]", "1 2 3 . 4 6 7 5 8", "1 2 3 _ 4 6 7 5 8",
              "1 2 3 X 4 6 7 5 8", "[[1, 2, 3], [x, 4, 6], [7, 5, 8]]"]


@pytest.mark.parametrize("board", SAME_BOARD)
def test_solve_notations(env, board):
    a = get_json(env, "/v1/solve", {"start": board})
    assert a == {"start": "1 2 3 0 4 6 7 5 8", "goal": "1 2 3 4 5 6 7 8 0", "size": "3x3",
                 "solvable": True, "distance": 3, "best_move": "r", "moves": "rdr"}, a


def test_solve_readme_examples(env):
    # The curl example of the README and doc/serve.md, byte for byte.
    status, headers, body = env.get("/v1/solve?start=8%206%207%202%205%204%203%200%201"
                                    "&all_best=1&solutions=1")
    assert status == 200 and headers["content-type"] == "application/json"
    assert headers.get("cache-control") == "no-store"
    assert body == (b'{"start":"8 6 7 2 5 4 3 0 1","goal":"1 2 3 4 5 6 7 8 0","size":"3x3",'
                    b'"solvable":true,"distance":31,"best_move":"u","moves":'
                    b'"uurdlldrrullurrdldluurddluurrdd","best_moves":"ulr","solutions":40}\n')
    # A compact start and the compact snail goal; '+' for spaces (form encoding).
    a = get_json(env, "/v1/solve", {"start": "541203786", "goal": "123804765"})
    assert (a["distance"], a["moves"]) == (20, "urdluldrurdldruulldr"), a
    status, _, body = env.get("/v1/solve?start=1+2+3+x+4+6+7+5+8")
    assert status == 200 and json.loads(body)["moves"] == "rdr", body
    # Unsolvable, and at the goal.
    a = get_json(env, "/v1/solve", {"start": "123804765"})
    assert a["solvable"] is False and a["distance"] is None and a["moves"] is None, a
    a = get_json(env, "/v1/solve", {"start": "1 2 3 4 5 6 7 8 0", "all_best": "1",
                                    "solutions": "1", "path": "1"})
    assert (a["distance"], a["best_move"], a["moves"], a["best_moves"]) == (0, None, "", ""), a
    assert a["path"] == ["1 2 3 4 5 6 7 8 0"], a


def test_solve_flags(env):
    base = {"start": "1 2 3 4 0 8 7 6 5"}
    a = get_json(env, "/v1/solve", {**base, "all": "1", "solutions": "1", "all_best": "1",
                                    "tiles": "1"})
    assert a["all_moves"] == ["druldr", "rdlurd"] and a["solutions"] == 2, a
    assert a["best_moves"] == "dr" and a["tiles"] == [6, 5, 8, 6, 5, 8], a
    check_answer(a, {})
    a = get_json(env, "/v1/solve", {**base, "all": "1", "limit": "1"})
    assert a["all_moves"] == ["druldr"], a
    # flag spellings: "", 1, true, yes turn it on; 0, false, no leave it off
    for on in ("", "1", "true", "yes"):
        assert "path" in get_json(env, "/v1/solve", {**base, "path": on}), on
    for off in ("0", "false", "no"):
        assert "path" not in get_json(env, "/v1/solve", {**base, "path": off}), off
    status, _, body = env.get("/v1/solve?start=123046758&path")      # a bare name
    assert status == 200 and "path" in json.loads(body), body
    a = get_json(env, "/v1/solve", {"start": "1 2 3 x 4 6 7 5 8", "grid": "1"})
    assert a["start_grid"] == ["1 2 3", "x 4 6", "7 5 8"], a
    assert a["goal_grid"] == ["1 2 3", "4 5 6", "7 8 x"], a
    a = get_json(env, "/v1/solve", {"start": "1 2 3 x 4 6 7 5 8", "grid": "1", "path": "1",
                                    "tiles": "1"})
    check_answer(a)
    assert len(a["path_grids"]) == 4 and a["tiles"] == [4, 5, 8], a
    # size settles a 6-cell board; 3x3 on 6 cells is refused
    a = get_json(env, "/v1/solve", {"start": "1 2 3 4 0 5", "size": "2x3"})
    assert (a["size"], a["distance"], a["moves"]) == ("2x3", 1, "r"), a
    a = get_json(env, "/v1/solve", {"start": "[[1,2],[3,4],[0,5]]"})
    assert a["size"] == "2x3", a
    check_answer(a)


def random_pairs(n, rng):
    """n (start, goal) pairs in random notations: 3x3 and 2x3, random goals, solvable or not."""
    pairs = []
    for i in range(n):
        w, h = (2, 3) if i % 5 == 4 else (3, 3)
        goal = list(range(w * h))
        rng.shuffle(goal)
        if i % 3 == 0:     # any board: half of them unsolvable
            start = goal[:]
            rng.shuffle(start)
        else:              # a random walk from the goal: solvable, short or long
            start = tuple(goal)
            for _ in range(rng.choice((0, 1, 2, 5, 10, 30, 80))):
                nxt, _ = step(start, w, h, rng.choice(MOVES))
                start = nxt or start
        pairs.append((notation(tuple(start), w, h, rng.choice(STYLES)),
                      notation(tuple(goal), w, h, rng.choice(STYLES)), w * h))
    return pairs


# The options of GET /v1/solve and the slidedb-lookup flags they stand for.
OPTION_SETS = [
    ({}, []),
    ({"path": "1"}, ["--path"]),
    ({"all_best": "1", "solutions": "1"}, ["--all-best", "--solutions"]),
    ({"all": "1", "limit": "7", "solutions": "1"}, ["--all", "--limit", "7", "--solutions"]),
    ({"tiles": "1", "grid": "1", "path": "1"}, ["--tiles", "--grid", "--path"]),
    ({"grid": "1", "all_best": "1"}, ["--grid", "--all-best"]),
]


@pytest.fixture(scope="session")
def pairs():
    return random_pairs(200, random.Random(SEED))


@pytest.fixture(scope="session")
def cli_answers(env, pairs):
    """slidedb-lookup --json's lines for the pairs, per option set (one batch each)."""
    lines = "".join(f"{s} ; {g}\n" for s, g, _ in pairs).encode()
    out = {}
    for i, (_, flags) in enumerate(OPTION_SETS):
        rc, stdout = lookup(env.db, "--json", *flags, stdin=lines)
        assert rc == 0, f"slidedb-lookup --json {flags} failed ({rc})"
        out[i] = stdout.splitlines(keepends=True)
        assert len(out[i]) == len(pairs)
    return out


@pytest.mark.parametrize("k", range(len(OPTION_SETS)))
def test_solve_random_pairs_match_cli(env, pairs, cli_answers, k):
    params, flags = OPTION_SETS[k]
    unsolvable = 0
    for i, (s, g, _) in enumerate(pairs):
        status, headers, body = env.get(query("/v1/solve", {"start": s, "goal": g, **params}))
        assert status == 200, f"{s!r} -> {g!r} {params}: {status} {body!r}"
        assert headers["content-type"] == "application/json"
        assert body == cli_answers[k][i], \
            f"{s!r} -> {g!r} {params}:\n server {body!r}\n cli    {cli_answers[k][i]!r}"
        a = json.loads(body)
        check_answer(a, params)
        unsolvable += not a["solvable"]
    assert 10 < unsolvable < 80, "the random pairs should mix solvable and unsolvable ones"


def test_solve_one_shot_matches_cli(env):
    """Single queries, answers and errors, against slidedb-lookup with one argument."""
    cases = [
        ({"start": "8 6 7 2 5 4 3 0 1", "all_best": "1", "solutions": "1"},
         ["--all-best", "--solutions"], 200),
        ({"start": "1 2 3 x 4 6 7 5 8", "grid": "1", "path": "1", "tiles": "1"},
         ["--grid", "--path", "--tiles"], 200),
        ({"start": "[[2,0],[1,3],[4,5]]", "goal": "0 1 2 3 4 5", "all": "1", "limit": "3"},
         ["--all", "--limit", "3"], 200),
        ({"start": "1 2 3 4 0 5", "size": "2x3", "path": "1"}, ["--size", "2x3", "--path"], 200),
        ({"start": "1 2 3 4 5 6 7 8 8"}, [], 400),
        ({"start": "bad"}, [], 400),
        ({"start": "[[1,2,3],[4,0]]"}, [], 400),
        ({"start": "1 2 3 4 5 6 7 8 9"}, [], 400),
        ({"start": "1 2 3 4 5 6 0 7 8", "goal": "1 2 3 4 5 0"}, [], 400),
        ({"start": "1 2 3 4 5 6 0 7 8", "goal": "1 2 3 4 5 6 7 8 8"}, [], 400),
        ({"start": "1 2 3 4 5 0", "size": "3x3"}, ["--size", "3x3"], 400),
        ({"start": "[[1,2,3],[4,0,5]]"}, [], 404),
        ({"start": "1 2 3 4 0 5", "size": "3x2"}, ["--size", "3x2"], 404),
    ]
    for params, flags, want in cases:
        status, _, body = env.get(query("/v1/solve", params))
        assert status == want, f"{params}: {status} {body!r}"
        text = params["start"] + (f" ; {params['goal']}" if "goal" in params else "")
        rc, stdout = lookup(env.db, "--json", *flags, text)
        assert rc == (0 if want == 200 else 1)
        assert body == stdout, f"{params}:\n server {body!r}\n cli    {stdout!r}"
        if want == 200:
            check_answer(json.loads(body), params)
        else:
            obj = json.loads(body)
            assert obj["input"] == text and obj["error"], obj


def test_solve_size_param_matches_cli(env):
    rng = random.Random(SEED + 1)
    boards = []
    for _ in range(40):
        b = list(range(6))
        rng.shuffle(b)
        boards.append(notation(tuple(b), 2, 3, rng.choice(("spaces", "x", "compact", "commas"))))
    rc, stdout = lookup(env.db, "--json", "--size", "2x3", "--path",
                        stdin="".join(b + "\n" for b in boards).encode())
    assert rc == 0
    want = stdout.splitlines(keepends=True)
    for b, line in zip(boards, want, strict=True):
        status, _, body = env.get(query("/v1/solve", {"start": b, "size": "2x3", "path": "1"}))
        assert status == 200 and body == line, f"{b!r}: {body!r} != {line!r}"
        check_answer(json.loads(body))


# --- POST /v1/solve

def batch_body():
    """A batch in the CLI's format: comments, blank lines, grids, two bad lines.
    Returns the body and the (line number, text) of the bad ones."""
    lines = [
        "# queries, one per line",
        "1 2 3 4 5 6 0 7 8",
        "",
        "1 2 3", "4 0 6", "7 5 8",                                   # a grid
        "",
        "1 2 3", "4 0 6", "7 5 8", "1 2 3", "4 5 0", "7 8 6",          # start and goal
        "",
        "not a board",                                              # bad
        "541203786 123804765",                                      # two compact words
        "1 2 3 0 8 4 7 6 5 1 0 3 8 2 4 7 6 5",                      # both boards' numbers
        "[[1,2,3],[0,4,6],[7,5,8]] ; 1,2,3,4,5,6,7,8,0",
        "# another comment",
        "1 2 3 4 5 6 8 7 0",                                        # unsolvable
        "1 2 3 4 5 6 7 8 8",                                        # bad
        "1 2 3 4 0 5",                                              # 2x3
        "1 2 3 x 4 6 7 5 8 ; 1 2 3 4 5 6 7 8 x",
        "8 6 7 2 5 4 3 0 1",                                        # no newline at the end
    ]
    bad = [(i + 1, t) for i, t in enumerate(lines) if t in ("not a board", "1 2 3 4 5 6 7 8 8")]
    return "\n".join(lines).encode(), bad, 12


@pytest.mark.parametrize("params,flags", [
    ({}, []),
    ({"path": "1", "all_best": "1", "solutions": "1", "all": "1", "limit": "3", "tiles": "1",
      "grid": "1"}, ["--path", "--all-best", "--solutions", "--all", "--limit", "3", "--tiles",
                     "--grid"]),
])
def test_batch_matches_cli(env, params, flags):
    body, bad, nqueries = batch_body()
    status, headers, got = request(env.port, "POST", query("/v1/solve", params), body=body)
    assert status == 200, got
    assert headers["content-type"] == "application/x-ndjson", headers
    rc, want = lookup(env.db, "--json", *flags, stdin=body)
    assert rc == 1, "the CLI exits 1 on a bad line"
    assert got == want, f"server:\n{got.decode()}\ncli:\n{want.decode()}"
    out = [json.loads(line) for line in got.splitlines()]
    assert len(out) == nqueries, f"one line per query: {len(out)} for {nqueries}"
    errors = [(o["line"], o["input"]) for o in out if "error" in o]
    assert errors == bad, errors
    for o in out:
        assert set(o) == {"line", "input", "error"} if "error" in o else "start" in o, o
        if "error" not in o:
            check_answer(o, params)
    # in order: the first answers are the first queries
    assert out[0]["start"] == "1 2 3 4 5 6 0 7 8" and out[1]["start"] == "1 2 3 4 0 6 7 5 8"
    assert out[2]["goal"] == "1 2 3 4 5 0 7 8 6" and out[3]["line"] == 15
    assert out[-1]["start"] == "8 6 7 2 5 4 3 0 1" and out[-1]["distance"] == 31


def test_batch_size_and_grids_of_2(env):
    body = b"1 2\n3 4\n0 5\n\n1 2 3 4 0 5\n[[1,2],[3,4],[5,0]] ; 0 1 2 3 4 5\n1 2 3 4 5 5\n"
    status, _, got = request(env.port, "POST", "/v1/solve?size=2x3", body=body)
    rc, want = lookup(env.db, "--json", "--size", "2x3", stdin=body)
    assert status == 200 and rc == 1 and got == want, (got, want)
    out = [json.loads(line) for line in got.splitlines()]
    assert [o.get("size") for o in out] == ["2x3", "2x3", "2x3", None], out
    assert out[-1]["line"] == 7, out


def test_batch_random_pairs_match_cli(env, pairs, cli_answers):
    body = "".join(f"{s} ; {g}\n" for s, g, _ in pairs).encode()
    status, _, got = request(env.port, "POST", "/v1/solve?all=1&limit=7&solutions=1", body=body)
    assert status == 200 and got == b"".join(cli_answers[3])


def test_batch_edge_cases(env):
    status, headers, got = request(env.port, "POST", "/v1/solve", body=b"")
    assert status == 200 and got == b"" and headers["content-type"] == "application/x-ndjson"
    assert lookup(env.db, "--json", stdin=b"") == (0, b"")
    status, _, got = request(env.port, "POST", "/v1/solve", body=b"# only a comment\n\n\n")
    assert status == 200 and got == b""
    json_error(*request(env.port, "POST", "/v1/solve?start=123046758", body=b"123046758\n"),
               400, "no 'start' or 'goal'")
    json_error(*request(env.port, "POST", "/v1/solve?goal=123046758", body=b"123046758\n"),
               400, "no 'start' or 'goal'")
    json_error(*request(env.port, "POST", "/v1/solve?bogus=1", body=b"123046758\n"),
               400, "unknown parameter 'bogus'")
    json_error(*request(env.port, "POST", "/v1/solve?limit=0", body=b"123046758\n"),
               400, "limit")


# --- GET /v1/random

RANDOM_CASES = [
    ({"distance": 20, "count": 5, "seed": 7}, ["--distance", "20", "--count", "5", "--seed", "7"]),
    ({"min_distance": 10, "max_distance": 12, "count": 8, "seed": 3},
     ["--min-distance", "10", "--max-distance", "12", "--count", "8", "--seed", "3"]),
    ({"min_distance": 29, "count": 4, "seed": 4},
     ["--min-distance", "29", "--count", "4", "--seed", "4"]),
    ({"max_distance": 2, "count": 6, "seed": 5},
     ["--max-distance", "2", "--count", "6", "--seed", "5"]),
    ({"walk": 6, "count": 4, "seed": 9}, ["--walk", "6", "--count", "4", "--seed", "9"]),
    ({"count": 3, "seed": 1}, ["--count", "3", "--seed", "1"]),
    ({"goal": "x 1 2 3 4 5 6 7 8", "distance": 5, "count": 3, "seed": 3, "grid": 1},
     ["--goal", "x 1 2 3 4 5 6 7 8", "--distance", "5", "--count", "3", "--seed", "3",
      "--grid"]),
    ({"size": "2x3", "distance": 7, "count": 4, "seed": 11},
     ["--size", "2x3", "--distance", "7", "--count", "4", "--seed", "11"]),
    ({"distance": 4, "count": 2, "seed": 5, "path": 1, "tiles": 1, "all_best": 1},
     ["--distance", "4", "--count", "2", "--seed", "5", "--path", "--tiles", "--all-best"]),
]


@pytest.mark.parametrize("params,flags", RANDOM_CASES)
def test_random_matches_cli(env, params, flags):
    status, headers, got = env.get(query("/v1/random", params))
    assert status == 200 and headers["content-type"] == "application/json", got
    rc, want = lookup(env.db, "random", "--json", *flags)
    assert rc == 0
    assert got == b"[" + b",".join(want.splitlines()) + b"]\n", \
        f"server {got!r}\ncli    {want!r}"
    boards = json.loads(got)
    assert len(boards) == params["count"]
    for a in boards:
        check_answer(a, params)
        d = a["distance"]
        assert params.get("min_distance", params.get("distance", 0)) <= d
        assert d <= params.get("max_distance", params.get("distance", 99)), a
        if "walk" in params:
            assert d <= params["walk"] and d % 2 == params["walk"] % 2, a


@pytest.mark.parametrize("d", [0, 1, 15, 31])
def test_random_distance_by_bfs(env, d):
    boards = get_json(env, "/v1/random", {"distance": d, "count": 60, "seed": d + 100})
    assert len(boards) == 60
    dist = bfs_from((1, 2, 3, 4, 5, 6, 7, 8, 0), 3, 3)
    for a in boards:
        assert a["goal"] == "1 2 3 4 5 6 7 8 0" and a["size"] == "3x3", a
        assert dist[cells_of(a["start"])] == d == a["distance"], a
        assert len(a["moves"]) == d and replay(cells_of(a["start"]), 3, 3, a["moves"])[0][-1] \
            == (1, 2, 3, 4, 5, 6, 7, 8, 0), a
    if d == 15:
        assert len({a["start"] for a in boards}) > 50, "60 draws among 5482 boards: distinct"
    if d == 31:
        assert {a["start"] for a in boards} == {"8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"}


def test_random_ranges_goals_and_sizes(env):
    dist = bfs_from((1, 2, 3, 4, 5, 6, 7, 8, 0), 3, 3)
    boards = get_json(env, "/v1/random", {"min_distance": 25, "max_distance": 27, "count": 200,
                                          "seed": 1})
    got = {dist[cells_of(a["start"])] for a in boards}
    assert got == {25, 26, 27}, got
    boards = get_json(env, "/v1/random", {"count": 200, "seed": 2})      # among all boards
    for a in boards:
        assert a["solvable"] and dist[cells_of(a["start"])] == a["distance"], a
    assert len({a["distance"] for a in boards}) > 5
    goal = "8 7 6 5 4 3 2 1 0"                                            # a goal of our own
    boards = get_json(env, "/v1/random", {"goal": goal, "distance": 12, "count": 30, "seed": 3})
    for a in boards:
        assert a["goal"] == goal, a
        assert true_distance(cells_of(a["start"]), cells_of(goal), 3, 3) == 12, a
        check_answer(a)
    boards = get_json(env, "/v1/random", {"size": "2x3", "distance": 9, "count": 30, "seed": 4})
    d23 = bfs_from((1, 2, 3, 4, 5, 0), 2, 3)
    for a in boards:
        assert a["size"] == "2x3" and d23[cells_of(a["start"])] == 9, a
    boards = get_json(env, "/v1/random", {"walk": 0, "count": 2, "seed": 5})
    assert [a["start"] for a in boards] == ["1 2 3 4 5 6 7 8 0"] * 2
    assert len(get_json(env, "/v1/random", {"distance": 20, "count": 1000, "seed": 6})) == 1000


def test_random_seed(env):
    q = {"distance": 18, "count": 20}
    a = env.get(query("/v1/random", {**q, "seed": 42}))
    b = env.get(query("/v1/random", {**q, "seed": 42}))
    c = env.get(query("/v1/random", {**q, "seed": 43}))
    assert a[0] == b[0] == c[0] == 200
    assert a[2] == b[2], "the same seed must draw the same boards"
    assert a[2] != c[2], "another seed should draw other boards"
    u1, u2 = (env.get(query("/v1/random", q))[2] for _ in range(2))
    assert u1 != u2, "without a seed, two draws of 20 boards should differ"
    assert json.loads(a[2])[0]["start"] != json.loads(c[2])[0]["start"]


def test_random_errors(env):
    def err(params, status, *frag):
        return json_error(*env.get(query("/v1/random", params)), status, *frag)
    err({"count": 0}, 400, "count '0'")
    err({"count": 1001}, 400, "count '1001'", "1 to 1000")
    err({"min_distance": 12, "max_distance": 10}, 400, "min_distance 12 is above max_distance 10")
    err({"distance": 32}, 400, "no 3x3 state is 32 moves from the goal")
    err({"distance": 3, "walk": 4}, 400, "walk")
    err({"start": "123046758"}, 400, "give no 'start'")
    err({"seed": "abc"}, 400, "seed 'abc'")
    err({"seed": "-1"}, 400, "seed '-1'")
    err({"seed": ""}, 400, "seed")
    err({"size": "4x4", "distance": 3}, 400, "4x4 has no full tables")
    err({"size": "3x2", "distance": 3}, 404, "slidedb-gen full 3x2")
    err({"goal": "1 2 3"}, 400, "goal")
    err({"distance": 3, "colour": "red"}, 400, "unknown parameter 'colour'")
    err({"limit": 3}, 400, "unknown parameter 'limit'")


def test_random_seed_out_of_range_is_refused(env):
    """seed must be a number the generator can take: a seed past 2^64 - 1 (or a
    negative one behind a space) is refused like every other bad number, not
    silently clamped to 2^64 - 1 so that different seeds draw the same boards."""
    top = env.get(query("/v1/random", {"distance": 12, "count": 5,
                                       "seed": "18446744073709551615"}))
    assert top[0] == 200
    got = {}
    for seed in ("18446744073709551616", "99999999999999999999999", " -1"):
        status, _, body = env.get(query("/v1/random", {"distance": 12, "count": 5, "seed": seed}))
        got[seed] = (status, "the boards of seed 2^64 - 1" if body == top[2] else body[:80])
    assert all(status == 400 for status, _ in got.values()), \
        f"expected 400 for each seed, got {got}"


# --- GET /v1/check

CHECKS = [
    # (params, verdict)
    ({"start": "1 2 3 4 5 6 0 7 8", "moves": "rr"}, "optimal"),
    ({"start": "1 2 3 4 5 6 0 7 8", "moves": "rlrr"}, "valid, 2 moves longer than optimal"),
    ({"start": "1 2 3 4 5 6 0 7 8", "moves": "d"}, "illegal move 'd' at step 1"),
    ({"start": "1 2 3 4 5 6 0 7 8", "moves": "r"}, "does not reach the goal (ends 1 move away)"),
    ({"start": "1 2 3 4 5 6 0 8 7", "moves": "rr"}, "unsolvable"),
    ({"start": "1 2 3 4 5 6 7 8 0", "moves": ""}, "optimal"),
    ({"start": "1 2 3 4 5 6 0 7 8", "goal": "1 2 3 4 5 6 7 0 8", "moves": "r"}, "optimal"),
    ({"start": "123046758", "moves": "rdr", "grid": "1"}, "optimal"),
    ({"start": "1 2 3 x 4 6 7 5 8", "moves": "rdrul", "grid": "1"},
     "does not reach the goal (ends 2 moves away)"),
    ({"start": "1 2 3 4 0 5", "moves": "r"}, "optimal"),
    ({"start": "1 2 3 4 0 5", "size": "2x3", "moves": "ru"},
     "does not reach the goal (ends 1 move away)"),
    ({"start": "8 6 7 2 5 4 3 0 1", "moves": "uurdlldrrullurrdldluurddluurrdd"}, "optimal"),
    ({"start": "8 6 7 2 5 4 3 0 1", "moves": "uurdlldrrullurrdldluurddluurrddlr"},
     "valid, 2 moves longer than optimal"),
]


@pytest.mark.parametrize("params,verdict", CHECKS)
def test_check_matches_cli(env, params, verdict):
    status, headers, got = env.get(query("/v1/check", params))
    assert status == 200 and headers["content-type"] == "application/json", got
    a = json.loads(got)
    assert a["verdict"] == verdict, a
    assert a["moves"] == params["moves"] and a["length"] == len(params["moves"]), a
    assert a["optimal"] is (verdict == "optimal"), a
    assert a["reaches_goal"] is (verdict in ("optimal",) or verdict.startswith("valid")), a
    assert ("start_grid" in a) is ("grid" in params), a
    flags = ["--grid"] if "grid" in params else []
    flags += ["--size", params["size"]] if "size" in params else []
    text = params["start"] + (f" ; {params['goal']}" if "goal" in params else "")
    rc, want = lookup(env.db, "--json", *flags, "check", text, params["moves"])
    assert rc == 0 and got == want, f"server {got!r}\ncli    {want!r}"


def test_check_errors(env):
    def err(params, status, *frag):
        return json_error(*env.get(query("/v1/check", params)), status, *frag)
    err({"start": "1 2 3 4 5 6 0 7 8"}, 400, "missing parameter 'moves'")
    err({"moves": "rr"}, 400, "missing parameter 'start'")
    o = err({"start": "1 2 3 4 5 6 0 7 8", "moves": "rx"}, 400, "'x' at position 2 is not a move")
    rc, want = lookup(env.db, "--json", "check", "1 2 3 4 5 6 0 7 8", "rx")
    assert rc == 1 and json.loads(want) == o
    err({"start": "1 2 3 4 5 6 0 7 8", "moves": "r;r"}, 400, "';'")
    err({"start": "1 2 3 4 5 6 0 7 8", "moves": "rr", "path": "1"}, 400,
        "unknown parameter 'path'")
    err({"start": "1 2 3 4 5 6 7 8 8", "moves": "rr"}, 400, "tile 8 appears twice")
    err({"start": "[[1,2,3],[4,0,5]]", "moves": "r"}, 404, "slidedb-gen full 3x2")


# --- GET /v1/tables, /healthz, /metrics, /

def test_tables_match_cli_info(env):
    status, headers, got = env.get("/v1/tables")
    assert status == 200 and headers["content-type"] == "application/json"
    rc, want = lookup(env.db, "info", "--json")
    assert rc == 0 and got == want, f"server {got[:300]!r}\ncli    {want[:300]!r}"
    names = {t["name"] for t in json.loads(got)["tables"]}
    assert {"full-3x3-b0", "full-3x3-b1", "full-3x3-b4"} <= names, names
    assert any(n.startswith("full-2x3-") for n in names), names
    json_error(*env.get("/v1/tables?name=full-3x3-b0"), 400, "unknown parameter 'name'")


def test_healthz_and_page(env):
    status, headers, body = env.get("/healthz")
    assert (status, body) == (200, b"ok\n") and headers["content-type"].startswith("text/plain")
    status, headers, page = env.get("/")
    assert status == 200 and headers["content-type"].startswith("text/html"), headers
    assert b"<html" in page.lower() and b"</html>" in page.lower(), page[:200]
    assert int(headers["content-length"]) == len(page)
    # HEAD: the headers of GET, no body
    status, headers, body = request(env.port, "HEAD", "/")
    assert status == 200 and body == b"" and int(headers["content-length"]) == len(page)
    status, headers, body = request(env.port, "HEAD", "/v1/solve?start=123046758")
    assert status == 200 and body == b"" and headers["content-type"] == "application/json"
    # keep-alive: several requests on one connection
    c = http.client.HTTPConnection("127.0.0.1", env.port, timeout=10)
    try:
        for board in SAME_BOARD[:4]:
            c.request("GET", query("/v1/solve", {"start": board}))
            r = c.getresponse()
            assert r.status == 200 and json.loads(r.read())["moves"] == "rdr"
    finally:
        c.close()


def metrics(env):
    status, headers, body = env.get("/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain"), headers
    return parse_metrics(body.decode())


def test_metrics_format(env):
    env.get("/v1/solve?start=123046758")
    samples, types, helps = metrics(env)
    assert types.get("slidedb_requests_total") == "counter"
    assert types.get("slidedb_request_duration_seconds") == "histogram"
    assert types.get("slidedb_answers_total") == "counter"
    assert types.get("slidedb_open_connections") == "gauge"
    assert types.get("slidedb_snapshot_age_seconds") == "gauge"
    for name, _ in samples:
        family = re.sub(r"_(bucket|sum|count)$", "", name) \
            if types.get(re.sub(r"_(bucket|sum|count)$", "", name)) == "histogram" else name
        assert family in types and family in helps, f"{name} has no # TYPE or # HELP"
    for (name, labels), v in samples.items():
        if name == "slidedb_requests_total":
            assert [k for k, _ in labels] == ["endpoint", "status"], labels
            assert v >= 1 and v == int(v)
    # the histograms: cumulative buckets, +Inf = _count = the endpoint's requests
    endpoints = {dict(l)["endpoint"] for n, l in samples if n.endswith("_bucket")}
    assert {"solve", "healthz"} <= endpoints, endpoints
    for ep in endpoints:
        buckets = sorted(((float(dict(l)["le"]), v) for (n, l), v in samples.items()
                          if n == "slidedb_request_duration_seconds_bucket"
                          and dict(l)["endpoint"] == ep))
        les = [le for le, _ in buckets]
        assert les[-1] == float("inf") and len(les) >= 10, les
        counts = [v for _, v in buckets]
        assert counts == sorted(counts), f"{ep}: buckets are not cumulative: {buckets}"
        count = samples[("slidedb_request_duration_seconds_count", (("endpoint", ep),))]
        total = samples[("slidedb_request_duration_seconds_sum", (("endpoint", ep),))]
        assert counts[-1] == count and total >= 0
        assert count == sum(v for (n, l), v in samples.items()
                            if n == "slidedb_requests_total" and dict(l)["endpoint"] == ep), ep


def test_metrics_counters_move(env):
    before, _, _ = metrics(env)
    env.get("/v1/solve?start=123046758")
    env.get("/v1/solve?start=541203786&goal=123804765")
    env.get("/v1/solve?start=1+2+3+4+5+6+8+7+0")         # unsolvable: an answer
    env.get("/v1/solve?start=bad")
    env.get("/v1/solve?start=123046758&bogus=1")
    env.get("/v1/check?start=123046758&moves=rdr")
    env.get("/nowhere")
    request(env.port, "DELETE", "/v1/tables")
    request(env.port, "POST", "/v1/solve", body=b"123046758\n541203786\nbad\n")
    want = {("solve", 200): 3, ("solve", 400): 2, ("check", 200): 1, ("other", 404): 1,
            ("tables", 405): 1, ("solve_batch", 200): 1}
    deadline = time.monotonic() + 3   # a request is counted as its connection completes
    while True:
        after, _, _ = metrics(env)
        got = {k: requests_total(after, *k) - requests_total(before, *k) for k in want}
        answers = after[("slidedb_answers_total", ())] - before[("slidedb_answers_total", ())]
        if (got == want and answers == 7) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert got == want, f"requests_total moved by {got}, expected {want}"
    # 3 answers + 1 check + the 3 lines of the batch (its bad line counted as a line)
    assert answers == 7, f"answers_total moved by {answers}, expected 7"
    assert requests_total(after, "metrics", 200) - requests_total(before, "metrics", 200) >= 1
    solve = ("slidedb_request_duration_seconds_count", (("endpoint", "solve"),))
    assert after[solve] - before[solve] == 5


def test_metrics_open_connections_and_snapshot_age(env):
    def gauge(samples):
        return samples[("slidedb_open_connections", ())]

    def wait_for(n):
        deadline = time.monotonic() + 3
        while True:
            g = gauge(metrics(env)[0])
            if g == n or time.monotonic() > deadline:
                return g
            time.sleep(0.05)
    assert wait_for(1) == 1, "only /metrics' own connection should be open"
    held = [socket.create_connection(("127.0.0.1", env.port)) for _ in range(4)]
    try:
        assert wait_for(5) == 5, "4 held connections and /metrics' own"
    finally:
        for s in held:
            s.close()
    assert wait_for(1) == 1, "the held connections were closed"
    s1, _, _ = metrics(env)
    time.sleep(0.4)
    s2, _, _ = metrics(env)
    age1, age2 = (s[("slidedb_snapshot_age_seconds", ())] for s in (s1, s2))
    assert 0 <= age1 and 0.3 <= age2 - age1 < 5, (age1, age2)
    assert s1[("slidedb_snapshots_total", ())] == s2[("slidedb_snapshots_total", ())] >= 1


# --- Errors

def test_errors_400(env):
    def err(path, *frag):
        return json_error(*env.get(path), 400, *frag)
    err("/v1/solve", "missing parameter 'start'")
    err("/v1/solve?goal=123046758", "missing parameter 'start'")
    err("/v1/solve?start", "missing parameter 'start'")
    err(query("/v1/solve", {"start": "1 2 3 4 5 6 7 8 8"}), "tile 8 appears twice")
    err(query("/v1/solve", {"start": "1 2 3 4 5 6 7 8 9 0"}), "10 cells fit 2x5 and 5x2")
    err("/v1/solve?start=123046758&path=maybe", "path 'maybe': expected 1 or 0")
    err("/v1/solve?start=123046758&all=1&limit=0", "limit '0'")
    err("/v1/solve?start=123046758&all=1&limit=100001", "limit '100001'")
    err("/v1/solve?start=123046758&all=1&limit=5x", "limit '5x'")
    err("/v1/solve?start=123046758&size=3y3", "size: ", "3y3")
    err("/v1/solve?start=123046758&size=1x1", "size: ")
    err("/v1/solve?start=123046758&bogus=1", "unknown parameter 'bogus'")
    err("/v1/solve?start=123046758&seed=1", "unknown parameter 'seed'")
    err("/v1/solve?start=123046758&limit=3", "give all=1 too")   # as the CLI's --limit
    err("/v1/solve?start=123046758&start=123456780", "'start' is given twice")
    err("/v1/check?start=123046758&moves=rr&moves=r", "'moves' is given twice")
    err(query("/v1/solve", {"start": "123046758 ; 123456780"}), "';'")
    # a GET with a body
    json_error(*request(env.port, "GET", "/v1/solve?start=123046758", body=b"123046758\n"),
               400, "GET takes no body")


def test_errors_404(env):
    json_error(*env.get("/v1/nowhere"), 404, "no such path: /v1/nowhere")
    json_error(*env.get("/v1/solve/"), 404, "no such path")
    json_error(*request(env.port, "POST", "/v1/nowhere", body=b"x"), 404, "no such path")
    # sizes without tables: the message names the command that builds them
    o = json_error(*env.get(query("/v1/solve", {"start": "[[1,2,3],[4,0,5]]"})), 404,
                   "no table for 3x2", "slidedb-gen full 3x2")
    assert o["input"] == "[[1,2,3],[4,0,5]]"
    json_error(*env.get(query("/v1/solve", {"start": "1 2 3 4 5 6 0 7", "size": "4x2"})), 404,
               "slidedb-gen full 4x2")


def test_errors_405(env):
    for method, path, allow in [("DELETE", "/v1/solve", "GET, HEAD, POST"),
                                ("PUT", "/v1/solve", "GET, HEAD, POST"),
                                ("PUT", "/v1/tables", "GET, HEAD"),
                                ("POST", "/healthz", "GET, HEAD"),
                                ("POST", "/v1/random", "GET, HEAD"),
                                ("POST", "/v1/check", "GET, HEAD"),
                                ("POST", "/metrics", "GET, HEAD"),
                                ("OPTIONS", "/", "GET, HEAD")]:
        status, headers, body = request(env.port, method, path, body=b"" if method != "OPTIONS"
                                        else None)
        json_error(status, headers, body, 405, f"{method} is not allowed on {path}")
        assert headers.get("allow") == allow, (method, path, headers)


def test_timeout_bounds_a_search_as_in_lookup(env):
    """-T/--timeout is one search's time limit in slidedb-serve as in slidedb-lookup
    (it was the connection timeout), with the same words; --search-timeout, its
    older name, says the same; --idle-timeout takes the connections."""
    hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
    varying = re.compile(r"[0-9]+ nodes, no solution within [0-9]+ moves")
    rc, want = lookup(env.db, "--json", "--max-nodes", "1000000000", "-T", "0.05", hard)
    assert rc == 1 and "time limit of 0.05 s" in json.loads(want)["error"], want
    for option in ("-T", "--timeout", "--search-timeout"):
        with server(env.db, option, "0.05", "--idle-timeout", "5", "--max-nodes", "1000000000",
                    folder=env.folder) as s:
            o = json_error(*s.get(query("/v1/solve", {"start": hard})), 422, "time limit of 0.05 s")
            assert varying.sub("", o["error"]) == varying.sub("", json.loads(want)["error"]), o


def test_body_limit_and_search_limit(env):
    """413 over --max-body (by Content-Length, and chunked), 422 over --max-nodes."""
    with server(env.db, "--max-body", "64", "--max-nodes", "1000", folder=env.folder) as s:
        line = b"1 2 3 4 5 6 0 7 8\n"
        exactly = b"#23456789\n" + line * 3          # 64 bytes: answered
        assert len(exactly) == 64
        status, _, got = request(s.port, "POST", "/v1/solve", body=exactly)
        assert status == 200 and len(got.splitlines()) == 3, got
        json_error(*request(s.port, "POST", "/v1/solve", body=exactly + b"\n"), 413,
                   "65 bytes", "limit of 64", "--max-body")
        json_error(*request(s.port, "POST", "/v1/solve", body=line * 100), 413, "--max-body")
        # chunked: no Content-Length, the limit found while reading
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(line), line) for _ in range(5)) + b"0\r\n\r\n"
        reply = raw_exchange(s.port, b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nConnection: close"
                             b"\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked)
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413 "), reply[:300]
        assert b"--max-body" in body and json.loads(body)["error"], body
        small = b"".join(b"%x\r\n%s\r\n" % (len(line), line) for _ in range(2)) + b"0\r\n\r\n"
        reply = raw_exchange(s.port, b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nConnection: close"
                             b"\r\nTransfer-Encoding: chunked\r\n\r\n" + small)
        assert reply.startswith(b"HTTP/1.1 200 ") and dechunk(reply.partition(b"\r\n\r\n")[2]) \
            .count(b"\n") == 2, reply[:300]
        # a 4x4 search over its 1000 nodes
        hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
        o = json_error(*s.get(query("/v1/solve", {"start": hard})), 422, "limit of 1000 nodes")
        rc, want = lookup(env.db, "--json", "--max-nodes", "1000", hard)
        assert rc == 1 and json.loads(want) == o
        a = json.loads(s.get(query("/v1/solve", {"start": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 "
                                                          "15"}))[2])
        assert (a["size"], a["distance"], a["moves"]) == ("4x4", 1, "r"), a
        samples, _, _ = parse_metrics(s.get("/metrics")[2].decode())
        # (a POST refused before it is read is counted under "solve", not "solve_batch")
        assert sum(requests_total(samples, ep, 413) for ep in ("solve", "solve_batch")) == 3
        assert requests_total(samples, "solve", 422) == 1


def test_too_many_connections_503(env):
    with server(env.db, "--max-connections", "2", folder=env.folder) as s:
        held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(2)]
        try:
            deadline = time.monotonic() + 3
            while True:   # the server counts a connection once it has accepted it
                status, headers, body = s.get("/healthz", timeout=5)
                if status == 503 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            json_error(status, headers, body, 503, "busy", "more than 2 connections")
            assert headers.get("retry-after") == "1", headers
            status, headers, body = s.get(query("/v1/solve", {"start": "123046758"}), timeout=5)
            json_error(status, headers, body, 503)
        finally:
            for h in held:
                h.close()
        deadline = time.monotonic() + 3
        while s.get("/healthz")[0] != 200:
            assert time.monotonic() < deadline, "still 503 after the connections were closed"
            time.sleep(0.05)
        status, _, body = s.get(query("/v1/solve", {"start": "123046758"}))
        assert status == 200 and json.loads(body)["moves"] == "rdr"
        # a request is counted when the server is done with it, after its reply
        # left: on a loaded machine the 503's count may come a moment later
        deadline = time.monotonic() + 5
        while True:
            samples, _, _ = parse_metrics(s.get("/metrics")[2].decode())
            if requests_total(samples, "solve", 503) >= 1 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert requests_total(samples, "healthz", 503) >= 1
        assert requests_total(samples, "solve", 503) == 1


def test_slow_clients_dropped(env):
    """--idle-timeout 1: a connection that sends half a request, or nothing, is closed."""
    with server(env.db, "--idle-timeout", "1", folder=env.folder) as s:
        for partial in (b"GET /v1/solve?start=1234", b"GET /healthz HTTP/1.1\r\nHost: x\r\n",
                        b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n12",
                        b""):
            c = socket.create_connection(("127.0.0.1", s.port))
            try:
                c.sendall(partial)
                c.settimeout(6)
                t = time.monotonic()
                try:
                    data = c.recv(1000)
                except ConnectionResetError:
                    data = b""
                waited = time.monotonic() - t
            finally:
                c.close()
            assert data == b"" or not data.startswith(b"HTTP/1.1 2"), (partial, data)
            assert 0.7 <= waited <= 4, f"{partial!r}: closed after {waited:.2f} s (--idle-timeout 1)"
        assert s.get("/healthz")[0] == 200


def test_trickling_client_dropped(env):
    """--idle-timeout's help: "drop a connection idle or sending slowly for S seconds"; the
    guide: "A client that sends too slowly is dropped after --idle-timeout". A client
    that sends its request a byte every 0.3 s is sending slowly: with --idle-timeout 1
    it should be dropped within a few seconds, not served whenever it finishes."""
    with server(env.db, "--idle-timeout", "1", folder=env.folder) as s:
        req = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"a" * 40 + b"\r\n\r\n"
        c = socket.create_connection(("127.0.0.1", s.port))
        t = time.monotonic()
        dropped = None
        try:
            for ch in req:
                if time.monotonic() - t > 5:
                    break
                try:
                    c.send(bytes([ch]))
                except OSError:
                    dropped = time.monotonic() - t
                    break
                time.sleep(0.3)
                c.setblocking(False)
                try:
                    if c.recv(1000) == b"":
                        dropped = time.monotonic() - t
                        break
                except BlockingIOError:
                    pass
                except OSError:
                    dropped = time.monotonic() - t
                    break
                finally:
                    c.setblocking(True)
        finally:
            c.close()
        assert dropped is not None, \
            f"a client sending a byte every 0.3 s was still connected after " \
            f"{time.monotonic() - t:.1f} s with --idle-timeout 1"


# --- Bad requests

def test_malformed_query_strings(env):
    for path, frag in [("/v1/solve?start=%zz", "unknown notation '%zz'"),
                       ("/v1/solve?start=%", "unknown notation"),
                       ("/v1/solve?start=%2", "unknown notation"),
                       ("/v1/solve?start=%00", "parameter 'start' holds a NUL byte"),
                       ("/v1/solve?%zz=1&start=123046758", "unknown parameter '%zz'"),
                       ("/v1/solve?=&start=123046758", "unknown parameter"),
                       ("/v1/solve?&&&", "parameter"),
                       ("/v1/solve?start=%FF%FE", "unknown notation"),
                       ("/v1/random?count=%FF", "count"),
                       ("/v1/solve?start=123046758&all=1&limit=99999999999999999999999999",
                        "limit '99999999999999999999999999'"),
                       ("/v1/solve?start=123046758&limit=-9223372036854775809", "limit"),
                       ("/v1/random?count=1e3", "count '1e3'"),
                       ("/v1/random?count=99999999999999999999", "count"),
                       ("/v1/random?distance=99999999999999999999", "distance"),
                       ("/v1/random?min_distance=-1", "min_distance"),
                       ("/v1/random?max_distance=128", "max_distance 128: distances run from 0 to 127"),
                       ("/v1/random?walk=99999999999999999999", "walk"),
                       ("/v1/solve?start=123046758&size=99999x99999", "size"),
                       ("/v1/solve?start=123046758&size=99999999999999999999x3", "size"),
                       (query("/v1/solve", {"start": "1 " * 3000}), "")]:
        status, headers, body = env.get(path)
        obj = json_error(status, headers, body, 400, frag)
        assert len(body) < 20000, len(body)
        assert "\ufffd" not in obj["error"] or "%FF" in path
    assert env.alive()


def test_random_bytes_on_the_socket(env):
    rng = random.Random(SEED + 2)
    payloads = [rng.randbytes(n) for n in (1, 17, 512, 4096, 65536)]
    payloads += [b"\x00" * 1000, b"\r\n" * 50, b"GET / HTTP/9.9\r\n\r\n",
                 b"GET /healthz HTTP/1.1\r\n" + rng.randbytes(300) + b"\r\n\r\n",
                 b"\xff\xfe / HTTP/1.1\r\nHost: x\r\n\r\n",
                 b"GET " + rng.randbytes(200).replace(b" ", b"_") + b" HTTP/1.1\r\n\r\n",
                 b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                 b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999"
                 b"\r\n\r\n123",
                 b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                 b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n\xff\x00\x01\n\n",
                 b"GET /v1/solve?start=123046758 HTTP/1.1\r\nHost: x\r\nHost: y\r\n"
                 b"Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"]
    for p in payloads:
        raw_exchange(env.port, p, wait=0.3, shut=True)
        assert env.alive(), f"the server died on {p[:80]!r}: {env.output()}"
    status, _, body = env.get("/healthz")
    assert (status, body) == (200, b"ok\n")
    assert json.loads(env.get("/v1/solve?start=123046758")[2])["moves"] == "rdr"


def test_huge_headers_and_urls(env):
    for data in [b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200000 + b"\r\n\r\n",
                 b"GET /healthz HTTP/1.1\r\nHost: x\r\n" +
                 b"".join(b"X-H%d: v\r\n" % i for i in range(5000)) + b"\r\n",
                 b"GET /v1/solve?start=" + b"1" * 200000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"]:
        reply = raw_exchange(env.port, data, wait=5, shut=False)
        status = reply.split(b" ", 2)[1] if reply.startswith(b"HTTP/1.") else b"none"
        assert status in (b"413", b"414", b"431", b"none"), reply[:300]
        assert env.alive()
    # a large header under the limit is fine
    status, _, body = request(env.port, "GET", "/healthz", headers={"X-Big": "a" * 4000})
    assert (status, body) == (200, b"ok\n")


def test_many_connections_at_once(env, pairs, cli_answers):
    errors = []
    barrier = threading.Barrier(48)

    def client(k):
        try:
            barrier.wait(timeout=20)
            for i in range(k, len(pairs), 48):
                s, g, _ = pairs[i]
                status, _, body = env.get(query("/v1/solve", {"start": s, "goal": g, "path": "1"}),
                                          timeout=30)
                if status != 200 or body != cli_answers[1][i]:
                    errors.append((i, status, body))
            body = "".join(f"{s} ; {g}\n" for s, g, _ in pairs[k::12]).encode()
            if k < 4:
                status, _, got = request(env.port, "POST", "/v1/solve?path=1", body=body)
                want = b"".join(cli_answers[1][k::12])
                if status != 200 or got != want:
                    errors.append(("batch", k, status))
        except Exception as e:   # noqa: BLE001 - reported below
            errors.append(("exception", k, repr(e)))
    threads = [threading.Thread(target=client, args=(k,)) for k in range(48)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "clients still running after 60 s"
    assert not errors, errors[:5]
    assert env.get("/healthz")[0] == 200


# --- A table built while the server runs

def test_table_added_while_serving(env):
    board = {"start": "1 2 3 4 5 6 0 7", "size": "2x4"}
    json_error(*env.get(query("/v1/solve", board)), 404, "no table for 2x4",
               "slidedb-gen full 2x4")
    snaps_before = metrics(env)[0][("slidedb_snapshots_total", ())]
    subprocess.run([GEN, "full", "2x4", "--db", env.db, "-q"], check=True, timeout=120)
    built = time.monotonic()
    while True:
        status, _, body = env.get(query("/v1/solve", board))
        if status == 200 or time.monotonic() - built > 3:
            break
        time.sleep(0.02)
    waited = time.monotonic() - built
    assert status == 200, f"still {status} {body!r} {waited:.1f} s after the table was built"
    assert waited < 1.5, f"the new table was answered {waited:.2f} s after it was built"
    a = json.loads(body)
    assert (a["size"], a["distance"], a["moves"]) == ("2x4", 1, "r"), a
    check_answer(a)
    samples = metrics(env)[0]
    assert samples[("slidedb_snapshots_total", ())] >= snaps_before + 1
    assert samples[("slidedb_snapshot_age_seconds", ())] < 2
    status, _, got = env.get("/v1/tables")
    rc, want = lookup(env.db, "info", "--json")
    assert got == want and b'"full-2x4-' in got


# --- Stopping

@pytest.fixture(scope="session")
def big_batch(env):
    """A database of its own, a batch of 200000 random 3x3 boards, and
    slidedb-lookup --json --path's answers to it (76 MB)."""
    db = os.path.join(env.folder, "term.lmdb")
    subprocess.run([GEN, "full", "3x3", "--db", db, "-q"], check=True, timeout=120)
    rng = random.Random(SEED + 3)
    lines = []
    for _ in range(200000):
        b = list(range(9))
        rng.shuffle(b)
        lines.append(" ".join(map(str, b)))
    body = ("\n".join(lines) + "\n").encode()
    rc, want = lookup(db, "--json", "--path", stdin=body)
    assert rc == 0
    return db, body, want


def stream_through_signals(env, big_batch, signals):
    """POST the big batch, read its first bytes, send the signals (0.3 s apart)
    while the rest waits in the socket, then read it all. Returns the body, the
    exit status, and whether the server was still running after the signals."""
    db, body, _ = big_batch
    s = Server(db, folder=env.folder)
    c = None
    try:
        c = socket.create_connection(("127.0.0.1", s.port))
        c.sendall(b"POST /v1/solve?path=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        c.settimeout(30)
        parts = [c.recv(1 << 16)]
        assert parts[0].startswith(b"HTTP/1.1 200 "), parts[0][:200]
        for sig in signals:
            s.send(sig)
            time.sleep(0.3)
        alive = s.alive()
        refused = False
        try:
            socket.create_connection(("127.0.0.1", s.port), timeout=2).close()
        except ConnectionRefusedError:
            refused = True
        while True:
            try:
                b = c.recv(1 << 20)
            except ConnectionResetError:
                break
            if not b:
                break
            parts.append(b)
    finally:
        if c is not None:
            c.close()
        rc = s.stop()
    head, _, rest = b"".join(parts).partition(b"\r\n\r\n")
    assert b"application/x-ndjson" in head, head
    return rest, rc, alive, refused, s


def test_sigterm_finishes_the_response_in_flight(env, big_batch):
    """SIGTERM while a 200000-line batch streams: the response completes whole, new
    connections are refused, and the server exits 0."""
    rest, rc, alive, refused, s = stream_through_signals(env, big_batch, [signal.SIGTERM])
    assert alive, "the server exited with a response still streaming"
    assert refused, "a new connection was accepted after SIGTERM"
    assert rc == 0, f"exit {rc} after SIGTERM: {s.output()}"
    got = dechunk(rest)
    nlines = got.count(b"\n")
    assert nlines == 200000, f"{nlines} lines of 200000"
    assert got == big_batch[2], "the streamed answers differ from slidedb-lookup's"


def test_second_signal_during_the_drain(env, big_batch):
    """A second SIGTERM (or a SIGINT) while the server finishes its requests must
    not kill it: serve/cmd_serve.c says "The signals are taken by sigwait() below:
    every thread blocks them", but the snapshot watcher thread is started (by
    snapshot_open) before the signals are blocked, so it does not block them, and
    once sigwait() has returned a second signal is delivered to it: the default
    action ends the process mid-response, killed by the signal instead of exit 0."""
    rest, rc, alive, refused, s = stream_through_signals(env, big_batch,
                                                         [signal.SIGTERM, signal.SIGTERM])
    assert alive and rc == 0, \
        f"a second SIGTERM during the drain ended the server (exit status {rc}), the " \
        f"response cut after {len(rest)} of the {len(big_batch[2])} bytes of answers"
    assert dechunk(rest) == big_batch[2]


def test_sigint_exits_0(env):
    s = Server(env.db, folder=env.folder)
    assert s.get("/healthz")[0] == 200
    assert s.stop(signal.SIGINT) == 0, s.output()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", s.port), timeout=2).close()


# --- The 24-puzzle (issue #21)

def test_twenty_four_puzzle(env):
    """5x5 boards over HTTP: solve (the moves replayed, the answer slidedb-lookup
    gives), a random walk, best moves, and the catalog's size; the page's sizes
    come from there."""
    db = os.path.join(env.folder, "twentyfour.lmdb")
    subprocess.run([GEN, "pdb", "5x5", "--partition", "2x2", "--db", db, "-q"], check=True,
                   timeout=300)
    with server(db, folder=env.folder) as s:
        start = "2 3 4 5 10 1 7 8 9 0 6 11 12 14 15 16 17 13 18 19 21 22 23 24 20"
        status, _, body = s.get(query("/v1/solve", {"start": start, "all_best": 1}))
        assert status == 200, body
        a = json.loads(body)
        assert a["size"] == "5x5" and a["distance"] == len(a["moves"]) == 13, a
        boards, _ = replay([int(t) for t in start.split()], 5, 5, a["moves"])
        assert boards[-1] == tuple(range(1, 25)) + (0,)
        rc, want = lookup(db, "--json", "--all-best", start)
        assert rc == 0 and json.loads(want) == a
        status, _, body = s.get(query("/v1/random", {"size": "5x5", "walk": 16, "seed": 9,
                                                     "count": 3}))
        assert status == 200, body
        for r in json.loads(body):
            b, _ = replay([int(t) for t in r["start"].split()], 5, 5, r["moves"])
            assert b[-1] == tuple(range(1, 25)) + (0,) and r["distance"] <= 16
        tables = json.loads(s.get("/v1/tables")[2])
        assert {t["size"] for t in tables["tables"]} == {"5x5"}


# --- Every documented parameter is accepted

def documented_parameters():
    """{(method, path): {names}} from the three places that document them:
    slidedb-serve --help, its man page and the table of endpoints in doc/serve.md."""
    found = {}

    def add(method, path, names):
        found.setdefault((method, path), set()).update(n for n in names if n)

    top = os.path.join(os.path.dirname(__file__), "..", "..")
    helptext = subprocess.run([SERVE, "--help"], stdout=subprocess.PIPE, text=True,
                              check=True).stdout
    entries = re.split(r"\n  (?=(?:GET|POST) +/)", helptext.split("\nOptions:")[0])
    for entry in entries[1:]:
        entry = re.split(r"\n(?! {20})", entry)[0]   # the entry and its continued lines
        m = re.match(r"(GET|POST) +(/v1/\w+)(\S*)", entry)
        if m:
            text = m.group(3) + " " + entry[m.end():].split("  GET")[0]
            words = re.findall(r"[?&(,]\s*([a-z_]+)", text)
            add(m.group(1), m.group(2), words)
    with open(os.path.join(top, "doc", "slidedb-serve.1")) as f:
        man = f.read()
    for block in re.split(r"\n\.TP\n", man.split(".SH ENDPOINTS")[1].split(".SH ERRORS")[0]):
        m = re.match(r"\.B (GET|POST) (/v1/\w+)(\S*)", block)
        if m:
            words = re.findall(r"[?&]([a-z_]+)=", m.group(3))
            for macro, args in re.findall(r"^\.(B|BR|RB|BI|IB) (.*)$", block[m.end():], re.M):
                args = [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', args)]
                bold = {"B": range(len(args)), "BR": range(0, len(args), 2),
                        "BI": range(0, len(args), 2), "RB": range(1, len(args), 2),
                        "IB": range(1, len(args), 2)}[macro]
                words += [args[i].split("=")[0] for i in bold
                          if re.fullmatch(r"[a-z_]+(=.*)?", args[i])]
            add(m.group(1), m.group(2), words)
    with open(os.path.join(top, "doc", "serve.md")) as f:
        guide = f.read()
    for m in re.finditer(r"^\| `(GET|POST) (/v1/\w+)([^`]*)`(.*?)\|", guide, re.M):
        words = re.findall(r"[?&]([a-z_]+)=", m.group(3)) + re.findall(r"`([a-z_]+)(?:=[^`]*)?`",
                                                                      m.group(4))
        add(m.group(1), m.group(2), words)
    return found


VALUES = {"start": "1 2 3 4 5 6 0 7 8", "goal": "1 2 3 4 5 6 7 8 0", "size": "3x3",
          "moves": "rr", "limit": "5", "count": "2", "seed": "7", "distance": "5",
          "min_distance": "3", "max_distance": "6", "walk": "10", "metric": "stm"}


def test_metric(env):
    """metric=mtm: answers, verdicts and random boards in the multi-tile metric,
    byte for byte as slidedb-lookup --metric mtm gives them; a slide replayed
    cell by cell; the errors of a metric that is none or has no table."""
    hard = "8 6 7 2 5 4 3 0 1"
    for params, flags in (({"start": hard}, []), ({"start": hard, "solutions": "1", "all": "1"},
                                                  ["--solutions", "--all"])):
        status, _, got = env.get(query("/v1/solve", {**params, "metric": "mtm"}))
        rc, want = lookup(env.db, "--json", "-m", "mtm", *flags, hard)
        assert status == 200 and rc == 0 and got == want, (got, want)
    a = json.loads(got)
    assert (a["metric"], a["distance"], a["solutions"]) == ("mtm", 20, 2)
    for moves in [a["moves"], *a["all_moves"]]:
        letters = re.sub(r"([udlr])(\d+)", lambda m: m.group(1) * int(m.group(2)), moves)
        assert replay(cells_of(hard), 3, 3, letters)[0][-1] == cells_of(a["goal"])
        assert len(re.findall(r"[udlr]", moves)) == 20
    v = get_json(env, "/v1/check", {"start": "1 2 3 4 5 6 0 7 8", "moves": "r2",
                                    "metric": "mtm"})
    assert (v["metric"], v["length"], v["optimal"]) == ("mtm", 1, True)
    boards = get_json(env, "/v1/random", {"distance": "24", "count": "3", "seed": "9",
                                          "metric": "mtm"})
    assert [b["distance"] for b in boards] == [24, 24, 24]
    assert all(b["metric"] == "mtm" for b in boards)
    json_error(*env.get(query("/v1/solve", {"start": hard, "metric": "x"})), 400,
               "metric 'x': expected stm or mtm")
    json_error(*env.get(query("/v1/solve", {"start": "1 2 3 4 0 5", "size": "2x3",
                                            "metric": "mtm"})), 404,
               "no multi-tile table for 2x3", "slidedb-gen full 2x3 --metric mtm")


def test_every_documented_parameter_is_accepted(env):
    """--help and the man page listed 'count' for /v1/solve, which answered
    400 "unknown parameter 'count'": its name is 'solutions'."""
    docs = documented_parameters()
    assert ("GET", "/v1/solve") in docs and ("GET", "/v1/random") in docs, docs.keys()
    assert len(docs[("GET", "/v1/solve")]) >= 8, docs[("GET", "/v1/solve")]
    # "the flags of GET apply" to a batch (its boards come in the body)
    docs[("POST", "/v1/solve")] |= docs[("GET", "/v1/solve")] - {"start", "goal"}
    for (method, path), names in sorted(docs.items()):
        for name in sorted(names):
            params = {} if path == "/v1/random" else {"start": VALUES["start"]}
            if path == "/v1/check":
                params["moves"] = VALUES["moves"]
            if name == "limit":
                params["all"] = "1"
            if name == "start" and path == "/v1/random":
                continue   # documented as refused there
            params[name] = VALUES.get(name, "1")
            if method == "POST":
                params.pop("start", None)
                status, _, body = request(env.port, "POST", query(path, params),
                                          body=b"1 2 3 4 5 6 0 7 8\n")
            else:
                status, _, body = env.get(query(path, params))
            assert b"unknown parameter" not in body, f"{method} {path}: {name}: {body!r}"
            assert status == 200, f"{method} {path} {params}: {status} {body!r}"
