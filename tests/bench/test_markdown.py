"""The benchmark page: every figure of a run's JSON document in a Markdown table, the misses marked."""

from __future__ import annotations

import json

from tokdrill.bench.figures import Figure
from tokdrill.bench.growth import GrowthRow
from tokdrill.bench.markdown import render_markdown
from tokdrill.bench.run import render_json

FIGURES = [
    Figure("F4 to Stats painted", 0.120, "s", "<= 150 ms", True, 0.090, "the same over an empty store"),
    Figure("peak memory | after opening a drill", 152.0, "MB", "<= 1.5x", False, 100.0, "a minimal app"),
    Figure("grading: warm verdict p50", 0.031, "s", "<= 50 ms", True),
]
ROWS = [
    GrowthRow("F2 to Today painted", "attempts + reviews", [1_000, 10_000, 100_000], [36.4, 26.9, 25.5]),
    GrowthRow("Browse: search", "cards", [100, 1_000, 10_000], [1.0, 10.0, 100.0 * 10]),
]


def _page(growth: list[GrowthRow] | None = None, problems: tuple[str, ...] = ()) -> str:
    return render_markdown(json.loads(render_json(FIGURES, list(problems), growth)), "one run of `tokdrill bench`")


def test_every_figure_is_a_row_with_its_baseline_ratio_and_goal() -> None:
    page = _page()
    assert page.startswith("# Benchmarks\n") and "from one run of `tokdrill bench`" in page
    assert "2 of 3 figures meet their goal." in page
    assert "| F4 to Stats painted | 0.12 s | 0.09 s (the same over an empty store) | 1.33x | <= 150 ms | yes |" in page
    assert (
        "| peak memory \\| after opening a drill | 152 MB | 100 MB (a minimal app) | 1.52x | <= 1.5x | **no** |" in page
    )
    assert "| grading: warm verdict p50 | 0.031 s | - | - | <= 50 ms | yes |" in page
    assert "## Growth" not in page and "failed" not in page


def test_growth_rows_and_failed_benchmarks_get_their_sections() -> None:
    page = _page(ROWS, ("grading: OSError: no sandbox",))
    assert "1 of 2 figures grow at most linearly (exponent <= 1.1)." in page
    assert "| p50 at 1x | p50 at 10x | p50 at 100x | exponent |" in page
    assert (
        "| F2 to Today painted | attempts + reviews | 36.4 ms @ 1,000 | 26.9 ms @ 10,000 | 25.5 ms @ 100,000 |" in page
    )
    assert page.endswith("## Benchmarks that failed\n\n- grading: OSError: no sandbox\n")
