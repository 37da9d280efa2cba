"""One Stats structure for ``tokdrill stats`` and the UI's Stats screen.

Per drill: attempts, passes, best / median / latest seconds against the target and a trend of
recent passing times. Best and median are over passing attempts only (a failed attempt's time
is not a solve time); latest is the newest attempt whatever its verdict. Per deck: cards seen,
retention (share of reviews rated Good or Easy), due now and a 14-day forecast. Plus the streak,
what is due now (:func:`tokdrill.practice.due.due_counts`, the count Today shows too) and, with
an interview date set, readiness. Heavy lifting is done by SQL aggregates over
indexes, so this stays fast on large histories.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from msgspec import Struct

from tokdrill.clock import Clock
from tokdrill.practice.due import DueCounts, due_counts, due_queue
from tokdrill.progress.records import RetiredItems, to_iso
from tokdrill.progress.store import Store, checked_id, checked_number
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.days import Calendar
from tokdrill.scheduling.planner import Planner
from tokdrill.scheduling.readiness import Readiness, effective_due

TREND_LENGTH = 10
"""How many recent passing times a drill's trend holds (oldest first)."""


class DrillStats(Struct, frozen=True):
    """Numbers for one drill; ``retired`` when its content no longer exists."""

    drill_id: str
    title: str
    target_seconds: int
    attempts: int
    passes: int
    best_seconds: float | None
    median_seconds: float | None
    latest_seconds: float | None
    latest_passed: bool | None
    trend: tuple[float, ...]
    due: datetime | None
    retired: bool = False


class DeckStats(Struct, frozen=True):
    """Numbers for one deck."""

    deck_id: str
    title: str
    cards_total: int
    cards_seen: int
    reviews: int
    retention: float | None
    due_now: int
    forecast: tuple[int, ...]


