"""The heap is collected and frozen once a screen has been quiet a moment, never while keys
arrive; after a screen change it stays frozen until the next settle collects it again, so a
closed screen is freed, not kept frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable

import pytest
from ui_helpers import hold_grading, start_drill

from tokdrill.backend import Backend
from tokdrill.ui import heap
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.heap import HeapSettler
from tokdrill.ui.screens import drill as drill_screen
from tokdrill.ui.screens.drill import DrillScreen

SIZE = (100, 30)


class Node:
    """Garbage only the cycle collector frees."""

    def __init__(self) -> None:
        self.me = self


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_settling_collects_and_freezes_and_settles_again_after_a_screen_change() -> None:
    settler = HeapSettler()
    assert settler.settle() and settler.frozen and gc.get_freeze_count() > 0
    assert not settler.settle()  # already frozen: nothing to do
    settler.screen_changed()
    assert settler.frozen and settler.stale and gc.get_freeze_count() > 0  # automatic passes stay short
    left_behind = weakref.ref(Node())  # garbage the closed screen left, frozen with the rest
    gc.freeze()
    assert left_behind() is not None
    assert settler.settle() and settler.frozen and not settler.stale
    assert left_behind() is None, "the settle after a screen change must collect what was frozen"
    assert settler.settles == 2 and settler.releases == 1
    settler.release()
    assert not settler.frozen and gc.get_freeze_count() == 0 and settler.releases == 2


def test_settling_waits_for_a_quiet_moment_after_the_last_key() -> None:
    clock = Clock()
    settler = HeapSettler(clock)
    assert settler.wait_before_settling() == 0  # no key yet
    settler.activity()
    clock.now += heap.QUIET_SECONDS / 4
    assert settler.wait_before_settling() == pytest.approx(heap.QUIET_SECONDS * 3 / 4)
    clock.now += heap.QUIET_SECONDS
    assert settler.wait_before_settling() == 0


def test_settling_waits_while_work_runs_and_a_quiet_moment_after_it() -> None:
    clock = Clock()
    settler = HeapSettler(clock)
    assert settler.wait_before_settling(working=True) == heap.WORK_POLL_SECONDS
    clock.now += 5
    assert settler.wait_before_settling(working=True) == heap.WORK_POLL_SECONDS
    assert settler.wait_before_settling() == heap.QUIET_SECONDS  # it just ended: its result is drawn now
    clock.now += heap.QUIET_SECONDS
    assert settler.wait_before_settling() == 0


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heap, "SETTLE_AFTER_SECONDS", 0.3)
    monkeypatch.setattr(heap, "QUIET_SECONDS", 0.3)
    monkeypatch.setattr(drill_screen, "AUTOSAVE_SECONDS", 0.5)


async def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.usefixtures("quick")
@pytest.mark.parametrize("mode", ["recall", "retype"])
async def test_a_closed_drill_screen_is_not_kept_frozen_past_the_next_screen_change(
    backend: Backend, mode: str
) -> None:
    """A settle just after a screen closes may still find it held (a cancelled timer keeps the
    context it was made in until its due time); the settle after the next screen change frees it,
    with its text areas and their documents (held by the app's theme watchers and the parser)."""
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", mode)
        assert await wait_for(lambda: app.heap.frozen)  # settled with the drill on top
        gone = weakref.ref(screen)
        parts = [weakref.ref(screen.editor), weakref.ref(screen.editor.document)]
        del screen
        released = app.heap.releases
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DrillScreen)
        # Today settled: everything unfrozen, collected and frozen again
        assert await wait_for(lambda: app.heap.releases == released + 1 and app.heap.frozen and not app.heap.stale)
        await asyncio.sleep(1.2)  # past the closed screen's last timer
        settled = app.heap.settles
        await pilot.press("f4")
        assert await wait_for(lambda: app.heap.settles > settled)
        assert app.heap.releases == released + 2
        assert gone() is None, "the closed drill screen is still held"
        assert [part() for part in parts] == [None, None], "its editor or the editor's document is still held"
    assert gc.get_freeze_count() == 0  # nothing of the app stays frozen after it


