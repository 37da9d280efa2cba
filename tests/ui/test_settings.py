"""The Settings screen: reachable from Today and the command palette, changes are checked and
kept, a refused value says why and changes nothing, and what changes takes effect."""

from __future__ import annotations

from datetime import date, timedelta

from textual.widgets import Checkbox, Input, Static
from ui_helpers import SMALL, burst, screen_lines, screen_text, start_drill

from tokdrill.backend import Backend
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.dialogs import InterviewDate
from tokdrill.ui.screens.home import HomeScreen
from tokdrill.ui.screens.review import ReviewScreen
from tokdrill.ui.screens.settings import FIELDS, SettingsScreen


async def open_settings(app: TokdrillApp, pilot) -> SettingsScreen:  # type: ignore[no-untyped-def]
    await pilot.press("s")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


async def test_settings_open_from_today_and_from_the_palette(app: TokdrillApp) -> None:
    async with app.run_test(size=SMALL) as pilot:
        await open_settings(app, pilot)
        text = screen_text(app)
        for label in FIELDS.values():
            assert label in text  # every setting fits on an 80x24 screen
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("ctrl+p")
        await pilot.press(*"settings")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)


async def test_a_changed_value_is_kept_and_used(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_settings(app, pilot)
        field = screen.query_one("#field-new_cards_per_day", Input)
        assert field.has_focus and field.value == "10"
        field.value = "3"
        await pilot.press("enter")
        assert backend.setting("new_cards_per_day") == 3
        assert "saved" in str(screen.query_one("#status-new_cards_per_day", Static).render())
        assert screen.query_one("#field-new_drills_per_day", Input).has_focus  # Enter moves on
        await pilot.press("escape", "f5")
        review = app.screen
        assert isinstance(review, ReviewScreen) and len(review.cards) == 3


async def test_a_refused_value_says_why_and_changes_nothing(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_settings(app, pilot)
        await pilot.press("tab", "tab")  # to desired retention
        field = screen.query_one("#field-desired_retention", Input)
        assert field.has_focus
        field.value = "1.5"
        await pilot.press("enter")
        assert "from 0.7 to 0.99" in str(screen.query_one("#status-desired_retention", Static).render())
        assert backend.setting("desired_retention") == 0.9 and field.has_focus
        await pilot.press("escape")  # a refused value keeps you here to fix it
        assert app.screen is screen
        field.value = "0.85"
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen) and backend.setting("desired_retention") == 0.85


async def test_auto_indent_and_interview_date_take_effect(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_settings(app, pilot)
        screen.query_one(Checkbox).focus()
        await pilot.press("space")
        assert backend.auto_indent()
        screen.query_one("#field-interview_date", Input).focus()
        await pilot.pause()
        screen.query_one("#field-interview_date", Input).value = "2026-01-19"
        await pilot.press("enter", "escape")
        assert backend.interview_date() == date(2026, 1, 19)
        assert "in 14 days" in screen_text(app) and "2026-01-19" in screen_text(app)
        drill = await start_drill(app, pilot, "bytes-to-unicode", "retype")
        assert drill.editor.auto_indent


async def test_a_burst_of_editing_keys_is_applied_in_the_order_typed(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_settings(app, pilot)
        burst(app, ["end", "backspace", "backspace", "5", "left", "2", "enter"])
        await pilot.pause(0.3)
        assert backend.setting("new_cards_per_day") == 25
        assert screen.query_one("#field-new_cards_per_day", Input).value == "25"
        assert backend.setting("auto_indent") is False


async def test_auto_indent_shows_its_value_in_words_and_mark(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_settings(app, pilot)
        box = screen.query_one(Checkbox)
        assert backend.setting("auto_indent") is False
        row = next(line for line in screen_lines(app) if FIELDS["auto_indent"] in line)
        assert row.split(FIELDS["auto_indent"])[1].split() == ["▐", "▌", "off"]  # no X while off
        box.focus()
        await pilot.press("space")
        await pilot.pause()
        assert backend.setting("auto_indent") is True
        row = next(line for line in screen_lines(app) if FIELDS["auto_indent"] in line)
        assert row.split(FIELDS["auto_indent"])[1].split()[:2] == ["▐X▌", "on"]


async def test_a_past_interview_date_is_refused_in_settings_and_on_today(app: TokdrillApp, backend: Backend) -> None:
    today = backend.local_day(backend.clock.now())
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_settings(app, pilot)
        field = screen.query_one("#field-interview_date", Input)
        field.focus()
        await pilot.pause()
        field.value = "2020-01-01"
        await pilot.press("enter")
        assert backend.interview_date() is None
        assert "2020-01-01 has passed" in str(screen.query_one("#status-interview_date", Static).render())
        await pilot.press("escape")  # refused: still here
        assert app.screen is screen
        field.value = ""
        await pilot.press("escape")
        await pilot.press("i")
        dialog = app.screen
        assert isinstance(dialog, InterviewDate)
        date_field = dialog.query_one(Input)
        assert date.fromisoformat(date_field.placeholder) > today  # the example is a day to come
        date_field.value = (today - timedelta(days=1)).isoformat()
        await pilot.press("enter")
        assert app.screen is dialog and backend.interview_date() is None
        assert "has passed" in str(dialog.query_one("#date-error", Static).render())
        date_field.value = today.isoformat()  # the day itself is fine
        await pilot.press("enter")
        await pilot.pause()
        assert backend.interview_date() == today
