"""The benchmark's generated progress database (tokdrill.bench.store) is a real store, small scale."""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta
from pathlib import Path

from tokdrill.bench.store import NOW, _iso_maker, generate_database, synthetic_catalog
from tokdrill.clock import FixedClock
from tokdrill.practice.stats import compute_stats
from tokdrill.progress.records import from_iso, to_iso
from tokdrill.progress.store import Store


def _schema(path: Path) -> set[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return set(conn.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


def test_generated_database_has_the_real_schema_totals_and_history(tmp_path: Path) -> None:
    catalog = synthetic_catalog(drills=3, decks=2, cards_per_deck=4)
    db = tmp_path / "progress.sqlite3"
    generate_database(db, catalog, attempts=300, reviews=200)
    fresh = tmp_path / "fresh.sqlite3"
    Store.open(fresh).close()
    assert _schema(db) == _schema(fresh)  # indexes and triggers rebuilt, nothing missing
    clock = FixedClock(NOW)
    with Store.open(db, clock=clock) as store:
        stats = compute_stats(store, catalog, clock)
        attempts = store.attempts()
    assert (stats.total_attempts, stats.total_reviews) == (300, 200)
    assert [d.attempts for d in stats.drills] == [100, 100, 100]
    assert sum(d.passes for d in stats.drills) == sum(a.passed for a in attempts)
    assert all(a.started_at < a.ended_at <= NOW for a in attempts)
    assert stats.readiness is not None  # the interview date is set


def test_timestamps_match_to_iso_to_the_microsecond() -> None:
    start = NOW - timedelta(days=365)
    iso = _iso_maker(start)
    rng = random.Random(3)
    for offset in [0.0, 86_399.9999994, 86_400.0, -1.5] + [rng.uniform(-5000, 3e7) for _ in range(2000)]:
        expected = start + timedelta(seconds=offset)
        text = iso(offset)
        assert abs(from_iso(text) - expected) <= timedelta(microseconds=1), (offset, text, to_iso(expected))
        assert len(text) == len(to_iso(expected))
