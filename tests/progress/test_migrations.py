"""Forward migrations from every earlier schema version, with data written at that version."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tokdrill.clock import FixedClock
from tokdrill.progress.errors import StoreError
from tokdrill.progress.schema import APPLICATION_ID, SCHEMA_VERSION, migrate
from tokdrill.progress.store import Store

STATE_1 = {
    "card_id": 5,
    "state": 1,
    "step": 1,
    "stability": 2.3,
    "difficulty": 5.0,
    "due": "2026-01-05T09:10:00+00:00",
    "last_review": "2026-01-05T09:00:00+00:00",
}
STATE_2 = {
    **STATE_1,
    "state": 2,
    "step": None,
    "due": "2026-01-09T09:00:00+00:00",
    "last_review": "2026-01-06T09:00:00+00:00",
}


def build_database(path: Path, version: int) -> None:
    """A database as tokdrill at schema ``version`` left it, with some history in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    migrate(conn, 0, version)
    if version >= 1:
        conn.execute(
            "INSERT INTO attempts (drill_id, mode, started_at, ended_at, active_seconds, target_seconds, passed, "
            "submissions, tests) VALUES ('bpe-train', 'recall', '2026-01-04T09:00:00.000000+00:00', "
            "'2026-01-04T09:10:00.000000+00:00', 540.5, 600, 1, 3, '[]')"
        )
        for when, before, after, rating in (
            ("2026-01-05T09:00:00.000000+00:00", None, STATE_1, 3),
            ("2026-01-06T09:00:00.000000+00:00", STATE_1, STATE_2, 2),
        ):
            conn.execute(
                "INSERT INTO reviews (card_id, rating, answer_seconds, reviewed_at, state_before, state_after) "
                "VALUES ('bpe-why', ?, 4.0, ?, ?, ?)",
                (rating, when, None if before is None else json.dumps(before), json.dumps(after)),
            )
        conn.execute("INSERT INTO drafts VALUES ('wp', 'retype', 'text', 12.0, '2026-01-06T10:00:00.000000+00:00')")
        conn.execute("INSERT INTO settings VALUES ('interview_date', '\"2026-02-01\"')")
    conn.execute("COMMIT")
    conn.close()


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_opening_migrates_from_every_earlier_version(tmp_path: Path, version: int) -> None:
    path = tmp_path / "progress.sqlite3"
    build_database(path, version)
    with Store.open(path, clock=FixedClock()) as store:
        assert store.schema_version == SCHEMA_VERSION
        if version == 0:
            assert store.count("attempts") == 0
            return
        (attempt,) = store.attempts()
        assert (attempt.drill_id, attempt.active_seconds, attempt.passed, attempt.keystrokes) == (
            "bpe-train",
            540.5,
            True,
            None,
        )
        assert [r.rating for r in store.reviews("bpe-why")] == [2, 3]
        assert store.draft("wp", "retype").text == "text"
        assert str(store.interview_date()) == "2026-02-01"
        assert (attempt.origin, attempt.wpm, attempt.costly_keys, attempt.tests) == ("app", None, None, ())
        if version < 2:  # v2 back-fills the card's schedule from its newest review, and the counters
            state = store.item_state("card", "bpe-why")
            assert state.state == STATE_2 and state.reps == 2
            assert state.first_seen.isoformat() == "2026-01-05T09:00:00+00:00"
            assert state.due.isoformat() == "2026-01-09T09:00:00+00:00"
        with store.read() as conn:
            assert conn.execute("SELECT * FROM card_totals").fetchall() == [("bpe-why", 2, 1)]
            assert conn.execute("SELECT * FROM drill_totals").fetchall() == [("bpe-train", 1, 1)]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_a_failed_migration_leaves_the_old_version_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "progress.sqlite3"
    build_database(path, 1)
    from tokdrill.progress import schema

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("ALTER TABLE attempts ADD COLUMN keystrokes INTEGER")
        raise RuntimeError("power cut")

    monkeypatch.setattr(schema, "MIGRATIONS", (schema.MIGRATIONS[0], broken))
    with pytest.raises(RuntimeError, match="power cut"):
        Store.open(path, clock=FixedClock())
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "keystrokes" not in [c[1] for c in conn.execute("PRAGMA table_info(attempts)")]
    conn.close()


def test_a_database_from_a_newer_tokdrill_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer tokdrill") as err:
        Store.open(path)
    assert str(path) in str(err.value)
    assert path.read_bytes() == before


def test_a_negative_schema_version_is_damage_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = -2147483643")  # one flipped bit of the header's version field
    conn.close()
    with pytest.raises(StoreError, match="schema version reads -2147483643") as err:
        Store.open(path)
    assert err.value.problem == "damaged"
    assert str(path) in str(err.value)


@pytest.mark.parametrize(
    ("minutes", "zone"), [(60, "Etc/GMT-1"), (-300, "Etc/GMT+5"), (0, "Etc/GMT"), (330, None), (None, None)]
)
def test_v3_turns_the_fixed_day_offset_into_a_time_zone(tmp_path: Path, minutes: int | None, zone: str | None) -> None:
    path = tmp_path / "progress.sqlite3"
    build_database(path, 2)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO settings VALUES ('day_offset_minutes', ?)", (json.dumps(minutes),))
    conn.close()
    with Store.open(path, clock=FixedClock()) as store:
        assert store.timezone() == zone
        assert "day_offset_minutes" not in store.settings()