class Stats(Struct, frozen=True):
    """Everything the stats command and screen show."""

    generated_at: datetime
    drills: tuple[DrillStats, ...]
    decks: tuple[DeckStats, ...]
    total_attempts: int
    total_reviews: int
    streak_days: int
    due: DueCounts
    forecast: tuple[int, ...]
    readiness: Readiness | None
    retired: RetiredItems
    activity: tuple[tuple[date, int], ...] = ()  # attempts + reviews per local day, oldest first

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ``tokdrill stats --json`` document)."""

        def drill(d: DrillStats) -> dict[str, Any]:
            return {
                "id": d.drill_id,
                "title": d.title,
                "target_seconds": d.target_seconds,
                "attempts": d.attempts,
                "passes": d.passes,
                "best_seconds": d.best_seconds,
                "median_seconds": d.median_seconds,
                "latest_seconds": d.latest_seconds,
                "latest_passed": d.latest_passed,
                "trend": list(d.trend),
                "due": None if d.due is None else to_iso(d.due),
                "retired": d.retired,
            }

        def deck(d: DeckStats) -> dict[str, Any]:
            return {
                "id": d.deck_id,
                "title": d.title,
                "cards_total": d.cards_total,
                "cards_seen": d.cards_seen,
                "reviews": d.reviews,
                "retention": None if d.retention is None else round(d.retention, 4),
                "due_now": d.due_now,
                "forecast": list(d.forecast),
            }

        return {
            "generated_at": to_iso(self.generated_at),
            "totals": {"attempts": self.total_attempts, "reviews": self.total_reviews},
            "streak_days": self.streak_days,
            "due_now": self.due.to_json(),
            "forecast": list(self.forecast),
            "drills": [drill(d) for d in self.drills],
            "decks": [deck(d) for d in self.decks],
            "readiness": None if self.readiness is None else self.readiness.to_json(),
            "retired": {"drills": list(self.retired.drills), "cards": list(self.retired.cards)},
            "activity": [{"day": day.isoformat(), "count": n} for day, n in self.activity],
        }


def _median(conn: Any, drill_id: str, passes: int) -> float | None:
    if passes <= 0:
        return None
    rows = conn.execute(
        "SELECT active_seconds FROM attempts WHERE drill_id = ? AND passed = 1 "
        "ORDER BY active_seconds LIMIT ? OFFSET ?",
        (drill_id, 2 - passes % 2, (passes - 1) // 2),
    ).fetchall()
    values = [checked_number(r[0], f"attempts of {drill_id!r}: active_seconds") for r in rows]
    return sum(values) / len(values) if values else None


def _count(value: object, where: str) -> int:
    number = checked_number(value, where)
    return int(number)


ACTIVITY_DAYS = 28


def daily_activity(
    store: Store, calendar: Calendar, today: date, days: int = ACTIVITY_DAYS
) -> tuple[tuple[date, int], ...]:
    """Attempts + reviews on each of the ``days`` local days ending ``today``, oldest first
    (``calendar`` is the planner's, so a day starts where the streak's days start)."""
    out = []
    with store.read() as conn:
        for back in range(days - 1, -1, -1):
            day = today - timedelta(days=back)
            lo, hi = to_iso(calendar.start_of(day)), to_iso(calendar.end_of(day))
            n = conn.execute(
                "SELECT (SELECT count(*) FROM attempts WHERE ended_at >= :lo AND ended_at < :hi)"
                " + (SELECT count(*) FROM reviews WHERE reviewed_at >= :lo AND reviewed_at < :hi)",
                {"lo": lo, "hi": hi},
            ).fetchone()[0]
            out.append((day, int(n)))
    return tuple(out)


def compute_stats(store: Store, catalog: Catalog, clock: Clock | None = None, planner: Planner | None = None) -> Stats:
    """Stats of everything in ``store`` for the content in ``catalog`` (a
    ``tokdrill.scheduling.Catalog``), at the clock's current time, from one read snapshot
    (``planner``: the one to use, e.g. the app's, which sees settings not yet written)."""
    planner = planner or Planner(store, clock)
    now = planner.clock.now()
    titles: Mapping[str, str] = catalog.titles
    with store.read() as conn:
        cal = planner.calendar()
        interview = planner.interview_date()
        # Counters kept by triggers (schema v2): no scan of the history.
        drill_agg = {
            checked_id(r[0], "drill_totals"): (_count(r[1], "drill_totals"), _count(r[2], "drill_totals"))
            for r in conn.execute("SELECT drill_id, attempts, passes FROM drill_totals")
        }
        card_agg = {
            checked_id(r[0], "card_totals"): (_count(r[1], "card_totals"), _count(r[2], "card_totals"))
            for r in conn.execute("SELECT card_id, reviews, good FROM card_totals")
        }
        card_states = store.item_states("card")
        drill_states = store.item_states("drill")
        draft_drills = {checked_id(r[0], "drafts") for r in conn.execute("SELECT DISTINCT drill_id FROM drafts")}

        known_drills = set(catalog.drill_targets)
        retired_drills = sorted((set(drill_agg) | set(drill_states) | draft_drills) - known_drills)
        drills = []
        all_drills = list(catalog.drill_targets) + retired_drills
        latest_map = store.latest_attempts(all_drills)
        for drill_id in all_drills:
            count, passes = drill_agg.get(drill_id, (0, 0))
            best = store.best_seconds(drill_id)
            latest = latest_map.get(drill_id)
            trend = [
                checked_number(r[0], f"attempts of {drill_id!r}: active_seconds")
                for r in conn.execute(
                    "SELECT active_seconds FROM attempts WHERE drill_id = ? AND passed = 1 "
                    "ORDER BY ended_at DESC, id DESC LIMIT ?",
                    (drill_id, TREND_LENGTH),
                )
            ]
            retired = drill_id not in known_drills
            state = drill_states.get(drill_id)
            drills.append(
                DrillStats(
                    drill_id=drill_id,
                    title=titles.get(drill_id, drill_id),
                    target_seconds=int(
                        catalog.drill_targets[drill_id] if not retired else (latest.target_seconds if latest else 0)
                    ),
                    attempts=count,
                    passes=passes,
                    best_seconds=best,
                    median_seconds=_median(conn, drill_id, passes),
                    latest_seconds=None if latest is None else latest.active_seconds,
                    latest_passed=None if latest is None else latest.passed,
                    trend=tuple(reversed(trend)),
                    due=None if state is None else effective_due(state, interview, cal),
                    retired=retired,
                )
            )

        queue = due_queue(planner, catalog)
        queued_cards = {i.item_id for i in queue.cards}
        decks = []
        for deck_id, card_ids in catalog.decks.items():
            seen = [c for c in card_ids if c in card_states]
            reviews = sum(card_agg[c][0] for c in card_ids if c in card_agg)
            good = sum(card_agg[c][1] for c in card_ids if c in card_agg)
            due_now = sum(1 for c in card_ids if c in queued_cards)
            decks.append(
                DeckStats(
                    deck_id=deck_id,
                    title=titles.get(deck_id, deck_id),
                    cards_total=len(card_ids),
                    cards_seen=len(seen),
                    reviews=reviews,
                    retention=good / reviews if reviews else None,
                    due_now=due_now,
                    forecast=planner.due_days(card_states, card_ids),
                )
            )
        known_cards = set(catalog.card_ids)
        retired_cards = sorted((set(card_agg) | set(card_states)) - known_cards)
        drill_forecast = planner.due_days(drill_states, catalog.drill_ids)
        card_forecast = [sum(col) for col in zip(*(d.forecast for d in decks))] or [0] * len(drill_forecast)
        return Stats(
            generated_at=now,
            drills=tuple(drills),
            decks=tuple(decks),
            total_attempts=sum(v[0] for v in drill_agg.values()),
            total_reviews=sum(v[0] for v in card_agg.values()),
            streak_days=planner.streak(),
            due=due_counts(queue),
            forecast=tuple(a + b for a, b in zip(card_forecast, drill_forecast)),
            readiness=planner.readiness(catalog, latest_map, card_states, drill_states),
            retired=RetiredItems(tuple(retired_drills), tuple(retired_cards)),
            activity=daily_activity(store, cal, cal.day_of(now)),
        )
