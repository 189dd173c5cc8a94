# SPDX-License-Identifier: MIT
"""slidedb: exact distances, answers and heuristics for sliding-tile puzzles.

A Python package over libslidedb, the library of ``slidedb-gen`` and
``slidedb-lookup``: open a database that ``slidedb-gen`` built, then ask it
for optimal distances, best moves and move sequences (one board, or NumPy
arrays of millions at C speed without the GIL), random boards at a chosen
distance, a judge's verdict on a move sequence, and pattern-database
heuristics for solvers of your own.

>>> import slidedb
>>> with slidedb.open("slidedb.lmdb") as db:          # doctest: +SKIP
...     db.solve("1 2 3 4 0 6 7 5 8").moves
'dr'

Moves name the direction the *blank* travels: ``u d l r`` (``MOVES``; batch
calls give them as 0..3). Boards are strings in every notation the CLI reads,
sequences of tile numbers, or NumPy arrays, 0 for the blank.
"""

from __future__ import annotations

import os as _os
from typing import Any, Optional, Union

import numpy as _np

from . import errors
from ._slidedb import (
    FORMAT_VERSION,
    MAX_CELLS,
    MOVES,
    Answer,
    Check,
    Database,
    Heuristic,
    States,
    default_path,
    version,
)
from .errors import (
    AmbiguousSizeError,
    BoardTooLargeError,
    CorruptDatabaseError,
    DatabaseIOError,
    DatabaseNotFoundError,
    Error,
    InvalidBoardError,
    SearchLimitError,
    TableExistsError,
    TableNotFoundError,
    VersionError,
)

__version__ = version()

__all__ = [
    "open",
    "dataset",
    "DATASET_MAX_NODES",
    "Database",
    "Answer",
    "Check",
    "Heuristic",
    "States",
    "MOVES",
    "MAX_CELLS",
    "FORMAT_VERSION",
    "default_path",
    "version",
    "errors",
    *errors.__all__,
]

PathLike = Union[str, bytes, "_os.PathLike[str]", "_os.PathLike[bytes]"]


def open(path: Optional[PathLike] = None) -> Database:  # noqa: A001 (as io.open, gzip.open)
    """Open a slidedb database read-only.

    Args:
        path: the database file. ``None`` takes ``$SLIDEDB_DB`` if it is set and
            not empty, else ``slidedb.lmdb`` in the working directory, as the
            programs do.

    Returns:
        A :class:`Database`, which is a context manager: ``with
        slidedb.open() as db: ...`` closes it at the end of the block.

    Raises:
        DatabaseNotFoundError: no such file (build one with ``slidedb-gen``).
        DatabaseIOError: the path is no file (a directory), or the system
            failed to read it.
        CorruptDatabaseError: not a slidedb database, or truncated.
        VersionError: written in another format version.
        InvalidBoardError: a NUL character in the path.
    """
    return Database(path)


#: The bound on each search of :func:`dataset` (boards without full tables):
#: about ten seconds of IDA* on one core, the budget slidedb-serve gives one
#: query. A node count, not a time, so that a seed gives the same dataset, or
#: the same error, on any machine.
DATASET_MAX_NODES = 50_000_000


def dataset(
    db: Database,
    size: Union[str, tuple[int, int]],
    count: int,
    *,
    min_distance: Optional[int] = None,
    max_distance: Optional[int] = None,
    goal: Any = None,
    seed: Optional[int] = None,
    max_nodes: Optional[int] = DATASET_MAX_NODES,
    timeout: Optional[float] = None,
) -> dict[str, _np.ndarray]:
    """Labelled boards for learning: random states with their exact labels.

    Draws ``count`` boards independently and uniformly among the states
    ``min_distance`` to ``max_distance`` moves from the goal (every reachable
    state when both are ``None``), as :meth:`Database.random` does, and labels
    them with :meth:`Database.label` (one pass over the table). For every
    state of a table once, without repeats, see :meth:`Database.states`.

    Args:
        db: an open database with the full table of ``size`` for the goal;
            boards without one (4x4) are labelled by a search each, on the
            database's strongest pattern-database set.
        size: ``"WxH"`` or ``(W, H)``.
        count: the number of boards.
        min_distance, max_distance: the range of distances (inclusive); one
            of them alone leaves the other end open.
        goal: the goal (any board notation); default the tiles in order with
            the blank last.
        seed: the same seed gives the same dataset (and the boards of
            ``slidedb-lookup random --seed``).
        max_nodes, timeout: bounds on each board's search, as
            :meth:`Database.solve` takes them (``None``: no bound). By
            default a search stops after 50 million nodes
            (``DATASET_MAX_NODES``), so that a dataset of 4x4 boards on a
            weak set ends with an error instead of running for days; full
            tables never search. Ctrl-C stops a search too.

    Returns:
        A dict ready for ``numpy.savez(file, **data)`` or a training loop:
        ``"states"`` (uint8, shape ``(count, W*H)``, 0 for the blank),
        ``"distances"`` (int16, ``(count,)``), ``"best_moves"`` (int8,
        ``(count,)``: 0 u, 1 d, 2 l, 3 r, -1 at the goal) and ``"goal"``
        (uint8, ``(W*H,)``).

    Raises:
        TableNotFoundError: no full table for the goal (the message names the
            ``slidedb-gen`` command).
        InvalidBoardError: a range that holds no state.
        SearchLimitError: a board's search reached ``max_nodes`` or
            ``timeout`` (its ``index`` is the board's row).
    """
    if min_distance is None and max_distance is None:
        states = db.random(size, count, goal=goal, seed=seed)
    else:
        states = db.random(size, count, min_distance=min_distance,
                           max_distance=max_distance, goal=goal, seed=seed)
    # A walk of no moves is the goal, as the library reads it: no search.
    goal_cells = db.random(size, 1, goal=goal, walk=0)[0]
    distances, best_moves = db.label(states, goal, size=size, max_nodes=max_nodes,
                                     timeout=timeout)
    return {
        "states": states,
        "distances": distances,
        "best_moves": best_moves,
        "goal": goal_cells,
    }
