"""Browse from the keyboard: type to search, Enter goes to the results, a fresh list when you come
back from an item, and keys typed in a fast burst all reach the search."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import DataTable, Input
from ui_helpers import SMALL, settle

from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.browse import BrowseScreen
from tokdrill.ui.screens.dialogs import ModeChoice
from tokdrill.ui.screens.drill import DrillScreen


def burst(app: TokdrillApp, keys: list[str]) -> None:
    """Queue ``keys`` all at once, as a terminal delivers a fast typist's keys in one read."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def open_browse(app: TokdrillApp, pilot) -> BrowseScreen:  # type: ignore[no-untyped-def]
    await pilot.press("f3")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, BrowseScreen)
    return screen


async def test_enter_in_the_search_box_moves_to_the_first_result(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press("slash", *"unicode", "enter")
        table = screen.query_one(DataTable)
        assert table.has_focus and table.cursor_row == 0
        assert table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value == "drill:bytes-to-unicode"
        await pilot.press("enter")  # and Enter again opens it
        assert isinstance(app.screen, ModeChoice)


async def test_letters_that_are_keys_elsewhere_type_into_the_search(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press(*"d", "r")  # d and r pick a drill and review on Today; here they type
        assert screen.query_one(Input).value == "dr" and app.screen is screen
        await pilot.press(*"op")
        assert screen.query_one(Input).value == "drop"


async def test_the_search_is_cleared_when_you_come_back_from_an_item(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press(*"unicode", "enter", "enter")
        assert isinstance(app.screen, ModeChoice)
        await pilot.press("escape")  # a dialog closing keeps the search
        assert screen.query_one(Input).value == "unicode"
        await pilot.press("enter", "r")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert screen.query_one(Input).value == ""
        assert screen.query_one(DataTable).row_count == len(screen.rows)


@pytest.mark.parametrize("opener", ["f3", "d"])
async def test_a_burst_of_keys_right_after_opening_browse_keeps_the_whole_query(app: TokdrillApp, opener: str) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        burst(app, [opener, *"unicode"])
        await settle(
            pilot, lambda: isinstance(app.screen, BrowseScreen) and app.screen.query_one(Input).value == "unicode"
        )
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        assert next(k.value for k in screen.query_one(DataTable).rows) == "drill:bytes-to-unicode"
        burst(app, list("x"))
        await settle(pilot, lambda: screen.query_one(Input).value == "unicodex")
