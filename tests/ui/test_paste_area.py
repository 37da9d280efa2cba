"""The playground's text box: a paste too large to wrap goes in unwrapped, a small one wrapped,
and undoing a paste of many lines gives back the text and selection before it."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import TextArea
from textual.widgets.text_area import Selection

from tokdrill.ui.widgets.paste_area import WRAP_CHARACTERS, WRAP_LINES, PasteArea, wraps


class Box(App[None]):
    CSS: ClassVar[str] = "PasteArea { height: 6; }"

    def compose(self) -> ComposeResult:
        yield PasteArea("one line", soft_wrap=True)


def test_only_small_texts_wrap() -> None:
    assert wraps(WRAP_LINES - 1, WRAP_CHARACTERS - 1)
    assert not wraps(WRAP_LINES, 10)
    assert not wraps(1, WRAP_CHARACTERS)


async def test_a_paste_too_large_to_wrap_goes_in_unwrapped() -> None:
    async with Box().run_test(size=(80, 24)) as pilot:
        area = pilot.app.query_one(PasteArea)
        area.focus()
        area.move_cursor(area.document.end)
        pilot.app.post_message(events.Paste("x" * WRAP_CHARACTERS))
        await pilot.pause()
        assert not area.soft_wrap
        assert area.text == "one line" + "x" * WRAP_CHARACTERS
        pilot.app.post_message(events.Paste("y"))  # a text already unwrapped stays so
        await pilot.pause()
        assert not area.soft_wrap


async def test_a_small_paste_stays_wrapped() -> None:
    async with Box().run_test(size=(80, 24)) as pilot:
        area = pilot.app.query_one(PasteArea)
        area.focus()
        pilot.app.post_message(events.Paste("a few words\n" * 10))
        await pilot.pause()
        assert area.soft_wrap


async def test_undoing_a_paste_of_many_lines_restores_the_text_and_selection() -> None:
    pasted = "\n".join(f"line {i}" for i in range(300))
    async with Box().run_test(size=(80, 24)) as pilot:
        area = pilot.app.query_one(PasteArea)
        area.focus()
        area.select_all()
        before = area.selection
        pilot.app.post_message(events.Paste(pasted))
        await pilot.pause()
        assert area.text == pasted
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert area.text == "one line"
        assert area.selection == before
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert area.text == pasted
        assert area.selection == Selection.cursor(area.document.end)


class Both(App[None]):
    CSS: ClassVar[str] = "TextArea { height: 6; }"

    def compose(self) -> ComposeResult:
        yield TextArea("first line\nsecond line", id="theirs")
        yield PasteArea("first line\nsecond line", id="ours")


async def test_a_paste_goes_in_as_in_textuals_own_text_area() -> None:
    """The box inserts a paste itself (to draw what follows in the same frame): the same text and
    selection as Textual's TextArea, whatever the selection or line breaks, undone in one step."""
    cases = [
        (Selection((0, 5), (1, 6)), "X\r\nY"),
        (Selection((1, 3), (0, 2)), "tab\there\n"),
        (Selection.cursor((1, 11)), "\n".join(f"row {i}" for i in range(50))),
        (Selection.cursor((0, 0)), "é日🙂"),
    ]
    async with Both().run_test(size=(80, 24)) as pilot:
        theirs, ours = pilot.app.query_one("#theirs", TextArea), pilot.app.query_one("#ours", PasteArea)
        for selection, text in cases:
            pasted = []
            for area in (theirs, ours):
                area.load_text("first line\nsecond line")
                area.focus()
                area.selection = selection
                pilot.app.post_message(events.Paste(text))
                await pilot.pause()
                pasted.append((area.text, area.selection))
            assert pasted[0] == pasted[1], (selection, text)
            ours.undo()
            assert (ours.text, ours.selection) == ("first line\nsecond line", selection)
        ours.read_only = True
        ours.focus()
        pilot.app.post_message(events.Paste("ignored"))
        await pilot.pause()
        assert ours.text == "first line\nsecond line"
