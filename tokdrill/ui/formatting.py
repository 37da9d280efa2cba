"""Small text formatters shared by the screens (no Textual imports; durations as m:ss are
:func:`tokdrill.clock.clock_text`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

_BARS = "▁▂▃▄▅▆▇█"


def interval_text(interval: timedelta) -> str:
    """A scheduling interval as Anki writes it: ``1m``, ``10m``, ``3h``, ``4d``, ``2.1mo``, ``1.5y``."""
    minutes = interval.total_seconds() / 60
    if minutes < 60:
        return f"{max(1, round(minutes))}m"
    hours = minutes / 60
    if hours < 24:
        return f"{round(hours)}h"
    days = hours / 24
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo"
    return f"{days / 365:.1f}y"


def sparkline(values: Sequence[float]) -> str:
    """One block character per value, scaled between the smallest and largest value."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    if span == 0:
        return _BARS[len(_BARS) // 2] * len(values)
    return "".join(_BARS[min(len(_BARS) - 1, int((v - low) / span * (len(_BARS) - 1) + 0.5))] for v in values)


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the last one an ellipsis when it was cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def percent(fraction: float | None) -> str:
    """``87%`` or ``-`` when unknown."""
    return "-" if fraction is None else f"{fraction * 100:.0f}%"


def plural(n: int, word: str) -> str:
    """``1 card`` / ``3 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
