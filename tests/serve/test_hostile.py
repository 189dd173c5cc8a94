#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""slidedb-serve against hostile and careless clients: what a hostile trial
found, each fixed and kept fixed here. Run as tests/serve/test_api.py (same
environment); the helpers are test_api's.

- every JSON document is valid UTF-8, whatever bytes came in;
- a NUL byte in a parameter or a body line is a 400 naming it;
- errors name the query parameter, not the command line's option;
- a request has a budget (nodes and seconds: 429 past it), its work stops when
  its client goes, and the server stops within --timeout whatever the clients do;
- searches run on threads of their own: table answers and /healthz never wait
  for them; a full search queue is 503, a client over its cap 429 (Retry-After);
- a batch streams each line as it is answered, however long a search takes;
- a URL of too many parameters is a 414, not a hung connection;
- memory: bodies count against --max-memory (503 over it), answers stream with
  backpressure, a client that reads nothing holds no more than its share;
- a body over --max-body gets its 413 even from a client that sends it whole;
- over --max-connections a new client gets its 503 at once;
- CORS for the origins of --cors.
"""
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
    # Under AddressSanitizer freed memory waits in a quarantine (256 MiB) before
    # it is used again: resident sizes would measure that, not the server.
    asan = b"libasan" in subprocess.run(["ldd", api.SERVE], stdout=subprocess.PIPE).stdout
    saved = os.environ.get("ASAN_OPTIONS")
    if asan:
        os.environ["ASAN_OPTIONS"] = (saved + ":" if saved else "") + \
            "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
    yield types.SimpleNamespace(db=db, folder=folder)
    if asan and saved is None:
        del os.environ["ASAN_OPTIONS"]
    elif asan:
        os.environ["ASAN_OPTIONS"] = saved
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
# its best moves in 178,398 nodes (duplicate move sequences pruned in the first
# search); listing its optimal sequences (all=1) takes a second search of more
# than 221,000 nodes (it must see every sequence).
WALKED_4X4 = "8 3 7 4 1 0 5 10 9 2 14 12 6 13 15 11"


def test_query_limit_covers_all_its_searches(hostile):
    """--max-nodes bounds a query, not each of the library calls that answer it:
    all_best=1&all=1 under a limit that the answer alone meets is a 422."""
    with serving(hostile, "--max-nodes", "400000") as s:
        status, _, body = s.get(query("/v1/solve", {"start": WALKED_4X4, "all_best": 1}))
        assert status == 200 and 0 < json.loads(body)["nodes"] <= 400000, body
        o = json_error(*s.get(query("/v1/solve", {"start": WALKED_4X4, "all_best": 1,
                                                  "all": 1})),
                       422, "limit of 400000 nodes", "searches together")
        assert o["input"] == WALKED_4X4
        # the same words from slidedb-lookup, which answers with the same code
        rc, want = api.lookup(hostile.db, "--json", "--max-nodes", "400000", "--all-best",
                              "--all", WALKED_4X4)
        seconds = re.compile(r"[0-9.]+ s")
        assert rc == 1 and seconds.sub("", json.loads(want)["error"]) == seconds.sub("", o["error"])


# --- Helpers: the server's process as /proc sees it

def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory_mib(pid):
    """(resident now, resident at its peak) in MiB."""
    status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    return tuple(int(status[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))


def post_raw(port, path, body, rcvbuf=None, send_all=True):
    """A socket that has sent POST path with body (all of it, or all but its
    last byte; Connection: close) and reads nothing yet."""
    s = socket.create_connection(("127.0.0.1", port))
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    head = b"POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" \
        % (path.encode(), len(body))
    s.sendall(head + (body if send_all else body[:-1]))
    return s


# --- A request's budget: 429 past it, distinct from a search's 422

def test_request_budget(hostile):
    # a thousand random 4x4 walks held a thread 67 s: now the budget's seconds
    with serving(hostile, "--request-timeout", "1") as s:
        t = time.monotonic()
        o = json_error(*s.get("/v1/random?size=4x4&count=1000&walk=160", timeout=60), 429,
                       "budget of 1 s of answering is spent")
        assert time.monotonic() - t < 3, f"429 after {time.monotonic() - t:.1f} s"
        assert set(o) == {"error"}, o
    # the budget's nodes: every search of the request together
    with serving(hostile, "--request-nodes", "300000") as s:
        walks = {"size": "4x4", "count": 40, "walk": 60, "seed": 5}
        json_error(*s.get(query("/v1/random", walks)), 429, "budget of 300000 search nodes")
        o = json_error(*s.get(query("/v1/solve", {"start": HARD_4X4})), 429, "budget of 300000")
        assert o["input"] == HARD_4X4
        # cheap requests are untouched
        status, _, body = s.get(query("/v1/random", {**walks, "size": "3x3", "count": 1000}))
        assert status == 200 and len(json.loads(body)) == 1000
    # a search over its own limit is still 422
    with serving(hostile, "--max-nodes", "1000", "--request-nodes", "300000") as s:
        json_error(*s.get(query("/v1/solve", {"start": HARD_4X4})), 422, "limit of 1000 nodes")


def test_batch_budget_gives_a_line_per_query(hostile):
    """In a streamed batch every query gets one line: answers, then error lines
    once the budget is spent; the hard lines stop burning at the budget."""
    lines = []
    for i in range(70):
        lines += ["1 2 3 4 5 6 0 7 8", HARD_4X4]
    body = ("\n".join(lines) + "\n").encode()
    with serving(hostile, "--request-timeout", "1") as s:
        t = time.monotonic()
        status, headers, got = request(s.port, "POST", "/v1/solve", body=body, timeout=60)
        took = time.monotonic() - t
        assert status == 200 and headers["content-type"] == "application/x-ndjson"
        docs = json_lines(got)
        assert len(docs) == 140, f"{len(docs)} answer lines for 140 queries"
        assert docs[0]["distance"] == 2
        # (a group's queries are answered in parallel: an easy line beside the
        # search that spent the budget may still be answered)
        for i, d in enumerate(docs):
            assert "error" in d or (d["distance"] == 2 and i % 2 == 0), d
            assert d.get("line", i + 1) == i + 1, d
        assert all("budget of 1 s" in d["error"] for d in docs[-100:]), docs[-1]
        assert took < 5, f"140 hard lines took {took:.1f} s with --request-timeout 1"


# --- Work stops when the client goes

def test_work_stops_when_the_client_goes(hostile):
    """A batch of hard lines, and a thousand 4x4 walks: the client leaves after
    0.7 s, and the server's CPU stops with it (it burnt ~35 s before)."""
    hard = (HARD_4X4 + "\n").encode() * 140
    with serving(hostile) as s:
        for path, body in (("/v1/solve", hard),
                           ("/v1/random?size=4x4&count=1000&walk=160", None)):
            start = cpu_seconds(s.proc.pid)
            with socket.create_connection(("127.0.0.1", s.port)) as c:
                if body is None:
                    c.sendall(b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode())
                else:
                    c.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
                              % (path.encode(), len(body)) + body)
                time.sleep(0.7)
            assert cpu_seconds(s.proc.pid) - start > 0.1, f"{path} should have been searching"
            time.sleep(0.5)
            before = cpu_seconds(s.proc.pid)
            time.sleep(2)
            burnt = cpu_seconds(s.proc.pid) - before
            assert burnt < 0.3, f"{path}: {burnt:.2f} CPU seconds in the 2 s after its client left"
        assert s.get("/healthz")[0] == 200


