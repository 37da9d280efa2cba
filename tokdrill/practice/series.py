"""The series behind the charts: a drill's times per attempt, a deck's reviews and retention per
day, the due forecast up to the interview, and typing speed over retype attempts.

Each series is one indexed query bounded by what the chart shows (the newest attempts of one
drill, the reviews of a window of days, the newest retype attempts), so building it costs the
same on a long history as on a short one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from tokdrill.progress.records import from_iso, to_iso
from tokdrill.progress.store import Store, checked_id, checked_number
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.days import Calendar
from tokdrill.scheduling.planner import Planner

ATTEMPTS_SHOWN = 40
"""How many of a drill's newest attempts its chart shows."""

DECK_DAYS = 30
"""How many local days (ending today) a deck's chart covers."""

FORECAST_DAYS = 30
"""How many local days (starting today) the due forecast covers."""

WPM_SHOWN = 60
"""How many of the newest retype attempts with typing figures the speed chart shows."""


@dataclass(frozen=True)
class AttemptPoint:
    """One attempt of a drill: when it ended, its active time and its verdict."""

    ended_at: datetime
    seconds: float
    passed: bool


@dataclass(frozen=True)
class DrillTimes:
    """A drill's newest attempts (oldest first) against its current target."""

    drill_id: str
    title: str
    target_seconds: int
    attempts: tuple[AttemptPoint, ...]


@dataclass(frozen=True)
class DeckDays:
    """Reviews of a deck's cards on each local day, and how many of them were Good or Easy."""

    deck_id: str
    title: str
    days: tuple[date, ...]
    reviews: tuple[int, ...]
    good: tuple[int, ...]

    @property
    def retention(self) -> tuple[float | None, ...]:
        """Share of each day's reviews rated Good or Easy; None on days without reviews."""
        return tuple(g / n if n else None for n, g in zip(self.reviews, self.good))


@dataclass(frozen=True)
class DueForecast:
    """Cards and drills falling due on each local day from today (overdue ones count today)."""

    days: tuple[date, ...]
    cards: tuple[int, ...]
    drills: tuple[int, ...]
    interview_date: date | None

    @property
    def interview_offset(self) -> int | None:
        """Days from today to the interview, when one is set and not past."""
        if self.interview_date is None or not self.days or self.interview_date < self.days[0]:
            return None
        return (self.interview_date - self.days[0]).days


@dataclass(frozen=True)
class WpmPoint:
    """The typing speed of one retype attempt."""

    drill_id: str
    ended_at: datetime
    wpm: float


def drill_times(store: Store, catalog: Catalog, drill_id: str, limit: int = ATTEMPTS_SHOWN) -> DrillTimes:
    """The newest ``limit`` attempts of ``drill_id`` (index ``attempts_drill_time``); a drill
    no longer in the content keeps its last recorded target."""
    with store.read() as conn:
        rows = conn.execute(
            "SELECT ended_at, active_seconds, passed, target_seconds FROM attempts WHERE drill_id = ? "
            "ORDER BY ended_at DESC, id DESC LIMIT ?",
            (drill_id, limit),
        ).fetchall()
    where = f"attempts of {drill_id!r}"
    points = tuple(
        AttemptPoint(from_iso(str(r[0])), checked_number(r[1], f"{where}: active_seconds"), r[2] == 1)
        for r in reversed(rows)
    )
    target = catalog.drill_targets.get(drill_id)
    if target is None:
        target = int(checked_number(rows[0][3], f"{where}: target_seconds")) if rows else 0
    return DrillTimes(drill_id, catalog.titles.get(drill_id, drill_id), int(target), points)


def deck_days(
    store: Store, catalog: Catalog, calendar: Calendar, today: date, deck_id: str, days: int = DECK_DAYS
) -> DeckDays:
    """Reviews and Good-or-Easy ratings of ``deck_id``'s cards on each of the ``days`` local days
    ending ``today``: one query, a range of index ``reviews_time`` per day."""
    window = [today - timedelta(days=back) for back in range(days - 1, -1, -1)]
    bounds = [(i, to_iso(calendar.start_of(day)), to_iso(calendar.end_of(day))) for i, day in enumerate(window)]
    reviews, good = [0] * days, [0] * days
    with store.read() as conn:
        rows = conn.execute(
            "WITH day(i, lo, hi) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
            "json_extract(value, '$[2]') FROM json_each(:days)) "
            "SELECT day.i, count(*), sum(r.rating >= 3) FROM day JOIN reviews r INDEXED BY reviews_time "
            "ON r.reviewed_at >= day.lo AND r.reviewed_at < day.hi "
            "WHERE r.card_id IN (SELECT value FROM json_each(:cards)) GROUP BY day.i",
            {"days": json.dumps(bounds), "cards": json.dumps(list(catalog.decks.get(deck_id, ())))},
        ).fetchall()
    for i, n, g in rows:
        reviews[int(i)] = int(checked_number(n, f"reviews of deck {deck_id!r}"))
        good[int(i)] = int(checked_number(g, f"reviews of deck {deck_id!r}"))
    return DeckDays(deck_id, catalog.titles.get(deck_id, deck_id), tuple(window), tuple(reviews), tuple(good))


