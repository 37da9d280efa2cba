"""Growth curves: a figure measured at several sizes of its data, the fitted exponent (the slope
of log time against log size, least squares), a table, and a terminal chart when plotext is
installed."""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

SUPER_LINEAR = 1.1  # an exponent above this grows worse than linearly with its data


def fitted_exponent(sizes: Sequence[float], values: Sequence[float]) -> float:
    """Least-squares slope of ``log(value)`` against ``log(size)``: k in value ~ size**k."""
    if len(sizes) != len(values) or len(sizes) < 2:
        raise ValueError("need two or more (size, value) pairs")
    if min(sizes) <= 0 or min(values) <= 0:
        raise ValueError("sizes and values must be positive")
    xs = [math.log(s) for s in sizes]
    ys = [math.log(v) for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    if spread == 0:
        raise ValueError("sizes must differ")
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / spread


@dataclass(frozen=True)
class GrowthRow:
    """One figure (p50, milliseconds) at each size of its data."""

    name: str
    data: str  # what the sizes count
    sizes: Sequence[int]
    values: Sequence[float]

    @property
    def exponent(self) -> float:
        return fitted_exponent(self.sizes, self.values)

    @property
    def super_linear(self) -> bool:
        return self.exponent > SUPER_LINEAR

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "data": self.data,
            "sizes": list(self.sizes),
            "p50_ms": [round(v, 3) for v in self.values],
            "exponent": round(self.exponent, 3),
            "super_linear": self.super_linear,
        }


def render_growth(rows: Sequence[GrowthRow]) -> str:
    """A table (figure, data, p50 at 1x / 10x / 100x, exponent), the super-linear rows named
    under it, then a log-log chart of every row (when plotext is installed)."""
    if not rows:
        return "growth: no figures"
    steps = max(len(r.sizes) for r in rows)
    scale = [f"{round(rows[0].sizes[i] / rows[0].sizes[0])}x" if rows[0].sizes[0] else "" for i in range(steps)]
    header = ("figure", "data", *[f"p50 at {s}" for s in scale], "exponent")
    table = [header]
    for r in rows:
        cells = [f"{v:.3g} ms @ {n:,}" for n, v in zip(r.sizes, r.values)]
        table.append((r.name, r.data, *cells, f"{r.exponent:.2f}"))
    widths = [max(len(t[i]) for t in table) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(t, widths)).rstrip() for t in table]
    lines.insert(1, "  ".join("-" * w for w in widths))
    worse = [r for r in rows if r.super_linear]
    lines.append("")
    lines.append(
        f"{len(rows) - len(worse)} of {len(rows)} figures grow at most linearly (exponent <= {SUPER_LINEAR:g})"
    )
    lines.extend(f"SUPER-LINEAR: {r.name} (exponent {r.exponent:.2f})" for r in worse)
    chart = growth_chart(rows)
    if chart:
        lines += ["", chart]
    return "\n".join(lines)


def growth_chart(rows: Sequence[GrowthRow], width: int = 100, height: int = 24) -> str:
    """The rows as a log-log line chart (x: data size relative to 1x, y: p50 ms; each row drawn
    with its own letter), plain text, or "" when plotext is not installed."""
    try:
        plt = importlib.import_module("plotext")
    except ImportError:
        return ""
    plt.clear_figure()
    plt.plotsize(width, height)
    plt.xscale("log")
    plt.yscale("log")
    plt.title("p50 (ms) against data size (1x = smallest), log-log")
    for letter, r in zip("abcdefghijklmnopqrstuvwxyz", rows):
        plt.plot([n / r.sizes[0] for n in r.sizes], list(r.values), label=f"{letter}: {r.name}", marker=letter)
    text: str = plt.uncolorize(plt.build())
    return "\n".join(line.rstrip() for line in text.splitlines())
