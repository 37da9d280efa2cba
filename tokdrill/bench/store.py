"""Store figures: `tokdrill stats` on a generated database of 100,000 attempts and 100,000
reviews (in a temporary folder, removed afterwards), in-process and as a command."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from tokdrill.bench.figures import PYTHON, Figure, median, time_call, time_command
from tokdrill.clock import FixedClock
from tokdrill.progress.records import to_iso
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog

ROWS = 100_000
STATS_GOAL_MS = 100.0
CLI_GOAL_MS = 400.0
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def synthetic_catalog(drills: int = 20, decks: int = 10, cards_per_deck: int = 30) -> Catalog:
    """A made-up catalog, for when no content can be loaded."""
    return Catalog(
        {f"drill-{i:02d}": 300 + 60 * i for i in range(drills)},
        {f"deck-{d}": tuple(f"deck-{d}-card-{c:02d}" for c in range(cards_per_deck)) for d in range(decks)},
    )


def generate_database(path: Path, catalog: Catalog, attempts: int = ROWS, reviews: int = ROWS,
                      days: int = 365, seed: int = 7, now: datetime = NOW) -> None:
    """Fill a new database with ``attempts`` attempts and ``reviews`` reviews spread over the
    ``days`` before ``now``, plus a scheduler state per item and an interview date."""
    from tokdrill.scheduling.fsrs_bridge import card_scheduler, drill_scheduler, from_fsrs, new_card
    from fsrs import Rating

    rng = random.Random(seed)
    start = now - timedelta(days=days)
    span = days * 86400.0
    drill_ids, card_ids = list(catalog.drill_ids), list(catalog.card_ids)
    tests = json.dumps([{"name": f"test_x.py::test_{i}", "outcome": "passed", "message": ""} for i in range(6)])
    attempt_rows = []
    for i in range(attempts):
        drill = drill_ids[i % len(drill_ids)]
        target = catalog.drill_targets[drill]
        ended = start + timedelta(seconds=span * i / attempts)
        secs = target * rng.uniform(0.4, 1.6)
        attempt_rows.append((drill, rng.choice(("retype", "recall")), to_iso(ended - timedelta(seconds=secs)),
                             to_iso(ended), secs, target, int(rng.random() < 0.7), rng.randint(1, 5), tests,
                             rng.randint(100, 3000), rng.uniform(0.8, 1.0)))
    state = from_fsrs(new_card("x", start))
    state_text = json.dumps(state, sort_keys=True)
    review_rows = [
        (card_ids[i % len(card_ids)], rng.choice((1, 2, 3, 3, 3, 4)), rng.uniform(2, 40),
         to_iso(start + timedelta(seconds=span * i / reviews)), state_text, state_text)
        for i in range(reviews)
    ]
    with Store.open(path, clock=FixedClock(now)) as store:  # the real schema, migrations and settings
        store.set_interview_date((now + timedelta(days=20)).date())
        store.set_day_offset_minutes(0)
    # Bulk load through the real tables and triggers, but without WAL and fsyncs: the file is
    # thrown away afterwards, and only reading it is measured.
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO attempts (drill_id, mode, started_at, ended_at, active_seconds, target_seconds, passed, "
        "submissions, tests, keystrokes, retype_accuracy) VALUES (?,?,?,?,?,?,?,?,?,?,?)", attempt_rows)
    conn.executemany(
        "INSERT INTO reviews (card_id, rating, answer_seconds, reviewed_at, state_before, state_after) "
        "VALUES (?,?,?,?,?,?)", review_rows)
    for kind, ids, scheduler in (("card", card_ids, card_scheduler()), ("drill", drill_ids, drill_scheduler())):
        for item_id in ids:
            card = new_card(item_id, now - timedelta(days=40))
            at = now - timedelta(days=40)
            for _ in range(3):
                card, _log = scheduler.review_card(card, Rating(rng.choice((2, 3, 4))), review_datetime=at)
                at = max(card.due, at + timedelta(days=1))
                if at > now:
                    break
            conn.execute(
                "INSERT INTO schedule VALUES (?,?,?,?,?,?,?)",
                (kind, item_id, json.dumps(from_fsrs(card), sort_keys=True), to_iso(card.due),
                 to_iso(card.last_review), to_iso(now - timedelta(days=40)), 3))
    conn.execute("COMMIT")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def _catalog() -> Catalog:
    try:
        from tokdrill.content.loader import load_library
        from tokdrill.scheduling.catalog import catalog_from_library

        catalog = catalog_from_library(load_library([]))
    except Exception:  # content unavailable: measure on made-up ids
        return synthetic_catalog()
    return catalog if catalog.drill_ids and catalog.card_ids else synthetic_catalog()


def figures(quick: bool) -> list[Figure]:
    """Stats time on 100k attempts + 100k reviews: in-process (open store + compute) and the
    `tokdrill stats --json` command's wall time."""
    from tokdrill.progress.stats import compute_stats

    catalog = _catalog()
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-bench-store-"))
    try:
        db = folder / "progress.sqlite3"
        generate_database(db, catalog)
        clock = FixedClock(NOW)

        def in_process() -> None:
            with Store.open(db, clock=clock) as store:
                compute_stats(store, catalog, clock)

        stats_ms = median(time_call(in_process, repeat=5 if quick else 20)) * 1000
        env = {k: v for k, v in os.environ.items() if k not in ("TOKDRILL_HOME", "TOKDRILL_CONTENT")}
        argv = [PYTHON, "-m", "tokdrill", "--data-dir", str(folder), "stats", "--json"]
        cli_ms = median(time_command(argv, repeat=3 if quick else 10, env=env)) * 1000
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    label = f"{ROWS // 1000}k attempts + {ROWS // 1000}k reviews"
    return [
        Figure(f"stats in-process ({label})", stats_ms, "ms", f"<= {STATS_GOAL_MS:g} ms", stats_ms <= STATS_GOAL_MS),
        Figure(
            f"`tokdrill stats --json` wall ({label})", cli_ms, "ms", f"<= {CLI_GOAL_MS:g} ms", cli_ms <= CLI_GOAL_MS
        ),
    ]
