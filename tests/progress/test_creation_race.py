"""Two tokdrill processes creating the same new database at the same moment both succeed: the
identity of a file is read in one snapshot, never half before and half after another creator."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from tokdrill.clock import FixedClock
from tokdrill.progress import store as store_module
from tokdrill.progress.errors import StoreError
from tokdrill.progress.schema import SCHEMA_VERSION
from tokdrill.progress.store import Store


@pytest.mark.slow
def test_a_second_creator_between_two_identity_reads_is_tolerated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the first opener reads the new file's identity, a second one creates the whole
    schema; the first must not take the finished file for another program's."""
    path = tmp_path / "progress.sqlite3"
    real_connect = sqlite3.connect
    other_done = threading.Event()
    results: list[object] = []

    def other_creator() -> None:
        try:
            Store.open(path, clock=FixedClock()).close()
            results.append("ok")
        except StoreError as exc:  # reported through results
            results.append(exc)
        other_done.set()

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)  # type: ignore[arg-type]
        if threading.current_thread() is threading.main_thread():
            fired = False

            def trace(statement: str) -> None:
                nonlocal fired
                if not fired and statement.strip().upper().startswith("PRAGMA USER_VERSION"):
                    fired = True
                    threading.Thread(target=other_creator, daemon=True).start()
                    other_done.wait(3)  # let it finish, unless our open snapshot holds it off

            conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    with Store.open(path, clock=FixedClock()) as store:
        assert store.schema_version == SCHEMA_VERSION
    other_done.wait(30)
    assert results == ["ok"]
    assert not list(tmp_path.glob("*.broken-*"))
