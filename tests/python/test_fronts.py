# SPDX-License-Identifier: MIT
"""One random-board request, one verdict, in all three front ends.

slidedb-lookup's `random`, slidedb-serve's /v1/random and Database.random()
fill the library's one request (db/answer/request.c) from their own spellings:
a request either draws the same boards for the same seed in all three, or is
refused by all three with the same reason (the command line names the fields
as options, --min-distance for min_distance; nothing else differs)."""

import json
import os
import re
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

import numpy as np
import pytest

from conftest import LOOKUP

SERVE = os.environ.get("SLIDEDB_SERVE")

# (keyword arguments of Database.random besides size and count, and the
# verdict: boards; a usage error, which the request's rules refuse; or a
# request the database cannot meet). The other two spell the same request.
REQUESTS = [
    ({"distance": 12, "seed": 1}, "boards"),
    ({"min_distance": 5, "max_distance": 9, "seed": 2}, "boards"),
    ({"min_distance": 30, "seed": 3}, "boards"),
    ({"max_distance": 4, "seed": 4}, "boards"),
    ({"walk": 7, "seed": 5}, "boards"),
    ({"seed": 6}, "boards"),
    ({"distance": 0, "seed": 7}, "boards"),
    # refused, whatever the order of the fields
    ({"distance": 3, "min_distance": 5}, "usage"),
    ({"min_distance": 5, "distance": 3}, "usage"),
    ({"max_distance": 9, "distance": 3}, "usage"),
    ({"distance": 3, "walk": 4}, "usage"),
    ({"walk": 4, "min_distance": 1}, "usage"),
    ({"min_distance": 9, "max_distance": 4}, "usage"),
    ({"distance": 500}, "usage"),
    ({"max_distance": 128}, "usage"),
    ({"walk": 2000000}, "usage"),
    ({"distance": 32, "seed": 1}, "data"),   # past the 3x3 diameter
]


def cli(db_path, kw, count):
    args = [LOOKUP, "--db", str(db_path), "random", "--size", "3x3", "--count", str(count)]
    for k, v in kw.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        # "slidedb-lookup: --min-distance 9 is above ..." -> the request's words
        msg = p.stderr.strip().splitlines()[0].removeprefix("slidedb-lookup: ")
        msg = msg.removesuffix(" (try 'slidedb-lookup --help')")
        return "error", p.returncode, re.sub(r"--([a-z]+)-([a-z]+)", r"\1_\2",
                                                re.sub(r"--(distance|walk|count)\b", r"\1", msg))
    rows = [[int(v) for v in line.split()] for line in p.stdout.splitlines()]
    return "boards", np.array(rows, dtype=np.uint8)


def python(db, kw, count):
    try:
        return "boards", db.random("3x3", count, **kw)
    except ValueError as e:
        return "error", str(e)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(db_path, workdir):
    """slidedb-serve on the suite's database (SLIDEDB_SERVE: ctest sets it when
    slidedb-serve is built, which the README's set-up always does)."""
    if not SERVE:
        pytest.fail("set SLIDEDB_SERVE to a slidedb-serve to compare with")
    port = free_port()
    log = open(workdir / "fronts-serve.log", "wb")
    proc = subprocess.Popen([SERVE, "--db", str(db_path), "--listen", f"127.0.0.1:{port}", "-q"],
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1).read()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"slidedb-serve did not start: {open(log.name).read()}")
            time.sleep(0.05)
    yield base
    proc.terminate()
    assert proc.wait(timeout=15) == 0
    log.close()


def http(base, kw, count):
    url = f"{base}/v1/random?" + urllib.parse.urlencode({"size": "3x3", "count": count, **kw})
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            rows = [[int(v) for v in o["start"].split()] for o in json.load(r)]
            return "boards", np.array(rows, dtype=np.uint8)
    except urllib.error.HTTPError as e:
        return "error", e.code, json.load(e)["error"]


@pytest.mark.parametrize("kw, verdict", REQUESTS,
                         ids=[",".join(f"{k}={v}" for k, v in kw.items()) for kw, _ in REQUESTS])
def test_one_verdict(db, db_path, server, kw, verdict):
    count = 20
    c, p, h = cli(db_path, kw, count), python(db, kw, count), http(server, kw, count)
    want = "boards" if verdict == "boards" else "error"
    assert c[0] == p[0] == h[0] == want, f"CLI {c}, Python {p}, HTTP {h}"
    if verdict == "boards":
        assert c[1].shape == p[1].shape == h[1].shape == (count, 9)
        assert np.array_equal(c[1], p[1]) and np.array_equal(c[1], h[1]), \
            f"CLI {c[1]}\nPython {p[1]}\nHTTP {h[1]}"
        return
    # refused by all three for one reason: the CLI's exit status says whose
    # (2: the request's rules; 1: the database), the server's status is 400
    assert (c[1], h[1]) == ({"usage": 2, "data": 1}[verdict], 400), f"CLI exit {c[1]}, HTTP {h[1]}"
    assert c[2] == p[1] == h[2], f"CLI {c[2]!r}\nPython {p[1]!r}\nHTTP {h[2]!r}"
