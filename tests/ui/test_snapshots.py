"""A small set of SVG snapshots of the main screens, all from one snapshot app setup.

Update with: python -m pytest tests/ui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown
from ui_helpers import SIZE

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.ui.app import TokdrillApp


def snapshot_app(history: bool = False) -> TokdrillApp:
    """The app on a fixed clock and a UTC calendar; with ``history``, one pass and six reviews."""
    clock = FixedClock()
    backend = Backend.open(clock=clock)
    backend.store.set_timezone("UTC")
    if history:
        drill = backend.library.drill("bytes-to-unicode")
        verdict = Verdict(drill.id, True, (TestResult("test_bytes_to_unicode.py::test_table", "passed"),), 0.05)
        for seconds in (420.0, 350.0, 300.0):
            backend.record_attempt(
                drill,
                "retype",
                started_at=clock.now(),
                active_seconds=seconds,
                verdict=verdict,
                submissions=1,
                keystrokes=600,
                retype_accuracy=0.98,
            )
            clock.advance(days=1)
        for card, rating in zip(backend.review_queue(), (3, 3, 4, 1, 3, 2)):
            backend.rate_card(card, rating, 9.0)
    return TokdrillApp(backend, cursor_blink=False)


@pytest.fixture(autouse=True)
def _home(home: Path) -> Path:
    return home


def test_today_first_run(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(), terminal_size=SIZE)


def test_drill_retype_with_divergence(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, TokdrillApp)
        app.start_drill("bytes-to-unicode", "retype")
        await pilot.pause()
        screen = app.screen
        lines = app.backend.reference(screen.drill).split("\n")  # type: ignore[attr-defined]
        screen.editor.load_text("\n".join(lines[:9] + ["    tabel"]))  # type: ignore[attr-defined]
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=SIZE, run_before=run_before)


def test_review_answer_revealed(snap_compare) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("f5", "space")
        await pilot.pause()
        for markdown in pilot.app.screen.query(Markdown):
            async with markdown.lock:  # wait for the Markdown to finish rendering
                pass
        await pilot.pause()

    assert snap_compare(snapshot_app(), terminal_size=SIZE, run_before=run_before)


def test_stats_with_history(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(history=True), terminal_size=SIZE, press=["f4"])


def test_help(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(snapshot_app(), terminal_size=SIZE, press=["f1"])
