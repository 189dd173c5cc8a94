# SPDX-License-Identifier: MIT
"""The exceptions of slidedb.

Every failure of the library is raised as one class under :class:`Error`,
chosen by the library's error code (``SDB_E*`` in ``slidedb.h``), with the
library's one-line message. Classes also derive from the built-in exception
a Python caller would catch for that kind of failure: an invalid board is a
:class:`ValueError`, a missing table a :class:`LookupError`, a missing
database file a :class:`FileNotFoundError`.
"""

from __future__ import annotations

import re

__all__ = [
    "Error",
    "InvalidBoardError",
    "AmbiguousSizeError",
    "BoardTooLargeError",
    "TableNotFoundError",
    "DatabaseNotFoundError",
    "CorruptDatabaseError",
    "VersionError",
    "SearchLimitError",
    "TableExistsError",
    "DatabaseIOError",
]


class Error(Exception):
    """Base class of every error slidedb raises.

    Attributes:
        code: the library's error code (a negative ``SDB_E*`` value).
        message: the library's one-line description of the failure.
        index: for a batch, the row of the input that failed, else ``None``.
    """

    def __init__(self, message: str, code: int = -1, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.index = index


class InvalidBoardError(Error, ValueError):
    """A board, size, move sequence or argument is malformed: a wrong cell
    count, a repeated, missing or out-of-range tile, an unknown notation, an
    array of the wrong shape or type (``SDB_EINVAL``)."""


class AmbiguousSizeError(InvalidBoardError):
    """The number of cells fits several board sizes (6 cells: 2x3 or 3x2) and
    the database's tables do not settle it: pass ``size="WxH"``
    (``SDB_EAMBIGUOUS``)."""


class BoardTooLargeError(Error, ValueError):
    """The board is too large for a full table, and the call needs one (a
    random board at a chosen distance on 4x4) (``SDB_ETOOBIG``)."""


class TableNotFoundError(Error, LookupError):
    """The database has no table (or pattern-database set) that serves the
    goal (``SDB_ENOTFOUND``). The message names the ``slidedb-gen`` command
    that builds it, also in :attr:`command`."""

    @property
    def command(self) -> str | None:
        """The ``slidedb-gen`` command, run as it is, that builds what was
        missing, or ``None`` when the message names none."""
        m = re.search(r"`(slidedb-gen [^`]*)`", self.message)
        return m.group(1) if m else None


class DatabaseNotFoundError(Error, FileNotFoundError):
    """The database file does not exist (``SDB_ENOTFOUND`` on open)."""

    def __init__(self, message: str, code: int = -1, index: int | None = None) -> None:
        Error.__init__(self, message, code, index)

    def __str__(self) -> str:
        return self.message


class CorruptDatabaseError(Error):
    """The database is damaged: not a slidedb file, truncated, or a table
    that fails its checks (``SDB_ECORRUPT``)."""


class VersionError(Error):
    """The database was written in another format version
    (``SDB_EVERSION``)."""


class SearchLimitError(Error):
    """A search (4x4 boards) reached ``max_nodes`` or ``timeout``
    (``SDB_ELIMIT``).

    Attributes:
        nodes: the nodes the search expanded before it stopped (at least
            ``max_nodes`` when that stopped it), or ``None`` where the call
            does not say (batches).
    """

    nodes: int | None = None


class TableExistsError(Error):
    """A table of that name exists already (``SDB_EEXIST``)."""


class DatabaseIOError(Error, OSError):
    """The operating system or LMDB failed, or the path given to open a
    database is no file (a directory, a device) (``SDB_EIO``)."""

    def __init__(self, message: str, code: int = -1, index: int | None = None) -> None:
        Error.__init__(self, message, code, index)

    def __str__(self) -> str:
        return self.message


# The library's codes (slidedb.h), and the class each is raised as.
_BY_CODE: dict[int, type[Error]] = {
    -1: InvalidBoardError,
    -3: DatabaseIOError,
    -4: TableNotFoundError,
    -5: CorruptDatabaseError,
    -6: VersionError,
    -8: BoardTooLargeError,
    -9: AmbiguousSizeError,
    -10: SearchLimitError,
    -11: TableExistsError,
}


def _error(code: int, message: str, index: int | None = None, opening: bool = False,
           nodes: int | None = None) -> Exception:
    """The exception for a library failure (called by the extension; nodes:
    of a search stopped by a limit)."""
    # the library names the CLI's option where Python has an argument
    message = message.replace("(--size WxH)", "(size='WxH')")
    if code == -2:
        return MemoryError(message)
    if code == -4 and opening:
        return DatabaseNotFoundError(message, code, index)
    e = _BY_CODE.get(code, Error)(message, code, index)
    if isinstance(e, SearchLimitError):
        e.nodes = nodes
    return e
