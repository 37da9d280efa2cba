"""The user's calendar days: activity, streaks, new-item limits and forecasts count local days.

Days are counted in an IANA time zone (``zoneinfo``): the ``timezone`` setting when set, else
the machine's own zone. A local day is 23 or 25 hours long across a daylight-saving change, so
day boundaries always come from the zone, never from a fixed offset.
"""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from msgspec import Struct

from tokdrill.clock import Clock

_LOCALTIME = Path("/etc/localtime")


class Calendar(Struct, frozen=True):
    """Local days in one time zone."""

    zone: tzinfo = UTC

    def day_of(self, moment: datetime) -> date:
        """The local date of an aware moment."""
        return moment.astimezone(self.zone).date()

    def start_of(self, day: date) -> datetime:
        """The UTC moment the local ``day`` begins (its first existing minute, across a DST gap)."""
        local = datetime.combine(day, time(0), tzinfo=self.zone)
        moment = local.astimezone(UTC)
        if self.day_of(moment) < day:  # midnight fell in a gap: the day starts when the gap ends
            moment = datetime.combine(day, time(1), tzinfo=self.zone).astimezone(UTC)
        return moment

    def end_of(self, day: date) -> datetime:
        """The UTC moment the local ``day`` ends (the next day's start)."""
        return self.start_of(day + timedelta(days=1))


def machine_zone(clock: Clock) -> tzinfo:
    """The machine's time zone: ``$TZ`` when it names an IANA zone, else ``/etc/localtime``, else
    the current fixed UTC offset (only where the system keeps no zone database)."""
    name = os.environ.get("TZ", "").lstrip(":")
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    try:
        return _localtime()
    except (OSError, ValueError):
        pass
    offset = clock.now().astimezone().utcoffset() or timedelta(0)
    return timezone(offset)


_READ_ZONES: dict[tuple[int, int, int], tzinfo] = {}


def _localtime() -> tzinfo:
    """The zone in ``/etc/localtime``, read again only when that file changes (every screen
    refresh asks for the calendar)."""
    info = _LOCALTIME.stat()
    key = (info.st_ino, info.st_mtime_ns, info.st_size)
    zone = _READ_ZONES.get(key)
    if zone is None:
        with _LOCALTIME.open("rb") as fh:
            zone = ZoneInfo.from_file(fh, key="localtime")
        _READ_ZONES.clear()
        _READ_ZONES[key] = zone
    return zone


def calendar_for(zone_name: str | None, clock: Clock) -> Calendar:
    """The calendar of a stored zone name (already validated by the settings), or the machine's
    zone when None."""
    if zone_name is not None:
        try:
            return Calendar(ZoneInfo(zone_name))
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass  # a zone the machine no longer knows: fall back to the machine's own
    return Calendar(machine_zone(clock))
