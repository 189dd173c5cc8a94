#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""slidedb-serve under attack: the hostile trial's attacks, measured.

    bench/hostile_serve.py SERVE LOOKUP DB        (a Markdown table on stdout)

SERVE and LOOKUP are the programs to try (a build before a fix as well as
after: the attacks use only options every version has), DB a database with
full 3x3 tables (4x4 is then answered by search with Manhattan distance and
linear conflicts: the searches a client can leave burning). Each attack gets a
fresh server on a free port of 127.0.0.1; memory is the server's resident set
as /proc/PID/status says (VmRSS at rest, VmHWM its peak), CPU its utime + stime
from /proc/PID/stat. Python's standard library only.
"""
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

HARD_4X4 = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
MIB = 1 << 20
SERVE, LOOKUP, DB = sys.argv[1:4]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, *options):
        self.port = free_port()
        self.proc = subprocess.Popen([SERVE, "--db", DB, "--listen", f"127.0.0.1:{self.port}",
                                      "-q", *options], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                if self.get("/healthz", timeout=1)[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)
        self.rest = self.memory()[0]

    def get(self, path, timeout=30):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request("GET", path)
            r = c.getresponse()
            return r.status, r.read()
        finally:
            c.close()

    def memory(self):
        status = dict(line.split(":", 1) for line in open(f"/proc/{self.proc.pid}/status"))
        return tuple(int(status[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))

    def cpu(self):
        f = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self, limit=60):
        """SIGTERM; seconds to exit (SIGKILL after limit: None)."""
        t = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(limit)
            return time.monotonic() - t
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


def post(port, path, body, sent=None, rcvbuf=None):
    """A socket that has sent POST path with body (or its first `sent` bytes)."""
    s = socket.create_connection(("127.0.0.1", port))
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n"
              % (path.encode(), len(body)) + body[:sent])
    return s


def read_all(s):
    n = 0
    while True:
        b = s.recv(1 << 20)
        if not b:
            return n
        n += len(b)


rows = []


def row(attack, measured):
    rows.append((attack, measured))
    print(f"  {attack}: {measured}", file=sys.stderr)


def mib(x):
    return f"{x:.0f} MiB"


# --- Memory

def unfinished_bodies():
    s = Server()
    body = b"0\n" * (8 * MIB)
    socks = [post(s.port, "/v1/solve", body, sent=len(body) - 1) for _ in range(40)]
    time.sleep(2)
    peak = s.memory()[1]
    for c in socks:
        c.close()
    s.stop()
    row("40 connections each holding an unfinished 16 MiB body: peak resident",
        f"{mib(peak)} (at rest {mib(s.rest)})")


def unread_answers():
    s = Server()
    body = b"0\n" * (8 * MIB)
    socks = [post(s.port, "/v1/solve", body, rcvbuf=4096) for _ in range(8)]
    time.sleep(5)
    peak = s.memory()[1]
    for c in socks:
        c.close()
    s.stop()
    row("8 POSTs of 16 MiB of `0` lines whose answers are not read: peak resident",
        f"{mib(peak)} (at rest {mib(s.rest)})")


def one_big_batch():
    s = Server()
    body = b"0\n" * (8 * MIB)
    cpu = s.cpu()
    c = post(s.port, "/v1/solve", body)
    c.settimeout(120)
    t = time.monotonic()
    size = read_all(c)
    took = time.monotonic() - t
    c.close()
    peak = s.memory()[1]
    cpu = s.cpu() - cpu
    s.stop()
    row("one POST of 16 MiB of `0` lines (8,388,608 queries), read whole: peak resident, "
        "response, server CPU", f"{mib(peak)} (at rest {mib(s.rest)}), {size / 1e6:.0f} MB in "
        f"{took:.1f} s, {cpu:.1f} CPU s")


def per_connection():
    s = Server()
    body = b"8 6 7 2 5 4 3 0 1\n" * 3640            # 64 KiB, 31 moves each
    socks = [post(s.port, "/v1/solve?path=1&grid=1&tiles=1", body, rcvbuf=4096)
             for _ in range(100)]
    time.sleep(4)
    now = s.memory()[0]
    for c in socks:
        c.close()
    s.stop()
    row("100 streams left unread (64 KiB bodies, answers with path, grid, tiles): resident "
        "per connection", f"{(now - s.rest) * 1024 / 100:.0f} KiB ({mib(s.rest)} -> {mib(now)})")


# --- CPU after the client leaves, and the health check meanwhile

def cpu_after_leaving():
    s = Server()
    hard = (HARD_4X4 + "\n").encode() * 140
    for what, send in (("a POST of 140 hard 4x4 lines", lambda: post(s.port, "/v1/solve", hard)),
                       ("GET /v1/random?size=4x4&count=1000&walk=160",
                        lambda: raw_get(s.port, "/v1/random?size=4x4&count=1000&walk=160"))):
        c = send()
        time.sleep(1)
        c.close()
        time.sleep(0.5)
        c0 = s.cpu()
        time.sleep(5)
        row(f"{what}, its client gone after 1 s: CPU seconds in the next 5 s",
            f"{s.cpu() - c0:.2f}")
        time.sleep(1)
    # three abandoned batches, then the health check
    socks = [post(s.port, "/v1/solve", hard) for _ in range(3)]
    time.sleep(1)
    for c in socks:
        c.close()
    time.sleep(0.5)
    t = time.monotonic()
    try:
        status = s.get("/healthz", timeout=10)[0]
    except OSError:
        status = "no answer"
    row("/healthz after 3 abandoned batches of hard lines",
        f"{status} in {time.monotonic() - t:.3f} s")
    took = s.stop()
    row("SIGTERM after them, the defaults",
        f"exit in {took:.1f} s" if took is not None else "no exit within 60 s")


def raw_get(port, path):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode())
    return s


def held_thread():
    """A thousand 4x4 searches in one request: the trial's walk of 160 (one of
    them meets its own 10 s limit: 422), and walks of 50 (none does)."""
    for walk in (160, 50):
        s = Server()
        t = time.monotonic()
        status, _ = s.get(f"/v1/random?size=4x4&count=1000&walk={walk}&seed=1", timeout=600)
        row(f"GET /v1/random?size=4x4&count=1000&walk={walk}&seed=1: answered",
            f"{status} after {time.monotonic() - t:.1f} s")
        s.stop()


# --- Stopping

def sigterm():
    s = Server("--idle-timeout", "5", "--timeout", "5")
    hard = (HARD_4X4 + "\n").encode() * 140
    abandoned = post(s.port, "/v1/solve", hard)
    unread = post(s.port, "/v1/solve?path=1", b"1 2 3 4 5 6 0 7 8\n" * 200000, rcvbuf=4096)
    time.sleep(1)
    abandoned.close()
    took = s.stop()
    unread.close()
    row("SIGTERM during an abandoned batch and an unread answer, `--idle-timeout 5 --timeout 5`",
        f"exit in {took:.1f} s" if took is not None else "no exit within 60 s")
    # issue #35: a 16 MiB batch whose answers are never read
    s = Server("--timeout", "5")
    unread = post(s.port, "/v1/solve", b"1 2 3 4 5 6 0 7 8\n" * (16 * MIB // 18), rcvbuf=4096)
    time.sleep(1)
    took = s.stop()
    unread.close()
    row("SIGTERM during a 16 MiB batch whose answers are never read, `--timeout 5`",
        f"exit in {took:.1f} s" if took is not None else "no exit within 60 s")


# --- Searches beside table answers (issue #35)

def hard_client(port, source):
    c = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    c.sendall(b"GET /v1/solve?start=" + urllib.parse.quote(HARD_4X4).encode() +
              b" HTTP/1.1\r\nHost: x\r\n\r\n")
    return c


def searches_beside_tables():
    """Hard 4x4 searches from n clients (each from an address of its own) while
    a client asks /healthz and a 3x3 query in turn: their time."""
    for n in (2, 6):
        s = Server("--timeout", "60", "--max-nodes", "1000000000000")
        hard = [hard_client(s.port, f"127.0.0.{2 + k}") for k in range(n)]
        time.sleep(0.5)
        took = []
        for _ in range(10):
            for path in ("/healthz", "/v1/solve?start=1%202%203%204%205%206%200%207%208"):
                t = time.monotonic()
                try:
                    s.get(path, timeout=120)
                except OSError:
                    pass
                took.append(time.monotonic() - t)
        for c in hard:
            c.close()
        took.sort()
        row(f"/healthz and a 3x3 query, 10 each in turn, beside {n} hard 4x4 searches: median, "
            f"slowest", f"{took[len(took) // 2] * 1000:.1f} ms, {took[-1] * 1000:.1f} ms")
        s.stop()


def batch_past_idle_timeout():
    """An easy line, a hard one whose search outlasts --idle-timeout, an easy one."""
    s = Server("--idle-timeout", "2", "--timeout", "5", "--max-nodes", "1000000000000")
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=60)
    t = time.monotonic()
    c.request("POST", "/v1/solve", body=("1 2 3 4 5 6 0 7 8\n" + HARD_4X4 + "\n123046758\n"))
    r = c.getresponse()
    lines, first = 0, None
    try:
        while r.readline():
            lines += 1
            first = first or time.monotonic() - t
    except (OSError, http.client.HTTPException):
        pass
    c.close()
    row("POST of an easy line, a hard 4x4 line searched 5 s (`--timeout 5`), an easy line, "
        "`--idle-timeout 2`: lines answered (of 3), the first after",
        f"{lines}, " + (f"{first:.2f} s" if first else "none"))
    s.stop()


def url_of_many_parameters():
    s = Server()
    url = "/v1/solve?" + "&".join(f"a{i}=1" for i in range(500))
    t = time.monotonic()
    try:
        status = s.get(url, timeout=10)[0]
    except OSError:
        status = "no answer"
    row("GET of a URL of 500 parameters (3 KB)", f"{status} after {time.monotonic() - t:.2f} s")
    s.stop()


# --- 413, 503

def delivery_413():
    s = Server("--max-body", "65536")
    got = {}
    for size in (1, 2, 4):
        body = b"1 2 3 4 5 6 0 7 8\n" * (size * MIB // 18)
        for _ in range(5):
            try:
                c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
                c.request("POST", "/v1/solve", body=body)
                r = c.getresponse()
                r.read()
                c.close()
                key = str(r.status)
            except OSError as e:
                key = type(e).__name__
            got[key] = got.get(key, 0) + 1
    s.stop()
    row("Python http.client, bodies of 1, 2, 4 MB over `--max-body 65536` (5 each): what came "
        "back", ", ".join(f"{k} x{v}" for k, v in sorted(got.items())))


def idle_sockets():
    s = Server("--max-connections", "20")
    idle = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(300)]
    time.sleep(0.5)
    t = time.monotonic()
    try:
        status = s.get("/healthz", timeout=30)[0]
    except OSError:
        status = "no answer"
    took = time.monotonic() - t
    for c in idle:
        c.close()
    s.stop()
    row("a new client beside 300 idle sockets, `--max-connections 20`",
        f"{status} after {took:.3f} s")


# --- What held: mixed requests at flat memory, 2,000 over the connection limit

MIXED = [("GET", "/v1/solve?start=123046758&path=1", None),
         ("GET", "/v1/random?count=5&distance=12", None),
         ("GET", "/v1/check?start=123046758&moves=rdr", None),
         ("GET", "/v1/tables", None), ("GET", "/healthz", None), ("GET", "/metrics", None),
         ("POST", "/v1/solve?all_best=1", b"123046758\n8 6 7 2 5 4 3 0 1\nbad\n"),
         ("GET", "/v1/solve?start=bad", None), ("GET", "/nowhere", None),
         ("GET", "/../../etc/passwd", None)]


def mixed(port, n, threads=8):
    statuses = []

    def client(k):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for i in range(k, n, threads):
            method, path, body = MIXED[i % len(MIXED)]
            c.request(method, path, body=body)
            r = c.getresponse()
            r.read()
            statuses.append(r.status)
        c.close()
    ts = [threading.Thread(target=client, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return statuses


def what_held():
    s = Server()
    mixed(s.port, 2000)
    before = s.memory()[0]
    statuses = mixed(s.port, 40000)
    after = s.memory()[0]
    s.stop()
    row("40,000 mixed requests (8 keep-alive clients; answers, batches, errors, a path out "
        "of the page): resident after 2,000 / after 42,000",
        f"{before:.1f} / {after:.1f} MiB ({statuses.count(200)} answered 200)")
    s = Server("--max-connections", "4")
    held = [socket.create_connection(("127.0.0.1", s.port)) for _ in range(4)]
    time.sleep(0.3)
    got = []

    def client():
        for _ in range(250):
            try:
                got.append(s.get("/healthz", timeout=10)[0])
            except OSError as e:
                got.append(type(e).__name__)
    ts = [threading.Thread(target=client) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for c in held:
        c.close()
    alive = s.proc.poll() is None
    s.stop()
    row("2,000 requests over `--max-connections 4` (8 clients)",
        f"{got.count(503)} answered 503, {len(got) - got.count(503) - got.count(200)} failed; "
        f"{'still running' if alive else 'DIED'}")


# --- Invalid UTF-8

def utf8():
    rng = random.Random(7736)
    lines = [rng.randbytes(rng.randint(1, 60)).replace(b"\n", b" ") for _ in range(7736)]
    r = subprocess.run([LOOKUP, "--db", DB, "--json"], input=b"\n".join(lines) + b"\n",
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=300)
    bad = 0
    out = r.stdout.splitlines()
    for line in out:
        try:
            json.loads(line)
        except ValueError:
            bad += 1
    row("`slidedb-lookup --json` on 7,736 lines of random bytes: lines that are not valid "
        "JSON", f"{bad} of {len(out)}")
    s = Server()
    bad = 0
    for v in lines[:2000]:
        start = urllib.parse.quote_from_bytes(v.replace(b"\0", b""), safe=b"")
        _, body = s.get("/v1/solve?start=" + start)
        try:
            json.loads(body)
        except ValueError:
            bad += 1
    s.stop()
    row("`GET /v1/solve?start=` 2,000 random byte strings: bodies that are not valid JSON",
        f"{bad} of 2000")


for attack in (unfinished_bodies, unread_answers, one_big_batch, per_connection,
               cpu_after_leaving, held_thread, sigterm, searches_beside_tables,
               batch_past_idle_timeout, url_of_many_parameters, delivery_413, idle_sockets,
               what_held, utf8):
    print(f"{attack.__name__} ...", file=sys.stderr)
    attack()

print("| attack | measured |")
print("|---|---|")
for attack, measured in rows:
    print(f"| {attack} | {measured} |")
