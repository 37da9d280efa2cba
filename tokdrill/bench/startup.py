"""Start-up cost of the command line: `tokdrill --help` against a bare interpreter."""

from __future__ import annotations

from tokdrill.bench.figures import PYTHON, Figure, median, time_command

HELP_GOAL_RATIO = 3.0


def figures(quick: bool) -> list[Figure]:
    """`tokdrill --help` wall time, baseline `python -c pass`, goal <= 3x."""
    repeat = 5 if quick else 15
    bare = median(time_command([PYTHON, "-c", "pass"], repeat))
    helped = median(time_command([PYTHON, "-m", "tokdrill", "--help"], repeat))
    ratio = helped / bare
    return [
        Figure(
            name="tokdrill --help wall time",
            value=helped * 1000,
            unit="ms",
            baseline=bare * 1000,
            baseline_name="python -c pass",
            goal=f"<= {HELP_GOAL_RATIO:g}x",
            met=ratio <= HELP_GOAL_RATIO,
        )
    ]
