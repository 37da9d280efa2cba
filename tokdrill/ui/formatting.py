"""Small text formatters shared by the screens (Rich text, no Textual; durations as m:ss are
:func:`tokdrill.clock.clock_text`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from rich.style import Style
from rich.text import Text

from tokdrill.content.model import Reference
from tokdrill.grading.report import printable

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


def references_text(references: Sequence[Reference]) -> Text:
    """A drill's or card's references, one per line, each link clickable where the terminal can
    (every part shown as written, never as markup)."""
    out = Text()
    if not references:
        return out
    out.append("References", style="bold")
    for reference in references:
        out.append("\n• ")
        head = reference.authors or ""
        if reference.year is not None:
            head = f"{head} ({reference.year})" if head else f"({reference.year})"
        if head:
            out.append(printable(head) + ". ")
        out.append(printable(reference.title), style="italic")
        if reference.venue:
            out.append(f". {printable(reference.venue)}")
        if reference.url:
            url = printable(reference.url)
            out.append(". ")
            out.append(url, style=Style(underline=True, link=url))
    return out
