"""The benchmark page (docs/benchmarks.md) as Markdown, from the JSON document of a run.

``tokdrill bench --growth --markdown > docs/benchmarks.md`` writes the page from a full run; it is
:func:`render_markdown` over the same document ``--json`` prints, so a saved document gives the
same page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tokdrill.bench.growth import SUPER_LINEAR
from tokdrill.bench.run import value_text

HOW_TO_READ = """\
`tokdrill bench` measures every figure beside a baseline taken in the same run (medians or
percentiles after a warm-up). Absolute times follow the machine and its load, so the ratios are
what to compare between runs. The interaction figures drive the real app headless and time, on
the app's own message loop, from the key press to the first frame painted with the result (the
frame rendered to terminal text as a terminal would get it). A warm verdict is a drill's hidden
tests run on the submission plus the sandbox's own cost; the overhead figures time the same tests
in a plain fork, in turn with the verdicts, so both drift alike with the machine's speed. Grading
figures are given for root and for an ordinary account, on the user-namespace path and on the
Landlock path (the one taken where user namespaces are refused), side by side. The growth table
times each interaction figure at 1x, 10x and 100x of its data; the exponent is the slope of log
time against log size (1 is linear)."""


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return lines


def _figure_row(figure: Mapping[str, Any]) -> list[str]:
    unit = str(figure.get("unit", ""))
    baseline = figure.get("baseline")
    name = str(figure.get("baseline_name", ""))
    if baseline is None:
        baseline_text = name or "-"
    else:
        baseline_text = f"{value_text(float(baseline), unit)} ({name})"
    ratio = figure.get("ratio")
    value = figure.get("value")
    return [
        str(figure["name"]),
        value_text(None if value is None else float(value), unit),
        baseline_text,
        "-" if ratio is None else f"{float(ratio):.2f}x",
        str(figure["goal"]),
        "yes" if figure["met"] else "**no**",
    ]


def _growth_row(row: Mapping[str, Any]) -> list[str]:
    cells = [f"{value:.3g} ms @ {size:,}" for size, value in zip(row["sizes"], row["p50_ms"])]
    return [str(row["name"]), str(row["data"]), *cells, f"{float(row['exponent']):.2f}"]


def render_markdown(document: Mapping[str, Any], source: str) -> str:
    """The page for one run: how to read it, every figure, the growth rows (when measured) and
    any benchmark that failed. ``source`` says (in Markdown) which run measured it."""
    figures: list[Mapping[str, Any]] = list(document.get("figures", []))
    met = sum(1 for figure in figures if figure["met"])
    lines = [
        "# Benchmarks",
        "",
        f"Written by `tokdrill bench --markdown` from {source}. Measure again and replace the page",
        "with `tokdrill bench --growth --markdown > docs/benchmarks.md`.",
        "",
        HOW_TO_READ,
        "",
        "## Figures",
        "",
        f"{met} of {len(figures)} figures meet their goal.",
        "",
        *_table(["figure", "value", "baseline (same run)", "ratio", "goal", "met"], [_figure_row(f) for f in figures]),
    ]
    growth: list[Mapping[str, Any]] | None = document.get("growth")
    if growth:
        steps = max(len(row["sizes"]) for row in growth)
        first = growth[0]["sizes"]
        scale = [f"p50 at {round(first[i] / first[0])}x" if first[0] else f"p50 at size {i + 1}" for i in range(steps)]
        linear = sum(1 for row in growth if not row["super_linear"])
        lines += [
            "",
            "## Growth",
            "",
            f"{linear} of {len(growth)} figures grow at most linearly (exponent <= {SUPER_LINEAR:g}).",
            "",
            *_table(["figure", "data", *scale, "exponent"], [_growth_row(row) for row in growth]),
        ]
    errors = [str(error) for error in document.get("errors", [])]
    if errors:
        lines += ["", "## Benchmarks that failed", "", *[f"- {_cell(error)}" for error in errors]]
    return "\n".join(lines) + "\n"