# --- Memory: bodies within --max-memory, answers streamed with backpressure

def test_memory_of_unread_answers_and_unfinished_bodies(hostile):
    """Eight 16 MiB batches of "0" lines whose answers are never read held
    2.96 GiB, forty unfinished 16 MiB bodies 647 MiB: now the bodies stay within
    --max-memory and the answers within a group per connection."""
    body = b"0\n" * (8 << 20)
    with serving(hostile, "--max-memory", str(64 << 20)) as s:
        base = memory_mib(s.proc.pid)[0]
        socks = []
        try:
            socks += [post_raw(s.port, "/v1/solve", body, rcvbuf=4096) for _ in range(8)]
            socks += [post_raw(s.port, "/v1/solve", body, send_all=False) for _ in range(40)]
            time.sleep(2)
            now, peak = memory_mib(s.proc.pid)
        finally:
            for c in socks:
                c.close()
        assert peak - base < 64 + 32, f"resident {base:.0f} MiB at rest, {peak:.0f} MiB at peak"
        # the memory budget is given back as the connections close
        deadline = time.monotonic() + 5
        while True:
            samples, _, _ = api.parse_metrics(s.get("/metrics")[2].decode())
            if samples[("slidedb_memory_held_bytes", ())] == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert samples[("slidedb_memory_held_bytes", ())] == 0
        status, _, got = request(s.port, "POST", "/v1/solve", body=b"123046758\n")
        assert status == 200 and json.loads(got)["moves"] == "rdr"


