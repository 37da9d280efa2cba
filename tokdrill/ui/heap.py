"""Keeping the garbage collector's full passes out of the way of keystrokes.

A full collection walks every object the app holds: with a drill open that is about 140,000
objects and 90 ms, and Python runs one every few dozen keystrokes while the user types. Most of
those objects live as long as the screen on top does. So once a screen has been on top for a
moment with no key pressed and no grading running, the app collects once and freezes what is left
(``gc.freeze``): later passes walk only what is newer. After a screen change the frozen objects may
hold what the closed screen left behind; they stay frozen (an automatic pass meanwhile would walk
them all, in the middle of the next keys or verdict) until the next settle unfreezes, collects and
freezes again, so that garbage is freed, not kept.

The launch goes further: automatic collection is off while the app's modules are imported
(:func:`pause_collection`), since each pass would walk the modules still being loaded, all of which
live as long as the app. Once they are in, one collection frees what importing left, what survives
is frozen and collection resumes (:func:`imports_done`), so that reading content and building the
first screen reuse that memory and free their own garbage as they go, instead of piling it up (a few
hundred kilobytes on a first start) under what the first screens allocate. At the first frame the
heap is frozen again; the frame after, the app settles once, which frees what garbage the launch
left.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable

SETTLE_AFTER_SECONDS = 0.8  # after a screen change, before collecting and freezing
QUIET_SECONDS = 0.4  # ... and no sooner than this after the last key, click or finished work
WORK_POLL_SECONDS = 0.1  # how often to look again while work (grading) runs


def pause_collection() -> bool:
    """Switch automatic collection off for the launch; True if it was on (then
    :meth:`HeapSettler.launched`, or :func:`resume_collection` if the launch fails, switches it
    back on)."""
    was_on = gc.isenabled()
    gc.disable()
    return was_on


def imports_done(paused: bool) -> None:
    """The launch's imports are in: if :func:`pause_collection` switched collection off, collect
    once (what importing left, such as the classes a slotted dataclass replaces and the command
    line's parser: about 10 ms), freeze what is left and switch collection back on (the settler
    given ``launching=paused`` unfreezes it when it first settles or is released)."""
    if paused:
        gc.collect()
        gc.freeze()
        gc.enable()


def launch_failed(paused: bool) -> None:
    """The launch ended before it built the app: undo :func:`pause_collection` and
    :func:`imports_done`."""
    if paused:
        gc.unfreeze()
        gc.enable()


def resume_collection(paused: bool) -> None:
    """Switch automatic collection back on if :func:`pause_collection` switched it off."""
    if paused:
        gc.enable()


class HeapSettler:
    """When to collect and freeze the heap, and when to let it go again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, launching: bool = False) -> None:
        self._clock = clock
        self._last_activity = -math.inf
        self._working = False
        self.launching = launching  # the launch paused collection; its first frame is not up yet
        self.frozen = launching  # what the launch imported may be frozen (imports_done)
        self.stale = launching  # frozen before the last screen change: may hold garbage
        self.settles = 0
        self.releases = 0

    def launched(self) -> None:
        """The first frame is up: freeze what the launch made and make sure collection is on. The
        launch's garbage stays frozen until the first settle (which the app runs the frame after)."""
        if self.launching:
            self.launching = False
            gc.freeze()
            gc.enable()
            self.frozen = self.stale = True

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
        if self.launching:  # the app ends before its first frame: collection goes back on
            self.launching = False
            gc.enable()
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
