# SPDX-License-Identifier: MIT
"""Opening databases: paths, the context manager, the catalog against
slidedb-lookup info --json, snapshots, and every error on open."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import slidedb
from conftest import GEN, LOOKUP, ROOT, run


def test_open_paths(db_path, tmp_path, monkeypatch):
    with slidedb.open(db_path) as d:
        assert d.path == str(db_path) and not d.closed
        assert repr(d) == f"<slidedb.Database '{db_path}': 7 tables>"
    assert d.closed and repr(d).endswith("(closed)>")
    with pytest.raises(ValueError, match="closed"):
        d.solve("1 2 3 4 5 6 7 8 0")
    with pytest.raises(ValueError, match="closed"):
        d.distance([[1, 2, 3, 4, 5, 6, 7, 8, 0]])
    d.close()                                       # twice is harmless
    with pytest.raises(ValueError, match="closed"):
        with d:
            pass
    with slidedb.open(Path(db_path)) as d:          # a path-like
        assert d.solve("1 2 3 4 5 6 7 0 8").moves == "r"
    monkeypatch.setenv("SLIDEDB_DB", str(db_path))  # as the programs: $SLIDEDB_DB
    assert slidedb.default_path() == str(db_path)
    with slidedb.open() as d:
        assert d.path == str(db_path)
    monkeypatch.delenv("SLIDEDB_DB")
    monkeypatch.chdir(tmp_path)                      # then ./slidedb.lmdb
    assert slidedb.default_path() == "slidedb.lmdb"
    shutil.copy(db_path, tmp_path / "slidedb.lmdb")
    with slidedb.Database() as d:
        assert d.path == "slidedb.lmdb" and len(d.tables()) == 7


def test_tables_agree_with_info(db, db_path):
    info = json.loads(run(LOOKUP, "--db", str(db_path), "info", "--json").stdout)
    tables = db.tables()
    assert [t["name"] for t in tables] == [t["name"] for t in info["tables"]]
    for mine, cli in zip(tables, info["tables"]):
        assert round(mine.pop("build_seconds"), 6) == cli.pop("build_seconds")
        assert mine == cli
    pattern = [t for t in db.tables() if t["kind"] == "pattern"]
    assert [t["tiles"] for t in pattern] == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_a_table_in_chunks(tmp_path, monkeypatch):
    """A two-bit table stored in chunks (as tables over 4 GiB are) says how many, as info does,
    and answers as the table stored whole."""
    whole, chunked = tmp_path / "whole.lmdb", tmp_path / "chunked.lmdb"
    run(GEN, "full", "3x3", "--bits", "2", "--db", str(whole), "-q")
    monkeypatch.setenv("SLIDEDB_CHUNK_BYTES", "4096")
    run(GEN, "full", "3x3", "--bits", "2", "--db", str(chunked), "-q")
    monkeypatch.delenv("SLIDEDB_CHUNK_BYTES")
    info = json.loads(run(LOOKUP, "--db", str(chunked), "info", "--json").stdout)
    with slidedb.open(whole) as a, slidedb.open(chunked) as b:
        ta, tb = a.tables(), b.tables()
        assert [t["chunks"] for t in ta] == [1, 1, 1]
        assert [t["chunks"] for t in tb] == [t["chunks"] for t in info["tables"]]
        assert all(t["chunks"] == -(-t["bytes"] // 4096) for t in tb)   # 45360 bytes: 12
        assert [t["crc32"] for t in ta] == [t["crc32"] for t in tb]
        assert a.solve("8 6 7 2 5 4 3 0 1").moves == b.solve("8 6 7 2 5 4 3 0 1").moves


def test_open_errors(tmp_path):
    with pytest.raises(slidedb.DatabaseNotFoundError, match="slidedb-gen full 3x3") as e:
        slidedb.open(tmp_path / "nope.lmdb")
    assert isinstance(e.value, FileNotFoundError) and isinstance(e.value, slidedb.Error)
    assert e.value.code == -4
    junk = tmp_path / "junk.lmdb"
    junk.write_bytes(b"not a database" * 1000)
    with pytest.raises(slidedb.CorruptDatabaseError):
        slidedb.open(junk)
    with pytest.raises(TypeError):
        slidedb.open(3.5)


def test_other_version(tmp_path):
    """Format 2 is read; a format from the future is refused with VersionError."""
    path = tmp_path / "format.lmdb"
    shutil.copy(ROOT / "tests" / "store" / "data" / "format2.lmdb", path)
    with slidedb.open(path) as d:
        assert d.tables()
    run(GEN, "full", "2x2", "--db", str(path), "-q")     # converts it to this version
    # LMDB keeps a key's value right after it in its leaf page: "format", then
    # the version (as tests/store/test_store.c writes 99 through LMDB's own API)
    data = path.read_bytes()
    now = b"format" + slidedb.FORMAT_VERSION.to_bytes(4, "little")
    assert now in data
    path.write_bytes(data.replace(now, b"format" + (99).to_bytes(4, "little")))
    with pytest.raises(slidedb.VersionError, match="version 99"):
        slidedb.open(path)


def test_reopen_and_changed(workdir):
    path = workdir / "snap.lmdb"
    run(GEN, "full", "2x3", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        assert not d.changed
        run(GEN, "full", "2x2", "--db", str(path), "-q")
        assert d.changed
        with pytest.raises(slidedb.TableNotFoundError):
            d.solve("1 2 0 3")                        # the old snapshot
        with d.reopen() as fresh:
            assert fresh.solve("1 2 0 3").distance == 1 and not fresh.changed
        assert d.solve("1 2 3 4 5 0").distance == 0  # both stay usable


def test_errors_hierarchy():
    for name in slidedb.errors.__all__:
        cls = getattr(slidedb, name)
        assert issubclass(cls, slidedb.Error) and cls.__doc__
    assert issubclass(slidedb.InvalidBoardError, ValueError)
    assert issubclass(slidedb.AmbiguousSizeError, slidedb.InvalidBoardError)
    assert issubclass(slidedb.TableNotFoundError, LookupError)
    assert issubclass(slidedb.DatabaseNotFoundError, FileNotFoundError)
    assert issubclass(slidedb.DatabaseIOError, OSError)
    e = slidedb.errors._error(-3, "disk on fire")
    assert isinstance(e, slidedb.DatabaseIOError) and str(e) == "disk on fire"
    assert isinstance(slidedb.errors._error(-2, "x"), MemoryError)
    assert type(slidedb.errors._error(-11, "x")) is slidedb.TableExistsError
    assert type(slidedb.errors._error(-7, "x")) is slidedb.Error
    assert type(slidedb.errors._error(-5, "x")) is slidedb.CorruptDatabaseError


def test_ambiguous_size(workdir):
    path = workdir / "both6.lmdb"
    run(GEN, "full", "2x3", "--db", str(path), "-q")
    run(GEN, "full", "3x2", "--db", str(path), "-q")
    with slidedb.open(path) as d:
        with pytest.raises(slidedb.AmbiguousSizeError, match="2x3.*3x2|3x2.*2x3") as e:
            d.solve("1 2 3 4 0 5")
        assert isinstance(e.value, ValueError) and e.value.code == -9
        with pytest.raises(slidedb.AmbiguousSizeError):
            d.distance([[1, 2, 3, 4, 0, 5]])
        assert d.solve("1 2 3 4 0 5", size="3x2").size == "3x2"
        assert d.solve("[[1,2,3],[4,0,5]]").size == "3x2"
        assert d.distance([[[1, 2, 3], [4, 0, 5]]]).tolist() == [1]
        assert d.distance([[1, 2, 3, 4, 0, 5]], size="3x2").tolist() == [1]


def test_nul_in_path(db_path):
    """A NUL in a path would open the file named by the text before it."""
    for path in (f"{db_path}\x00junk", f"{db_path}\x00junk".encode()):
        with pytest.raises(ValueError, match="path: a NUL character at position") as e:
            slidedb.open(path)
        assert isinstance(e.value, slidedb.InvalidBoardError)


def test_open_a_directory(tmp_path):
    """A directory is no database: the library's error on open (its code and
    message), raised as a database error, not as an invalid board."""
    with pytest.raises(slidedb.DatabaseIOError,
                       match=f"^{tmp_path}: not a regular file \\(a folder\\)$") as e:
        slidedb.open(tmp_path)
    assert isinstance(e.value, OSError) and not isinstance(e.value, ValueError)
    assert e.value.code == -3


def test_open_a_fifo(tmp_path, db_path):
    """A FIFO where the database or its lock file should be: refused at once
    (an open would wait for a writer for ever), named. Run in a child with a
    deadline, so that a wait fails the test instead of hanging it."""
    fifo = tmp_path / "fifo.lmdb"
    os.mkfifo(fifo)
    lock_db = tmp_path / "lock.lmdb"
    shutil.copy(db_path, lock_db)
    os.mkfifo(f"{lock_db}-lock")
    for path, named in ((fifo, fifo), (lock_db, f"{lock_db}-lock")):
        code = ("import slidedb, sys\n"
                "try:\n    slidedb.open(sys.argv[1])\n"
                "except slidedb.DatabaseIOError as e:\n    print(e.code, e)\n")
        done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                              text=True, timeout=10, check=True)
        assert done.stdout == f"-3 {named}: not a regular file (a FIFO)\n", done.stderr