def test_nothing_grows_with_what_a_client_leaves_unread(hostile):
    """A 1 MiB body of "0" lines answers 55 MB of error lines: while the client
    reads nothing the server holds a group of them; then every line comes."""
    body = b"0\n" * (512 << 10)
    with serving(hostile) as s:
        base = memory_mib(s.proc.pid)[0]
        with post_raw(s.port, "/v1/solve", body) as c:
            time.sleep(1.5)
            now, peak = memory_mib(s.proc.pid)
            assert peak - base < 8, f"resident {base:.1f} MiB at rest, {peak:.1f} MiB at peak"
            c.settimeout(30)
            data = []
            while True:
                b = c.recv(1 << 20)
                if not b:
                    break
                data.append(b)
        got = api.dechunk(b"".join(data).partition(b"\r\n\r\n")[2])
        assert got.count(b"\n") == 512 << 10, "one answer line per query line"


def test_a_huge_line_gets_a_small_error_line(hostile):
    """A 4 MiB line of control bytes is no board: its error line echoes its
    first KiB, not 24 MB of escapes held in memory at once."""
    body = b"\x01" * (4 << 20) + b"\n123046758\n"
    with serving(hostile) as s:
        base = memory_mib(s.proc.pid)[0]
        status, _, got = request(s.port, "POST", "/v1/solve", body=body)
        peak = memory_mib(s.proc.pid)[1]
        assert status == 200
        docs = json_lines(got)
        assert len(docs) == 2 and docs[1]["moves"] == "rdr", docs[1:]
        assert docs[0]["line"] == 1 and docs[0]["input"] == "\x01" * 1024 + "...", \
            docs[0]["input"][-20:]
        assert len(got) < 16 << 10, f"an error line of {len(got)} bytes"
        # (the body, the line's copy as a query, the parser's copy: 12 MiB)
        assert peak - base < 3 * 4 + 4, \
            f"resident {base:.0f} MiB at rest, {peak:.0f} MiB at peak"
    rc, out = api.lookup(hostile.db, "--json", stdin=body)   # the same echo
    assert rc == 1 and json.loads(out.splitlines()[0])["input"] == docs[0]["input"]


def test_memory_budget_503(hostile):
    with serving(hostile, "--max-memory", str(1 << 20)) as s:
        body = b"1 2 3 4 5 6 0 7 8\n" * 100000        # 1.8 MB: under --max-body, over the budget
        status, headers, got = request(s.port, "POST", "/v1/solve", body=body)
        json_error(status, headers, got, 503, "--max-memory")
        assert headers.get("retry-after") == "1"
        status, _, got = request(s.port, "POST", "/v1/solve", body=body[:18000])
        assert status == 200 and got.count(b"\n") == 1000


# --- Stopping within --timeout, whatever the clients do

