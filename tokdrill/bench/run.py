"""Run every benchmark group and render the figures as a table or one JSON document."""

from __future__ import annotations

import importlib
import json
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from tokdrill.bench.figures import Figure
from tokdrill.bench.growth import GrowthRow

# group name -> module exposing figures(quick: bool) -> list[Figure]
GROUPS: dict[str, str] = {
    "startup": "tokdrill.bench.startup",
    "content": "tokdrill.bench.content",
    "grading": "tokdrill.bench.grading",
    "store": "tokdrill.bench.store",
    "ui": "tokdrill.bench.ui",
    "interactions": "tokdrill.bench.interactions",
    "playground": "tokdrill.bench.playground",
}


def run_groups(names: Sequence[str], quick: bool, log: TextIO = sys.stderr) -> tuple[list[Figure], list[str]]:
    """Measure the named groups in order; a group that crashes is reported, not fatal."""
    figures: list[Figure] = []
    problems: list[str] = []
    for name in names:
        started = time.perf_counter()
        print(f"bench: {name} ...", file=log, flush=True)
        try:
            module = importlib.import_module(GROUPS[name])
            figures.extend(module.figures(quick))
        except Exception as exc:  # noqa: BLE001 - a broken benchmark must not hide the others' figures
            problems.append(f"{name}: {type(exc).__name__}: {exc}")
        print(f"bench: {name} done in {time.perf_counter() - started:.1f} s", file=log, flush=True)
    return figures, problems


def run_growth(quick: bool, log: TextIO = sys.stderr) -> tuple[list[GrowthRow], list[str]]:
    """The interaction figures at 1x, 10x and 100x of their data (the app's screens, then the
    Playground's paste); a part that crashes is reported, not fatal."""
    from tokdrill.bench import interactions, playground

    started = time.perf_counter()
    print("bench: growth ...", file=log, flush=True)
    rows: list[GrowthRow] = []
    problems: list[str] = []
    for part in (interactions, playground):
        try:
            rows += part.growth(quick)
        except Exception as exc:  # noqa: BLE001 - the figures measured before must still be shown
            problems.append(f"growth: {type(exc).__name__}: {exc}")
    print(f"bench: growth done in {time.perf_counter() - started:.1f} s", file=log, flush=True)
    return rows, problems


QUICK_GROWTH_GOAL_SECONDS = 600.0  # `tokdrill bench --quick --growth`, every group


def wall_figure(seconds: float, quick: bool, growth: bool, every_group: bool) -> Figure:
    """How long this run of the benchmark took; a goal only for a quick run of every group with
    growth (the run a change is checked with), information otherwise."""
    flags = " ".join(flag for flag, on in (("--quick", quick), ("--growth", growth)) if on)
    judged = quick and growth and every_group
    return Figure(
        name=f"tokdrill bench {flags} wall time{'' if every_group else ' (some groups)'}".replace("  ", " "),
        value=seconds,
        unit="s",
        goal=f"<= {QUICK_GROWTH_GOAL_SECONDS:g} s" if judged else "information",
        met=seconds <= QUICK_GROWTH_GOAL_SECONDS if judged else True,
    )


def value_text(value: float | None, unit: str = "") -> str:
    """A measured value as the tables show it: three significant digits, whole from 100 up."""
    if value is None:
        return "-"
    text = f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"
    return f"{text} {unit}".strip()


def render_table(figures: Sequence[Figure], problems: Sequence[str]) -> str:
    """A fixed-width table: figure, value, baseline, ratio, goal, met."""
    header = ("figure", "value", "baseline", "ratio", "goal", "met")
    rows = [header]
    for f in figures:
        baseline = "-" if f.baseline is None else f"{value_text(f.baseline, f.unit)} ({f.baseline_name})"
        ratio = "-" if f.ratio is None else f"{f.ratio:.2f}x"
        rows.append((f.name, value_text(f.value, f.unit), baseline, ratio, f.goal, "yes" if f.met else "NO"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    missed = [f.name for f in figures if not f.met]
    lines.append("")
    lines.append(f"{len(figures) - len(missed)} of {len(figures)} figures meet their goal")
    lines.extend(f"MISSED: {name}" for name in missed)
    lines.extend(f"BENCH ERROR: {p}" for p in problems)
    return "\n".join(lines)


def render_json(figures: Sequence[Figure], problems: Sequence[str], growth: Sequence[GrowthRow] | None = None) -> str:
    """One JSON document: figures list plus any benchmark errors (and the growth rows, if measured)."""
    document: dict[str, object] = {"figures": [f.to_json() for f in figures], "errors": list(problems)}
    if growth is not None:
        document["growth"] = [row.to_json() for row in growth]
    return json.dumps(document, indent=2)
