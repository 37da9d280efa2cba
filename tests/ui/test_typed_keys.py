"""Keys whose names are looked up without Python's Unicode name table still type what they are:
punctuation, a letter outside ASCII and space reach the drill editor, the playground's text box and
Browse's search as the terminal sends them."""

from __future__ import annotations

import textual.keys
from textual import events
from textual.keys import _character_to_key
from textual.widgets import Input, TextArea
from ui_helpers import SMALL, settle, start_drill

from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.browse import BrowseScreen
from tokdrill.ui.screens.playground import PlaygroundScreen
from tokdrill.ui.textual_internals import quick_key_name_lookups

TYPED = "+-ü #"


def send(app: TokdrillApp, text: str) -> None:
    """Post each character as the terminal driver turns it into a key event."""
    for character in text:
        app.post_message(events.Key(_character_to_key(character), character))


async def test_punctuation_a_non_ascii_letter_and_space_type_into_every_text_box(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        assert type(vars(textual.keys)["unicodedata"]).__name__ == "_KeyNameLookup"  # the app installed it
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        screen.editor.load_text("")
        screen.editor.focus()
        await pilot.pause()
        send(app, TYPED)
        await settle(pilot, lambda: screen.editor.text == TYPED)

        await app.pop_screen()
        await pilot.press("p")
        await settle(pilot, lambda: isinstance(app.screen, PlaygroundScreen))
        box = app.screen.query_one("#playground-text", TextArea)
        box.load_text("")
        box.focus()
        await pilot.pause()
        send(app, TYPED)
        await settle(pilot, lambda: box.text == TYPED)

        await app.pop_screen()
        await pilot.press("f3")
        await settle(pilot, lambda: isinstance(app.screen, BrowseScreen))
        send(app, "ü#+")  # typed from the list, the keys go to the search box
        search = app.screen.query_one(Input)
        await settle(pilot, lambda: search.value == "ü#+")


def test_installing_twice_keeps_one_wrapper() -> None:
    quick_key_name_lookups()
    wrapper = vars(textual.keys)["unicodedata"]
    quick_key_name_lookups()
    assert vars(textual.keys)["unicodedata"] is wrapper