def test_sigterm_within_timeout(hostile):
    """An abandoned batch of hard lines, a client that reads nothing of a 16 MiB
    batch's answers, a client waiting on a hard search, one sending a byte at a
    time: SIGTERM with --timeout 2 ends it all within about 2 s (31.8 s with
    --timeout 5 in the first trial; 20 s and more in the third, when the stop
    waited for --idle-timeout)."""
    s = api.Server(hostile.db, "--timeout", "2", folder=hostile.folder)
    hard = (HARD_4X4 + "\n").encode() * 140
    abandoned = post_raw(s.port, "/v1/solve", hard)
    unread = post_raw(s.port, "/v1/solve?path=1", b"1 2 3 4 5 6 0 7 8\n" * 900000, rcvbuf=4096)
    waiting = socket.create_connection(("127.0.0.1", s.port))
    waiting.sendall(b"GET /v1/solve?start=" + pct(HARD_4X4.encode()).encode() +
                    b" HTTP/1.1\r\nHost: x\r\n\r\n")
    trickle = socket.create_connection(("127.0.0.1", s.port))
    trickle.sendall(b"GET /healthz HTTP/1.1\r\n")
    time.sleep(0.5)
    abandoned.close()
    t = time.monotonic()
    s.send(signal.SIGTERM)
    rc = s.stop(timeout=30)
    took = time.monotonic() - t
    for c in (unread, waiting, trickle):
        c.close()
    assert rc == 0, s.output()
    assert took < 3, f"exit {took:.1f} s after SIGTERM with --timeout 2"


# --- Searches apart from table answers

def hard_get(port, source="127.0.0.1"):
    """A socket that has asked for HARD_4X4 (millions of nodes on Manhattan)
    from the address source, and reads nothing yet."""
    c = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    c.sendall(b"GET /v1/solve?start=" + pct(HARD_4X4.encode()).encode() +
              b" HTTP/1.1\r\nHost: x\r\n\r\n")
    return c


def status_of_raw(c, timeout=30):
    """The status of the answer on socket c."""
    c.settimeout(timeout)
    head = b""
    while b"\r\n" not in head:
        got = c.recv(4096)
        if not got:
            break
        head += got
    return int(head.split()[1]) if head else None


def slowest(port, paths, rounds=10):
    """The longest time any of the paths took, asked one after another."""
    worst = 0.0
    for _ in range(rounds):
        for path in paths:
            t = time.monotonic()
            status, _, _ = request(port, "GET", path, timeout=60)
            worst = max(worst, time.monotonic() - t)
            assert status == 200, path
    return worst


@pytest.mark.parametrize("searches", [2, 6])
def test_searches_never_hold_up_table_answers(hostile, searches):
    """Two hard searches made a 3x3 query and /healthz wait 9.5 s; six, 39.5 s:
    they ran on the threads that read requests. On threads of their own, the
    cheap answers come at once (each client from an address of its own, under
    --client-searches)."""
    cheap = ["/healthz", "/v1/solve?start=1%202%203%204%205%206%200%207%208", "/metrics"]
    with serving(hostile, "--threads", "2", "--search-threads", "2", "--timeout", "30",
                 "--max-nodes", "1e12") as s:
        clients = [hard_get(s.port, f"127.0.0.{2 + k}") for k in range(searches)]
        try:
            time.sleep(0.5)
            samples, _, _ = api.parse_metrics(s.get("/metrics")[2].decode())
            assert samples[("slidedb_searches", (("state", "running"),))] == 2
            assert samples[("slidedb_searches", (("state", "queued"),))] == searches - 2
            worst = slowest(s.port, cheap)
        finally:
            for c in clients:
                c.close()
        assert worst < 0.5, f"a table answer took {worst:.2f} s beside {searches} searches"


