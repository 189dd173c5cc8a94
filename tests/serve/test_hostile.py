#!/usr/bin/python3
"""slidedb-serve against hostile and careless clients: what a hostile trial
found, each fixed and kept fixed here. Run as tests/serve/test_api.py (same
environment); the helpers are test_api's.

- every JSON document is valid UTF-8, whatever bytes came in;
- a NUL byte in a parameter or a body line is a 400 naming it;
- errors name the query parameter, not the command line's option;
- a request has a budget (nodes and seconds: 429 past it), its work stops when
  its client goes, and the server stops within --timeout whatever the clients do;
- memory: bodies count against --max-memory (503 over it), answers stream with
  backpressure, a client that reads nothing holds no more than its share;
- a body over --max-body gets its 413 even from a client that sends it whole;
- over --max-connections a new client gets its 503 at once;
- CORS for the origins of --cors.
"""
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
import types
import urllib.parse
import urllib.request

import pytest

import test_api as api
from test_api import json_error, query, request, server

SEED = 20261123
# A 4x4 board that Manhattan distance with linear conflicts (the only
# heuristic of a database without pattern sets) takes millions of nodes to
# solve: the searches that a client can leave burning.
HARD_4X4 = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"


@pytest.fixture(scope="module")
def hostile():
    """A database of full 3x3 tables (4x4 answered by search) in a fresh folder."""
    api.SERVE, api.GEN, api.LOOKUP = (api.need_env(n) for n in
                                      ("SLIDEDB_SERVE", "SLIDEDB_GEN", "SLIDEDB_LOOKUP"))
    top = api.need_env("SLIDEDB_TEST_TMP")
    os.makedirs(top, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="serve-hostile-", dir=top)
    db = os.path.join(folder, "hostile.lmdb")
    subprocess.run([api.GEN, "full", "3x3", "--db", db, "-q"], check=True, timeout=120)
    yield types.SimpleNamespace(db=db, folder=folder)
    shutil.rmtree(folder, ignore_errors=True)


def serving(h, *options):
    return server(h.db, *options, folder=h.folder)


def pct(data):
    """Bytes percent-encoded for a query string, every byte as it is."""
    return urllib.parse.quote_from_bytes(data, safe=b"")


def json_lines(body):
    """Every line of a body parsed as JSON from bytes (strict UTF-8): the documents."""
    docs = []
    for line in body.splitlines():
        try:
            docs.append(json.loads(line))
        except ValueError as e:
            raise AssertionError(f"not valid JSON ({e}): {line[:200]!r}") from None
    return docs


# --- Invalid UTF-8 in, valid JSON out

# Bytes that are not well-formed UTF-8: 0xF5..0xFF, overlong forms, surrogates,
# code points above U+10FFFF, lone continuation bytes, cut sequences.
ILL_FORMED = [b"\xff\x80\x80", b"\xe0\x80\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xc1\xbf",
              b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80",
              b"\x80", b"\xbf", b"\xe2\x82", b"\xf0\x9f\x98", b"\xfe\xfe\xff\xff"]


def test_json_is_utf8_on_the_server(hostile):
    rng = random.Random(SEED)
    values = ILL_FORMED + [rng.randbytes(rng.randint(1, 40)).replace(b"\0", b"")
                           for _ in range(300)]
    values += [b"1 2 3 \xc3\xa9 4", "caf\u00e9 \U0001F600".encode()]   # well-formed: kept
    with serving(hostile) as s:
        for v in values:
            for path in (f"/v1/solve?start={pct(v)}", f"/v1/check?start={pct(v)}&moves=r",
                         f"/v1/check?start=123046758&moves={pct(v)}",
                         f"/v1/solve?start=123046758&{pct(v)}=1", f"/v1/random?goal={pct(v)}"):
                status, _, body = s.get(path)
                assert status in (200, 400, 404), (path, status, body)
                json_lines(body)
        body = b"\n".join(v.replace(b"\n", b" ") for v in values) + b"\n"
        status, _, got = request(s.port, "POST", "/v1/solve", body=body)
        assert status == 200
        docs = json_lines(got)
        assert len(docs) == len(values), "one answer line per query line"
        cafe = "caf\u00e9"
        status, _, got = s.get("/v1/solve?start=" + pct(cafe.encode()))
        assert json.loads(got)["input"] == cafe, got


def test_json_is_utf8_from_lookup(hostile):
    """slidedb-lookup --json shares the escaper: random bytes as query lines."""
    rng = random.Random(SEED + 1)
    lines = ILL_FORMED + [rng.randbytes(rng.randint(1, 60)).replace(b"\n", b" ")
                          for _ in range(3000)]
    stdin = b"\n".join(lines) + b"\n"
    r = subprocess.run([api.LOOKUP, "--db", hostile.db, "--json"], input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120)
    assert r.returncode == 1
    json_lines(r.stdout)


# --- A query's limits bound its searches together

# 4x4, 36 moves: Manhattan distance with linear conflicts finds the answer and
# its best moves in 239,381 nodes; listing its optimal sequences (all=1) takes a
# second search of more than 160,000 nodes.
WALKED_4X4 = "8 3 7 4 1 0 5 10 9 2 14 12 6 13 15 11"


def test_query_limit_covers_all_its_searches(hostile):
    """--max-nodes bounds a query, not each of the library calls that answer it:
    all_best=1&all=1 under a limit that the answer alone meets is a 422."""
    with serving(hostile, "--max-nodes", "400000") as s:
        status, _, body = s.get(query("/v1/solve", {"start": WALKED_4X4, "all_best": 1}))
        assert status == 200 and json.loads(body)["nodes"] == 239381, body
        o = json_error(*s.get(query("/v1/solve", {"start": WALKED_4X4, "all_best": 1,
                                                  "all": 1})),
                       422, "limit of 400000 nodes", "searches together")
        assert o["input"] == WALKED_4X4
        # the same words from slidedb-lookup, which answers with the same code
        rc, want = api.lookup(hostile.db, "--json", "--max-nodes", "400000", "--all-best",
                              "--all", WALKED_4X4)
        seconds = re.compile(r"[0-9.]+ s")
        assert rc == 1 and seconds.sub("", json.loads(want)["error"]) == seconds.sub("", o["error"])
