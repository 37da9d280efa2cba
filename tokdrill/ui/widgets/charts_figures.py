"""The four charts drawn onto a plotext figure: the app's chart widget and ``tokdrill stats
--plot`` draw them with these same functions, so both show the same picture.

No widgets here: a figure is a ``textual_plotext.plot.Plot`` (plotext's figure, without plotext's
global state), which the widget renders and the command prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from enum import Enum
from typing import TYPE_CHECKING

from tokdrill.clock import clock_text
from tokdrill.grading.report import printable
from tokdrill.practice.series import ChartSeries, DeckDays, DrillTimes, DueForecast, WpmPoint
from tokdrill.ui.formatting import shorten

if TYPE_CHECKING:
    from tokdrill.ui.plotext_internals import Figure

_LABEL_WIDTH = 4
_NICE_SECONDS = (15, 30, 60, 120, 180, 240, 300, 600, 900, 1200, 1800, 3600, 7200)


class Chart(Enum):
    """The charts, in the order the app steps through them."""

    TIMES = "times"
    DECK = "deck"
    FORECAST = "forecast"
    TYPING = "typing"

    @property
    def label(self) -> str:
        """The chart's name in the app's chart bar."""
        return {
            Chart.TIMES: "Drill times",
            Chart.DECK: "Deck retention",
            Chart.FORECAST: "Due forecast",
            Chart.TYPING: "Typing speed",
        }[self]


def _day(day: date) -> str:
    return day.strftime("%m-%d")


def _spread(count: int, most: int) -> list[int]:
    """Up to ``most`` indexes spread evenly over ``range(count)``, first and last included."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def _tick_count(width: int, per: int) -> int:
    """How many x labels fit ``width`` columns, one per ``per`` columns."""
    return max(2, min(8, width // per))


def _title(plt: Figure, width: int, subject: str, rest: str = "") -> None:
    """Title ``subject + rest``, the subject shortened so that it fits ``width`` columns
    (plotext leaves out a title that does not fit)."""
    room = width - 4
    text = shorten(printable(subject), max(8, room - len(rest))) + rest
    plt.title(shorten(text, room))


def _label(text: str) -> str:
    """A y tick label padded to one width, so that stacked panels line up."""
    return text.rjust(_LABEL_WIDTH)


def _count_axis(plt: Figure, top: float) -> None:
    """A y axis of whole counts from 0 over ``top``, about four labels."""
    step = max(1, -(-int(top) // 4))
    ticks = list(range(0, int(top) + step, step))
    plt.ylim(0, ticks[-1] * 1.05)
    plt.yticks([float(t) for t in ticks], [_label(str(t)) for t in ticks])


def _seconds_axis(plt: Figure, top: float, target: int) -> None:
    """A y axis from 0 over ``top`` seconds with m:ss labels, the target among them."""
    step = next((s for s in _NICE_SECONDS if top / s <= 5), _NICE_SECONDS[-1])
    ticks = sorted({float(step * i) for i in range(int(top // step) + 1)} | {float(target)})
    ticks = [t for t in ticks if t == target or abs(t - target) >= step / 2]
    plt.ylim(0, top)
    plt.yticks(ticks, [clock_text(t) for t in ticks])


def draw_drill_times(plt: Figure, series: DrillTimes, width: int) -> str | None:
    """Active time of each of the drill's newest attempts against its target line; passes
    are dots, failures crosses. Returns why nothing was drawn, if so."""
    points = series.attempts
    if not points:
        return f"{series.title}: no attempts yet. Practise it (F3 Browse) to see your times here."
    xs = list(range(1, len(points) + 1))
    passes = [(x, p.seconds) for x, p in zip(xs, points) if p.passed]
    fails = [(x, p.seconds) for x, p in zip(xs, points) if not p.passed]
    top = max(max(p.seconds for p in points), float(series.target_seconds)) * 1.15
    _seconds_axis(plt, top, series.target_seconds)
    plt.horizontal_line(series.target_seconds, color="yellow")
    if passes:
        plt.scatter([x for x, _ in passes], [y for _, y in passes], marker="●", color="green", label="pass")
    if fails:
        plt.scatter([x for x, _ in fails], [y for _, y in fails], marker="✗", color="red", label="fail")
    plt.xlim(0.5, len(points) + 0.5)
    shown = _spread(len(points), _tick_count(width, 12))
    plt.xticks([float(xs[i]) for i in shown], [_day(points[i].ended_at.date()) for i in shown])
    _title(plt, width, series.title, f": time per attempt, target line {clock_text(series.target_seconds)}")
    return None


def draw_deck_days(plt: Figure, series: DeckDays, width: int) -> str | None:
    """Two panels over the same days: the day's retention (share of reviews rated Good or Easy)
    above, reviews per day below."""
    if not any(series.reviews):
        return f"{series.title}: no reviews in the last {len(series.days)} days. Press F5 to review cards."
    xs = list(range(len(series.days)))
    plt.subplots(2, 1)
    upper = plt.subplot(1, 1)
    kept = [(x, r * 100) for x, r in zip(xs, series.retention) if r is not None]
    upper.plot([x for x, _ in kept], [y for _, y in kept], marker="braille", color="green")
    upper.scatter([x for x, _ in kept], [y for _, y in kept], marker="●", color="green")
    upper.ylim(0, 100)
    upper.yticks([0, 50, 100], [_label(f"{v}%") for v in (0, 50, 100)])
    upper.xlim(-0.5, len(xs) - 0.5)
    upper.xticks([])
    _title(upper, width, series.title, ": retention per day (Good or Easy)")
    lower = plt.subplot(2, 1)
    lower.bar(xs, list(series.reviews), color="blue", width=0.5)
    _count_axis(lower, max(series.reviews))
    lower.xlim(-0.5, len(xs) - 0.5)
    shown = _spread(len(xs), _tick_count(width, 10))
    lower.xticks([float(i) for i in shown], [_day(series.days[i]) for i in shown])
    _title(lower, width, "reviews per day")
    return None


def draw_forecast(plt: Figure, series: DueForecast, width: int) -> str | None:
    """Cards and drills due per day, stacked, with a vertical line on the interview day."""
    xs = list(range(len(series.days)))
    if not any(series.cards) and not any(series.drills):
        return f"Nothing falls due in the next {len(series.days)} days: review or practise to schedule items."
    totals = [float(c + d) for c, d in zip(series.cards, series.drills)]
    plt.bar(xs, totals, color="magenta", label="drills", width=0.6)  # the cards' bars cover their share
    plt.bar(xs, [float(c) for c in series.cards], color="blue", label="cards", width=0.6)
    offset = series.interview_offset
    if series.interview_date is None:
        when = "no interview date set (i on Today)"
    elif offset is not None and offset < len(xs):
        plt.vertical_line(offset, color="red")
        when = f"interview {series.interview_date.isoformat()} (vertical line)"
    else:
        when = f"interview {series.interview_date.isoformat()}, after these {len(xs)} days"
    _count_axis(plt, max(totals))
    shown = _spread(len(xs), _tick_count(width, 10))
    plt.xticks([float(i) for i in shown], [_day(series.days[i]) for i in shown])
    _title(plt, width, f"Due per day, next {len(xs)} days: {when}")
    return None


def draw_typing(plt: Figure, points: Sequence[WpmPoint], width: int) -> str | None:
    """Words per minute of each retype attempt, oldest first."""
    if not points:
        return "No typing speed yet: it is measured when you retype a drill (Enter, then r)."
    xs = list(range(1, len(points) + 1))
    plt.plot(xs, [p.wpm for p in points], marker="braille", color="magenta")
    plt.scatter(xs, [p.wpm for p in points], marker="●", color="magenta")
    _count_axis(plt, max(p.wpm for p in points))
    plt.xlim(0.5, len(points) + 0.5)
    shown = _spread(len(points), _tick_count(width, 12))
    plt.xticks([float(xs[i]) for i in shown], [_day(points[i].ended_at.date()) for i in shown])
    latest, best = points[-1].wpm, max(p.wpm for p in points)
    _title(plt, width, f"Typing speed per retype attempt (WPM): latest {latest:.0f}, best {best:.0f}")
    return None


def draw(plt: Figure, chart: Chart, series: ChartSeries, width: int) -> str | None:
    """Draw ``chart`` from ``series`` onto a cleared ``plt`` that is ``width`` columns wide;
    returns why nothing was drawn, if so."""
    plt.clear_figure()
    if chart is Chart.TIMES:
        return draw_drill_times(plt, series.drill, width) if series.drill else "No drills in the content."
    if chart is Chart.DECK:
        return draw_deck_days(plt, series.deck, width) if series.deck else "No decks in the content."
    if chart is Chart.FORECAST:
        return draw_forecast(plt, series.forecast, width)
    return draw_typing(plt, series.typing, width)
