"""Interaction probes: each drives the real app headless through a pilot and prints one JSON
document of latencies (milliseconds, key press to the result painted; see
:mod:`tokdrill.bench.paint`).

``python -m tokdrill.bench.probes PROBE '{"reps": 20, ...}'`` runs one probe in a fresh
interpreter, against the store in ``TOKDRILL_HOME`` and the content in ``TOKDRILL_CONTENT``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar

from tokdrill.bench.paint import PaintClock

SIZE = (120, 40)
THINK_SECONDS = 0.2  # between submissions, as a person leaves (the grader starts a standby meanwhile)
READ_SECONDS = 1.5  # the longest wait for the app to settle its heap on a new screen (see _read)
TYPING_DRILL = "bytes-to-unicode"

Probe = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def _app() -> Any:
    from tokdrill.backend import Backend
    from tokdrill.ui.app import TokdrillApp

    return TokdrillApp(Backend.open(), cursor_blink=False)


def _ms(seconds: float) -> float:
    return seconds * 1000


async def _settle(pilot: Any, seconds: float = 0.0) -> None:
    await pilot.pause()
    if seconds:
        await asyncio.sleep(seconds)


async def _read(pilot: Any, app: Any) -> None:
    """A person reads a new screen before the first key (or ctrl+s), and the app uses that moment
    to settle its heap (:mod:`tokdrill.ui.heap`): wait for the settle, at most READ_SECONDS, so
    that what follows meets the collector as a person's keys do."""
    await _settle(pilot)
    deadline = time.perf_counter() + READ_SECONDS
    while not (app.heap.frozen and not app.heap.stale) and time.perf_counter() < deadline:
        await asyncio.sleep(0.02)


# ------------------------------------------------------------------------------------ probes
async def verdict(args: dict[str, Any]) -> dict[str, Any]:
    """ctrl+s to the verdict painted, per drill: the reference text (passes; a fresh drill screen
    each time, in retype mode) and the starter (fails; resubmitted on one recall screen), each
    screen read first (:func:`_read`). Beside each, the grader's own time for the same submission
    (``backend.grade``)."""
    from tokdrill.bench.grading import retype_source
    from tokdrill.ui.screens.drill import DrillScreen

    reps: int = args["reps"]
    app = _app()
    backend = app.backend
    grade_ms: list[float] = []
    original = backend.grade

    def timed_grade(drill: Any, source: str) -> Any:
        started = time.perf_counter()
        try:
            return original(drill, source)
        finally:
            grade_ms.append(_ms(time.perf_counter() - started))

    backend.grade = timed_grade
    found: dict[str, Any] = {}
    async with app.run_test(size=SIZE) as pilot:
        clock = PaintClock(app)

        async def open_drill(drill_id: str, mode: str) -> DrillScreen:
            app.action_today()
            await _settle(pilot)
            backend.discard_draft(drill_id, mode)
            app.start_drill(drill_id, mode)
            await _read(pilot, app)
            screen = app.screen
            if not isinstance(screen, DrillScreen):
                raise RuntimeError(f"{drill_id}: the drill screen did not open ({type(screen).__name__})")
            return screen

        async def submit(screen: DrillScreen) -> float:
            before = screen.last_verdict
            await asyncio.sleep(THINK_SECONDS)
            return await clock.measure(
                lambda: pilot.press("ctrl+s"), lambda: screen.last_verdict is not before and not screen.grading
            )

        for drill_id in args["drills"]:
            drill = backend.library.drill(drill_id)
            reference = retype_source(drill)
            row: dict[str, list[float]] = {"pass": [], "fail": [], "grade_pass": [], "grade_fail": []}
            for rep in range(reps + 1):  # the first of each is a warm-up (starts the grader's standby)
                screen = await open_drill(drill_id, "retype")
                screen.editor.load_text(reference)
                await _settle(pilot)
                taken = await submit(screen)
                if screen.last_verdict is None or not screen.last_verdict.passed:
                    raise RuntimeError(f"{drill_id}: the reference text did not pass")
                if rep:
                    row["pass"].append(_ms(taken))
                    row["grade_pass"].append(grade_ms[-1])
            screen = await open_drill(drill_id, "recall")
            for rep in range(reps + 1):
                taken = await submit(screen)
                if screen.last_verdict is None or screen.last_verdict.passed:
                    raise RuntimeError(f"{drill_id}: the starter passed")
                if rep:
                    row["fail"].append(_ms(taken))
                    row["grade_fail"].append(grade_ms[-1])
            found[drill_id] = row
        app.action_today()
        await _settle(pilot)
    return found


