"""Corrupt and foreign files: a clear error naming the file, a backup copy, the original untouched."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from factories import T0, make_attempt

from tokdrill.clock import FixedClock
from tokdrill.progress.errors import StoreError
from tokdrill.progress.store import Store


def _expect_refusal(path: Path, match: str) -> StoreError:
    before = path.read_bytes()
    with pytest.raises(StoreError, match=match) as err, Store.open(path, clock=FixedClock(T0)) as store:
        store.attempts()
    error = err.value
    assert str(path) in str(error)
    assert path.read_bytes() == before, "the original file must not change"
    assert error.backup is not None and error.backup.exists()
    assert str(error.backup) in str(error)
    assert error.backup.read_bytes() == before
    return error


def test_text_file_is_refused_with_backup(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    path.write_text("these are my notes, not a database\n" * 50)
    error = _expect_refusal(path, "not a SQLite database")
    assert error.backup.name.startswith("progress.sqlite3.broken-20260105T090000Z")


def test_another_programs_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
    conn.commit()
    conn.close()
    _expect_refusal(path, "another program")


def test_damaged_pages_are_reported_with_backup(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    with Store.open(path, clock=FixedClock(T0)) as store:
        for i in range(300):
            store.add_attempt(make_attempt(at=T0 + timedelta(minutes=i)))
    conn = sqlite3.connect(path)  # fold the WAL into the main file, then damage its pages
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(page * 2, len(data), page):
        data[offset : offset + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    _expect_refusal(path, "damaged")


def test_second_backup_gets_its_own_name(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    path.write_bytes(b"junk" * 100)
    first = _expect_refusal(path, "not a SQLite").backup
    second = _expect_refusal(path, "not a SQLite").backup
    assert first != second


def test_a_header_that_makes_sqlite_refuse_writes_is_damage_not_a_read_only_folder(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    with Store.open(path, clock=FixedClock(T0)) as store:
        store.add_attempt(make_attempt(at=T0))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")  # a plain file whose header alone decides
    conn.close()
    data = bytearray(path.read_bytes())
    data[18] = 3  # the file format write version: SQLite then opens the file read-only
    path.write_bytes(bytes(data))
    error = _expect_refusal(path, "damaged")
    assert error.problem == "damaged"
