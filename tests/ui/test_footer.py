"""The key footer: going from screen to screen leaves no keys behind, and the keys are laid out
again only when the keys shown change."""

from __future__ import annotations

import gc
from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets._footer import FooterKey
from ui_helpers import SMALL

from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.widgets.footer import FittingFooter


def _alive() -> int:
    """How many footer keys are alive: everything unfrozen (the app freezes its heap once a screen
    has settled), then collected."""
    gc.unfreeze()
    gc.collect()
    return sum(isinstance(o, FooterKey) for o in gc.get_objects())


async def test_screens_visited_again_and_again_leave_no_keys_behind(app: TokdrillApp) -> None:
    alive: list[int] = []
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for _ in range(6):
            for key in ("f4", "c", "f3", "f5", "f2"):  # Stats with its charts, Browse, Review, Today
                await pilot.press(key)
                await pilot.pause()
            alive.append(_alive())
    assert alive[-1] == alive[1]  # nothing piles up from one round to the next


class KeysApp(App[None]):
    """A footer under a screen whose one key can be switched off."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "thing", "Thing")]
    thing_on = True

    def compose(self) -> ComposeResult:
        yield FittingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "thing" and not self.thing_on else True  # None: shown, greyed

    def action_thing(self) -> None:
        pass


async def test_the_footer_recomposes_only_when_the_keys_it_shows_change(monkeypatch: pytest.MonkeyPatch) -> None:
    composed: list[int] = []
    compose = FittingFooter.compose

    def counted(self: FittingFooter) -> ComposeResult:
        composed.append(1)
        return compose(self)

    monkeypatch.setattr(FittingFooter, "compose", counted)
    app = KeysApp()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        before = len(composed)
        for _ in range(3):
            app.screen.refresh_bindings()  # nothing shown changes
            await pilot.pause()
        assert len(composed) == before
        app.thing_on = False
        app.screen.refresh_bindings()
        await pilot.pause()
        assert len(composed) == before + 1
        assert [k.key for k in app.query_one(FittingFooter).query(FooterKey) if k.has_class("-disabled")] == ["x"]
