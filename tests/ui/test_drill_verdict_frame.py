"""The frame that shows a verdict: from the grader's reply to that frame the screen is laid out at
most once and the code on screen (the editor, the reference) is not drawn again. The results are
drawn over the lower rows of the body, the editor scrolls only when they would hide its cursor, and
the clock stops without changing its width."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from textual.pilot import Pilot
from textual.strip import Strip
from ui_helpers import SIZE, SMALL, hold_grading, load, settle, start_drill, submit

from tokdrill.backend import Backend
from tokdrill.bench.grading import retype_source
from tokdrill.clock import FixedClock
from tokdrill.progress.records import Mode
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens import drill as drill_screen
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.textual_internals import intercept_frames
from tokdrill.ui.widgets.reference_view import ReferenceView
from tokdrill.ui.widgets.timer import DrillTimer

DRILL = "bytes-to-unicode"
WRONG = "def bytes_to_unicode():\n    return {}\n"


@dataclass
class VerdictFrame:
    """What the app did from the grader's reply to the first frame painted with the verdict."""

    counting: bool = False
    painted: bool = False
    layouts: int = 0
    wrapped: int = 0  # rows of the results wrapped when the frame was painted
    rows: dict[str, int] = field(default_factory=dict)  # rows drawn, by widget id


def watch_the_verdict_frame(app: TokdrillApp, screen: DrillScreen, backend: Backend) -> VerdictFrame:
    """Count layouts and rows drawn from the moment the grader replies (on its thread) to the
    first frame handed to the terminal once the screen holds the verdict."""
    seen = VerdictFrame()
    grade = backend.grade

    def replied(drill, source):  # type: ignore[no-untyped-def]
        verdict = grade(drill, source)
        seen.counting = True
        return verdict

    backend.grade = replied  # type: ignore[method-assign]
    refresh_layout = screen._refresh_layout

    def counted_layout(*args: object, **kwargs: object) -> None:
        if seen.counting and not seen.painted:
            seen.layouts += 1
        refresh_layout(*args, **kwargs)  # type: ignore[arg-type]

    screen._refresh_layout = counted_layout  # type: ignore[method-assign]
    for widget in (screen.editor, *screen.query(ReferenceView)):
        assert widget.id is not None
        seen.rows[widget.id] = 0
        draw = widget.render_line

        def counted_row(y: int, name: str = widget.id, draw: Callable[[int], Strip] = draw) -> Strip:
            if seen.counting and not seen.painted:
                seen.rows[name] += 1
            return draw(y)

        widget.render_line = counted_row  # type: ignore[method-assign]

    def frame(_screen: object, renderable: object) -> None:
        if renderable is None or seen.painted or not seen.counting:
            return
        if screen.last_verdict is not None and not screen.grading:
            seen.painted = True
            seen.wrapped = screen.results.rows_wrapped

    intercept_frames(app, frame)
    return seen


async def submitted(
    app: TokdrillApp, pilot: Pilot[None], backend: Backend, drill_id: str, mode: Mode, text: str
) -> tuple[DrillScreen, VerdictFrame]:
    """Open the drill, put ``text`` in the editor, submit it and wait for the verdict's frame."""
    screen = await start_drill(app, pilot, drill_id, mode)
    await load(pilot, screen, text)
    release = hold_grading(backend)
    seen = watch_the_verdict_frame(app, screen, backend)
    await pilot.press("ctrl+s")
    await pilot.pause()  # the submit's own updates are drawn before the grader replies
    release.set()
    await settle(pilot, lambda: seen.painted)
    return screen, seen


@pytest.fixture(autouse=True)
def no_grading_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """No "grading…" note on a slow machine: the verdict alone changes the screen."""
    monkeypatch.setattr(drill_screen, "GRADING_SHOWN_AFTER", 60.0)


