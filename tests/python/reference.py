# SPDX-License-Identifier: MIT
"""A deliberately simple breadth-first search, the independent check of every
distance the library gives: no tables, no ranking, no symmetry, just boards
as tuples and a dict of distances."""

from collections import deque

import numpy as np

MOVES = "udlr"


def neighbours(board, w):
    """(move, board) for every move of the blank ('u' the blank goes up)."""
    b = board.index(0)
    x, y = b % w, b // w
    h = len(board) // w
    for m, (dx, dy) in zip(MOVES, ((0, -1), (0, 1), (-1, 0), (1, 0))):
        if 0 <= x + dx < w and 0 <= y + dy < h:
            c = (y + dy) * w + x + dx
            n = list(board)
            n[b], n[c] = n[c], 0
            yield m, tuple(n)


def slides(board, w):
    """(move, cells, board) for every slide of the blank in the multi-tile
    metric: as far as it goes each way, one cell more each time."""
    for m in MOVES:
        b, k = tuple(board), 0
        while True:
            b = dict(neighbours(b, w)).get(m)
            if b is None:
                break
            k += 1
            yield m, k, b


def bfs(goal, w, metric="stm"):
    """The distance of every board that reaches goal (a dict), in metric."""
    goal = tuple(goal)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        b = queue.popleft()
        moves = neighbours(b, w) if metric == "stm" else ((m, n) for m, _, n in slides(b, w))
        for _, n in moves:
            if n not in dist:
                dist[n] = dist[b] + 1
                queue.append(n)
    return dist


def letters(moves):
    """A sequence in either notation as letters: 'r3u' is 'rrru'."""
    out, i = [], 0
    while i < len(moves):
        j = i + 1
        while j < len(moves) and moves[j].isdigit():
            j += 1
        out.append(moves[i] * (int(moves[i + 1:j]) if j > i + 1 else 1))
        i = j
    return "".join(out)


def replay(start, moves, w):
    """The board after moves from start (letters, or 'r3' for 'rrr'), or None
    at a move off the board."""
    board = tuple(start)
    for m in letters(moves):
        nxt = dict(neighbours(board, w)).get(m)
        if nxt is None:
            return None
        board = nxt
    return board


def cells(text):
    return tuple(int(v) for v in text.split())


def all_boards(n):
    """Every arrangement of n cells, as an (n!, n) uint8 array (both parity classes)."""
    import itertools

    return np.array(list(itertools.permutations(range(n))), dtype=np.uint8)
