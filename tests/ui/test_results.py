"""The results panel: a verdict is wrapped once, at the width it is drawn at, only the rows on
screen are drawn, and a new verdict lays the screen out again only when the panel's height changes."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static
from ui_helpers import SIZE, load, start_drill, submit

from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens import drill as drill_screen
from tokdrill.ui.widgets.results import ResultsPanel, diff_text


def failing_verdict(tests: int, tag: str = "") -> Verdict:
    """A verdict of ``tests`` failures, each with a message of several wrapped lines."""
    message = "assert got == expected, a message long enough to wrap more than once " * 4
    results = tuple(TestResult(f"test_x.py::test_{i}", "failed", f"{message} ({i}{tag})") for i in range(tests))
    return Verdict("drill", False, results, 0.1)


class Panel(App[None]):
    CSS = "Screen { layout: vertical; } #filler { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__()
        self.layouts = 0
        self.passes = 0

    def compose(self) -> ComposeResult:
        yield Static("the editor stands here", id="filler")
        yield ResultsPanel(id="results")

    def on_mount(self) -> None:
        count_layouts(self.screen, self)


class Layouts:
    """Layout passes of a screen: ``passes`` counts every one, ``layouts`` those that place, hide
    or resize a widget (Textual follows such a pass with one that checks the new sizes and moves
    nothing: that one is in ``passes`` only)."""

    passes = 0
    layouts = 0


def count_layouts(screen: Screen[object], counter: Panel | Layouts) -> None:
    compositor = screen._compositor
    original = compositor.reflow

    def counted(parent: object, size: object) -> object:
        hidden, shown, resized = found = original(parent, size)  # type: ignore[arg-type]
        counter.passes += 1
        counter.layouts += bool(hidden or shown or resized)
        return found

    compositor.reflow = counted  # type: ignore[assignment,method-assign]


async def verdict_shown(app: Panel, pilot: Pilot[None], verdict: Verdict, **kwargs: object) -> ResultsPanel:
    panel = app.query_one(ResultsPanel)
    panel.show_verdict(verdict, **kwargs)  # type: ignore[arg-type]
    await pilot.pause()
    await pilot.pause()
    return panel


async def test_a_long_verdict_is_wrapped_once_and_only_its_rows_on_screen_are_drawn() -> None:
    app = Panel()
    async with app.run_test(size=(100, 40)) as pilot:
        panel = await verdict_shown(app, pilot, failing_verdict(30))
        assert panel.max_scroll_y > 0  # taller than the panel: it scrolls
        assert panel.wraps == 1
        assert (
            panel.virtual_size.width
            == panel.scrollable_content_region.width
            == 100 - 2 - panel.styles.scrollbar_size_vertical
        )
        assert panel.rows_drawn == panel.scrollable_content_region.height < panel.virtual_size.height
        drawn = panel.rows_drawn
        panel.scroll_page(1)
        await pilot.pause()
        assert panel.rows_drawn == drawn + panel.scrollable_content_region.height - 2  # new rows only, once
        await verdict_shown(app, pilot, failing_verdict(31))
        assert panel.wraps == 2 and panel.scroll_y == 0


async def test_a_short_verdict_is_shown_whole_in_a_panel_as_tall_as_it() -> None:
    app = Panel()
    async with app.run_test(size=(100, 40)) as pilot:
        panel = await verdict_shown(app, pilot, failing_verdict(1))
        assert panel.max_scroll_y == 0  # all of it in view
        assert panel.virtual_size.height == panel.scrollable_content_region.height
        assert "FAILED" in panel.text_of("tests") or "failed" in panel.text_of("tests").lower()


async def test_a_verdict_that_keeps_the_panels_height_lays_nothing_out() -> None:
    app = Panel()
    async with app.run_test(size=(100, 40)) as pilot:
        await verdict_shown(app, pilot, failing_verdict(2))
        before, passes = app.layouts, app.passes
        panel = await verdict_shown(app, pilot, failing_verdict(2, tag="again"))  # as many rows
        assert app.passes == passes and "again" in panel.text_of("tests")  # no layout pass at all
        await verdict_shown(app, pilot, failing_verdict(30))  # taller: the panel grows
        assert app.layouts == before + 1
        before, passes = app.layouts, app.passes
        panel = await verdict_shown(app, pilot, failing_verdict(40))  # both overflow the full panel
        assert app.passes == passes and panel.max_scroll_y > 0
        panel.show_grading()
        await pilot.pause()
        assert panel.stale and app.passes == passes  # dimmed in place
        await verdict_shown(app, pilot, failing_verdict(1))  # shorter: the panel shrinks
        assert app.layouts == before + 1 and not panel.stale


async def test_a_pass_shows_the_summary_then_the_diff_then_the_tests_in_one_layout() -> None:
    app = Panel()
    async with app.run_test(size=(100, 40)) as pilot:
        screen: Screen[object] = app.screen
        assert screen is not None
        passed = Verdict("drill", True, (TestResult("test_x.py::test_ok", "passed", ""),), 0.1)
        before = app.layouts
        panel = await verdict_shown(app, pilot, passed, summary=diff_text("Time 1:00"), diff="-a\n+b")
        assert app.layouts == before + 1
        assert panel.diff_text == "-a\n+b" and panel.text_of("diff") == "-a\n+b"
        rows = [panel.render_line(y).text.rstrip() for y in range(4)]
        assert rows[:3] == ["Time 1:00", "-a", "+b"] and "passed" in rows[3].lower()
        panel = await verdict_shown(app, pilot, passed, diff="")
        assert panel.text_of("diff") == "Your code matches the reference exactly."


def test_a_diff_is_coloured_by_line() -> None:
    text = diff_text("--- your code\n+++ reference\n@@ -1 +1 @@\n-a\n+b\n same")
    styles = [str(span.style) for span in text.spans]
    assert styles == ["bold", "bold", "cyan", "red", "green"]
    assert text.plain.endswith(" same")


async def test_resubmitting_on_the_drill_screen_repaints_the_verdict_without_a_layout(
    app: TokdrillApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drill_screen, "GRADING_SHOWN_AFTER", 60.0)  # no "grading…" on a slow machine
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        counter = Layouts()
        count_layouts(screen, counter)
        await submit(app, pilot)  # the first verdict makes room for the panel (and starts the clock)
        first = screen.last_verdict
        assert first is not None and not first.passed and counter.layouts >= 1
        await load(pilot, screen, screen.editor.text + "\n# another try\n")
        passes = counter.passes
        await submit(app, pilot)  # as many rows as the last verdict: the panel is repainted in place
        assert screen.last_verdict is not first and counter.passes == passes
