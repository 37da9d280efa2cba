"""The Stats screen shows the numbers `tokdrill stats` prints, written the same way, and the
typing trend of retype attempts."""

from __future__ import annotations

from factories import record_retype_pass
from ui_helpers import SIZE, SMALL, screen_text

from tokdrill.backend import Backend
from tokdrill.cli.stats_cmd import render_text
from tokdrill.clock import FixedClock, clock_text
from tokdrill.practice.stats import compute_stats
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.stats import StatsScreen

DRILL = "bytes-to-unicode"


def record(
    backend: Backend, clock: FixedClock, seconds: float, *, wpm: float | None = None, accuracy: float | None = None
) -> None:
    record_retype_pass(backend, clock, seconds, drill_id=DRILL, wpm=wpm, accuracy=accuracy)


def test_durations_are_written_one_way() -> None:
    assert [clock_text(s) for s in (0, 44.4, 45.5, 45.6, 61.9, 3725, -3)] == [
        "0:00",
        "0:44",
        "0:46",
        "0:46",
        "1:02",
        "1:02:05",
        "0:00",
    ]


async def test_stats_rounds_times_exactly_like_the_cli(app: TokdrillApp, backend: Backend, clock: FixedClock) -> None:
    record(backend, clock, 45.6)
    stats = compute_stats(backend.store, backend.catalog, clock)
    assert "0:46" in render_text(stats)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        assert "0:46" in screen_text(app) and "0:45" not in screen_text(app)


async def test_stats_shows_the_typing_trend_of_retype_attempts(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    for wpm, accuracy in ((31.0, 0.9), (38.0, 0.94), (44.0, 0.97)):
        record(backend, clock, 300.0, wpm=wpm, accuracy=accuracy)
    record(backend, clock, 280.0)  # an attempt without typing figures does not break the trend
    backend.store  # noqa: B018 - wait for the queued writes
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        typing = str(screen.query_one("#typing").render())
        assert "44 wpm" in typing and "best 44" in typing and "97%" in typing
        assert screen.typing_trend(DRILL) == [31.0, 38.0, 44.0]
