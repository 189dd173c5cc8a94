# SPDX-License-Identifier: MIT
"""Type stubs of the C extension (the types are documented in their docstrings)."""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any, Callable, Iterator, Literal, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

MOVES: str
MAX_CELLS: int
FORMAT_VERSION: int

#: A board: a str in any notation slidedb-lookup reads, tile numbers (rows as
#: nested sequences), or a NumPy array (1-D, or 2-D rows).
Board = Union[str, Sequence[int], Sequence[Sequence[int]], npt.NDArray[np.integer[Any]]]
#: A board size: "WxH" or (W, H).
Size = Union[str, tuple[int, int]]
#: How moves count: "stm" (one tile a move, the default) or "mtm" (a slide of a
#: line of tiles toward the blank a move; moves written "r3ul2").
Metric = Literal["stm", "mtm"]
#: Many boards: an integer array (N, W*H) or (N, H, W), or what numpy.asarray makes one of.
States = Union[npt.ArrayLike, npt.NDArray[np.integer[Any]]]

def version() -> str: ...
def default_path() -> str: ...

class Answer:
    @property
    def start(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def size(self) -> str: ...
    @property
    def metric(self) -> Metric: ...
    @property
    def solvable(self) -> bool: ...
    @property
    def distance(self) -> Optional[int]: ...
    @property
    def best_move(self) -> Optional[str]: ...
    @property
    def moves(self) -> Optional[str]: ...
    @property
    def best_moves(self) -> Optional[str]: ...
    @property
    def solutions(self) -> Optional[int]: ...
    @property
    def all_moves(self) -> Optional[list[str]]: ...
    @property
    def path(self) -> Optional[list[str]]: ...
    @property
    def tiles(self) -> Optional[list[int]]: ...
    @property
    def method(self) -> Optional[str]: ...
    @property
    def nodes(self) -> Optional[int]: ...
    @property
    def heuristic(self) -> Optional[int]: ...
    @property
    def heuristic_name(self) -> Optional[str]: ...
    @property
    def note(self) -> Optional[str]: ...
    def to_dict(self) -> dict[str, Any]: ...

class Check:
    @property
    def start(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def size(self) -> str: ...
    @property
    def moves(self) -> str: ...
    @property
    def solvable(self) -> bool: ...
    @property
    def legal(self) -> bool: ...
    @property
    def illegal_step(self) -> Optional[int]: ...
    @property
    def reaches_goal(self) -> bool: ...
    @property
    def length(self) -> int: ...
    @property
    def distance(self) -> Optional[int]: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def end_distance(self) -> Optional[int]: ...
    @property
    def end(self) -> str: ...
    @property
    def verdict(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

class Heuristic:
    @property
    def name(self) -> str: ...
    @property
    def goal(self) -> str: ...
    @property
    def size(self) -> str: ...
    def value(self, state: Board, /) -> int: ...
    def values(self, states: States, /) -> npt.NDArray[np.int16]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Heuristic: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
        /,
    ) -> None: ...

#: A listing's rows: the states (uint8, (N, W*H)) and their distances (int16,
#: (N,)), or None when the listing has none (no table of bytes for the goal).
StateRows = tuple[npt.NDArray[np.uint8], Optional[npt.NDArray[np.int16]]]

class States(Iterator[StateRows]):
    @property
    def count(self) -> int: ...
    @property
    def chunk(self) -> int: ...
    @property
    def goal(self) -> str: ...
    @property
    def size(self) -> str: ...
    def __iter__(self) -> States: ...
    def __next__(self) -> StateRows: ...
    def close(self) -> None: ...
    def __enter__(self) -> States: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
        /,
    ) -> None: ...

class Database:
    def __init__(self, path: Union[str, bytes, os.PathLike[str], os.PathLike[bytes], None] = None) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    @property
    def changed(self) -> bool: ...
    def close(self) -> None: ...
    def __enter__(self) -> Database: ...
    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
        /,
    ) -> None: ...
    def reopen(self) -> Database: ...
    def tables(self) -> list[dict[str, Any]]: ...
    def solve(
        self,
        start: Board,
        goal: Optional[Board] = None,
        *,
        size: Optional[Size] = None,
        path: bool = False,
        all_best: bool = False,
        solutions: bool = False,
        tiles: bool = False,
        all: bool = False,
        limit: int = 100,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        threads: int = 1,
        sets: Optional[str] = None,
        progress: Optional[Callable[[int, int, float], Optional[bool]]] = None,
        metric: Optional[Metric] = None,
    ) -> Answer: ...
    def check(
        self,
        start: Board,
        moves: str,
        goal: Optional[Board] = None,
        *,
        size: Optional[Size] = None,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        metric: Optional[Metric] = None,
    ) -> Check: ...
    def distance(
        self,
        states: States,
        goal: Optional[Board] = None,
        *,
        size: Optional[Size] = None,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        metric: Optional[Metric] = None,
    ) -> npt.NDArray[np.int16]: ...
    def best_move(
        self,
        states: States,
        goal: Optional[Board] = None,
        *,
        size: Optional[Size] = None,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        metric: Optional[Metric] = None,
    ) -> npt.NDArray[np.int8]: ...
    def label(
        self,
        states: States,
        goal: Optional[Board] = None,
        *,
        size: Optional[Size] = None,
        max_nodes: Optional[int] = None,
        timeout: Optional[float] = None,
        metric: Optional[Metric] = None,
    ) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int8]]: ...
    def random(
        self,
        size: Optional[Size] = None,
        count: int = 1,
        *,
        distance: Optional[int] = None,
        min_distance: Optional[int] = None,
        max_distance: Optional[int] = None,
        goal: Optional[Board] = None,
        walk: Optional[int] = None,
        seed: Optional[int] = None,
        metric: Optional[Metric] = None,
    ) -> npt.NDArray[np.uint8]: ...
    @overload
    def states(
        self,
        size: Optional[Size] = None,
        *,
        distance: Optional[int] = None,
        min_distance: Optional[int] = None,
        max_distance: Optional[int] = None,
        goal: Optional[Board] = None,
        chunk: None = None,
        metric: Optional[Metric] = None,
    ) -> StateRows: ...
    @overload
    def states(
        self,
        size: Optional[Size] = None,
        *,
        distance: Optional[int] = None,
        min_distance: Optional[int] = None,
        max_distance: Optional[int] = None,
        goal: Optional[Board] = None,
        chunk: int,
        metric: Optional[Metric] = None,
    ) -> States: ...
    def heuristic(
        self,
        set: Optional[str] = None,
        goal: Optional[Board] = None,
        *,
        size: Optional[Size] = None,
    ) -> Heuristic: ...
