"""The user's calendar days: activity, new-item limits and forecasts count local days."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from tokdrill.clock import Clock


@dataclass(frozen=True)
class Calendar:
    """Local days at a fixed offset from UTC (local time = UTC + offset)."""

    offset: timedelta = timedelta(0)

    def day_of(self, moment: datetime) -> date:
        """The local date of an aware moment."""
        return (moment.astimezone(UTC) + self.offset).date()

    def start_of(self, day: date) -> datetime:
        """The UTC moment the local ``day`` begins."""
        return datetime.combine(day, time(0), tzinfo=UTC) - self.offset


def calendar_for(offset_minutes: int | None, clock: Clock) -> Calendar:
    """The calendar for a stored offset, or the machine's current local offset when None."""
    if offset_minutes is not None:
        return Calendar(timedelta(minutes=offset_minutes))
    local = clock.now().astimezone().utcoffset() or timedelta(0)
    return Calendar(local)