async def review(args: dict[str, Any]) -> dict[str, Any]:
    """Rating key (3, Good) to the next card painted, over ``reps`` cards of the library."""
    from tokdrill.ui.screens.review import ReviewScreen

    reps: int = args["reps"]
    app = _app()
    cards = app.backend.library.all_cards()[: reps + 2]
    samples: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        clock = PaintClock(app)
        screen = ReviewScreen(app.backend, cards, title="Review")
        app.push_screen(screen)
        await _read(pilot, app)
        for rep in range(reps + 1):
            await pilot.press("space")
            await _settle(pilot, 0.05)
            index = screen.index
            taken = await clock.measure(lambda: pilot.press("3"), lambda: screen.index == index + 1)  # noqa: B023 - awaited at once
            if rep:
                samples.append(_ms(taken))
        app.action_today()
        await _settle(pilot)
    return {"samples": samples}


async def browse(args: dict[str, Any]) -> dict[str, Any]:
    """One keystroke in Browse's search box to the filtered list painted: a query typed a key at
    a time, then taken back with backspace, ``reps`` keys in all."""
    from tokdrill.ui.widgets.row_list import RowList

    reps: int = args["reps"]
    app = _app()
    samples: list[float] = []
    rows: list[int] = []
    query = "merge pair"
    keys = [("space" if c == " " else c) for c in query] + ["backspace"] * len(query)
    async with app.run_test(size=SIZE) as pilot:
        clock = PaintClock(app)
        app.action_browse()
        await _read(pilot, app)
        screen = app.screen
        refills = [0]
        original = screen.refill

        def counted() -> None:
            original()
            refills[0] += 1

        screen.refill = counted
        table = screen.query_one(RowList)
        rows.append(table.row_count)
        await pilot.press("slash")
        await _settle(pilot)
        for rep in range(reps + 1):
            key = keys[rep % len(keys)]
            before = refills[0]
            taken = await clock.measure(lambda: pilot.press(key), lambda: refills[0] > before)  # noqa: B023 - awaited at once
            await _settle(pilot, 0.02)
            if rep:
                samples.append(_ms(taken))
        app.action_today()
        await _settle(pilot)
    return {"samples": samples, "rows": rows[0]}


async def screens(args: dict[str, Any]) -> dict[str, Any]:
    """F4 to Stats painted, then F2 to Today painted (re-read on the way back), ``reps`` times."""
    from tokdrill.ui.app import STATS
    from tokdrill.ui.screens.home import HomeScreen
    from tokdrill.ui.screens.stats import StatsScreen

    reps: int = args["reps"]
    app = _app()
    found: dict[str, list[float]] = {"stats": [], "today": []}
    async with app.run_test(size=SIZE) as pilot:
        clock = PaintClock(app)
        await _settle(pilot)
        for rep in range(reps + 1):
            kept = app.get_screen(STATS) if app.is_screen_installed(STATS) else None
            stats_before = kept.stats if isinstance(kept, StatsScreen) else None
            stats_taken = await clock.measure(
                lambda: pilot.press("f4"),
                lambda: (
                    isinstance(app.screen, StatsScreen)
                    and app.screen.stats is not None
                    and app.screen.stats is not stats_before  # noqa: B023 - awaited at once
                ),
            )
            await _settle(pilot, 0.05)
            home = app.screen_stack[0]
            assert isinstance(home, HomeScreen)
            before = home.today
            today_taken = await clock.measure(
                lambda: pilot.press("f2"),
                lambda: app.screen is home and home.today is not before,  # noqa: B023 - awaited at once
            )
            await _settle(pilot, 0.05)
            if rep:
                found["stats"].append(_ms(stats_taken))
                found["today"].append(_ms(today_taken))
    return found


