"""The clock of what a user sees: key press to the frame that shows the result, in a headless app.

Textual paints a screen by compositing the widgets that changed into an update, which the app
hands to ``App._display``; a terminal driver then turns it into escape sequences. Headless, the
app skips that last step. :class:`PaintClock` wraps that hand-off of one app instance: it renders
every update to its terminal text (so the cost a terminal would pay is counted) and notes the
time of each frame on the app's own message loop. A measurement starts just before the key is
posted and ends at the first frame painted while the awaited state holds (the verdict set, the
next card shown...): that state is set by the same handler that updates the widgets, so the frame
is the one that shows the result. Frames are paced by the app's own refresh timer, as in a
terminal; nothing forces a refresh early.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tokdrill.ui.textual_internals import intercept_frames

TIMEOUT_SECONDS = 60.0


class PaintClock:
    """Times, on the app's loop, from a key press to the first frame showing its result."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.frames = 0
        self._done: Callable[[], bool] | None = None
        self._painted_at = 0.0
        self._event = asyncio.Event()
        intercept_frames(app, self._frame)

    def _frame(self, screen: object, renderable: object) -> None:
        if renderable is None:
            return
        render = getattr(renderable, "render_segments", None)
        if render is not None:  # what a terminal driver would write
            render(self.app.console)
        self.frames += 1
        done = self._done
        if done is not None and done():
            self._painted_at = time.perf_counter()
            self._done = None
            self._event.set()

    async def measure(self, press: Callable[[], Awaitable[None]], done: Callable[[], bool]) -> float:
        """Seconds from calling ``press`` to the first frame painted once ``done()`` holds."""
        self._event.clear()
        self._done = done
        started = time.perf_counter()
        await press()
        try:
            await asyncio.wait_for(self._event.wait(), TIMEOUT_SECONDS)
        finally:
            self._done = None
        return self._painted_at - started
