"""Keeping the garbage collector's full passes out of the way of keystrokes.

A full collection walks every object the app holds: with a drill open that is about 140,000
objects and 90 ms, and Python runs one every few dozen keystrokes while the user types. Most of
those objects live as long as the screen on top does. So once a screen has been on top for a
moment with no key pressed and no grading running, the app collects once and freezes what is left
(``gc.freeze``): later passes walk only what is newer. After a screen change the frozen objects may
hold what the closed screen left behind; they stay frozen (an automatic pass meanwhile would walk
them all, in the middle of the next keys or verdict) until the next settle unfreezes, collects and
freezes again, so that garbage is freed, not kept.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable

SETTLE_AFTER_SECONDS = 0.8  # after a screen change, before collecting and freezing
QUIET_SECONDS = 0.4  # ... and no sooner than this after the last key, click or finished work
WORK_POLL_SECONDS = 0.1  # how often to look again while work (grading) runs


class HeapSettler:
    """When to collect and freeze the heap, and when to let it go again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last_activity = -math.inf
        self._working = False
        self.frozen = False
        self.stale = False  # frozen before the last screen change: may hold garbage
        self.settles = 0
        self.releases = 0

    def activity(self) -> None:
        """A key, a click or finished work: settling waits for a quiet moment after it."""
        self._last_activity = self._clock()

    def wait_before_settling(self, working: bool = False) -> float:
        """Seconds to wait before settling (0: settle now). Not while work runs, and not until
        input and finished work (whose result is still being drawn) have been quiet a moment."""
        if working:
            self._working = True
            return WORK_POLL_SECONDS
        if self._working:
            self._working = False
            self.activity()
        return max(0.0, QUIET_SECONDS - (self._clock() - self._last_activity))

    def screen_changed(self) -> None:
        """Another screen is on top: what is frozen may now hold garbage, for the next settle."""
        self.stale = self.frozen

    def release(self) -> None:
        """Unfreeze everything (before collecting it, or when the app ends)."""
        if self.frozen:
            gc.unfreeze()
            self.frozen = self.stale = False
            self.releases += 1

    def settle(self) -> bool:
        """Collect everything, then freeze what survives; False if frozen since the last screen change."""
        if self.frozen and not self.stale:
            return False
        self.release()
        gc.collect()
        gc.freeze()
        self.frozen = True
        self.settles += 1
        return True
