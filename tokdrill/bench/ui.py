"""UI figures: time to the first interactive screen, per-keystroke cost, peak memory.

Every measured app runs in a fresh subprocess (``python -m tokdrill.bench.ui PROBE``) that prints
one JSON document; the baseline is a minimal Textual app with one code editor and a footer,
measured the same way in the same run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tokdrill.bench.figures import PYTHON, Figure, command_env, median, percentile
from tokdrill.bench.imports import ImportTime, beyond, parse_importtime, top_imports, total_ms

STARTUP_GOAL_RATIO = 1.1
KEYSTROKE_GOAL_MS = 2.0
MEMORY_GOAL_RATIO = 1.3
TOP_IMPORTS = 8
READY_MARK = "tokdrill-bench: first frame"  # written to stderr when the first frame is up
BUFFER_LINES = 300
DRILL = "bytes-to-unicode"


# ------------------------------------------------------------------------------ parent side
def _probe(name: str, *args: str, pycache: Path, home: str | None = None) -> dict[str, float]:
    """Run one probe in a fresh interpreter (TOKDRILL_HOME = ``home`` or a throwaway folder),
    with bytecode cached in ``pycache`` as an installed wheel has it."""
    own_home = home is None
    home = home or tempfile.mkdtemp(prefix="tokdrill-bench-ui-")
    env = {**command_env(pycache), "TOKDRILL_HOME": home}
    try:
        done = subprocess.run(
            [PYTHON, "-m", "tokdrill.bench.ui", name, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
    finally:
        if own_home:
            shutil.rmtree(home, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"probe {name} failed: {done.stderr.strip()[-800:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _startup_seconds(which: str, home: str) -> float:
    """Wall time from spawning the interpreter to the app's first interactive frame."""
    spawned = time.time()
    ready = _probe("startup", which, home=home, pycache=Path(home) / "pycache")["ready_at"]
    return ready - spawned