def test_search_queue_and_client_cap(hostile):
    """Past the queue a search is 503, past its client's cap 429, both with
    Retry-After and at once; another address is still served, and table answers
    are never refused."""
    with serving(hostile, "--search-threads", "1", "--search-queue", "1",
                 "--client-searches", "2", "--timeout", "30", "--max-nodes", "1e12") as s:
        first = hard_get(s.port, "127.0.0.2")
        second = hard_get(s.port, "127.0.0.2")
        time.sleep(0.3)
        try:
            t = time.monotonic()
            status, headers, body = request(s.port, "GET", "/v1/solve?start=" +
                                            pct(HARD_4X4.encode()),
                                            headers={"Connection": "close"})
            json_error(status, headers, body, 503, "--search-queue")
            assert headers.get("retry-after") == "1"
            assert time.monotonic() - t < 1
            # a batch whose first group searches is admitted or refused before its 200
            status, headers, body = request(s.port, "POST", "/v1/solve",
                                            body=b"1 2 3 4 5 6 0 7 8\n" + HARD_4X4.encode())
            json_error(status, headers, body, 503, "--search-queue")
            # a batch of table lines does not search: it is answered
            status, _, body = request(s.port, "POST", "/v1/solve", body=b"123046758\n")
            assert status == 200 and json.loads(body)["moves"] == "rdr"
        finally:
            first.close()
            second.close()
        time.sleep(0.5)   # (their searches stop at their next poll)
    with serving(hostile, "--search-threads", "2", "--client-searches", "1", "--timeout", "30",
                 "--max-nodes", "1e12") as s:
        first = hard_get(s.port, "127.0.0.3")
        time.sleep(0.3)
        try:
            c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30,
                                           source_address=("127.0.0.3", 0))
            c.request("GET", "/v1/solve?start=" + pct(HARD_4X4.encode()))
            r = c.getresponse()
            json_error(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read(), 429,
                       "--client-searches")
            assert r.getheader("Retry-After") == "1"
            c.close()
            other = hard_get(s.port, "127.0.0.4")   # another client: taken
            time.sleep(0.3)
            samples, _, _ = api.parse_metrics(s.get("/metrics")[2].decode())
            assert samples[("slidedb_searches", (("state", "running"),))] == 2
            assert samples[("slidedb_searches_refused_total", (("why", "client"),))] == 1
            other.close()
        finally:
            first.close()


def test_batch_streams_each_line_past_the_idle_timeout(hostile):
    """An easy line, then a search that outlasts --idle-timeout: the connection
    ended at the idle timeout with not one line (the easy one lost too). Now
    the easy line comes at once, the search's line when it ends, then the rest."""
    body = b"1 2 3 4 5 6 0 7 8\n" + HARD_4X4.encode() + b"\n123046758\n"
    with serving(hostile, "--idle-timeout", "1", "--timeout", "3", "--max-nodes", "1e12") as s:
        c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
        t = time.monotonic()
        c.request("POST", "/v1/solve", body=body)
        r = c.getresponse()
        assert r.status == 200
        lines = []
        while True:
            line = r.readline()
            if not line:
                break
            lines.append((time.monotonic() - t, json.loads(line)))
        c.close()
    assert len(lines) == 3, lines
    assert lines[0][0] < 1 and lines[0][1]["moves"] == "rr", lines[0]
    assert lines[1][0] > 2.5 and "time limit of 3 s" in lines[1][1]["error"], lines[1]
    assert lines[2][1]["moves"] == "rdr", lines[2]


def test_url_of_too_many_parameters_is_414(hostile):
    """A URL of 500 parameters (2 KB) was left hanging with no response at all."""
    with serving(hostile) as s:
        for n in (65, 500, 2000):
            url = "/v1/solve?" + "&".join(f"a{i}=1" for i in range(n))
            status, headers, body = request(s.port, "GET", url, timeout=10)
            json_error(status, headers, body, 414, "more than 64 parameters")
        # longer than libmicrohttpd reads into a connection's memory: its own 414
        url = "/v1/solve?" + "&".join(f"a{i}=1" for i in range(6000))
        assert request(s.port, "GET", url, timeout=10)[0] == 414
        status, _, body = request(s.port, "GET", "/v1/solve?start=1%202%203%204%205%206%200%207%208"
                                  + "&path=1" * 1, timeout=10)
        assert status == 200
        assert s.get("/healthz")[0] == 200