async def typing(args: dict[str, Any]) -> dict[str, Any]:
    """One keystroke at the end of a ``lines``-line retype buffer to the accuracy line painted."""
    from tokdrill.ui.retype import RetypeTracker
    from tokdrill.ui.screens.drill import DrillScreen
    from tokdrill.ui.typing_meter import TypingMeter

    reps: int = args["reps"]
    lines: int = args["lines"]
    app = _app()
    reference = _long_reference(app.backend, lines + 60)
    split = reference.split("\n")
    buffer, rest = "\n".join(split[:lines]), "\n" + "\n".join(split[lines:])
    samples: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        clock = PaintClock(app)
        app.backend.discard_draft(TYPING_DRILL, "retype")
        app.start_drill(TYPING_DRILL, "retype")
        await _settle(pilot)
        screen = app.screen
        assert isinstance(screen, DrillScreen)
        screen.tracker = RetypeTracker(reference)  # a reference as long as the buffer, and longer
        screen.meter = TypingMeter(reference)
        screen.editor.load_text(buffer)
        screen.editor.move_cursor(screen.editor.document.end)
        await _read(pilot, app)
        for rep in range(reps + 1):
            ch = rest[rep % len(rest)]
            key = {"\n": "enter", " ": "space"}.get(ch, ch)
            if not (key in ("enter", "space") or (len(key) == 1 and key.isalnum())):
                key = "x"  # a wrong key now and then: the divergence path is measured too
            before = screen.last_progress
            taken = await clock.measure(lambda: pilot.press(key), lambda: screen.last_progress is not before)  # noqa: B023
            if rep:
                samples.append(_ms(taken))
        app.action_today()
        await _settle(pilot)
    return {"samples": samples}


def _long_reference(backend: Any, lines: int) -> str:
    """At least ``lines`` lines of real reference code (every drill's, repeated)."""
    blocks = [backend.reference(d) for d in backend.library.drills.values()]
    text = ""
    while text.count("\n") < lines:
        text += "\n\n".join(blocks) + "\n\n"
    return text


async def minimal(args: dict[str, Any]) -> dict[str, Any]:
    """The baseline: a minimal Textual app whose key binding updates one label."""
    from textual.app import App, ComposeResult
    from textual.binding import BindingType
    from textual.widgets import Footer, Static

    class Minimal(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [("x", "bump", "Bump")]
        count = 0

        def compose(self) -> ComposeResult:
            yield Static("0", id="label")
            yield Footer()

        def action_bump(self) -> None:
            self.count += 1
            self.query_one("#label", Static).update(str(self.count))

    reps: int = args["reps"]
    app = Minimal()
    samples: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        clock = PaintClock(app)
        await _settle(pilot)
        for rep in range(reps + 1):
            before = app.count
            taken = await clock.measure(lambda: pilot.press("x"), lambda: app.count > before)  # noqa: B023 - awaited at once
            await _settle(pilot, 0.01)
            if rep:
                samples.append(_ms(taken))
    return {"samples": samples}


PROBES: dict[str, Probe] = {
    "verdict": verdict,
    "review": review,
    "browse": browse,
    "screens": screens,
    "typing": typing,
    "minimal": minimal,
}


async def run_probe(probe: Probe, args: dict[str, Any]) -> dict[str, Any]:
    return await probe(args)


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2 or argv[0] not in PROBES:
        print(f"usage: python -m tokdrill.bench.probes {{{','.join(PROBES)}}} JSON", file=sys.stderr)
        return 2
    result: dict[str, Any] = asyncio.run(run_probe(PROBES[argv[0]], json.loads(argv[1])))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
