"""Local days come from an IANA time zone: 23- and 25-hour days around daylight-saving changes
count as one day each in streaks, activity and the new-item limit."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from fsrs import Rating

from tokdrill.clock import FixedClock
from tokdrill.practice.stats import daily_activity
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.days import Calendar, calendar_for
from tokdrill.scheduling.planner import Planner

BERLIN = ZoneInfo("Europe/Berlin")  # clocks go forward 2026-03-29 02:00, back 2026-10-25 03:00


def local(y: int, m: int, d: int, h: int, minute: int = 0) -> datetime:
    return datetime(y, m, d, h, minute, tzinfo=BERLIN).astimezone(UTC)


def test_days_around_the_changes_are_23_and_25_hours_long() -> None:
    cal = Calendar(BERLIN)
    assert cal.end_of(date(2026, 3, 29)) - cal.start_of(date(2026, 3, 29)) == timedelta(hours=23)
    assert cal.end_of(date(2026, 10, 25)) - cal.start_of(date(2026, 10, 25)) == timedelta(hours=25)
    assert cal.day_of(local(2026, 3, 29, 23, 59)) == date(2026, 3, 29)
    assert cal.day_of(local(2026, 3, 30, 0, 1)) == date(2026, 3, 30)


def test_a_day_whose_midnight_does_not_exist_starts_when_the_gap_ends() -> None:
    cal = Calendar(ZoneInfo("America/Santiago"))  # 2026-09-06 00:00 jumps to 01:00
    start = cal.start_of(date(2026, 9, 6))
    assert cal.day_of(start) == date(2026, 9, 6)
    assert cal.day_of(start - timedelta(seconds=1)) == date(2026, 9, 5)


@pytest.mark.parametrize("change", [date(2026, 3, 29), date(2026, 10, 25)])
def test_a_streak_across_a_daylight_saving_change(store: Store, clock: FixedClock, change: date) -> None:
    store.set_timezone("Europe/Berlin")
    planner = Planner(store, clock)
    # one review a day just after local midnight, for the five days around the change
    for back in range(4, -1, -1):
        day = change + timedelta(days=2 - back)
        clock.current = local(day.year, day.month, day.day, 0, 30)
        planner.review_card(f"c{back}", Rating.Good, 1.0)
    last = change + timedelta(days=2)
    clock.current = local(last.year, last.month, last.day, 23, 45)
    assert planner.streak() == 5
    activity = daily_activity(store, planner.calendar(), last, days=5)
    assert [n for _day, n in activity] == [1, 1, 1, 1, 1]
    # a fixed offset (winter's UTC+1) puts summer's 00:30 reviews on the day before
    fixed = Calendar(timezone(timedelta(hours=1)))
    assert [n for _day, n in daily_activity(store, fixed, last, days=5)] != [1, 1, 1, 1, 1]


def test_early_morning_activity_counts_on_the_local_day(store: Store, clock: FixedClock, catalog: Catalog) -> None:
    store.set_timezone("Europe/Berlin")
    store.set_new_cards_per_day(1)
    planner = Planner(store, clock)
    clock.current = local(2026, 3, 29, 0, 30)  # just after local midnight, still 28 March in UTC
    planner.review_card("b1", Rating.Good, 1.0)
    assert planner.scheduled_queue(catalog).new_cards_left == 0  # today's one new card is used up
    clock.current = local(2026, 3, 30, 0, 30)
    assert planner.scheduled_queue(catalog).new_cards_left == 1


def test_machine_zone_comes_from_tz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    cal = calendar_for(None, FixedClock())
    assert cal.day_of(datetime(2026, 1, 5, 3, 0, tzinfo=UTC)) == date(2026, 1, 4)
    assert calendar_for("Asia/Tokyo", FixedClock()).day_of(datetime(2026, 1, 5, 16, 0, tzinfo=UTC)) == date(2026, 1, 6)
