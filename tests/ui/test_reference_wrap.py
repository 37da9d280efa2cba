"""Every character of every shipped reference is on screen in the retype pane at 80x24, also
after the restore-draft dialog was answered (the scroll bar appears while the dialog covers
the drill)."""

from __future__ import annotations

import pytest
from textual.widgets.text_area import TextAreaTheme
from ui_helpers import SMALL, screen_lines

from tokdrill.backend import Backend
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.dialogs import RestoreDraft
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.widgets.reference_view import THEME, ReferenceView, highlighted_lines


def visible_lines(view: ReferenceView) -> list[str]:
    """Each reference line as the pane shows it: its rows cut at the scroll bar, the line
    number gutter taken off, joined."""
    width = view.scrollable_content_region.width
    lines: dict[int, str] = {}
    top = round(view.scroll_y)
    for row, (index, _part) in enumerate(view._rows):
        text = view.render_line(row - top).crop(0, width).text
        lines[index] = lines.get(index, "") + text[view._gutter :].rstrip(" ")
    return [lines[index] for index in range(view.line_count)]


def characters(text: str) -> str:
    """``text`` without its spaces (a wrapped row may end where a space was)."""
    return "".join(text.split())


@pytest.mark.parametrize("answer", ["y", "n"])
async def test_every_reference_character_shows_after_the_draft_dialog(backend: Backend, answer: str) -> None:
    drills = list(backend.library.drills)
    for drill_id in drills:
        backend.save_draft(drill_id, "retype", "def started():\n    pass\n", 5.0)
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SMALL) as pilot:
        for drill_id in drills:
            app.start_drill(drill_id, "retype")
            await pilot.pause()
            assert isinstance(app.screen, RestoreDraft)
            await pilot.press(answer)
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            view = screen.query_one(ReferenceView)
            reference = screen.reference.split("\n")[: view.line_count]
            shown = visible_lines(view)
            for number, (want, got) in enumerate(zip(reference, shown, strict=True), 1):
                assert characters(got) == characters(want), f"{drill_id} line {number} shows {got!r} for {want!r}"
            region = view.scrollable_content_region  # and the terminal shows what the rows hold
            on_screen = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
            drawn = [view.render_line(y).crop(0, region.width).text for y in range(region.height)]
            assert [row.rstrip() for row in on_screen] == [row.rstrip() for row in drawn]
            screen.action_leave()
            await pilot.pause()


def test_the_reference_is_coloured_as_the_editor_colours_python() -> None:
    lines, base = highlighted_lines('def f(x):\n    s = """é\n    é"""\n    return s\n')
    theme = TextAreaTheme.get_builtin_theme(THEME)
    assert theme is not None and base == theme.base_style
    assert [line.plain for line in lines] == ["def f(x):", '    s = """é', '    é"""', "    return s"]
    styled = {
        (row, line.plain[span.start : span.end], str(span.style))
        for row, line in enumerate(lines)
        for span in line.spans
    }
    assert (0, "def", str(theme.syntax_styles["keyword.function"])) in styled
    string = str(theme.syntax_styles["string"])
    assert (1, '"""é', string) in styled and (2, '    é"""', string) in styled  # a string over two lines, by characters
    assert (3, "return", str(theme.syntax_styles["keyword.return"])) in styled