def _launch_imports(which: str, home: str) -> list[ImportTime]:
    """The imports of one launch up to its first frame, from ``python -X importtime``."""
    env = {**command_env(Path(home) / "pycache"), "TOKDRILL_HOME": home}
    done = subprocess.run(
        [PYTHON, "-X", "importtime", "-m", "tokdrill.bench.ui", "startup", which],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    if done.returncode != 0 or READY_MARK not in done.stderr:
        raise RuntimeError(f"import probe {which} failed: {done.stderr.strip()[-800:]}")
    before_frame = done.stderr.split(READY_MARK, 1)[0]
    return [i for i in parse_importtime(before_frame) if not i.name.startswith("tokdrill.bench")]


def import_figures(home: str) -> list[Figure]:
    """Import time and module count before the first frame against the minimal app, and the
    imports the minimal app does not make with the largest cumulative times, less the time of the
    modules both import (information: where the launch's own time goes)."""
    ours, minimal = _launch_imports("tokdrill", home), _launch_imports("minimal", home)
    out = [
        Figure(
            name="TUI launch: time importing modules before the first frame (-X importtime)",
            value=total_ms(ours),
            unit="ms",
            baseline=total_ms(minimal),
            baseline_name="minimal Textual app: code editor + footer",
            goal="information",
            met=True,
        ),
        Figure(
            name="TUI launch: modules imported before the first frame",
            value=float(len({i.name for i in ours})),
            unit="",
            baseline=float(len({i.name for i in minimal})),
            baseline_name="minimal Textual app: code editor + footer",
            goal="information",
            met=True,
        ),
    ]
    extra = beyond(ours, {i.name for i in minimal})
    for rank, item in enumerate(top_imports(extra, TOP_IMPORTS), start=1):
        out.append(
            Figure(
                name=f"TUI launch: import {rank} not in the minimal app, {item.name} (cumulative, depth {item.depth})",
                value=item.cumulative_ms,
                unit="ms",
                goal="information",
                met=True,
            )
        )
    return out


def figures(quick: bool) -> list[Figure]:
    """The three UI figures, each against the minimal editor app measured in the same run, then
    where the memory goes and the launch's imports."""
    repeat = 3 if quick else 11
    home = tempfile.mkdtemp(prefix="tokdrill-bench-ui-")
    try:
        return _figures(quick, repeat, home)
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _figures(quick: bool, repeat: int, home: str) -> list[Figure]:
    _startup_seconds("minimal", home)  # warm the file cache; tokdrill creates its database
    _startup_seconds("tokdrill", home)
    minimal, ours = [], []
    for _ in range(repeat):  # interleaved, so that machine noise hits both alike
        minimal.append(_startup_seconds("minimal", home))
        ours.append(_startup_seconds("tokdrill", home))
    start_min, start_ours = median(minimal), median(ours)

    keys = "100" if quick else "600"
    pycache = Path(home) / "pycache"
    handler = _probe("keystroke", "tokdrill", keys, pycache=pycache)
    editor = _probe("keystroke", "minimal", keys, pycache=pycache)

    mem_min = median([_probe("memory", "minimal", pycache=pycache)["peak_kib"] for _ in range(1 if quick else 3)])
    mem_ours = median([_probe("memory", "tokdrill", pycache=pycache)["peak_kib"] for _ in range(1 if quick else 3)])
    mem_today = _probe("memory", "today", pycache=pycache)["peak_kib"]
    mem_again = _probe("memory", "tokdrill", pycache=pycache, home=home)["peak_kib"]  # cache and database kept

    main = [
        Figure(
            name="TUI launch to first interactive screen (headless)",
            value=start_ours * 1000,
            unit="ms",
            baseline=start_min * 1000,
            baseline_name="minimal Textual app: code editor + footer",
            goal=f"<= {STARTUP_GOAL_RATIO:g}x",
            met=start_ours <= STARTUP_GOAL_RATIO * start_min,
        ),
        Figure(
            name=f"drill screen own work per keystroke, retype, {BUFFER_LINES}-line buffer (p95)",
            value=handler["p95_ms"],
            unit="ms",
            baseline=editor["p95_ms"],
            baseline_name="TextArea alone: insert one character (p95)",
            goal=f"<= {KEYSTROKE_GOAL_MS:g} ms",
            met=handler["p95_ms"] <= KEYSTROKE_GOAL_MS,
        ),
        Figure(
            name="peak memory after opening a drill",
            value=mem_ours / 1024,
            unit="MiB",
            baseline=mem_min / 1024,
            baseline_name="minimal Textual app: code editor + footer",
            goal=f"<= {MEMORY_GOAL_RATIO:g}x",
            met=mem_ours <= MEMORY_GOAL_RATIO * mem_min,
        ),
    ]
    return main + memory_parts(mem_min, mem_ours, mem_today, mem_again) + import_figures(home)


def memory_parts(minimal: float, ours: float, today: float, again: float) -> list[Figure]:
    """Where the peak memory goes (information; the arguments in KiB): Today alone, and a drill
    opened by a returning user, whose content cache and database were written by an earlier run
    (the measured figure is a first run's: the content is parsed from YAML, the database created)."""

    def part(name: str, kib: float, baseline_kib: float | None = None) -> Figure:
        return Figure(
            name=f"peak memory: {name}",
            value=kib / 1024,
            unit="MiB",
            baseline=None if baseline_kib is None else baseline_kib / 1024,
            baseline_name="" if baseline_kib is None else "minimal Textual app: code editor + footer",
            goal="information",
            met=True,
        )

    return [
        part("Today's first frame, no drill opened", today, minimal),
        part("opening a drill adds, over Today alone", ours - today),
        part("a drill opened with the content cache and database of an earlier run", again, minimal),
    ]


# ------------------------------------------------------------------------------- child side
def _minimal_app() -> Any:
    from textual.app import App, ComposeResult
    from textual.widgets import Footer, TextArea

    class MinimalEditor(App[None]):
        def compose(self) -> ComposeResult:
            yield TextArea.code_editor("", language="python", id="editor")
            yield Footer()

    return MinimalEditor()


def _tokdrill_app() -> Any:
    from tokdrill.cli import build_parser
    from tokdrill.ui.launch import build_app

    args = build_parser([]).parse_args([])  # the path `tokdrill` with no arguments takes, minus the terminal
    return build_app(args)


def _startup(which: str) -> dict[str, float]:
    """Run the app headless and note the wall time at which its first screen is on display
    (and say so on stderr, where ``-X importtime`` writes)."""
    app = _minimal_app() if which == "minimal" else _tokdrill_app()
    marks: dict[str, float] = {}

    def ready() -> None:  # the first frame is on screen and input is being handled
        marks["ready_at"] = time.time()
        print(READY_MARK, file=sys.stderr, flush=True)
        app.exit()

    app.call_later(lambda: app.call_after_refresh(ready))
    app.run(headless=True, size=(120, 40))
    return marks


def _long_reference() -> str:
    """At least BUFFER_LINES + 50 lines of real reference code (all drills', repeated)."""
    from tokdrill.content import load_library, reference_source

    library = load_library()
    blocks = [reference_source(d.symbols) for d in library.drills.values()]
    text = ""
    while text.count("\n") < BUFFER_LINES + 50:
        text += "\n\n".join(blocks) + "\n\n"
    return text


def _keystroke(which: str, keys: int) -> dict[str, float]:
    """Type ``keys`` characters at the end of a BUFFER_LINES-line buffer and time, per key,
    either the drill screen's own handler (tokdrill) or TextArea.insert alone (minimal)."""
    import asyncio

    reference = _long_reference()
    lines = reference.split("\n")
    buffer = "\n".join(lines[:BUFFER_LINES])
    to_type = "\n" + "\n".join(lines[BUFFER_LINES:])
    samples: list[float] = []

    async def run() -> None:
        if which == "minimal":
            app = _minimal_app()
        else:
            from tokdrill.backend import Backend
            from tokdrill.clock import FixedClock
            from tokdrill.ui.app import TokdrillApp
            from tokdrill.ui.retype import RetypeTracker

            app = TokdrillApp(Backend.open(clock=FixedClock()), cursor_blink=False)
        async with app.run_test(size=(120, 40)) as pilot:
            if which == "minimal":
                editor = app.query_one("#editor")
            else:
                app.start_drill(DRILL, "retype")
                await pilot.pause()
                screen = app.screen
                screen.tracker = RetypeTracker(reference)  # a 300+-line reference to compare with
                editor = screen.editor
            editor.load_text(buffer)
            editor.move_cursor(editor.document.end)
            await pilot.pause()
            for i in range(keys):
                ch = to_type[i % len(to_type)]
                if i % 25 == 24:
                    ch = "#"  # now and then a wrong key, so the divergence path is measured too
                if which == "minimal":
                    started = time.perf_counter()
                    editor.insert(ch)
                    samples.append(time.perf_counter() - started)
                else:
                    editor.insert(ch)
                    started = time.perf_counter()
                    screen.on_edit()  # the handler TextArea.Changed runs on every keystroke
                    samples.append(time.perf_counter() - started)
                if i % 50 == 0:
                    await pilot.pause()

    asyncio.run(run())
    return {"p50_ms": median(samples) * 1000, "p95_ms": percentile(samples, 95) * 1000, "keys": float(keys)}


def _memory(which: str) -> dict[str, float]:
    """Peak resident memory (KiB) once the app shows a drill (tokdrill), Today alone (today) or
    the minimal app its editor (minimal)."""
    import asyncio
    import resource

    async def run() -> None:
        if which == "minimal":
            app = _minimal_app()
        else:
            app = _tokdrill_app()
        async with app.run_test(size=(120, 40)) as pilot:
            if which == "tokdrill":
                app.start_drill(DRILL, "retype")
            await pilot.pause()
            await pilot.pause()

    asyncio.run(run())
    return {"peak_kib": _peak_rss_kib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)}


def _peak_rss_kib(fallback: int) -> float:
    """This process's own peak RSS. Linux's ``ru_maxrss`` survives fork and exec, so a probe
    started by a big benchmark process would report the parent's peak; ``VmHWM`` belongs to the
    process's own address space. Elsewhere fall back to ``ru_maxrss``."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return float(line.split()[1])
    except OSError:
        pass
    return float(fallback)


def main(argv: Sequence[str]) -> int:
    probe, which, *rest = argv
    if probe == "startup":
        result = _startup(which)
    elif probe == "keystroke":
        result = _keystroke(which, int(rest[0]) if rest else 500)
    elif probe == "memory":
        result = _memory(which)
    else:
        print(f"unknown probe {probe!r}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
