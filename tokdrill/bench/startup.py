"""Start-up cost of the command line: `tokdrill --help` against a bare interpreter."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from tokdrill.bench.figures import PYTHON, Figure, command_env, interleaved

HELP_GOAL_RATIO = 3.0


def figures(quick: bool) -> list[Figure]:
    """`tokdrill --help` wall time, baseline `python -c pass` run in turns with it, goal <= 3x."""
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-bench-startup-"))
    try:
        walls = interleaved(
            {"bare": [PYTHON, "-c", "pass"], "help": [PYTHON, "-m", "tokdrill", "--help"]},
            repeat=5 if quick else 15,
            env=command_env(folder / "pycache"),
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    bare, helped = walls["bare"], walls["help"]
    return [
        Figure(
            name="tokdrill --help wall time",
            value=helped * 1000,
            unit="ms",
            baseline=bare * 1000,
            baseline_name="python -c pass",
            goal=f"<= {HELP_GOAL_RATIO:g}x",
            met=helped / bare <= HELP_GOAL_RATIO,
        )
    ]
