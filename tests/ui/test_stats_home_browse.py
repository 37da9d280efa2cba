"""Today, Stats and Browse show what the store holds: the same numbers as `tokdrill stats`."""

from __future__ import annotations

import io
from datetime import date

from rich.console import Console
from textual.widgets import DataTable, Input, OptionList, Static
from ui_helpers import SIZE, SMALL, screen_lines, screen_text, submit

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.practice.stats import compute_stats
from tokdrill.scheduling import catalog_from_library
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.browse import PAGE_ROWS, WHOLE_ROWS, BrowseScreen
from tokdrill.ui.screens.dialogs import InterviewDate, ModeChoice
from tokdrill.ui.screens.help import HelpScreen, bindings_table
from tokdrill.ui.screens.home import READINESS_SHORT, HomeScreen
from tokdrill.ui.screens.review import ReviewScreen
from tokdrill.ui.screens.stats import StatsScreen
from tokdrill.ui.widgets.row_list import RowList


async def test_first_run_explains_itself_and_offers_the_first_drill(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        welcome = str(screen.query_one("#welcome", Static).render())
        assert welcome.startswith("New here?") and "GPT-2 byte-to-unicode table" in welcome
        queue = screen.query_one("#queue", OptionList)
        assert queue.get_option_at_index(0).id == "drill:bytes-to-unicode"
        await pilot.press("n")
        assert isinstance(app.screen, ModeChoice) and app.screen.drill.id == "bytes-to-unicode"


async def test_stats_and_today_reflect_an_attempt_and_reviews(
    app: TokdrillApp, backend: Backend, clock: FixedClock
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        app.start_drill("bytes-to-unicode", "retype")
        await pilot.pause()
        app.screen.editor.load_text(backend.reference(app.screen.drill))
        await pilot.pause()  # the clock starts with this first edit
        clock.advance(seconds=240)
        await submit(app, pilot)
        await pilot.press("escape")
        await pilot.press("f5")
        assert isinstance(app.screen, ReviewScreen)
        for rating in "3344":
            await pilot.press("space", rating)
        await pilot.press("f2")
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert not home.query_one("#welcome").display
        assert "1 day" in str(home.query_one("#streak", Static).render())
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        expected = compute_stats(backend.store, catalog_from_library(backend.library), clock)
        assert expected.total_attempts == 1 and expected.total_reviews == 4
        table = screen.query_one("#drill-table", DataTable)
        row = table.get_row("bytes-to-unicode")
        assert row[1:3] == ["1", "1"]
        assert str(row[3]) == "4:00"  # best
        decks = screen.query_one("#deck-table", DataTable)
        reviews_shown = sum(int(decks.get_row(d.deck_id)[2]) for d in expected.decks)
        assert reviews_shown == 4
        totals = str(screen.query_one("#totals", Static).render())
        assert "1 attempt · 4 reviews" in totals and "streak 1 day" in totals
        table.move_cursor(row=table.get_row_index("bytes-to-unicode"))
        await pilot.pause()
        assert screen.query_one("#trend").data == [240.0]


async def test_interview_date_shows_countdown_and_readiness(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        assert isinstance(app.screen, InterviewDate)
        app.screen.query_one(Input).value = "2026-01-19"
        await pilot.press("enter")
        await pilot.pause()
        assert backend.interview_date() == date(2026, 1, 19)
        shown = str(app.screen.query_one("#interview", Static).render())
        assert "2026-01-19\nin 14 days\nreadiness 0%" in shown


async def test_today_at_80x24_gives_up_next_its_rows_and_says_where_readiness_is_explained(
    app: TokdrillApp, backend: Backend
) -> None:
    backend.set_interview_date(date(2026, 1, 19))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HomeScreen) and screen.today is not None
        lines = screen_lines(app)
        text = "\n".join(lines)
        assert "readiness 0%" in text and "in 14 days" in text
        assert [line.strip() for line in lines if "Readiness" in line] == [READINESS_SHORT]  # one row
        weakest = screen.today.weakest[:3]
        start = next(i for i, line in enumerate(lines) if "Weakest now:" in line)
        for offset, item in enumerate(weakest):  # each on a row of its own, from its start
            assert item[:20] in lines[start + offset]
        top = next(i for i, line in enumerate(lines) if "Up next" in line)
        bottom = next(i for i in range(top + 1, len(lines)) if lines[i].lstrip().startswith("╰"))
        rows = lines[top + 1 : bottom]
        assert len(rows) >= max(5, len(screen.lines))  # the welcome above too, on a first run
        for number, item in enumerate(screen.lines):  # one row each, from the top
            assert item.title in rows[number]
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        text = " ".join(screen_text(app).split())  # room for the whole explanation
        assert " ".join(backend.readiness_explanation().split()) in text


async def test_f1_explains_readiness_as_today_and_the_cli_do(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        shown = " ".join(str(app.screen.query_one("#help-readiness", Static).render()).split())
        assert " ".join(backend.readiness_explanation().split()) in shown


async def test_browse_search_tag_filter_and_open(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        table = screen.query_one(RowList)
        total = len(backend.library.drills) + len(backend.library.all_cards())
        assert len(screen.shown) == total  # every item is listed; a long list loads a page at a time
        assert table.row_count == (total if total <= WHOLE_ROWS else PAGE_ROWS)
        await pilot.press("slash", *"unicode")
        keys = list(table.keys)
        assert "drill:bytes-to-unicode" in keys and len(keys) < total
        await pilot.press("escape")  # clears the search
        assert screen.query_one(Input).value == ""
        table.focus()
        await pilot.pause()
        await pilot.press(*"bytes")  # type to search, straight from the table
        assert screen.query_one(Input).value == "bytes"
        screen.query_one(Input).value = ""
        await pilot.pause()
        tag = backend.library.drills["bytes-to-unicode"].tags[0]
        screen.query_one("#tag").value = tag
        await pilot.pause()
        keys = list(table.keys)
        assert keys and all(
            tag in (backend.library.drills[k[6:]].tags if k.startswith("drill:") else backend.library.card(k[5:]).tags)
            for k in keys
        )
        table.focus()
        table.cursor = keys.index("drill:bytes-to-unicode")
        await pilot.press("enter")
        assert isinstance(app.screen, ModeChoice)


async def test_command_palette_lists_main_actions_and_help_lists_bindings(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Today", "Review due cards", "Stats", "Browse", "Help: keys", "Start next item"} <= titles
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=160, record=True, file=io.StringIO())
        console.print(bindings_table())
        text = console.export_text()
        for binding_id in ("drill.submit", "drill.pause", "review.good", "app.help", "browse.search"):
            assert binding_id in text
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