def test_process_is_named_slidedb_serve(hostile):
    """It was "exe" in ps (started again through /proc/self/exe): pkill
    slidedb-serve missed it."""
    with serving(hostile) as s:
        with open(f"/proc/{s.proc.pid}/comm") as f:
            assert f.read().strip() == "slidedb-serve"


# --- 413 reaches a client that sends its whole body first

def test_413_reaches_plain_clients(hostile):
    """Python's http.client and urllib write the whole body before they read:
    over --max-body they met a broken pipe; curl only got its 413 because it
    waits for 100 Continue."""
    with serving(hostile, "--max-body", "65536") as s:
        url = f"http://127.0.0.1:{s.port}/v1/solve"
        for size in (1 << 20, 4 << 20):
            body = b"1 2 3 4 5 6 0 7 8\n" * (size // 18)
            status, headers, got = request(s.port, "POST", "/v1/solve", body=body)
            json_error(status, headers, got, 413, "over the limit of 65536", "--max-body")
            opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
            with pytest.raises(urllib.error.HTTPError) as e:
                opener.open(urllib.request.Request(url, data=body), timeout=30)
            assert e.value.code == 413 and b"--max-body" in e.value.read()
        # chunked, no length announced: the limit is found while reading
        line = b"1 2 3 4 5 6 0 7 8\n"
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(line), line) for _ in range(60000))
        c = socket.create_connection(("127.0.0.1", s.port))
        c.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" +
                  chunks + b"0\r\n\r\n")
        c.settimeout(10)
        reply = c.recv(1 << 16)
        c.close()
        assert reply.startswith(b"HTTP/1.1 413 "), reply[:200]
        # a client that waits for 100 Continue is told at once, and sends nothing
        c = socket.create_connection(("127.0.0.1", s.port))
        c.sendall(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                  b"Content-Length: 1000000\r\n\r\n")
        c.settimeout(5)
        reply = c.recv(1 << 16)
        c.close()
        assert reply.startswith(b"HTTP/1.1 413 "), reply[:200]
        assert s.get("/healthz")[0] == 200


# --- Over --max-connections, a new client's 503 comes at once

def test_503_at_once_over_the_connection_limit(hostile):
    """300 idle sockets against --max-connections 20 kept new clients waiting
    12 s for anything: now a new client gets its 503 at once."""
    with serving(hostile, "--max-connections", "20") as s:
        idle = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(300)]
        try:
            time.sleep(0.3)
            for _ in range(3):
                t = time.monotonic()
                status, headers, body = s.get("/healthz", timeout=10)
                took = time.monotonic() - t
                json_error(status, headers, body, 503, "more than 20 connections")
                assert headers.get("retry-after") == "1"
                assert took < 0.5, f"the 503 took {took:.2f} s"
                time.sleep(0.3)
            # the idle sockets over the limit are dropped within about a second,
            # so that they cannot fill libmicrohttpd's table either
            time.sleep(1.5)
            dropped = 0
            for c in idle:
                c.setblocking(False)
                try:
                    dropped += c.recv(1) == b""
                except BlockingIOError:
                    pass
                except OSError:
                    dropped += 1
            assert dropped >= 270, f"{dropped} of the 280 idle sockets over the limit dropped"
        finally:
            for c in idle:
                c.close()
        deadline = time.monotonic() + 5
        while s.get("/healthz")[0] != 200:
            assert time.monotonic() < deadline, "still 503 after the idle sockets closed"
            time.sleep(0.1)


# --- NUL bytes

