#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The three uses of `import slidedb`, in one short tour.

1. A hint loop: a player's board, the best move, until the puzzle is solved.
2. A solver of your own: IDA* in Python on the 15-puzzle, guided by the
   database's pattern-database heuristic, checked against the library's.
3. A dataset for learning: labelled 3x3 boards written with numpy.savez,
   and every state at the hardest distances, once each.

From the repository's root, with the programs on PATH and the package
installed in .venv as the README's section "Python" says (run it with that
venv's Python: a python3 that comes first on PATH may be another one):

    slidedb-gen full 3x3 && slidedb-gen pdb 4x4 --partition 5-5-5
    .venv/bin/python examples/python_tour.py [DB] [OUT.npz]

DB defaults to ./slidedb.lmdb (or $SLIDEDB_DB), OUT.npz to ./slidedb-dataset.npz.
"""

import sys

try:
    import numpy as np

    import slidedb
except ImportError as e:
    sys.exit(f"python_tour.py: {sys.executable} cannot import {e.name}: run the tour with the "
             "Python of the venv the package is installed in (.venv/bin/python "
             "examples/python_tour.py; README, section Python)")


def hint_loop(db, board):
    """Follow the hints from board to the goal, printing each step."""
    answer = db.solve(board)
    print(f"{answer.start}: {answer.distance} moves to go")
    while answer.distance:
        move = answer.best_move
        board = answer.path[1]                 # the board after the best move
        answer = db.solve(board)
        print(f"  move the blank {move}: {board}  ({answer.distance} to go)")


def ida_star(h, start, goal):
    """An optimal move sequence from start to goal, by IDA* on h.value()."""
    w = int(h.size.split("x")[0])
    steps = {"u": -w, "d": w, "l": -1, "r": 1}
    back = {"u": "d", "d": "u", "l": "r", "r": "l"}
    goal = tuple(goal)

    def search(board, g, bound, last, path):
        f = g + h.value(board)
        if f > bound:
            return f
        if board == goal:
            return True
        smallest = float("inf")
        b = board.index(0)
        for m, step in steps.items():
            if last and m == back[last]:
                continue
            if (m == "u" and b < w) or (m == "d" and b + w >= len(board)) or \
               (m == "l" and b % w == 0) or (m == "r" and b % w == w - 1):
                continue
            nxt = list(board)
            nxt[b], nxt[b + step] = nxt[b + step], 0
            path.append(m)
            t = search(tuple(nxt), g + 1, bound, m, path)
            if t is True:
                return True
            path.pop()
            smallest = min(smallest, t)
        return smallest

    bound = h.value(start)
    while True:
        path = []
        t = search(tuple(start), 0, bound, None, path)
        if t is True:
            return "".join(path)
        bound = t


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else None
    out = sys.argv[2] if len(sys.argv) > 2 else "slidedb-dataset.npz"
    with slidedb.open(path) as db:
        print("1. hints")
        hint_loop(db, db.random("3x3", 1, distance=6, seed=4)[0])

        print("2. IDA* in Python with the database's heuristic")
        goal = list(range(1, 16)) + [0]
        start = db.random("4x4", 1, walk=40, seed=7)[0].tolist()
        with db.heuristic(size="4x4") as h:
            moves = ida_star(h, start, goal)
        library = db.solve(start)
        print(f"  {h.name}: {' '.join(map(str, start))}")
        print(f"  Python IDA*: {len(moves)} moves {moves}")
        print(f"  slidedb:     {library.distance} moves {library.moves}")
        assert len(moves) == library.distance and db.check(start, moves).optimal

        print("3. a dataset")
        data = slidedb.dataset(db, "3x3", 100_000, min_distance=1, seed=1)
        np.savez(out, **data)
        counts = np.bincount(data["distances"])
        print(f"  {out}: {len(data['states'])} boards, distances {data['distances'].min()}"
              f"..{data['distances'].max()}, most common {counts.argmax()}")
        states, distances = db.states("3x3", min_distance=28)   # each state once, no draws
        print(f"  every state 28 moves or more from the goal: {len(states)}, "
              f"{np.bincount(distances)[28:].tolist()} at 28..31")


if __name__ == "__main__":
    main()
