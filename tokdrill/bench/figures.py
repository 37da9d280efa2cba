"""The figure type every benchmark returns, and the timing helpers they share."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Figure:
    """One measured figure, its baseline from the same run, and whether it meets its goal.

    ``goal`` is human-readable ("<= 50 ms", "<= 0.5x"); ``met`` is decided by the benchmark.
    ``ratio`` is value / baseline when there is a baseline, else None.
    """

    name: str
    value: float
    unit: str
    goal: str
    met: bool
    baseline: float | None = None
    baseline_name: str = ""

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or self.baseline == 0:
            return None
        return self.value / self.baseline

    def to_json(self) -> dict[str, object]:
        ratio = self.ratio
        return {
            "name": self.name,
            "value": round(self.value, 4),
            "unit": self.unit,
            "baseline": None if self.baseline is None else round(self.baseline, 4),
            "baseline_name": self.baseline_name,
            "ratio": None if ratio is None else round(ratio, 3),
            "goal": self.goal,
            "met": self.met,
        }


def time_call(fn: Callable[[], object], repeat: int, warmup: int = 1) -> list[float]:
    """Wall seconds of ``repeat`` calls of ``fn`` after ``warmup`` unmeasured ones."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def time_command(argv: Sequence[str], repeat: int, warmup: int = 1, env: dict[str, str] | None = None) -> list[float]:
    """Wall seconds of running ``argv`` to completion, ``repeat`` times after ``warmup``."""

    def run() -> None:
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)

    return time_call(run, repeat, warmup)


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def percentile(samples: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100) of ``samples``."""
    ordered = sorted(samples)
    if not ordered:
        raise ValueError("no samples")
    k = max(0, min(len(ordered) - 1, round(pct / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def command_env(pycache: Path) -> dict[str, str]:
    """The environment the command figures run in: no TOKDRILL_HOME / TOKDRILL_CONTENT, and
    bytecode cached in ``pycache`` even when PYTHONDONTWRITEBYTECODE is set (as an installed
    wheel has its .pyc files; recompiling every module on each start is not what users pay)."""
    env = {k: v for k, v in os.environ.items() if k not in ("TOKDRILL_HOME", "TOKDRILL_CONTENT")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def interleaved(commands: dict[str, list[str]], repeat: int, env: dict[str, str]) -> dict[str, float]:
    """Median wall seconds of each command, run in turns (so a noisy neighbour hits all alike)
    after one warm-up round (writes the .pyc files and the content cache)."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(repeat + 1):
        for name, argv in commands.items():
            taken = time_command(argv, repeat=1, warmup=0, env=env)[0]
            if round_:
                samples[name].append(taken)
    return {name: median(values) for name, values in samples.items()}


PYTHON = sys.executable