def test_nul_bytes_are_400_naming_the_parameter(hostile):
    """`moves=rr%00uuuuuu` was checked as "rr": "optimal"."""
    with serving(hostile) as s:
        start = pct(b"1 2 3 4 5 6 0 7 8")
        for path, name in [(f"/v1/check?start={start}&moves=rr%00uuuuuu", "'moves'"),
                           (f"/v1/check?start={start}%00junk&moves=rr", "'start'"),
                           (f"/v1/solve?start={start}&goal=123456780%00", "'goal'"),
                           (f"/v1/solve?start={start}&size=3x3%00", "'size'"),
                           (f"/v1/solve?start={start}&path=1%00", "'path'"),
                           (f"/v1/random?count=1%00000", "'count'"),
                           (f"/v1/solve?start={start}&pa%00th=1", "name")]:
            json_error(*s.get(path), 400, name, "NUL")
        json_error(*request(s.port, "POST", "/v1/solve",
                            body=b"123046758\n1 2 3 4 5 6 0 7\x008\n"), 400, "line 2", "NUL")
        status, _, body = s.get(f"/v1/check?start={start}&moves=rr")
        assert status == 200 and json.loads(body)["verdict"] == "optimal"


# --- Errors in the API's words

def test_errors_name_the_parameter(hostile):
    """The library says "give the size (--size WxH)", the command line's words:
    over HTTP the parameter is size=WxH."""
    with serving(hostile) as s:
        o = json_error(*s.get(query("/v1/solve", {"start": "1 2 3 4 5 6 7 8 9 0"})), 400,
                       "give the size (size=WxH)")
        assert "--" not in o["error"], o
        status, _, got = request(s.port, "POST", "/v1/solve", body=b"1 2 3 4 5 6 7 8 9 0\n")
        line = json.loads(got)
        assert status == 200 and "(size=WxH)" in line["error"] and "--" not in line["error"]
        json_error(*s.get(query("/v1/random", {"goal": "1 2 3 4 5 6 7 8 9 0"})), 400,
                   "goal: ", "(size=WxH)")
    # slidedb-lookup keeps its own words
    rc, out = api.lookup(hostile.db, "--json", "1 2 3 4 5 6 7 8 9 0")
    assert rc == 1 and "(--size WxH)" in json.loads(out)["error"]


# --- CORS

