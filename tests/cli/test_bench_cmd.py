"""`tokdrill bench`: groups by name, the growth section as a table (or in the JSON document), the page."""

from __future__ import annotations

import json

import pytest

from tokdrill.bench import run as bench_run
from tokdrill.bench.figures import Figure
from tokdrill.bench.growth import GrowthRow
from tokdrill.cli import main

FIGURE = Figure("F4 to Stats painted", 120.0, "ms", "<= 150 ms", True, 90.0, "the same over an empty store")
ROW = GrowthRow("F4 to Stats painted", "attempts + reviews", [1_000, 10_000, 100_000], [80.0, 90.0, 120.0])


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    calls: list[tuple[str, object]] = []

    def groups(names: list[str], quick: bool) -> tuple[list[Figure], list[str]]:
        calls.append(("groups", (list(names), quick)))
        return [FIGURE], []

    def growth(quick: bool) -> tuple[list[GrowthRow], list[str]]:
        calls.append(("growth", quick))
        return [ROW], []

    monkeypatch.setattr(bench_run, "run_groups", groups)
    monkeypatch.setattr(bench_run, "run_growth", growth)
    return calls


def test_growth_prints_the_table_and_the_growth_section(
    measured: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--quick", "--only", "interactions", "--growth"]) == 0
    out = capsys.readouterr().out
    assert measured == [("groups", (["interactions"], True)), ("growth", True)]
    assert any(line.startswith("F4 to Stats painted ") and " 120 ms " in line for line in out.splitlines())
    assert "2 of 2 figures meet their goal" in out  # with the run's own wall time
    assert "tokdrill bench --quick --growth wall time (some groups)" in out
    assert "1 of 1 figures grow at most linearly" in out
    assert out.index("figures meet their goal") < out.index("exponent")


def test_json_carries_the_growth_rows_only_when_asked(
    measured: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--json", "--growth", "--only", "store"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [f["name"] for f in document["figures"]] == [
        "F4 to Stats painted",
        "tokdrill bench --growth wall time (some groups)",
    ]
    assert document["growth"][0]["exponent"] == pytest.approx(ROW.exponent, abs=1e-3)
    assert main(["bench", "--json", "--only", "store"]) == 0
    assert "growth" not in json.loads(capsys.readouterr().out)


def test_markdown_prints_the_benchmark_page_naming_the_command(
    measured: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "--markdown", "--quick", "--only", "ui", "--growth"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("# Benchmarks\n")
    assert "from one run of `tokdrill bench --quick --only ui --growth`" in page
    assert "| F4 to Stats painted | 120 ms | 90 ms (the same over an empty store) | 1.33x | <= 150 ms | yes |" in page
    assert "## Growth" in page


def test_an_unknown_group_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "nonsense"]) == 2
    assert "unknown group nonsense" in capsys.readouterr().err


def test_the_wall_time_has_a_goal_only_for_a_quick_run_of_every_group_with_growth() -> None:
    judged = bench_run.wall_figure(601.0, quick=True, growth=True, every_group=True)
    assert (judged.name, judged.goal, judged.met) == ("tokdrill bench --quick --growth wall time", "<= 600 s", False)
    assert bench_run.wall_figure(599.0, quick=True, growth=True, every_group=True).met
    for quick, growth, every in [(False, True, True), (True, False, True), (True, True, False)]:
        other = bench_run.wall_figure(5000.0, quick, growth, every)
        assert (other.goal, other.met) == ("information", True)
    assert bench_run.wall_figure(1.0, False, False, True).name == "tokdrill bench wall time"
