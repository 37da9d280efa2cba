"""The interaction figures: every figure computed from the probes' samples and reported with its
goal and baseline; the growth rows; and the real probes, a few repetitions each."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tokdrill.bench import interactions
from tokdrill.bench.interactions import Reps, Workspace
from tokdrill.bench.run import render_json, render_table

DRILLS = ["bytes-to-unicode", "bpe-full"]


class FakeWorkspace(Workspace):
    """Answers every probe with made-up samples (milliseconds scaled by the data's size)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.calls: list[tuple[str, dict[str, Any], str, str | None]] = []

    def home(self, rows: int = 0) -> Path:
        return self.root / f"home-{rows}"

    def content(self, cards: int) -> Path:
        return self.root / f"content-{cards}"

    def probe(self, name: str, args: dict[str, Any], home: Path, content: Path | None = None) -> dict[str, Any]:
        self.calls.append((name, args, home.name, None if content is None else content.name))
        size = int((content or home).name.split("-")[1])
        grow = 1 + size / 100_000
        samples = [float(i + 1) * grow for i in range(args.get("reps", 10))]
        if name == "verdict":
            row = {"pass": samples, "fail": [2 * s for s in samples], "grade_pass": samples, "grade_fail": samples}
            return dict.fromkeys(args["drills"], row)
        if name == "screens":
            return {"stats": [100 * grow] * 3, "today": [40.0 * grow] * 3}
        if name == "typing":
            return {"samples": [s * args["lines"] / 300 for s in samples]}
        return {"samples": samples, "rows": 10}

    def launches(self, homes: dict[str, Path], repeat: int) -> dict[str, list[float]]:
        return {name: [500.0 + int(home.name.split("-")[1]) / 1000] * repeat for name, home in homes.items()}


def test_every_interaction_figure_is_computed_and_reported(tmp_path: Path) -> None:
    ws = FakeWorkspace(tmp_path)
    figures = interactions._figures(ws, Reps.of(quick=True), DRILLS)
    names = [f.name for f in figures]
    for drill in DRILLS:
        for label in ("passing", "failing"):
            assert f"ctrl+s to verdict painted p50, {drill}, {label}" in names
            assert f"ctrl+s to verdict painted p95, {drill}, {label}" in names
            assert f"ctrl+s to verdict painted minus the grader p50, {drill}, {label}" in names
    expected = [
        "review: rating key to next card painted p50",
        "Browse: search keystroke to filtered table painted (1,000 drills + 10,000 cards) p50",
        "F4 to Stats painted (100k attempts + 100k reviews, p50)",
        "F2 to Today painted (100k attempts + 100k reviews, p50)",
        "app launch to first screen (100k attempts + 100k reviews)",
        "retype: keystroke to accuracy line painted (300-line buffer) p95",
    ]
    assert set(expected) <= set(names)
    by_name = {f.name: f for f in figures}
    # goals from the figures, judged on the right percentile, baselines from the same run
    failing = by_name["ctrl+s to verdict painted p50, bpe-full, failing"]
    assert (failing.value, failing.baseline, failing.goal, failing.met) == (4.0, 2.0, "<= 100 ms", True)
    # the app's own share: painted minus graded, submission by submission, against a frame's floor
    own = by_name["ctrl+s to verdict painted minus the grader p50, bpe-full, failing"]
    assert (own.value, own.baseline, own.goal, own.met) == (2.0, 6.0, "<= 16 ms", True)
    own95 = by_name["ctrl+s to verdict painted minus the grader p95, bpe-full, passing"]
    assert (own95.value, own95.goal, own95.met) == (0.0, "<= 33 ms", True)
    typing = by_name["retype: keystroke to accuracy line painted (300-line buffer) p95"]
    assert (typing.goal, typing.met) == ("<= 16 ms", True)
    assert by_name["retype: keystroke to accuracy line painted (300-line buffer) p50"].goal == "information"
    launch = by_name["app launch to first screen (100k attempts + 100k reviews)"]
    assert (launch.value, launch.baseline, launch.goal) == (600.0, 500.0, "<= 1.2x")
    stats = by_name["F4 to Stats painted (100k attempts + 100k reviews, p50)"]
    assert (stats.value, stats.baseline, stats.met) == (200.0, 100.0, False)
    # the data each probe ran against
    homes = {name: (home, content) for name, _args, home, content in ws.calls}
    assert homes["verdict"] == ("home-0", None)
    assert homes["review"] == ("home-100000", None)
    assert homes["browse"] == ("home-0", "content-10000")
    assert {home for name, _a, home, _c in ws.calls if name == "screens"} == {"home-0", "home-100000"}
    # and the table and JSON show every one of them
    table = render_table(figures, [])
    assert all(name in table for name in names)
    assert "MISSED: F4 to Stats painted (100k attempts + 100k reviews, p50)" in table
    document = json.loads(render_json(figures, [], []))
    assert [f["name"] for f in document["figures"]] == names and document["growth"] == []


def test_growth_measures_every_figure_at_three_sizes(tmp_path: Path) -> None:
    ws = FakeWorkspace(tmp_path)
    rows = interactions._growth(ws, Reps.of(quick=True))
    assert [r.name for r in rows] == [
        "ctrl+s to verdict painted, bytes-to-unicode passing",
        "review: rating key to next card painted",
        "Browse: search keystroke to table painted",
        "F4 to Stats painted",
        "F2 to Today painted",
        "app launch to first screen",
        "retype: keystroke to accuracy line painted",
    ]
    by_name = {r.name: r for r in rows}
    assert by_name["F4 to Stats painted"].sizes == [1_000, 10_000, 100_000]
    assert by_name["Browse: search keystroke to table painted"].sizes == [100, 1_000, 10_000]
    typing = by_name["retype: keystroke to accuracy line painted"]
    assert typing.sizes == [30, 300, 3_000]
    assert typing.exponent == pytest.approx(1.0)  # the fake's samples grow linearly with the buffer
    assert not any(r.super_linear for r in rows)
    assert json.loads(render_json([], [], rows))["growth"][0]["sizes"] == [1_000, 10_000, 100_000]


def test_the_real_probes_measure_the_app(tmp_path: Path) -> None:
    """A few repetitions of the cheap probes through the real app, over a store of 200 rows."""
    with interactions.workspace() as ws:
        home = ws.home(200)
        assert (home / "progress.sqlite3").exists()
        minimal = ws.probe("minimal", {"reps": 2}, home)["samples"]
        typing = ws.probe("typing", {"reps": 3, "lines": 30}, home)["samples"]
        screens = ws.probe("screens", {"reps": 1}, home)
        review = ws.probe("review", {"reps": 2}, home)["samples"]
        content = ws.content(20)
        assert len(list((content / "questions").iterdir())) == 1
        browse = ws.probe("browse", {"reps": 2}, ws.home(), content)
    for samples in (minimal, typing, screens["stats"], screens["today"], review, browse["samples"]):
        assert samples and all(0 < s < 60_000 for s in samples)
    assert (len(minimal), len(typing), len(review)) == (2, 3, 2)
    assert browse["rows"] > 20  # the shipped items and the generated ones
    assert not ws.root.exists()  # the generated data is removed


def test_the_verdict_probe_grades_reference_and_starter_of_a_drill() -> None:
    with interactions.workspace() as ws:
        found = ws.probe("verdict", {"drills": ["bytes-to-unicode"], "reps": 1}, ws.home())
    row = found["bytes-to-unicode"]
    assert {k: len(v) for k, v in row.items()} == {"pass": 1, "fail": 1, "grade_pass": 1, "grade_fail": 1}
    assert row["pass"][0] >= row["grade_pass"][0]  # painting comes after the grader's answer