def test_cors(hostile):
    game = "http://game.example"
    with serving(hostile, "--cors", game, "--cors", "https://a.example,http://b.example:8000") as s:
        def get(path, origin, **kw):
            return request(s.port, "GET", path, headers={"Origin": origin} if origin else {}, **kw)
        for origin in (game, "https://a.example", "http://b.example:8000"):
            status, headers, body = get("/v1/solve?start=123046758", origin)
            assert status == 200 and headers.get("access-control-allow-origin") == origin
            assert "Origin" in headers.get("vary", ""), headers
        # errors and streams carry them too: a page can read the message
        status, headers, body = get("/v1/solve?start=bad", game)
        assert status == 400 and headers.get("access-control-allow-origin") == game
        status, headers, body = request(s.port, "POST", "/v1/solve", body=b"123046758\n",
                                        headers={"Origin": game})
        assert status == 200 and headers.get("access-control-allow-origin") == game
        # another origin: no permission (the browser keeps the answer from its page)
        status, headers, _ = get("/v1/solve?start=123046758", "http://evil.example")
        assert status == 200 and "access-control-allow-origin" not in headers
        assert "access-control-allow-origin" not in get("/healthz", None)[1]
        # preflight: a batch posted with its content type
        pre = {"Origin": game, "Access-Control-Request-Method": "POST",
               "Access-Control-Request-Headers": "content-type"}
        status, headers, body = request(s.port, "OPTIONS", "/v1/solve", headers=pre)
        assert status == 204 and body == b"", (status, body)
        assert headers["access-control-allow-origin"] == game
        assert "POST" in headers["access-control-allow-methods"]
        assert "content-type" in headers["access-control-allow-headers"].lower()
        assert int(headers["access-control-max-age"]) > 0
        status, headers, body = request(s.port, "OPTIONS", "/v1/random",
                                        headers={**pre, "Origin": "http://evil.example"})
        json_error(status, headers, body, 403, "http://evil.example", "--cors")
        json_error(*request(s.port, "OPTIONS", "/nowhere", headers=pre), 404)
        # OPTIONS that is not a preflight is a method like any other
        status, headers, body = request(s.port, "OPTIONS", "/v1/tables")
        json_error(status, headers, body, 405)
        assert headers["allow"] == "GET, HEAD, OPTIONS"
    with serving(hostile, "--cors", "*") as s:
        status, headers, _ = request(s.port, "GET", "/v1/tables", headers={"Origin": game})
        assert status == 200 and headers["access-control-allow-origin"] == "*"
    with serving(hostile) as s:   # without --cors: nothing
        status, headers, _ = request(s.port, "GET", "/v1/tables", headers={"Origin": game})
        assert "access-control-allow-origin" not in headers and "vary" not in headers
        json_error(*request(s.port, "OPTIONS", "/v1/solve", headers=pre), 405)
    for bad in ("", "game.example", "http://game.example/path", ","):
        r = subprocess.run([api.SERVE, "--db", hostile.db, "--cors", bad], timeout=10,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert r.returncode == 2 and b"--cors" in r.stderr, (bad, r.stderr)


# --- What held before, kept so

MIXED = [("GET", "/v1/solve?start=123046758&path=1", None),
         ("GET", "/v1/random?count=5&distance=12", None),
         ("GET", "/v1/check?start=123046758&moves=rdr", None),
         ("GET", "/v1/tables", None), ("GET", "/healthz", None), ("GET", "/metrics", None),
         ("POST", "/v1/solve?all_best=1", b"123046758\n8 6 7 2 5 4 3 0 1\nbad\n"),
         ("GET", "/v1/solve?start=bad", None), ("GET", "/nowhere", None),
         ("GET", "/v1/solve?start=" + pct(HARD_4X4.encode()), None)]


def mixed_requests(port, n, threads=8):
    """n requests of MIXED over keep-alive connections: their statuses, counted."""
    counts, lock = {}, threading.Lock()

    def client(k):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = {}
        for i in range(k, n, threads):
            method, path, body = MIXED[i % len(MIXED)]
            c.request(method, path, body=body)
            r = c.getresponse()
            r.read()
            mine[r.status] = mine.get(r.status, 0) + 1
            if r.getheader("connection", "").lower() == "close":
                c.close()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.close()
        with lock:
            for k2, v in mine.items():
                counts[k2] = counts.get(k2, 0) + v
    ts = [threading.Thread(target=client, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return counts


def test_what_held_still_holds(hostile):
    """Mixed requests at flat memory (the hard 4x4 one meets its budget), 2,000
    requests over the connection limit (503s, no crash), no path out of the page."""
    with serving(hostile, "--request-nodes", "100000") as s:
        mixed_requests(s.port, 1000)
        before = memory_mib(s.proc.pid)[0]
        counts = mixed_requests(s.port, 4000)
        after = memory_mib(s.proc.pid)[0]
        assert sum(counts.values()) == 4000 and set(counts) <= {200, 400, 404, 429}, counts
        assert counts[429] == 400, counts
        assert after - before < 2, f"resident {before:.1f} MiB, then {after:.1f} MiB"
        for path in ("/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/app.js/../../x",
                     "//etc/passwd", "/.%2e/serve/main.c", "/index.html%00.js"):
            status, _, body = s.get(path)
            assert status in (400, 404) and b"root:" not in body, (path, status, body[:100])
    with serving(hostile, "--max-connections", "4") as s:
        held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(4)]
        time.sleep(0.3)
        counts = {}
        lock = threading.Lock()

        def client(k):
            for _ in range(250):
                try:
                    status = s.get("/v1/solve?start=123046758", timeout=10)[0]
                except OSError as e:
                    status = type(e).__name__
                with lock:
                    counts[status] = counts.get(status, 0) + 1
        ts = [threading.Thread(target=client, args=(k,)) for k in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for c in held:
            c.close()
        assert counts.get(503, 0) >= 1900 and sum(counts.values()) == 2000, counts
        assert s.alive()
        deadline = time.monotonic() + 5
        while s.get("/healthz")[0] != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)
