"""Browse from the keyboard: type to search, one Enter opens the first result, the search and the
row are kept when you come back from an item, and keys typed in a fast burst all reach the
search; searching as you type answers as a fresh search would, and rows are plain text (Markdown
read as text) in aligned columns."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events
from textual.widgets import Input, Select
from ui_helpers import SMALL, burst, settle

from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.browse import BrowseScreen, Columns, Entry, Search, entries, filter_entries, plain_text
from tokdrill.ui.screens.dialogs import ModeChoice
from tokdrill.ui.screens.review import ReviewScreen
from tokdrill.ui.widgets.row_list import RowList


async def open_browse(app: TokdrillApp, pilot) -> BrowseScreen:  # type: ignore[no-untyped-def]
    await pilot.press("f3")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, BrowseScreen)
    return screen


async def test_one_enter_in_the_search_box_opens_the_first_result_and_down_moves_to_the_rows(
    app: TokdrillApp,
) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press("slash", *"unicode", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ModeChoice) and app.screen.drill.id == "bytes-to-unicode"
        await pilot.press("escape", "down")  # a dialog closing keeps the search box and its query
        table = screen.query_one(RowList)
        assert table.has_focus and table.cursor_key == "drill:bytes-to-unicode"
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen is not screen and table.cursor == 1


async def test_letters_that_are_keys_elsewhere_type_into_the_search(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press(*"d", "r")  # d and r pick a drill and review on Today; here they type
        assert screen.query_one(Input).value == "dr" and app.screen is screen
        await pilot.press(*"op")
        assert screen.query_one(Input).value == "drop"


async def test_the_search_and_the_opened_row_are_kept_when_you_come_back_from_an_item(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press(*"unicode")
        table = screen.query_one(RowList)
        card = next(i for i, key in enumerate(table.keys) if key.startswith("card:"))
        await pilot.press("down", *["down"] * card, "enter")  # Down into the rows, then to the first card
        await pilot.pause()
        opened = table.cursor_key
        assert opened == table.keys[card] and isinstance(app.screen, ReviewScreen)
        shown = list(table.keys)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert screen.query_one(Input).value == "unicode" and list(table.keys) == shown
        assert table.has_focus and table.cursor_key == opened
        await pilot.press("escape")  # from the rows, Esc leaves Browse; the next visit starts afresh
        await pilot.pause()
        assert app.screen is not screen


async def test_titles_show_markdown_as_the_text_it_reads_as(app: TokdrillApp) -> None:
    rows = {row.item_id: row for row in entries(app.backend.library)}
    for card in app.backend.library.all_cards():
        title = rows[card.id].title
        assert "**" not in title and "\\(" not in title and "\n" not in title, (card.id, title)
    assert plain_text("GPT-2 maps bytes to **printable** characters") == "GPT-2 maps bytes to printable characters"
    assert plain_text("What is \\\\(\\log\\_2 e\\\\)?\n\nSee `x_y` and [docs](https://a.org).") == (
        "What is \\(\\log_2 e\\)? See x_y and docs."
    )
    assert plain_text("Picture \\[image: a.png] here") == "Picture [image: a.png] here"


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
        assert screen.query_one(RowList).keys[0] == "drill:bytes-to-unicode"
        burst(app, list("x"))
        await settle(pilot, lambda: screen.query_one(Input).value == "unicodex")


def keys_sent_to_the_list(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys the app sends to the result list from now on (a key sent there and then passed on
    to the search box takes a longer way than the keys typed after it)."""
    sent: list[str] = []
    forward = RowList._forward_event

    def record(self: RowList, event: events.Event) -> None:
        if isinstance(event, events.Key):
            sent.append(event.key)
        forward(self, event)

    monkeypatch.setattr(RowList, "_forward_event", record)
    return sent


@pytest.mark.parametrize("keys", [["slash", *"unicode"], list("unicode"), ["slash", "a", "slash", "b", "slash"]])
async def test_a_burst_typed_from_the_list_goes_straight_to_the_search_box_in_order(
    app: TokdrillApp, keys: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        table = screen.query_one(RowList)
        assert table.has_focus
        sent = keys_sent_to_the_list(monkeypatch)
        burst(app, keys)
        typed = "".join("/" if key == "slash" else key for key in keys).removeprefix("/")
        await settle(pilot, lambda: screen.query_one(Input).value == typed)
        assert sent == []
        assert screen.query_one(Input).has_focus


async def test_from_the_closed_tag_select_letters_search_and_space_opens_it(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_browse(app, pilot)
        await pilot.press("slash", *"bpe")
        tag = screen.query_one(Select)
        tag.focus()
        await pilot.pause()
        await pilot.press("x")  # goes to the end of the query, wherever the box's cursor was
        assert screen.query_one(Input).value == "bpex" and screen.query_one(Input).has_focus
        tag.focus()
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert tag.expanded and screen.query_one(Input).value == "bpex"


async def test_keys_typed_while_browse_opens_start_the_search(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = BrowseScreen(app.backend)
        assert [screen.route_key(events.Key(key, key)) for key in "uni"] == [True, True, True]
        await app.push_screen(screen)
        await pilot.pause()
        search = screen.query_one(Input)
        assert search.value == "uni" and search.has_focus
        await pilot.press("c")
        assert search.value == "unic"
        assert screen.query_one(RowList).keys[0] == "drill:bytes-to-unicode"


WORDS = st.sampled_from(["merge", "pair", "bpe", "x", "me", "a", "pa"])


@st.composite
def browse_entries(draw: st.DrawFn) -> Entry:
    text = " ".join(draw(st.lists(WORDS, max_size=4)))
    tags = tuple(draw(st.lists(st.sampled_from(["bpe", "unicode"]), max_size=2, unique=True)))
    return Entry("card", text or "empty", text, "deck", tags, "", text)


@settings(deadline=None)
@given(
    rows=st.lists(browse_entries(), max_size=25),
    steps=st.lists(
        st.tuples(st.text("mergpaixb ", max_size=9), st.sampled_from([None, "bpe", "unicode"])), max_size=15
    ),
    kept=st.sampled_from([2, Search.KEPT]),
)
def test_searching_as_you_type_finds_what_a_fresh_search_finds(
    rows: list[Entry], steps: list[tuple[str, str | None]], kept: int
) -> None:
    """Narrowing the last result, backspace from the kept results, a changed tag, a full cache:
    every query answers as filtering the whole list would."""
    search = Search(rows)
    search.KEPT = kept
    for query, tag in steps:
        assert search(query, tag) == filter_entries(rows, query, tag)


def test_rows_are_drawn_as_plain_text_in_aligned_columns() -> None:
    rows = [
        Entry("card", "c1", "What does tokens[i] hold, and [b]why[/b]?", "deck-a", ("bpe",), "", ""),
        Entry("drill", "bytes-to-unicode", "GPT-2 byte table", "easy", ("bytes", "gpt2"), "target 08:00", ""),
    ]
    columns = Columns(rows)
    lines = [columns.heading(), *(columns.line(r) for r in rows)]
    assert "tokens[i] hold, and [b]why[/b]?" in lines[1].plain  # never read as markup
    assert not lines[1].spans
    assert len({line.cell_len for line in lines}) == 1
    starts = [line.plain.index(field) for line, field in zip(lines, ("deck / level", "deck-a", "easy"), strict=True)]
    assert len(set(starts)) == 1  # the third column starts at the same place on every row
