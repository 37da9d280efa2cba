"""Undo and redo never end the app: an undone paste or a redone deletion removes the line the
cursor was on while a scroll bar comes or goes (Textual issue #6686)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import TextArea

import tokdrill.ui
from tokdrill.ui.widgets.code_editor import CodeEditor
from tokdrill.ui.widgets.in_order import InOrderTextArea
from tokdrill.ui.widgets.paste_area import PasteArea
from tokdrill.ui.widgets.safe_history import SafeHistory

pytestmark = pytest.mark.ui

EDITORS = [SafeHistory, CodeEditor, InOrderTextArea, PasteArea]
LONG = "\n".join(f"line {n}" for n in range(60))


class Holder(App[None]):
    CSS = "#box { height: 10; }"

    def __init__(self, editor: type[TextArea], text: str) -> None:
        super().__init__()
        self.editor, self.text = editor, text

    def compose(self) -> ComposeResult:
        yield self.editor(self.text, id="box")

    def on_mount(self) -> None:
        self.query_one("#box").focus()


@pytest.mark.parametrize("editor", EDITORS, ids=lambda e: e.__name__)
async def test_undoing_a_long_paste_gives_back_the_text_before_it(editor: type[TextArea]) -> None:
    app = Holder(editor, "first\nsecond\n")
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one("#box", TextArea)
        box.move_cursor(box.document.end)
        app.post_message(events.Paste(LONG))  # as the terminal sends it, to the focused box
        await pilot.pause()
        assert box.text == "first\nsecond\n" + LONG
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert box.text == "first\nsecond\n"
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert box.text == "first\nsecond\n" + LONG


@pytest.mark.parametrize("editor", EDITORS, ids=lambda e: e.__name__)
async def test_redoing_a_deletion_of_every_line_leaves_the_box_empty(editor: type[TextArea]) -> None:
    app = Holder(editor, LONG)
    async with app.run_test(size=(80, 24)) as pilot:
        box = app.query_one("#box", TextArea)
        box.select_all()
        await pilot.press("delete")
        await pilot.press("ctrl+z")
        await pilot.pause()
        box.move_cursor((59, 0))  # the last line: the redone deletion removes it
        await pilot.pause()
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert box.text == ""


def test_every_text_box_of_the_app_has_the_safe_history() -> None:
    """A plain TextArea made anywhere in the app would bring the crash back."""
    made = [
        f"{path.name}:{node.lineno}"
        for path in Path(tokdrill.ui.__file__).parent.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "TextArea"
    ]
    assert not made, f"plain TextArea made at {made}: use SafeHistory or a subclass"