def due_forecast(store: Store, planner: Planner, catalog: Catalog, days: int = FORECAST_DAYS) -> DueForecast:
    """Cards and drills due on each of the next ``days`` local days, as the queue will meet
    them (pulled into the final window before the interview), with the interview date."""
    today = planner.calendar().day_of(planner.clock.now())
    cards = planner.due_days(store.item_states("card"), catalog.card_ids, days)
    drills = planner.due_days(store.item_states("drill"), catalog.drill_ids, days)
    window = tuple(today + timedelta(days=n) for n in range(days))
    return DueForecast(window, cards, drills, planner.interview_date())


@dataclass(frozen=True)
class ChartSeries:
    """Everything the charts show: one drill's times, one deck's days (None when there is no
    such content), the due forecast and typing speed."""

    drill: DrillTimes | None
    deck: DeckDays | None
    forecast: DueForecast
    typing: tuple[WpmPoint, ...]


def chart_series(
    store: Store, catalog: Catalog, planner: Planner, drill_id: str | None = None, deck_id: str | None = None
) -> ChartSeries:
    """The series of every chart; the drill and deck default to the ones practised last."""
    drill_id = drill_id or latest_drill(store, catalog)
    deck_id = deck_id or latest_deck(store, catalog)
    calendar = planner.calendar()
    today = calendar.day_of(planner.clock.now())
    return ChartSeries(
        drill=None if drill_id is None else drill_times(store, catalog, drill_id),
        deck=None if deck_id is None else deck_days(store, catalog, calendar, today, deck_id),
        forecast=due_forecast(store, planner, catalog),
        typing=typing_speed(store),
    )


def typing_speed(store: Store, limit: int = WPM_SHOWN) -> tuple[WpmPoint, ...]:
    """Words per minute of the newest ``limit`` retype attempts that measured it, oldest first
    (walks index ``attempts_time`` from the newest end)."""
    with store.read() as conn:
        rows = conn.execute(
            "SELECT drill_id, ended_at, wpm FROM attempts WHERE mode = 'retype' AND wpm IS NOT NULL "
            "ORDER BY ended_at DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
    return tuple(
        WpmPoint(checked_id(r[0], "attempts: drill_id"), from_iso(str(r[1])), checked_number(r[2], "attempts: wpm"))
        for r in reversed(rows)
    )


def latest_drill(store: Store, catalog: Catalog) -> str | None:
    """The drill of the newest attempt that is still in the content, else the first drill."""
    with store.read() as conn:
        for (drill_id,) in conn.execute("SELECT drill_id FROM attempts ORDER BY ended_at DESC, id DESC LIMIT 50"):
            if drill_id in catalog.drill_targets:
                return str(drill_id)
    return next(iter(catalog.drill_targets), None)


def latest_deck(store: Store, catalog: Catalog) -> str | None:
    """The deck of the newest review whose card is still in the content, else the first deck."""
    deck_of = {card: deck for deck, cards in catalog.decks.items() for card in cards}
    with store.read() as conn:
        for (card_id,) in conn.execute("SELECT card_id FROM reviews ORDER BY reviewed_at DESC, id DESC LIMIT 50"):
            if card_id in deck_of:
                return deck_of[card_id]
    return next(iter(catalog.decks), None)


def chart_choices(store: Store, catalog: Catalog) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The drills and decks worth charting, in content order: those with history (from the
    totals tables), else all of them."""
    with store.read() as conn:
        tried = {checked_id(r[0], "drill_totals") for r in conn.execute("SELECT drill_id FROM drill_totals")}
        reviewed = {checked_id(r[0], "card_totals") for r in conn.execute("SELECT card_id FROM card_totals")}
    drills = tuple(d for d in catalog.drill_ids if d in tried) or catalog.drill_ids
    decks = tuple(k for k, cards in catalog.decks.items() if reviewed.intersection(cards)) or tuple(catalog.decks)
    return drills, decks
