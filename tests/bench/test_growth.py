"""The growth fit and its table: exponents of made-up curves, super-linear rows named, the chart."""

from __future__ import annotations

import importlib
import math

import pytest

from tokdrill.bench import growth
from tokdrill.bench.growth import GrowthRow, fitted_exponent, render_growth

SIZES = [1_000, 10_000, 100_000]


@pytest.mark.parametrize("power", [0.0, 0.5, 1.0, 2.0])
def test_the_fit_recovers_the_power_of_a_pure_power_law(power: float) -> None:
    values = [3.0 * n**power for n in SIZES]
    assert fitted_exponent(SIZES, values) == pytest.approx(power)


def test_a_constant_floor_pulls_the_exponent_below_the_marginal_growth() -> None:
    values = [20.0 + 1e-4 * n for n in SIZES]  # 20 ms floor + linear part
    assert 0 < fitted_exponent(SIZES, values) < 1


def test_the_fit_is_least_squares_over_noisy_points() -> None:
    values = [1.0, 12.0, 95.0]
    xs, ys = [math.log(s) for s in SIZES], [math.log(v) for v in values]
    slope = (ys[2] - ys[0]) / (xs[2] - xs[0])  # equally spaced x: the end points decide the slope
    assert fitted_exponent(SIZES, values) == pytest.approx(slope)


@pytest.mark.parametrize(
    ("sizes", "values"),
    [([1], [1.0]), ([1, 2], [1.0]), ([0, 10], [1.0, 2.0]), ([1, 10], [0.0, 2.0]), ([5, 5], [1.0, 2.0])],
)
def test_the_fit_refuses_what_it_cannot_fit(sizes: list[int], values: list[float]) -> None:
    with pytest.raises(ValueError):
        fitted_exponent(sizes, values)


def test_rows_worse_than_linear_are_named_under_the_table() -> None:
    rows = [
        GrowthRow("flat figure", "cards", SIZES, [5.0, 5.5, 6.0]),
        GrowthRow("quadratic figure", "attempts + reviews", SIZES, [1.0, 100.0, 10_000.0]),
    ]
    text = render_growth(rows)
    header, rule, flat, quadratic = text.splitlines()[:4]
    assert header.split() == ["figure", "data", "p50", "at", "1x", "p50", "at", "10x", "p50", "at", "100x", "exponent"]
    assert set(rule) <= {"-", " "}
    assert flat.startswith("flat figure") and flat.endswith("0.04")
    assert quadratic.startswith("quadratic figure") and quadratic.endswith("2.00")
    assert "1 of 2 figures grow at most linearly" in text
    assert "SUPER-LINEAR: quadratic figure (exponent 2.00)" in text
    assert "SUPER-LINEAR: flat" not in text
    assert rows[1].to_json() == {
        "name": "quadratic figure",
        "data": "attempts + reviews",
        "sizes": SIZES,
        "p50_ms": [1.0, 100.0, 10000.0],
        "exponent": 2.0,
        "super_linear": True,
    }


def test_the_chart_draws_each_row_with_its_letter_when_plotext_is_installed() -> None:
    pytest.importorskip("plotext")
    rows = [GrowthRow("one", "cards", SIZES, [1.0, 2.0, 4.0]), GrowthRow("two", "cards", SIZES, [3.0, 30.0, 300.0])]
    chart = growth.growth_chart(rows)
    assert "a: one" in chart and "b: two" in chart
    assert "\x1b[" not in chart  # plain text: fit for a file or the README
    assert chart in render_growth(rows)


def test_without_plotext_the_table_comes_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def no_plotext(name: str, package: str | None = None) -> object:
        if name == "plotext":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_plotext)
    rows = [GrowthRow("one", "cards", SIZES, [1.0, 2.0, 4.0])]
    assert growth.growth_chart(rows) == ""
    assert render_growth(rows).splitlines()[-1] == "1 of 1 figures grow at most linearly (exponent <= 1.1)"
