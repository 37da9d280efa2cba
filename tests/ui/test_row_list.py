"""The row list under Browse: keys move a cursor that stays in view, Enter and a click on the
cursor's row choose it, and rows already drawn are not drawn again."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tokdrill.ui.widgets.row_list import RowList


def rows(n: int, prefix: str = "row") -> list[tuple[str, Text]]:
    return [(f"{prefix}{i}", Text(f"{prefix} number {i}", no_wrap=True, end="")) for i in range(n)]


class ListApp(App[None]):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.chosen: list[str] = []
        self.highlighted: list[int] = []

    def compose(self) -> ComposeResult:
        yield RowList(Text("heading"), id="items")

    def on_mount(self) -> None:
        items = self.query_one(RowList)
        items.set_rows(rows(self.n))
        items.focus()

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        self.chosen.append(event.key)

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        self.highlighted.append(event.index)


def in_view(items: RowList) -> bool:
    top = round(items.scroll_y)
    return top <= items.cursor < top + items.size.height - 1  # the heading takes a line


async def test_keys_move_the_cursor_and_keep_it_in_view() -> None:
    app = ListApp(200)
    async with app.run_test(size=(40, 12)) as pilot:
        items = app.query_one(RowList)
        await pilot.press("down", "down")
        assert items.cursor == 2 and in_view(items)
        await pilot.press("pagedown")
        assert items.cursor == 2 + items.size.height - 1 and in_view(items)
        await pilot.press("end")
        await pilot.pause()
        assert items.cursor == 199 and in_view(items) and items.cursor_key == "row199"
        await pilot.press("down")  # nothing past the last row
        assert items.cursor == 199
        await pilot.press("home", "up")
        await pilot.pause()
        assert items.cursor == 0 and round(items.scroll_y) == 0
        assert app.highlighted[-1] == 0


async def test_enter_and_a_click_on_the_cursors_row_choose_it() -> None:
    app = ListApp(20)
    async with app.run_test(size=(40, 12)) as pilot:
        items = app.query_one(RowList)
        await pilot.press("down", "enter")
        assert app.chosen == ["row1"]
        await pilot.click(RowList, offset=(3, 4))  # the heading, then rows 0..: row 3
        assert items.cursor == 3 and app.chosen == ["row1"]
        await pilot.click(RowList, offset=(3, 4))
        assert app.chosen == ["row1", "row3"]
        await pilot.click(RowList, offset=(3, 0))  # the heading chooses nothing
        assert items.cursor == 3 and len(app.chosen) == 2


async def test_an_empty_list_has_no_cursor_row_and_enter_does_nothing() -> None:
    app = ListApp(0)
    async with app.run_test(size=(40, 12)) as pilot:
        items = app.query_one(RowList)
        await pilot.press("down", "enter", "end")
        assert items.cursor_key is None and app.chosen == []
        items.set_rows(rows(3, "new"))
        await pilot.pause()
        assert items.keys == ["new0", "new1", "new2"] and items.cursor_key == "new0"


async def test_rows_already_drawn_are_not_drawn_again(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    drawn: list[str] = []
    render = Text.render

    def counted(self: Text, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        drawn.append(self.plain)
        return render(self, *args, **kwargs)

    app = ListApp(100)
    async with app.run_test(size=(40, 12)) as pilot:
        items = app.query_one(RowList)
        await pilot.pause()
        monkeypatch.setattr(Text, "render", counted)
        await pilot.press("down")  # the cursor moves: its old and new rows are drawn, nothing else
        await pilot.pause()
        assert sorted(d for d in drawn if d.startswith("row")) == ["row number 0", "row number 1"]
        drawn.clear()
        items.add_rows(rows(5, "more"))  # rows below the view: none of them drawn yet
        await pilot.pause()
        assert [d for d in drawn if d.startswith(("row number 2", "more"))] == []
