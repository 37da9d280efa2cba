"""SVG snapshots of every screen at 80x24 (and the busiest ones at 200x50; every chart at 80x24
and 120x36), all from one snapshot app: a fixed clock, UTC days, real grading with its duration
pinned, no cursor blink.

Update with: python -m pytest tests/ui/test_snapshots.py --snapshot-update
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from pathlib import Path

import msgspec
import pytest
from factories import record_retype_pass, seed_practice
from textual.pilot import Pilot
from textual.widgets import TextArea
from ui_helpers import SMALL, drawn

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.content.model import Drill
from tokdrill.grading.verdict import Verdict
from tokdrill.scheduling.planner import Planner
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.drill import DrillScreen

LARGE = (200, 50)
MEDIUM = (120, 36)
DRILL = "bytes-to-unicode"
WRONG = "def bytes_to_unicode():\n    return {}\n"


class SnapshotBackend(Backend):
    """The real backend with grading's wall-clock duration pinned (it is the one varying figure)."""

    def grade(self, drill: Drill, source: str) -> Verdict:
        return msgspec.structs.replace(super().grade(drill, source), seconds=0.05)


def snapshot_app(
    *, history: bool = False, interview: bool = False, draft: bool = False, practice: bool = False
) -> TokdrillApp:
    """The app on a fixed clock and UTC days; ``history`` adds passes and reviews (with typing
    figures), ``interview`` an interview date, ``draft`` a saved recall draft, ``practice`` two
    weeks of seeded practice (tests/factories.py) with an interview two weeks later."""
    clock = FixedClock()
    opened = Backend.open(clock=clock)
    backend = SnapshotBackend(opened.library, opened.progress, clock, opened.problems)
    backend.set_setting("timezone", "UTC")
    if interview:
        backend.set_interview_date(date(2026, 1, 19))
    if draft:
        text = backend.reference(backend.library.drill(DRILL))
        backend.save_draft(DRILL, "recall", text[: len(text) // 2], 200.0)
    if history:
        for seconds, wpm in ((420.0, 31.0), (350.0, 38.0), (300.0, 44.0)):
            record_retype_pass(
                backend,
                clock,
                seconds,
                drill_id=DRILL,
                wpm=wpm,
                accuracy=0.95,
                corrected_errors=4,
                costly_keys=(("(", 3), ("indentation", 2)),
            )
        for card, rating in zip(backend.review_queue(), (3, 3, 4, 1, 3, 2)):
            backend.rate_card(card, rating, 9.0)
        backend.store  # noqa: B018 - every queued write applied before the app starts
    if practice:
        deck = next(iter(backend.catalog.decks.values()))
        seed_practice(Planner(backend.store, clock), clock, DRILL, backend.catalog.drill_targets[DRILL], deck[:12])
        backend.set_interview_date(clock.now().date() + timedelta(days=14))
        backend.store  # noqa: B018
    return TokdrillApp(backend, cursor_blink=False)


@pytest.fixture(autouse=True)
def _home(home: Path) -> Path:
    return home


def drill_at(mode: str, *steps: str) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Open the drill in ``mode``, then: ``mid`` (the reference half typed with a slip),
    ``fail`` (a wrong submission graded), ``pass`` (the reference submitted)."""

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, TokdrillApp)
        app.start_drill(DRILL, mode)  # type: ignore[arg-type]
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        reference = app.backend.reference(screen.drill)
        for step in steps:
            if step == "mid":
                lines = reference.split("\n")
                screen.editor.load_text("\n".join(lines[:12] + ["    tabel"]))
                screen.editor.move_cursor(screen.editor.document.end)
            else:
                screen.editor.load_text(WRONG if step == "fail" else reference)
                await pilot.pause()
                await pilot.press("ctrl+s")
            await drawn(pilot)

    return run_before


async def review_typed(pilot: Pilot[None]) -> None:
    await pilot.press("f5", "t")
    pilot.app.screen.query_one("#typed-answer", TextArea).load_text(
        "Count adjacent pairs weighted by frequency, take the argmax pair, merge it everywhere and "
        "append it to the merge list until the target size."
    )
    await pilot.press("ctrl+s")
    await drawn(pilot)


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await drawn(pilot)


async def mistakes_logged(pilot: Pilot[None]) -> None:
    """A failed recall submission of bpe-encode (its apply_merges wrong) graded for real, then the
    Mistakes screen."""
    app = pilot.app
    assert isinstance(app, TokdrillApp)
    app.start_drill("bpe-encode", "recall")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, DrillScreen)
    wrong = "\n\ndef apply_merges(symbols, ranks):\n    return list(symbols)\n"  # after the reference: it wins
    screen.editor.load_text(app.backend.reference(screen.drill) + wrong)
    await pilot.pause()
    await pilot.press("ctrl+s")
    await drawn(pilot)
    app.backend.store  # noqa: B018 - the logged concepts written
    await press(pilot, "escape", "m")


async def mock_at(pilot: Pilot[None], stage: str) -> None:
    """A mock round: the drill submitted wrong and left, then the first question (``question``),
    or one answer typed and the round ended with F9 (``scorecard``)."""
    await press(pilot, "k", "ctrl+s")
    screen = pilot.app.screen
    assert isinstance(screen, DrillScreen)
    screen.editor.load_text(WRONG)
    await pilot.pause()
    await press(pilot, "ctrl+s")
    await press(pilot, "escape")
    if stage == "scorecard":
        pilot.app.screen.query_one("#mock-answer", TextArea).load_text(
            "Merge the pair of lowest rank, again and again."
        )
        await press(pilot, "f9")


SCREENS: dict[str, tuple[Callable[[], TokdrillApp], Callable[[Pilot[None]], Awaitable[None]] | None]] = {
    "today_first_run": (snapshot_app, None),
    "today_with_interview": (lambda: snapshot_app(history=True, interview=True), None),
    "mode_choice": (snapshot_app, lambda p: press(p, "enter")),
    "drill_retype_start": (snapshot_app, drill_at("retype")),
    "drill_retype_mid": (snapshot_app, drill_at("retype", "mid")),
    "drill_retype_failed": (snapshot_app, drill_at("retype", "fail")),
    "drill_retype_passed": (snapshot_app, drill_at("retype", "pass")),
    "drill_recall_start": (snapshot_app, drill_at("recall")),
    "drill_recall_failed": (snapshot_app, drill_at("recall", "fail")),
    "drill_recall_passed": (snapshot_app, drill_at("recall", "pass")),
    "restore_dialog": (lambda: snapshot_app(draft=True), lambda p: open_drill(p, "recall")),
    "give_up_dialog": (snapshot_app, lambda p: drill_then(p, "f9")),
    "review_front": (snapshot_app, lambda p: press(p, "f5")),
    "review_back": (snapshot_app, lambda p: press(p, "f5", "space")),
    "review_typed": (snapshot_app, review_typed),
    "stats": (lambda: snapshot_app(history=True, interview=True), lambda p: press(p, "f4")),
    "browse": (snapshot_app, lambda p: press(p, "f3")),
    "help": (lambda: snapshot_app(interview=True), lambda p: press(p, "f1")),
    "settings": (snapshot_app, lambda p: press(p, "s")),
    "mistakes": (snapshot_app, mistakes_logged),
    "mock_question": (snapshot_app, lambda p: mock_at(p, "question")),
    "mock_scorecard": (snapshot_app, lambda p: mock_at(p, "scorecard")),
    "playground": (snapshot_app, lambda p: press(p, "p")),
    "playground_ids": (snapshot_app, lambda p: press(p, "p", "ctrl+t")),
    "playground_pieces": (snapshot_app, lambda p: press(p, "p", "ctrl+l")),
    "playground_boundary": (snapshot_app, lambda p: press(p, "p", "ctrl+b")),
    "playground_encodings": (snapshot_app, lambda p: press(p, "p", "ctrl+r")),
    "steps_bpe_training": (snapshot_app, lambda p: press(p, "p", "ctrl+n", "right", "right")),
    "steps_viterbi_end": (
        snapshot_app,
        lambda p: press(p, "p", "ctrl+n", "shift+tab", "down", "down", "down", "enter", "end"),
    ),
}
LARGE_SCREENS = ("today_with_interview", "drill_retype_mid", "drill_retype_failed", "review_back", "stats")


async def open_drill(pilot: Pilot[None], mode: str) -> None:
    app = pilot.app
    assert isinstance(app, TokdrillApp)
    app.start_drill(DRILL, mode)  # type: ignore[arg-type]
    await drawn(pilot)


async def drill_then(pilot: Pilot[None], *keys: str) -> None:
    await drill_at("retype")(pilot)
    await press(pilot, *keys)


def chart(steps: int) -> Callable[[Pilot[None]], Awaitable[None]]:
    """Stats, switched to its charts (c), then ``steps`` charts on (→)."""

    async def run_before(pilot: Pilot[None]) -> None:
        await press(pilot, "f4", "c", *["right"] * steps)

    return run_before


CHARTS = {"drill_times": 0, "deck_retention": 1, "due_forecast": 2, "typing_speed": 3}


@pytest.mark.parametrize("name", list(CHARTS))
@pytest.mark.parametrize("size", [SMALL, MEDIUM], ids=["80x24", "120x36"])
def test_every_chart(snap_compare, name: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = snapshot_app(practice=True)
    assert snap_compare(app, terminal_size=size, run_before=chart(CHARTS[name]))


@pytest.mark.parametrize("name", list(SCREENS))
def test_every_screen_at_80x24(snap_compare, name: str) -> None:  # type: ignore[no-untyped-def]
    make, run_before = SCREENS[name]
    assert snap_compare(make(), terminal_size=SMALL, run_before=run_before)


@pytest.mark.parametrize("name", LARGE_SCREENS)
def test_busiest_screens_at_200x50(snap_compare, name: str) -> None:  # type: ignore[no-untyped-def]
    make, run_before = SCREENS[name]
    assert snap_compare(make(), terminal_size=LARGE, run_before=run_before)
