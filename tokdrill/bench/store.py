"""Store figures: `tokdrill stats` on a generated database of 100,000 attempts and 100,000
reviews (in a temporary folder, removed afterwards), in-process and as a command, and the series
of the Stats screen's charts.

The command runs with ``--data-dir`` set to that folder, so its content cache lives there too
(warm after the first run, as on any machine that has run tokdrill before)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from tokdrill.bench.figures import PYTHON, Figure, command_env, interleaved, median, time_call
from tokdrill.clock import FixedClock
from tokdrill.progress.records import to_iso
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog

ROWS = 100_000
STATS_GOAL_MS = 100.0
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def synthetic_catalog(drills: int = 20, decks: int = 10, cards_per_deck: int = 30) -> Catalog:
    """A made-up catalog, for when no content can be loaded."""
    return Catalog(
        {f"drill-{i:02d}": 300 + 60 * i for i in range(drills)},
        {f"deck-{d}": tuple(f"deck-{d}-card-{c:02d}" for c in range(cards_per_deck)) for d in range(decks)},
    )


def generate_database(
    path: Path,
    catalog: Catalog,
    attempts: int = ROWS,
    reviews: int = ROWS,
    days: int = 365,
    seed: int = 7,
    now: datetime = NOW,
    interview: date | None = None,
) -> None:
    """Fill a new database with ``attempts`` attempts (half in retype mode, with typing figures)
    and ``reviews`` reviews spread over the ``days`` before ``now``, plus a scheduler state per item and an interview date (default: 20
    days after ``now``).

    The tables, triggers (the per-drill and per-card totals) and indexes are the real schema's;
    for speed the rows go in with one ``executemany`` per table in one transaction, without WAL
    or fsyncs, and the history's indexes are dropped first and rebuilt from their own SQL after
    (one sort instead of 200,000 b-tree inserts). The file is thrown away afterwards: only
    reading it is measured.
    """
    from fsrs import Rating

    from tokdrill.scheduling.fsrs_bridge import card_scheduler, drill_scheduler, from_fsrs, new_card

    rng = random.Random(seed)
    uniform = rng.random
    start = now - timedelta(days=days)
    span = days * 86400.0
    drill_ids, card_ids = list(catalog.drill_ids), list(catalog.card_ids)
    targets = [catalog.drill_targets[d] for d in drill_ids]
    tests = json.dumps([{"name": f"test_x.py::test_{i}", "outcome": "passed", "message": ""} for i in range(6)])
    iso = _iso_maker(start)

    def attempt_rows() -> Iterator[tuple[object, ...]]:
        for i in range(attempts):
            k = i % len(drill_ids)
            target = targets[k]
            ended = span * i / attempts
            secs = target * (0.4 + 1.2 * uniform())
            retype = uniform() < 0.5
            yield (
                drill_ids[k],
                "retype" if retype else "recall",
                iso(ended - secs),
                iso(ended),
                secs,
                target,
                int(uniform() < 0.7),
                1 + int(uniform() * 5),
                tests,
                100 + int(uniform() * 2901),
                0.8 + 0.2 * uniform(),
                # typing figures, as the app records for every retype attempt
                20 + 60 * uniform() if retype else None,
                0.85 + 0.15 * uniform() if retype else None,
                int(uniform() * 12) if retype else None,
            )

    state_text = json.dumps(from_fsrs(new_card("x", start)), sort_keys=True)
    ratings = (1, 2, 3, 3, 3, 4)

    def review_rows() -> Iterator[tuple[object, ...]]:
        for i in range(reviews):
            yield (
                card_ids[i % len(card_ids)],
                ratings[int(uniform() * 6)],
                2 + 38 * uniform(),
                iso(span * i / reviews),
                state_text,
                state_text,
            )

    with Store.open(path, clock=FixedClock(now)) as store:  # the real schema, migrations and settings
        store.set_interview_date(interview or (now + timedelta(days=20)).date())
        store.set_timezone("UTC")
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -262144")
        conn.execute("BEGIN")
        indexes = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
            "AND tbl_name IN ('attempts', 'reviews')"
        ).fetchall()
        for name, _sql in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        conn.executemany(
            "INSERT INTO attempts (drill_id, mode, started_at, ended_at, active_seconds, target_seconds, passed, "
            "submissions, tests, keystrokes, retype_accuracy, wpm, typing_accuracy, corrected_errors) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            attempt_rows(),
        )
        conn.executemany(
            "INSERT INTO reviews (card_id, rating, answer_seconds, reviewed_at, state_before, state_after) "
            "VALUES (?,?,?,?,?,?)",
            review_rows(),
        )
        for _name, sql in indexes:
            conn.execute(sql)
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
                    (
                        kind,
                        item_id,
                        json.dumps(from_fsrs(card), sort_keys=True),
                        to_iso(card.due),
                        None if card.last_review is None else to_iso(card.last_review),
                        to_iso(now - timedelta(days=40)),
                        3,
                    ),
                )
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()


def _iso_maker(start: datetime) -> Callable[[float], str]:
    """``offset seconds -> stored timestamp text`` for ``start + offset``, in ``to_iso``'s format,
    without building a datetime per row (the date part comes from a per-day table)."""
    base = start.astimezone(UTC)
    origin = base.replace(hour=0, minute=0, second=0, microsecond=0)
    lead = (base - origin).total_seconds()
    days: dict[int, str] = {}

    def iso(offset: float) -> str:
        micros = round((lead + offset) * 1_000_000)
        day, rest = divmod(micros, 86_400_000_000)
        prefix = days.get(day)
        if prefix is None:
            prefix = days[day] = (origin + timedelta(days=day)).strftime("%Y-%m-%dT")
        seconds, micro = divmod(rest, 1_000_000)
        hours, seconds = divmod(seconds, 3600)
        minutes, seconds = divmod(seconds, 60)
        return f"{prefix}{hours:02d}:{minutes:02d}:{seconds:02d}.{micro:06d}+00:00"

    return iso


def _catalog() -> Catalog:
    try:
        from tokdrill.content.loader import load_library
        from tokdrill.scheduling.catalog import catalog_from_library

        catalog = catalog_from_library(load_library([]))
    except Exception:  # noqa: BLE001 - content unavailable: measure on made-up ids
        return synthetic_catalog()
    return catalog if catalog.drill_ids and catalog.card_ids else synthetic_catalog()


def figures(quick: bool) -> list[Figure]:
    """Stats on 100k attempts + 100k reviews: in-process (open store + compute; goal <= 100 ms)
    and the `tokdrill stats --json` command's wall time against `python -c pass`, with a goal of
    `tokdrill --help` + 100 ms: start-up plus the in-process budget, so imports and the (cached)
    content load must fit in what the computation leaves of those 100 ms."""
    from tokdrill.practice.series import chart_choices, chart_series
    from tokdrill.practice.stats import compute_stats
    from tokdrill.scheduling.planner import Planner

    catalog = _catalog()
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-bench-store-"))
    try:
        db = folder / "progress.sqlite3"
        # The interview lies ahead both for the fixed clock and for the command's real clock, so
        # both compute readiness (with FSRS), as a user preparing for one sees.
        generate_database(db, catalog, interview=(max(NOW, datetime.now(UTC)) + timedelta(days=20)).date())
        clock = FixedClock(NOW)

        def in_process() -> None:
            with Store.open(db, clock=clock) as store:
                compute_stats(store, catalog, clock)

        stats_ms = median(time_call(in_process, repeat=5 if quick else 20)) * 1000

        def charts() -> None:
            with Store.open(db, clock=clock) as store:
                chart_choices(store, catalog)
                chart_series(store, catalog, Planner(store, clock))

        charts_ms = median(time_call(charts, repeat=5 if quick else 20)) * 1000
        env = command_env(folder / "pycache")
        walls = interleaved(
            {
                "bare": [PYTHON, "-c", "pass"],
                "help": [PYTHON, "-m", "tokdrill", "--help"],
                "stats": [PYTHON, "-m", "tokdrill", "--data-dir", str(folder), "stats", "--json"],
            },
            repeat=5 if quick else 15,
            env=env,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    bare_ms, help_ms, cli_ms = (walls[k] * 1000 for k in ("bare", "help", "stats"))
    limit_ms = help_ms + STATS_GOAL_MS
    label = f"{ROWS // 1000}k attempts + {ROWS // 1000}k reviews"
    return [
        Figure(f"stats in-process ({label})", stats_ms, "ms", f"<= {STATS_GOAL_MS:g} ms", stats_ms <= STATS_GOAL_MS),
        Figure(
            f"chart series in-process ({label})",
            charts_ms,
            "ms",
            f"<= {STATS_GOAL_MS:g} ms",
            charts_ms <= STATS_GOAL_MS,
        ),
        Figure(
            f"`tokdrill stats --json` wall ({label}, warm content cache)",
            cli_ms,
            "ms",
            f"<= --help + {STATS_GOAL_MS:g} ms = {limit_ms:.0f} ms",
            cli_ms <= limit_ms,
            bare_ms,
            "python -c pass",
        ),
    ]
