"""Drills are rated without self-grading: the verdict and the active time pick the FSRS rating.

Rules (``t`` = active seconds, ``T`` = the drill's target seconds):

* failed                          -> Again
* passed and t > T                -> Hard   (over target)
* passed and 3/5 T < t <= T       -> Good   (within target; exactly T is Good)
* passed and t <= 3/5 T           -> Easy   (at or under 60 % of target; exactly 0.6 T is Easy)

Comparisons are exact (``Fraction``), so the thresholds hold at their boundaries.
"""

from __future__ import annotations

from fractions import Fraction

from fsrs import Rating

EASY_FRACTION = Fraction(3, 5)
"""A pass at or under this share of the target time is rated Easy."""


def drill_rating(passed: bool, active_seconds: float, target_seconds: int) -> Rating:
    """The FSRS rating of one drill attempt (see the module docstring for the thresholds)."""
    if target_seconds <= 0:
        raise ValueError(f"target_seconds must be positive, got {target_seconds}")
    if not passed:
        return Rating.Again
    spent = Fraction(active_seconds)
    if spent > target_seconds:
        return Rating.Hard
    if spent <= EASY_FRACTION * target_seconds:
        return Rating.Easy
    return Rating.Good
