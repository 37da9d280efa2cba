"""The results panel: a verdict is wrapped once, at the width it is drawn at (the scroll bar's
room is always kept)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.pilot import Pilot

from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.ui.widgets.kept_static import KeptStatic
from tokdrill.ui.widgets.results import ResultsPanel


def failing_verdict(tests: int) -> Verdict:
    """A verdict of ``tests`` failures, each with a message of several wrapped lines."""
    message = "assert got == expected, a message long enough to wrap more than once " * 4
    results = tuple(TestResult(f"test_x.py::test_{i}", "failed", f"{message} ({i})") for i in range(tests))
    return Verdict("drill", False, results, 0.1)


class Panel(App[None]):
    CSS = "Screen { layout: vertical; } #filler { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield KeptStatic("the editor stands here", id="filler")
        yield ResultsPanel(id="results")


async def verdict_shown(app: Panel, pilot: Pilot[None], verdict: Verdict) -> KeptStatic:
    panel = app.query_one(ResultsPanel)
    panel.show_verdict(verdict)
    await pilot.pause()
    return panel.query_one("#tests", KeptStatic)


async def test_a_long_verdict_is_wrapped_once_at_the_width_it_is_drawn_at() -> None:
    app = Panel()
    async with app.run_test(size=(100, 40)) as pilot:
        tests = await verdict_shown(app, pilot, failing_verdict(30))
        panel = app.query_one(ResultsPanel)
        assert panel.max_scroll_y > 0  # taller than the panel: the scroll bar is shown
        assert tests.wraps == 1
        assert tests.size.width == panel.scrollable_content_region.width
        tests = await verdict_shown(app, pilot, failing_verdict(31))
        assert tests.wraps == 2


async def test_a_short_verdict_is_shown_whole_in_a_panel_as_tall_as_it() -> None:
    app = Panel()
    async with app.run_test(size=(100, 40)) as pilot:
        tests = await verdict_shown(app, pilot, failing_verdict(1))
        panel = app.query_one(ResultsPanel)
        assert panel.max_scroll_y == 0  # all of it in view
        assert tests.size.height <= panel.scrollable_content_region.height
        assert tests.wraps == 1