@pytest.mark.parametrize("mode", ["retype", "recall"])
async def test_a_pass_is_painted_after_one_layout_without_drawing_the_code_again(
    app: TokdrillApp, backend: Backend, mode: Mode
) -> None:
    reference = retype_source(backend.library.drill(DRILL))
    async with app.run_test(size=SIZE) as pilot:
        screen, seen = await submitted(app, pilot, backend, DRILL, mode, reference)
        assert screen.last_verdict is not None and screen.last_verdict.passed
        assert seen.layouts == 1  # the results panel takes its room, once
        assert seen.rows == dict.fromkeys(seen.rows, 0), seen.rows  # the editor and reference: not one row
        assert "Passed in" in screen.results.text_of("summary")
        await settle(pilot, lambda: screen.editor.read_only)  # then the editor is restyled, after the frame


async def test_a_failure_is_painted_after_one_layout_without_drawing_the_code_again(
    app: TokdrillApp, backend: Backend
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen, seen = await submitted(app, pilot, backend, DRILL, "retype", WRONG)
        assert screen.last_verdict is not None and not screen.last_verdict.passed
        assert seen.layouts == 1 and seen.rows == {"editor": 0, "reference": 0}


async def test_a_long_failure_is_wrapped_only_as_far_as_the_panel_shows_before_its_frame(
    app: TokdrillApp, backend: Backend
) -> None:
    """A verdict of many rows: the first frame needs the rows on screen; the rest are wrapped
    after it, and the scroll bar then covers them all."""
    async with app.run_test(size=SMALL) as pilot:
        screen, seen = await submitted(app, pilot, backend, DRILL, "recall", WRONG)
        panel = screen.results
        shown = panel.scrollable_content_region.height
        assert 0 < seen.wrapped <= shown + 1  # the rows on screen (and one to know it overflows)
        await settle(pilot, lambda: panel.rows_wrapped > seen.wrapped)
        total = panel.rows_wrapped
        assert total > 2 * shown and panel.virtual_size.height == total  # all of them, for the scroll bar
        assert panel.max_scroll_y == total - shown


async def test_the_editor_scrolls_its_cursor_above_the_results_only_when_they_would_hide_it(
    app: TokdrillApp, backend: Backend
) -> None:
    lines = retype_source(backend.library.drill("bpe-train")).split("\n")
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, "bpe-train", "retype")
        editor = screen.editor
        await load(pilot, screen, "\n".join(lines[:3]) + "\n")
        editor.move_cursor((1, 0))  # near the top: the results leave it in view
        await submit(app, pilot)
        assert editor.scroll_y == 0 and editor.covered_rows == screen.results.outer_size.height > 0

        await load(pilot, screen, "\n".join(lines[:40]) + "\n")
        editor.move_cursor(editor.document.end)  # the last line, at the bottom of the editor
        await pilot.pause()
        await submit(app, pilot)
        cursor_y = editor.region.y + editor.cursor_location[0] - round(editor.scroll_y)
        assert cursor_y < screen.results.region.y  # above the panel, not under it
        view = screen.query_one(ReferenceView)  # and the line to retype beside it
        assert view.row_of(editor.cursor_location[0]) - round(view.scroll_y) == cursor_y - editor.region.y

        await pilot.press("down")  # typing on keeps the cursor above the panel
        await pilot.press(*"x = 1", "enter")
        await pilot.pause()
        cursor_y = editor.region.y + editor.cursor_location[0] - round(editor.scroll_y)
        assert cursor_y < screen.results.region.y


async def test_the_clock_stops_in_place_and_shows_done_after_the_verdict(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, DRILL, "retype")
        timer = screen.query_one(DrillTimer)
        await pilot.press("d")
        clock.advance(seconds=30)
        timer.tick()
        await pilot.pause()
        width, shown = timer.outer_size.width, str(timer.render())
        assert "done" not in shown
        assert timer.stop() == pytest.approx(30.0)
        assert str(timer.render()) == shown  # nothing drawn by stopping (the verdict's frame draws the results only)
        timer.tick()
        await pilot.pause()
        assert "done" in str(timer.render()) and timer.outer_size.width == width
