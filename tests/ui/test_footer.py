"""The key footer: going from screen to screen leaves no keys behind, and the keys are laid out
again only when the keys shown change."""

from __future__ import annotations

import gc
from typing import Any, ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
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


class ManyKeysApp(App[None]):
    """A footer under more keys than 80 columns hold."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding(f"f{n}", f"key_{n}", f"Action number {n}") for n in range(1, 13)]

    def compose(self) -> ComposeResult:
        yield FittingFooter()


def _count_keys_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    made: list[str] = []
    init = FooterKey.__init__

    def counted(self: FooterKey, *args: Any, **kwargs: Any) -> None:
        made.append(args[0])
        init(self, *args, **kwargs)

    monkeypatch.setattr(FooterKey, "__init__", counted)
    return made


def _composes(monkeypatch: pytest.MonkeyPatch) -> list[Screen[Any]]:
    composed: list[Screen[Any]] = []
    compose = FittingFooter.compose

    def counted(self: FittingFooter) -> ComposeResult:
        composed.append(self.screen)
        return compose(self)

    monkeypatch.setattr(FittingFooter, "compose", counted)
    return composed


async def test_only_the_keys_that_fit_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _count_keys_made(monkeypatch)
    app = ManyKeysApp()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        shown = [key.key for key in app.query_one(FittingFooter).query(FooterKey)]
        assert 1 < len(shown) < 12  # some keys fit, not all
        assert shown[:2] == ["f1", "f2"]  # in the order bound
        assert sorted(made) == sorted(shown)  # one widget per key shown, none for the others


class Keyed(Screen[None]):
    """A screen with a footer and one key that can be switched off."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "thing", "Thing"),
        Binding("y", "other", "Other"),
    ]
    thing_on = True

    def compose(self) -> ComposeResult:
        yield FittingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "thing" or self.thing_on

    def action_thing(self) -> None:
        pass

    def action_other(self) -> None:
        pass


async def test_a_covered_screen_s_footer_waits_until_its_screen_is_back(monkeypatch: pytest.MonkeyPatch) -> None:
    composed = _composes(monkeypatch)
    app = App[None]()
    below, above = Keyed(), Keyed()
    async with app.run_test(size=SMALL) as pilot:
        await app.push_screen(below)
        await pilot.pause()
        await app.push_screen(above)
        await pilot.pause()
        before = composed.count(below)
        below.thing_on = False  # its keys change while covered
        below.refresh_bindings()
        await pilot.pause()
        await pilot.resize_terminal(100, 24)  # and so does its width
        await pilot.pause()
        assert composed.count(below) == before
        await app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        assert composed.count(below) == before + 1  # once for both changes
        footer = below.query_one(FittingFooter)
        assert [key.key for key in footer.query(FooterKey)] == ["y", "ctrl+p"]  # "x" is off now
        assert footer.size.width == 100
