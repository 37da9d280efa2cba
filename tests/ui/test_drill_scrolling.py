"""Without a mouse at 80x24: the reference follows the cursor, failures come first and the
results and the reference scroll with keys while the editor keeps focus."""

from __future__ import annotations

import pytest
from ui_helpers import SMALL, load, screen_lines, screen_text, start_drill, submit

from tokdrill.backend import Backend
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.widgets.reference_view import CURRENT_STYLE, MARKED_STYLE, ReferenceView

LONG_DRILL = "bpe-train"
WRONG = "def bytes_to_unicode():\n    return {}\n"


def left_pane(lines: list[str]) -> str:
    """The text left of the divider between the reference and the editor."""
    return "\n".join(line.split("▕")[0] for line in lines if "▕" in line)


async def test_reference_keeps_the_line_being_typed_beside_the_cursor(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, LONG_DRILL, "retype")
        reference_lines = screen.reference.split("\n")
        assert len(reference_lines) > 50
        await load(pilot, screen, "\n".join(reference_lines[:41]))
        screen.editor.move_cursor(screen.editor.document.end)  # typing line 41
        await pilot.pause()
        view = screen.query_one(ReferenceView)
        editor_row = 40 - round(screen.editor.scroll_y)
        assert view.current == 40
        assert view.row_of(40) - round(view.scroll_y) == editor_row  # same height in both panes
        shown = left_pane(screen_lines(app))
        assert reference_lines[40].strip()[:20] in shown.replace("\n", " ")
        assert reference_lines[0].strip()[:20] not in shown  # line 1 scrolled away

        await pilot.press(*["up"] * 12)  # moving back up: the reference comes along
        await pilot.pause()
        editor_row = 28 - round(screen.editor.scroll_y)
        assert view.current == 28 and view.row_of(28) - round(view.scroll_y) == editor_row


async def test_the_last_lines_of_a_wrapped_reference_also_sit_beside_the_cursor(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        lines = screen.reference.split("\n")
        view = screen.query_one(ReferenceView)
        last = len(lines) - 2  # the reference ends with a newline
        assert view.row_of(last) > last  # long lines wrap at 80 columns
        for line in (last - 3, last):
            await load(pilot, screen, "\n".join(lines[: line + 1]))
            screen.editor.move_cursor(screen.editor.document.end)
            await pilot.pause()
            editor_row = line - round(screen.editor.scroll_y)
            assert view.row_of(line) - round(view.scroll_y) == editor_row


async def test_failures_come_first_and_are_visible_after_a_failed_submit(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        await load(pilot, screen, WRONG)
        await submit(app, pilot)
        verdict = screen.last_verdict
        assert verdict is not None and not verdict.passed
        listing = screen.results.text_of("tests").splitlines()
        passes = [line.startswith("✓") for line in listing if line[:1] in "✓✗!⌛"]
        assert passes == sorted(passes) and False in passes  # no pass listed before a failure
        first_failure = next(t for t in verdict.tests if t.outcome != "passed")
        assertion = next(line for line in first_failure.message.splitlines() if line.startswith("E "))
        text = screen_text(app)
        assert first_failure.name.split("::")[-1] in text
        assert assertion.strip()[:40] in text  # the assertion is on screen, not below the fold


async def test_results_scroll_with_keys_while_the_editor_keeps_focus(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        await load(pilot, screen, WRONG)
        await submit(app, pilot)
        results = screen.results
        assert results.max_scroll_y > 0
        for down, up in (("ctrl+down", "ctrl+up"), ("shift+pagedown", "shift+pageup")):
            await pilot.press(down)
            assert results.scroll_y > 0
            assert screen.editor.has_focus and screen.editor.text == WRONG
            await pilot.press(up)
            assert results.scroll_y == 0


async def test_reference_scrolls_with_keys_and_returns_to_the_cursor(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, LONG_DRILL, "retype")
        view = screen.query_one(ReferenceView)
        assert view.scroll_y == 0
        await pilot.press("alt+down")
        assert view.scroll_y > 0 and screen.editor.has_focus
        await pilot.press("f")  # typing brings the line being typed back
        await pilot.pause()
        assert view.scroll_y == 0 and view.current == 0


async def test_a_submission_that_does_not_import_shows_why_first(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        await load(pilot, screen, "def bytes_to_unicode():\n    if True:\n  return {}\n")
        await submit(app, pilot)
        verdict = screen.last_verdict
        assert verdict is not None and verdict.problem and len(verdict.tests) > 3
        text = screen_text(app)
        assert "IndentationError" in text and "see the problem above" not in text  # the cause, unscrolled
        assert "(editor, line 3" in text and "submission" not in text  # where, in words the user knows
        listing = screen.results.text_of("tests")
        assert listing.index("problem:") < listing.index(verdict.tests[0].name.split("::")[-1])


@pytest.mark.parametrize("size", [SMALL, (120, 36)])
async def test_the_reference_stays_beside_the_cursor_when_the_results_open(
    app: TokdrillApp, backend: Backend, size: tuple[int, int]
) -> None:
    lines = backend.reference(backend.library.drill("bytes-to-unicode")).split("\n")
    backend.save_draft("bytes-to-unicode", "retype", "\n".join(lines[:14]) + "\n", 3.0)
    async with app.run_test(size=size) as pilot:
        app.start_drill("bytes-to-unicode", "retype")
        await pilot.pause()
        await pilot.press("y")  # the draft restored: the cursor on line 15
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen) and screen.editor.cursor_location == (14, 0)
        view = screen.query_one(ReferenceView)
        await submit(app, pilot)  # the results take rows from the editor (which may scroll) and the reference
        await pilot.pause()
        assert not screen.results.has_class("-empty")
        editor_row = 14 - round(screen.editor.scroll_y)
        assert view.row_of(14) - round(view.scroll_y) == editor_row


async def test_the_reference_redraws_a_row_when_its_shading_changes(app: TokdrillApp) -> None:
    """Rows are drawn once and kept; moving the current line or the divergence mark, or a new
    width, draws the rows they touch anew."""

    def background(view: ReferenceView, y: int) -> object:
        return list(view.render_line(y))[-1].style.bgcolor  # type: ignore[union-attr]

    async with app.run_test(size=SMALL) as pilot:
        screen = await start_drill(app, pilot, LONG_DRILL, "retype")
        view = screen.query_one(ReferenceView)
        view.follow(3, at_row=3)
        await pilot.pause()
        row = view.row_of(3) - round(view.scroll_y)
        assert background(view, row) == CURRENT_STYLE.bgcolor
        view.mark(3)
        assert background(view, row) == MARKED_STYLE.bgcolor
        view.mark(None)
        view.follow(4, at_row=4)
        await pilot.pause()
        row = view.row_of(3) - round(view.scroll_y)
        assert background(view, row) not in (CURRENT_STYLE.bgcolor, MARKED_STYLE.bgcolor)
        width = len(view.render_line(0).text)
        await pilot.resize_terminal(SMALL[0] + 20, SMALL[1])
        await pilot.pause()
        assert len(view.render_line(0).text) > width
