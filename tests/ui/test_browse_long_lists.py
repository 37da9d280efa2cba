"""Browse with thousands of items: the list gets a page of a long list at once and the next page
as the cursor nears the end; the count names every match. Stats and Today read the store once
when they are first shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_helpers import SIZE

from tokdrill.backend import Backend
from tokdrill.bench.content import write_synthetic_content
from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens import browse
from tokdrill.ui.screens.browse import BrowseScreen
from tokdrill.ui.screens.home import HomeScreen
from tokdrill.ui.screens.stats import StatsScreen
from tokdrill.ui.widgets.row_list import RowList


async def test_a_long_list_loads_a_page_at_a_time(home: Path, tmp_path: Path) -> None:
    content = tmp_path / "content"
    write_synthetic_content(content, drills=20, cards=600)
    backend = Backend.open(content_dirs=[str(content)], clock=FixedClock())
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        table = screen.query_one(RowList)
        total = len(screen.rows)
        assert total > browse.WHOLE_ROWS
        assert table.row_count == browse.PAGE_ROWS
        assert f"{total} of {total} shown" in str(screen.query_one("#browse-count").render())
        table.focus()
        await pilot.press("end")  # the last row loaded: the next page comes in
        await pilot.pause()
        assert table.row_count == 2 * browse.PAGE_ROWS  # the next page, in the order of the list
        keys = list(table.keys)
        assert keys == [f"{r.kind}:{r.item_id}" for r in screen.shown[: 2 * browse.PAGE_ROWS]]
        await pilot.press("slash", *"card 00012")  # a short list goes in whole
        await pilot.pause()
        assert table.row_count == len(screen.shown) == 1


@pytest.mark.parametrize(
    ("screen_type", "method", "key"), [(HomeScreen, "refresh_today", None), (StatsScreen, "refresh_stats", "f4")]
)
async def test_a_screen_reads_the_store_once_when_first_shown_and_again_when_back_on_top(
    app: TokdrillApp, monkeypatch: pytest.MonkeyPatch, screen_type: type, method: str, key: str | None
) -> None:
    calls: list[object] = []
    original = getattr(screen_type, method)

    def counted(self: object) -> None:
        calls.append(self)
        original(self)

    monkeypatch.setattr(screen_type, method, counted)
    async with app.run_test(size=SIZE) as pilot:
        if key:
            await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, screen_type)
        assert len(calls) == 1
        await pilot.press("f1")  # help over it, then back: it reads again
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, screen_type)
        assert len(calls) == 2
        shown = app.screen
        await pilot.press(*(("f2", key) if key else ("f4", "f2")))  # left and shown again: read again, built once
        await pilot.pause()
        assert app.screen is shown
        assert len(calls) == 3 and len(set(map(id, calls))) == 1
