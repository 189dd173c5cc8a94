# SPDX-License-Identifier: MIT
"""Figures of the Python package against issue #12's targets; Markdown out.

    python bench/bench_python.py DB      (DB with the 3x3 tables)

Each figure is the best of a few runs (the machine's noise is one-sided).
"""

import gc
import resource
import sys
import time
import timeit

import numpy as np

import slidedb


def best_of(runs, fn):
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def main(path):
    rows = []
    with slidedb.open(path) as db:
        states = db.random("3x3", 4_000_000, seed=1)
        for dtype in (np.uint8, np.int64):
            s = states.astype(dtype)
            t = best_of(5, lambda: db.distance(s))
            rows.append((f"db.distance, 4M random 3x3 states ({np.dtype(dtype).name})",
                         f"{len(s) / t / 1e6:.1f} million/s", ">= 20 million/s" if dtype == np.uint8 else "",
                         ))
        t = best_of(5, lambda: db.label(states))
        rows.append(("db.label (distance and best move), 4M states", f"{len(states) / t / 1e6:.1f} million/s", ""))
        n = 200_000
        for start, what in (("8 6 7 2 5 4 3 0 1", "31 moves"), ("1 2 3 4 0 6 7 5 8", "2 moves")):
            t = min(timeit.repeat(lambda: db.solve(start), number=n, repeat=5)) / n
            rows.append((f"db.solve, one 3x3 pair ({what}), incl. the Python call", f"{t * 1e6:.2f} us",
                         "<= 5 us"))
        t = min(timeit.repeat(lambda: db.solve("8 6 7 2 5 4 3 0 1", count=True), number=20_000,
                              repeat=3)) / 20_000
        rows.append(("db.solve(count=True), the hardest 3x3 position", f"{t * 1e6:.1f} us", ""))
        for kw, what in (({"distance": 20}, "at distance 20"), ({"distance": 31}, "at distance 31 (2 states)"),
                         ({}, "any reachable board")):
            t = best_of(3, lambda: db.random("3x3", 2_000_000, seed=2, **kw))
            rows.append((f"db.random, 2M 3x3 boards {what}", f"{2_000_000 / t / 1e6:.1f} million/s",
                         ">= 1 million/s"))
        t = best_of(3, lambda: slidedb.dataset(db, "3x3", 1_000_000, min_distance=10, max_distance=25, seed=3))
        rows.append(("slidedb.dataset, 1M labelled 3x3 boards", f"{t:.3f} s", ""))

        # Memory over 100 million lookups: 100 batches of 1M, and 1M solve() calls.
        batch = states[:1_000_000]
        gc.collect()
        before = rss_mib()
        t0 = time.perf_counter()
        for _ in range(100):
            db.distance(batch)
        mid = rss_mib()
        for i in range(1_000_000):
            db.solve(batch[i % 1000])
        gc.collect()
        after = rss_mib()
        rows.append(("memory (RSS) over 100M batch lookups, then 1M db.solve",
                     f"{before:.1f} -> {mid:.1f} -> {after:.1f} MiB ({time.perf_counter() - t0:.1f} s)",
                     "flat"))
    print("| measure | figure | target |")
    print("|---|---|---|")
    for what, fig, target in rows:
        print(f"| {what} | {fig} | {target} |")


if __name__ == "__main__":
    main(sys.argv[1])
