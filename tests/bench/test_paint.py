"""The paint clock stops at the first frame painted once the awaited state holds, not before."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.widgets import Static

from tokdrill.bench.paint import PaintClock

DELAY = 0.05


class Later(App[None]):
    """``x`` shows its result only after DELAY seconds (as a worker's result arrives later)."""

    BINDINGS: ClassVar[list[BindingType]] = [("x", "later", "Later")]
    shown = 0

    def compose(self) -> ComposeResult:
        yield Static("0", id="label")

    def action_later(self) -> None:
        self.set_timer(DELAY, self._show)

    def _show(self) -> None:
        self.shown += 1
        self.query_one("#label", Static).update(str(self.shown))


def test_the_clock_waits_for_the_state_and_a_frame_after_it() -> None:
    async def run() -> tuple[list[float], list[int], int]:
        app = Later()
        taken, frames_at_hit = [], []
        async with app.run_test() as pilot:
            clock = PaintClock(app)
            await pilot.pause()
            for _ in range(3):
                before = app.shown
                frames = clock.frames
                taken.append(await clock.measure(lambda: pilot.press("x"), lambda: app.shown > before))  # noqa: B023
                frames_at_hit.append(clock.frames - frames)
                assert "1" <= str(app.query_one("#label", Static).render()) <= "3"
        return taken, frames_at_hit, app.shown

    taken, frames, shown = asyncio.run(run())
    assert shown == 3
    assert all(t >= DELAY for t in taken)  # never stops before the result exists
    assert all(f >= 1 for f in frames)  # a frame was painted with the result
