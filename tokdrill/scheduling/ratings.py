"""Drills are rated without self-grading: the verdict and the active time pick the FSRS rating.

Rules (``t`` = active seconds, ``T`` = the drill's target seconds):

* failed                          -> Again
* passed and t > T                -> Hard   (over target)
* passed and 3/5 T < t <= T       -> Good   (within target; exactly T is Good)
* passed and t <= 3/5 T           -> Easy   (at or under 60 % of target; exactly 0.6 T is Easy)

Comparisons are exact (integer arithmetic on the float's exact ratio), so the thresholds hold at
their boundaries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fsrs import Rating

if TYPE_CHECKING:
    from fractions import Fraction

    EASY_FRACTION: Fraction

EASY_NUMERATOR, EASY_DENOMINATOR = 3, 5
"""A pass at or under this share (3/5) of the target time is rated Easy."""


def __getattr__(name: str) -> Any:
    # EASY_FRACTION as a Fraction, built on first use: importing `fractions` (and `decimal`) costs
    # more than `tokdrill stats` should pay for a constant it never reads.
    if name == "EASY_FRACTION":
        from fractions import Fraction

        return Fraction(EASY_NUMERATOR, EASY_DENOMINATOR)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def drill_rating(passed: bool, active_seconds: float, target_seconds: int) -> Rating:
    """The FSRS rating of one drill attempt (see the module docstring for the thresholds)."""
    if target_seconds <= 0:
        raise ValueError(f"target_seconds must be positive, got {target_seconds}")
    if not passed:
        return Rating.Again
    num, den = float(active_seconds).as_integer_ratio()  # spent = num / den exactly, den > 0
    if num > target_seconds * den:
        return Rating.Hard
    if num * EASY_DENOMINATOR <= EASY_NUMERATOR * target_seconds * den:
        return Rating.Easy
    return Rating.Good