@pytest.fixture
def by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """No settle on its own (the test calls it); a key or a verdict holds it off for 2 s."""
    monkeypatch.setattr(heap, "SETTLE_AFTER_SECONDS", 600.0)
    monkeypatch.setattr(heap, "QUIET_SECONDS", 2.0)


@pytest.mark.usefixtures("by_hand")
async def test_a_key_puts_settling_off_until_the_keys_stop(backend: Backend) -> None:
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_drill(app, pilot, "bytes-to-unicode", "recall")
        await pilot.press("x")
        app._settle_heap()
        assert not app.heap.frozen and app.heap.settles == 0
        assert await wait_for(lambda: app.heap.frozen)  # once the keys have stopped


@pytest.mark.usefixtures("by_hand")
async def test_grading_puts_settling_off_until_the_verdict(backend: Backend) -> None:
    release = hold_grading(backend)
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        await pilot.press("ctrl+s")
        assert await wait_for(lambda: screen.grading)
        app.heap._last_activity -= 10
        app._settle_heap()
        assert not app.heap.frozen and app.heap.settles == 0
        release.set()
        assert await wait_for(lambda: not screen.grading)
        assert await wait_for(lambda: app.heap.frozen)


@pytest.mark.usefixtures("by_hand")
async def test_a_verdict_counts_as_activity_though_settling_never_saw_the_grading(backend: Backend) -> None:
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        await pilot.press("ctrl+s")
        app.heap._last_activity -= 10  # the key is long past
        assert app.heap.wait_before_settling() == 0
        assert await wait_for(lambda: screen.last_verdict is not None and not screen.grading)
        # the verdict just drawn: its message reaches the app after the screen has handled it
        assert await wait_for(lambda: app.heap.wait_before_settling() > 0)


def test_a_launch_that_paused_collection_resumes_it_after_the_imports_or_when_it_ends() -> None:
    assert gc.isenabled()
    try:
        paused = heap.pause_collection()
        settler = HeapSettler(launching=paused)
        assert not gc.isenabled()
        left = weakref.ref(Node())  # garbage the imports left
        heap.imports_done(paused)
        assert left() is None, "the end of the imports must collect what they left"
        assert gc.isenabled() and gc.get_freeze_count() > 0  # what they keep is frozen
        settler.launched()  # the first frame
        assert gc.isenabled() and settler.frozen and settler.stale and gc.get_freeze_count() > 0
        assert settler.settle() and not settler.stale  # the first settle collects what the launch left
        settler.release()
        ended_early = HeapSettler(launching=heap.pause_collection())
        ended_early.release()  # the app ended before its first frame
        assert gc.isenabled() and not ended_early.launching
    finally:
        gc.enable()
        gc.unfreeze()


async def test_the_collector_waits_from_a_verdict_to_its_frame(backend: Backend) -> None:
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bytes-to-unicode", "recall")
        held: list[bool] = []
        handler = screen.results.after_verdict_shown

        def shown(callback: Callable[[], object]) -> None:
            held.append(not gc.isenabled())
            handler(callback)

        screen.results.after_verdict_shown = shown  # type: ignore[method-assign]
        await pilot.press("ctrl+s")
        for _ in range(600):
            if held and gc.isenabled():
                break
            await pilot.pause(0.05)
        assert held == [True] and gc.isenabled()  # off for the frame, back on once it is drawn


async def test_strips_drawn_with_a_drill_open_make_only_the_caches_they_use(backend: Backend) -> None:
    """Textual would give every strip seven caches of derived strips (9,000 with a drill open,
    nearly all empty); the app's strips make one when first used."""
    from textual.cache import FIFOCache
    from textual.strip import Strip

    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=SIZE) as pilot:
        await start_drill(app, pilot, "bytes-to-unicode", "retype")
        await pilot.pause()
        objects = gc.get_objects()
        strips = sum(isinstance(o, Strip) for o in objects)
        caches = sum(isinstance(o, FIFOCache) for o in objects)
    assert strips > 200, strips  # the screen was drawn
    assert caches < strips, (caches, strips)  # seven per strip without lazy caches
