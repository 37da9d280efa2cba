"""The Step-through screen: ctrl+n in the Playground (or the palette) opens it; keys move through
the reference's steps, jump to a step, switch algorithm; bad input is a message."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, OptionList, TextArea
from ui_helpers import SMALL

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.steps import JumpTo, StepsScreen, StepsView


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def shown(screen: StepsScreen) -> str:
    return "\n".join(screen.query_one(StepsView).plain_lines())


async def test_keys_walk_through_bpe_training(home: Path, clock: FixedClock) -> None:
    app = TokdrillApp(Backend.open(clock=clock), cursor_blink=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StepsScreen)
        assert "step 1 of 11, start" in shown(screen)
        await pilot.press("right", "n", "space")
        assert "step 4 of 11, merge 3" in shown(screen)
        await pilot.press("left")
        assert "step 3 of 11" in shown(screen)
        await pilot.press("end")
        assert "step 11 of 11" in shown(screen) and "result: merges: s+t</w>" in shown(screen)
        await pilot.press("right")
        assert "step 11 of 11" in shown(screen)
        await pilot.press("home")
        assert "step 1 of 11" in shown(screen)
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, JumpTo)
        await pilot.press("5", "enter")
        await pilot.pause()
        assert "step 5 of 11, merge 4" in shown(screen)
        await pilot.press("escape")
        assert not isinstance(app.screen, StepsScreen)


async def test_switching_algorithm_and_bad_input(home: Path, clock: FixedClock) -> None:
    app = TokdrillApp(Backend.open(clock=clock), cursor_blink=False)
    async with app.run_test(size=SMALL) as pilot:
        app.action_steps()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StepsScreen)
        screen.query_one(OptionList).focus()
        await pilot.press("down", "down", "down")
        await settle(pilot)
        assert "Unigram Viterbi: step 1" in shown(screen)
        word = screen.query_one("#steps-word", Input)
        word.focus()
        word.value = "two words"
        await pilot.press("enter")
        await settle(pilot)
        assert shown(screen) == "type one word to segment (no spaces)"
        screen.query_one("#steps-corpus", TextArea).load_text("[b]x[/b] [@click=app.quit]")
        word.value = "[b]x[/b]"
        word.focus()
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("end")
        assert "result: [b] x[/b] (log p" in shown(screen)
        assert app.is_running
        bytes_view = next(i for i, a in enumerate(screen.query_one(OptionList).options) if a.id == "bytes")
        screen.query_one(OptionList).highlighted = bytes_view
        await settle(pilot)
        word.value = "red\x1b[31mtext"
        word.focus()
        await pilot.press("enter")
        await settle(pilot)
        pages = []
        for _ in range(4):
            pages.append(shown(screen))
            await pilot.press("right")
        assert not any("\x1b" in page for page in pages)
        assert any("⟨U+001B⟩" in page for page in pages)
