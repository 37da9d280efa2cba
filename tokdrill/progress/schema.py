"""Database schema and its forward migrations, versioned with ``PRAGMA user_version``.

Version history
* 0 -> 1: attempts, reviews, drafts, settings.
* 1 -> 2: attempts gain ``keystrokes`` and ``retype_accuracy``; a ``schedule`` table holds each
  card's and drill's scheduler state, back-filled for cards from their latest review;
  ``drill_totals`` / ``card_totals`` counters kept by triggers (back-filled), attempts and
  reviews made append-only, and indexes, so stats never scan the whole history.
* 2 -> 3: attempts gain typing measurements (``wpm``, ``typing_accuracy``,
  ``corrected_errors``, ``costly_keys``) and ``origin`` (app, check or mock); each stored test
  outcome may carry its ``concepts``; the fixed ``day_offset_minutes`` setting becomes a
  ``timezone`` (a whole-hour offset maps to its ``Etc/GMT`` zone, anything else to the
  machine's zone).
* 3 -> 4: ``concept_results`` (how each graded submission did on each concept its tests check,
  back-filled from the attempts' stored tests), ``mock_rounds`` (mock interview rounds) and
  ``starts`` (drills started in the user's own editor, one per drill).
* 4 -> 5: a partial index of retype attempts with typing figures, by time (the typing-speed
  chart reads the newest of them).
* 5 -> 6: ``starts`` gain ``checked_at``, ``source_hash`` and ``passed_at`` (a start's attempt
  ends at its first pass; the same source is logged once); ``drafts`` gain the typing counted
  before leaving (``keystrokes``, ``typing_keystrokes``, ``typing_errors``, ``costly_keys``) and their session
  (``started_at``, ``submissions``).

Each step runs inside the caller's write transaction together with the version bump, so a
crash mid-migration leaves the previous version intact. Never edit a released step: add one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

from tokdrill.progress.records import TestOutcome, concept_results, from_iso, to_iso
from tokdrill.progress.settings import TIMEZONE, legacy_day_offset

APPLICATION_ID = 0x746B6472  # "tkdr": marks a SQLite file as tokdrill's


def _v1(conn: sqlite3.Connection) -> None:
    for statement in (
        """CREATE TABLE attempts (
            id INTEGER PRIMARY KEY,
            drill_id TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('retype', 'recall')),
            started_at TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            active_seconds REAL NOT NULL CHECK (active_seconds >= 0),
            target_seconds INTEGER NOT NULL CHECK (target_seconds > 0),
            passed INTEGER NOT NULL CHECK (passed IN (0, 1)),
            submissions INTEGER NOT NULL CHECK (submissions >= 0),
            tests TEXT NOT NULL
        )""",
        """CREATE TABLE reviews (
            id INTEGER PRIMARY KEY,
            card_id TEXT NOT NULL,
            rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
            answer_seconds REAL NOT NULL CHECK (answer_seconds >= 0),
            reviewed_at TEXT NOT NULL,
            state_before TEXT,
            state_after TEXT NOT NULL
        )""",
        """CREATE TABLE drafts (
            drill_id TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('retype', 'recall')),
            text TEXT NOT NULL,
            elapsed_seconds REAL NOT NULL CHECK (elapsed_seconds >= 0),
            saved_at TEXT NOT NULL,
            PRIMARY KEY (drill_id, mode)
        )""",
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE INDEX reviews_card ON reviews (card_id, reviewed_at)",
    ):
        conn.execute(statement)


def _v2(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE attempts ADD COLUMN keystrokes INTEGER CHECK (keystrokes >= 0)")
    conn.execute("ALTER TABLE attempts ADD COLUMN retype_accuracy REAL CHECK (retype_accuracy BETWEEN 0 AND 1)")
    conn.execute(
        """CREATE TABLE schedule (
            kind TEXT NOT NULL CHECK (kind IN ('card', 'drill')),
            item_id TEXT NOT NULL,
            state TEXT NOT NULL,
            due TEXT NOT NULL,
            last_review TEXT,
            first_seen TEXT NOT NULL,
            reps INTEGER NOT NULL CHECK (reps >= 0),
            PRIMARY KEY (kind, item_id)
        )"""
    )
    # Back-fill card states from the newest review of each card (its state_after is the state).
    rows = conn.execute(
        """SELECT r.card_id, r.state_after, agg.first_seen, agg.reps
           FROM reviews r
           JOIN (SELECT card_id, MIN(reviewed_at) AS first_seen, MAX(reviewed_at) AS last_at,
                        COUNT(*) AS reps
                 FROM reviews GROUP BY card_id) agg
             ON agg.card_id = r.card_id AND agg.last_at = r.reviewed_at
           GROUP BY r.card_id"""
    ).fetchall()
    for card_id, state_text, first_seen, reps in rows:
        state = json.loads(state_text)
        last = state.get("last_review")
        conn.execute(
            "INSERT INTO schedule VALUES ('card', ?, ?, ?, ?, ?, ?)",
            (
                card_id,
                state_text,
                to_iso(from_iso(state["due"])),
                to_iso(from_iso(last)) if last else None,
                first_seen,
                reps,
            ),
        )
    conn.execute("DROP INDEX reviews_card")
    for statement in (
        "CREATE INDEX reviews_card_rating ON reviews (card_id, rating)",
        "CREATE INDEX reviews_time ON reviews (reviewed_at)",
        "CREATE INDEX attempts_drill_time ON attempts (drill_id, ended_at)",
        "CREATE INDEX attempts_drill_pass_secs ON attempts (drill_id, passed, active_seconds)",
        "CREATE INDEX attempts_time ON attempts (ended_at)",
        "CREATE INDEX schedule_due ON schedule (kind, due)",
        """CREATE TABLE drill_totals (
            drill_id TEXT PRIMARY KEY, attempts INTEGER NOT NULL, passes INTEGER NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE card_totals (
            card_id TEXT PRIMARY KEY, reviews INTEGER NOT NULL, good INTEGER NOT NULL
        ) WITHOUT ROWID""",
        "INSERT INTO drill_totals SELECT drill_id, COUNT(*), SUM(passed) FROM attempts GROUP BY drill_id",
        "INSERT INTO card_totals SELECT card_id, COUNT(*), SUM(rating >= 3) FROM reviews GROUP BY card_id",
        """CREATE TRIGGER attempts_total_insert AFTER INSERT ON attempts BEGIN
            INSERT INTO drill_totals VALUES (NEW.drill_id, 1, NEW.passed)
            ON CONFLICT (drill_id) DO UPDATE SET attempts = attempts + 1, passes = passes + NEW.passed;
        END""",
        """CREATE TRIGGER attempts_total_delete AFTER DELETE ON attempts BEGIN
            UPDATE drill_totals SET attempts = attempts - 1, passes = passes - OLD.passed
            WHERE drill_id = OLD.drill_id;
            DELETE FROM drill_totals WHERE drill_id = OLD.drill_id AND attempts = 0;
        END""",
        """CREATE TRIGGER attempts_append_only BEFORE UPDATE ON attempts BEGIN
            SELECT RAISE(ABORT, 'attempts are append-only');
        END""",
        """CREATE TRIGGER reviews_total_insert AFTER INSERT ON reviews BEGIN
            INSERT INTO card_totals VALUES (NEW.card_id, 1, NEW.rating >= 3)
            ON CONFLICT (card_id) DO UPDATE SET reviews = reviews + 1, good = good + (NEW.rating >= 3);
        END""",
        """CREATE TRIGGER reviews_total_delete AFTER DELETE ON reviews BEGIN
            UPDATE card_totals SET reviews = reviews - 1, good = good - (OLD.rating >= 3)
            WHERE card_id = OLD.card_id;
            DELETE FROM card_totals WHERE card_id = OLD.card_id AND reviews = 0;
        END""",
        """CREATE TRIGGER reviews_append_only BEFORE UPDATE ON reviews BEGIN
            SELECT RAISE(ABORT, 'reviews are append-only');
        END""",
    ):
        conn.execute(statement)


def _v3(conn: sqlite3.Connection) -> None:
    for statement in (
        "ALTER TABLE attempts ADD COLUMN wpm REAL CHECK (wpm >= 0)",
        "ALTER TABLE attempts ADD COLUMN typing_accuracy REAL CHECK (typing_accuracy BETWEEN 0 AND 1)",
        "ALTER TABLE attempts ADD COLUMN corrected_errors INTEGER CHECK (corrected_errors >= 0)",
        "ALTER TABLE attempts ADD COLUMN costly_keys TEXT",
        "ALTER TABLE attempts ADD COLUMN origin TEXT NOT NULL DEFAULT 'app' CHECK (origin IN ('app', 'check', 'mock'))",
    ):
        conn.execute(statement)
    row = conn.execute("SELECT value FROM settings WHERE key = 'day_offset_minutes'").fetchone()
    conn.execute("DELETE FROM settings WHERE key = 'day_offset_minutes'")
    if row is not None:
        try:
            zone = legacy_day_offset(json.loads(row[0]))
        except ValueError:
            zone = None
        if zone is not None:
            conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (TIMEZONE, json.dumps(zone)))


def _v4(conn: sqlite3.Connection) -> None:
    for statement in (
        """CREATE TABLE concept_results (
            id INTEGER PRIMARY KEY,
            drill_id TEXT NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('app', 'check', 'mock')),
            at TEXT NOT NULL,
            concept TEXT NOT NULL,
            failed_tests TEXT NOT NULL
        )""",
        "CREATE INDEX concept_results_concept ON concept_results (concept, at)",
        "CREATE INDEX concept_results_time ON concept_results (at)",
        """CREATE TABLE mock_rounds (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            clock_seconds INTEGER NOT NULL CHECK (clock_seconds > 0),
            drill_id TEXT NOT NULL,
            drill_target_seconds INTEGER NOT NULL CHECK (drill_target_seconds > 0),
            drill_passed INTEGER NOT NULL CHECK (drill_passed IN (0, 1)),
            drill_seconds REAL CHECK (drill_seconds >= 0),
            answers TEXT NOT NULL,
            concepts_missed TEXT NOT NULL
        )""",
        """CREATE TABLE starts (
            drill_id TEXT PRIMARY KEY,
            mode TEXT NOT NULL CHECK (mode IN ('retype', 'recall')),
            path TEXT NOT NULL,
            started_at TEXT NOT NULL,
            checks INTEGER NOT NULL CHECK (checks >= 0)
        )""",
    ):
        conn.execute(statement)
    rows = conn.execute("SELECT drill_id, origin, ended_at, tests FROM attempts ORDER BY ended_at, id").fetchall()
    for drill_id, origin, ended_at, tests_text in rows:
        try:
            tests = json.loads(tests_text)
        except (TypeError, ValueError):
            continue  # a damaged row is left to the store's own checks
        outcomes = tuple(
            TestOutcome(str(t.get("name", "")), str(t.get("outcome", "")), "", tuple(map(str, t.get("concepts") or ())))
            for t in (tests if isinstance(tests, list) else ())
            if isinstance(t, dict)
        )
        for result in concept_results(drill_id, origin, from_iso(ended_at), outcomes):
            conn.execute(
                "INSERT INTO concept_results (drill_id, origin, at, concept, failed_tests) VALUES (?, ?, ?, ?, ?)",
                (drill_id, origin, ended_at, result.concept, json.dumps(list(result.failed_tests))),
            )


def _v5(conn: sqlite3.Connection) -> None:
    # The typing-speed chart reads the newest retype attempts that measured WPM; without this
    # partial index a history of attempts without typing figures would be walked to its start.
    conn.execute("CREATE INDEX attempts_typing ON attempts (ended_at) WHERE mode = 'retype' AND wpm IS NOT NULL")


def _v6(conn: sqlite3.Connection) -> None:
    # A start remembers its last check, the source it graded and its first pass; a draft keeps
    # the typing counted before it was left.
    for statement in (
        "ALTER TABLE starts ADD COLUMN checked_at TEXT",
        "ALTER TABLE starts ADD COLUMN source_hash TEXT",
        "ALTER TABLE starts ADD COLUMN passed_at TEXT",
        "ALTER TABLE drafts ADD COLUMN keystrokes INTEGER CHECK (keystrokes >= 0)",
        "ALTER TABLE drafts ADD COLUMN typing_keystrokes INTEGER CHECK (typing_keystrokes >= 0)",
        "ALTER TABLE drafts ADD COLUMN typing_errors INTEGER CHECK (typing_errors >= 0)",
        "ALTER TABLE drafts ADD COLUMN costly_keys TEXT",
        "ALTER TABLE drafts ADD COLUMN started_at TEXT",
        "ALTER TABLE drafts ADD COLUMN submissions INTEGER CHECK (submissions >= 0)",
    ):
        conn.execute(statement)


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3, _v4, _v5, _v6)
"""MIGRATIONS[i] moves a database from version i to version i + 1."""

SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, from_version: int, to_version: int = SCHEMA_VERSION) -> None:
    """Apply steps ``from_version`` .. ``to_version - 1``; the caller holds a write transaction."""
    for version in range(from_version, to_version):
        MIGRATIONS[version](conn)
    conn.execute(f"PRAGMA user_version = {int(to_version)}")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
