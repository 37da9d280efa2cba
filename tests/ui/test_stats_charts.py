"""Stats' charts by keyboard: c switches between numbers and charts, ←/→ steps through the
charts, n/p through the drills or decks that have history."""

from __future__ import annotations

from factories import make_attempt
from fsrs import Rating
from ui_helpers import SMALL, screen_text

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.scheduling.planner import Planner
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.stats import StatsScreen
from tokdrill.ui.widgets.charts import ChartPlot, ChartsView
from tokdrill.ui.widgets.charts_figures import Chart


def practise(backend: Backend, clock: FixedClock) -> None:
    """Two drills tried (bytes-to-unicode last, one failure) and a card of the first deck reviewed."""
    planner = Planner(backend.store, clock)
    for drill_id, seconds, passed in (("bpe-train", 700.0, True), ("bytes-to-unicode", 400.0, False)):
        target = backend.catalog.drill_targets[drill_id]
        planner.record_attempt(make_attempt(drill_id, at=clock.now(), seconds=seconds, target=target, passed=passed))
        clock.advance(hours=1)
    planner.review_card(next(iter(backend.catalog.decks.values()))[0], Rating.Good, 5.0)


async def test_c_switches_between_the_numbers_and_the_charts(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    practise(backend, clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        charts = screen.query_one(ChartsView)
        assert not charts.display and screen.query_one("#stats-body").display
        await pilot.press("c")
        await pilot.pause()
        assert charts.display and not screen.query_one("#stats-body").display and charts.has_focus
        text = screen_text(app)
        assert "GPT-2 byte-to-unicode table: time per attempt, target line" in text  # the drill practised last
        assert "✗" in text and "8:00" in text  # its failure is marked; the target is on the axis
        drills, _decks = backend.chart_choices()
        assert len(drills) == 2 and f"drill {drills.index('bytes-to-unicode') + 1} of 2" in text
        await pilot.press("c")
        await pilot.pause()
        assert not charts.display and screen.query_one("#stats-body").display


async def test_arrows_step_through_the_charts_and_n_p_through_the_drills(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    practise(backend, clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f4", "c")
        await pilot.pause()
        charts = app.screen.query_one(ChartsView)
        plot = app.screen.query_one(ChartPlot)
        assert charts.drills == backend.chart_choices()[0] and set(charts.drills) == {"bpe-train", "bytes-to-unicode"}
        await pilot.press("n")
        await pilot.pause()
        position = charts.drills.index("bpe-train") + 1
        assert charts.drill_id == "bpe-train" and f"drill {position} of 2" in screen_text(app)
        assert plot.series is not None and plot.series.drill is not None
        assert [p.seconds for p in plot.series.drill.attempts] == [700.0]
        await pilot.press("p")
        await pilot.pause()
        assert charts.drill_id == "bytes-to-unicode"
        shown = []
        for _ in range(4):
            shown.append(plot.chart)
            await pilot.press("right")
            await pilot.pause()
        assert shown == list(Chart) and plot.chart is Chart.TIMES
        await pilot.press("left", "left")
        await pilot.pause()
        assert plot.chart is Chart.FORECAST
        assert "Due per day, next 30 days" in screen_text(app)
        await pilot.press("n")  # the forecast has no drill or deck to step through
        await pilot.pause()
        assert charts.drill_id == "bytes-to-unicode" and plot.chart is Chart.FORECAST


async def test_a_chart_without_history_says_how_to_get_some(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f4", "c")
        await pilot.pause()
        assert "no attempts yet" in screen_text(app)
        await pilot.press("right")
        await pilot.pause()
        assert "no reviews in the last 30 days" in screen_text(app)
        await pilot.press("right", "right")
        await pilot.pause()
        assert "No typing speed yet" in screen_text(app)


async def test_the_charts_are_read_afresh_when_stats_shows_again(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f4", "c")
        await pilot.pause()
        assert "no attempts yet" in screen_text(app)
        await pilot.press("f1")  # help over the charts
        await pilot.pause()
        practise(backend, clock)
        await pilot.press("escape")
        await pilot.pause()
        assert "time per attempt" in screen_text(app)
