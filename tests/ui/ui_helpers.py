"""Helpers shared by the UI tests (imported as ``ui_helpers``)."""

from __future__ import annotations

import asyncio
import html
import re
import threading
import unicodedata
from collections.abc import Callable

from textual import events
from textual.app import App
from textual.keys import REPLACED_KEYS, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Markdown

from tokdrill.backend import Backend
from tokdrill.progress.records import Mode
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.drill import DrillScreen

SIZE = (120, 40)
SMALL = (80, 24)


def key_event(key: str) -> events.Key:
    """The event a terminal's ``key`` becomes, its character found as the pilot finds it."""
    try:
        character: str | None = unicodedata.lookup(_get_unicode_name_from_key(REPLACED_KEYS.get(key, key)))
    except KeyError:
        character = key if len(key) == 1 else None
    return events.Key(key, character)


def burst(app: App[None], keys: list[str]) -> None:
    """Queue ``keys`` all at once, as a terminal delivers a fast typist's keys in one read."""
    for key in keys:
        app.post_message(key_event(key))


async def settle(pilot: Pilot[None], ready: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the app process messages until ``ready()`` holds (a loaded machine may take a while);
    fail if it never does."""
    for _ in range(int(seconds / 0.05)):
        if ready():
            return
        await pilot.pause(0.05)
    assert ready(), "the app never reached the expected state"


async def drawn(pilot: Pilot[None]) -> None:
    """Wait for workers (grading) and Markdown rendering to finish."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    for markdown in pilot.app.screen.query(Markdown):
        async with markdown.lock:
            pass
    await pilot.pause()


async def submit(app: TokdrillApp, pilot: Pilot[None]) -> None:
    """Press ctrl+s and wait until the verdict is shown, and after a pass what follows once the
    verdict is on screen (the diff, the editor made read-only)."""
    screen = app.screen
    await pilot.press("ctrl+s")
    await pilot.pause()
    await app.workers.wait_for_complete()
    await settle(pilot, lambda: not getattr(screen, "grading", False))
    verdict = getattr(screen, "last_verdict", None)
    if isinstance(screen, DrillScreen) and verdict is not None and verdict.passed:
        await settle(pilot, lambda: screen.editor.read_only)
    await after_refresh(screen)


async def after_refresh(widget: Widget) -> None:
    """Wait until what ``widget`` scheduled for after a refresh has run (callbacks run in order)."""
    done = asyncio.Event()
    widget.call_after_refresh(done.set)
    await asyncio.wait_for(done.wait(), 30)


def hold_grading(backend: Backend) -> threading.Event:
    """Make ``backend.grade`` wait until the returned event is set (at most 30 s), so a test can
    look at the app while a verdict is on its way."""
    release = threading.Event()
    grade = backend.grade

    def held(drill, source):  # type: ignore[no-untyped-def]
        release.wait(30)
        return grade(drill, source)

    backend.grade = held  # type: ignore[method-assign]
    return release


async def start_drill(app: TokdrillApp, pilot: Pilot[None], drill_id: str, mode: Mode) -> DrillScreen:
    """Open ``drill_id`` in ``mode`` (no draft waiting) and return its screen."""
    app.start_drill(drill_id, mode)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, DrillScreen), screen
    return screen


async def load(pilot: Pilot[None], screen: DrillScreen, text: str) -> None:
    """Put ``text`` in the editor as one edit (stands in for typing it) and let it settle."""
    screen.editor.load_text(text)
    await pilot.pause()


def type_exactly(screen: DrillScreen, text: str) -> None:
    """Type ``text`` through the editor's own key handling, as keys: each leading space is one
    key press and each line break an Enter (the rest of a line, where auto-indent plays no part,
    goes in as one press to keep the test fast)."""
    editor = screen.editor
    for number, line in enumerate(text.split("\n")):
        if number:
            editor.action_newline()
        code = line.lstrip(" ")
        for _ in range(len(line) - len(code)):
            editor.type_text(" ")
        if code:
            editor.type_text(code)


_SVG_TEXT = re.compile(
    r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#[\w-]*line-(\d+)\)">(.*?)</text>'
)
CELL_WIDTH = 12.2  # pixels per column in Textual's SVG screenshots


def screen_lines(app: App[None]) -> list[str]:
    """What the terminal shows now, one string per row (read from an SVG screenshot)."""
    width, height = app.size
    grid = [[" "] * width for _ in range(height)]
    for x, row, content in _SVG_TEXT.findall(app.export_screenshot()):
        column = round(float(x) / CELL_WIDTH)
        for offset, character in enumerate(html.unescape(content).replace("\xa0", " ")):
            if column + offset < width and int(row) < height:
                grid[int(row)][column + offset] = character
    return ["".join(line).rstrip() for line in grid]


def screen_text(app: App[None]) -> str:
    """What the terminal shows now, rows joined by newlines."""
    return "\n".join(screen_lines(app))
