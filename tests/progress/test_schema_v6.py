"""Schema v6: a v5 database's starts and drafts migrate and read back unchanged; the new fields
(a start's last check, source and pass; a draft's typing so far) are stored and read back."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from factories import T0

from tokdrill.clock import FixedClock
from tokdrill.progress.records import Draft, Start
from tokdrill.progress.schema import SCHEMA_VERSION, migrate
from tokdrill.progress.store import Store


def test_a_v5_database_keeps_its_starts_and_drafts(tmp_path: Path) -> None:
    path = tmp_path / "v5.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    migrate(conn, 0, 5)
    conn.execute(
        "INSERT INTO starts (drill_id, mode, path, started_at, checks) "
        "VALUES ('bpe-encode', 'recall', '/home/u/bpe.py', '2026-01-04T09:00:00.000000+00:00', 2)"
    )
    conn.execute(
        "INSERT INTO drafts (drill_id, mode, text, elapsed_seconds, saved_at) "
        "VALUES ('bpe-encode', 'retype', 'def encode(', 42.5, '2026-01-04T09:05:00.000000+00:00')"
    )
    conn.execute("COMMIT")
    conn.close()
    with Store.open(path, clock=FixedClock()) as store:
        assert store.schema_version == SCHEMA_VERSION == 6
        start = store.start("bpe-encode")
        assert start is not None and (start.checks, start.checked_at, start.source_hash, start.passed_at) == (
            2,
            None,
            None,
            None,
        )
        assert start.open
        draft = store.draft("bpe-encode", "retype")
        assert draft is not None and (draft.text, draft.elapsed_seconds, draft.keystrokes) == (
            "def encode(",
            42.5,
            None,
        )


def test_new_fields_round_trip(tmp_path: Path) -> None:
    with Store.open(tmp_path / "p.sqlite3", clock=FixedClock()) as store:
        later = T0 + timedelta(minutes=9)
        start = Start("bpe-encode", "recall", "/tmp/x.py", T0, 3, later, "ab" * 32, later)
        draft = Draft(
            "bpe-encode",
            "retype",
            "def f(",
            61.0,
            later,
            keystrokes=130,
            typing_keystrokes=120,
            typing_errors=7,
            costly_keys=(("(", 3), ("merges", 2)),
            started_at=T0,
            submissions=2,
        )
        with store.write() as w:
            w.put_start(start)
            w.save_draft(draft)
        assert store.start("bpe-encode") == start and not start.open
        assert store.draft("bpe-encode", "retype") == draft
