"""Drill ratings from verdict and time, at the exact thresholds."""

from __future__ import annotations

import pytest
from fsrs import Rating

from tokdrill.scheduling.ratings import EASY_FRACTION, drill_rating


@pytest.mark.parametrize(
    ("passed", "seconds", "target", "expected"),
    [
        (False, 10.0, 600, Rating.Again),  # fast but failed
        (False, 9999.0, 600, Rating.Again),
        (True, 600.0001, 600, Rating.Hard),  # just over target
        (True, 601.0, 600, Rating.Hard),
        (True, 600.0, 600, Rating.Good),  # exactly the target is within it
        (True, 360.0001, 600, Rating.Good),  # just above 60 %
        (True, 360.0, 600, Rating.Easy),  # exactly 60 % of target
        (True, 359.9, 600, Rating.Easy),
        (True, 0.0, 600, Rating.Easy),
        (True, 0.6 * 900, 900, Rating.Easy),  # float arithmetic at the boundary
        (True, 540.0000001, 900, Rating.Good),
    ],
)
def test_rating_thresholds(passed: bool, seconds: float, target: int, expected: Rating) -> None:
    assert drill_rating(passed, seconds, target) == expected


def test_easy_threshold_is_sixty_percent() -> None:
    assert float(EASY_FRACTION) == 0.6


def test_non_positive_target_is_an_error() -> None:
    with pytest.raises(ValueError, match="target_seconds"):
        drill_rating(True, 10.0, 0)
