"""Injectable clocks, so scheduling, timers and stats are deterministic under test; and the one
way a duration is written for people (``m:ss``)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol

import msgspec
from msgspec import Struct


class Clock(Protocol):
    """Source of wall time (timezone-aware UTC) and of a monotonic counter for durations."""

    def now(self) -> datetime: ...

    def monotonic(self) -> float: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic(self) -> float:
        return time.monotonic()


class FixedClock(Struct):
    """A clock that only moves when told to: ``advance(seconds=...)``."""

    current: datetime = msgspec.field(default_factory=lambda: datetime(2026, 1, 5, 9, 0, tzinfo=UTC))
    _mono: float = 1000.0

    def now(self) -> datetime:
        return self.current

    def monotonic(self) -> float:
        return self._mono

    def advance(self, seconds: float = 0.0, **kwargs: float) -> None:
        """Move both wall time and the monotonic counter forward."""
        delta = timedelta(seconds=seconds, **kwargs)
        self.current += delta
        self._mono += delta.total_seconds()


def clock_text(seconds: float) -> str:
    """A duration as ``m:ss`` (``h:mm:ss`` from one hour), rounded to the nearest second, halves
    up; negative durations read as ``0:00``. The app and ``tokdrill stats`` both write times so."""
    total = int(seconds + 0.5) if seconds > 0 else 0
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
