"""Small text formatters shared by the screens (no Textual imports)."""

from __future__ import annotations

from collections.abc import Sequence

_BARS = "▁▂▃▄▅▆▇█"


def clock_text(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) for a non-negative duration."""
    total = max(0, int(seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def sparkline(values: Sequence[float]) -> str:
    """One block character per value, scaled between the smallest and largest value."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = high - low
    if span == 0:
        return _BARS[len(_BARS) // 2] * len(values)
    return "".join(_BARS[min(len(_BARS) - 1, int((v - low) / span * (len(_BARS) - 1) + 0.5))] for v in values)


def percent(fraction: float | None) -> str:
    """``87%`` or ``-`` when unknown."""
    return "-" if fraction is None else f"{fraction * 100:.0f}%"


def plural(n: int, word: str) -> str:
    """``1 card`` / ``3 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
