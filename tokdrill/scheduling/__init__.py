"""Scheduling with FSRS: what is due, drill ratings from verdicts, readiness by the interview.

No Textual here. The UI's entry point is :class:`Planner` (one per store and clock).
"""

from typing import Any

from tokdrill.scheduling.catalog import Catalog, catalog_from_library
from tokdrill.scheduling.days import Calendar, calendar_for
from tokdrill.scheduling.planner import AttemptOutcome, DueItem, DueQueue, Planner, ReviewOutcome
from tokdrill.scheduling.ratings import drill_rating
from tokdrill.scheduling.readiness import FINAL_WINDOW_DAYS, READINESS_EXPLANATION, ItemReadiness, Readiness

__all__ = [
    "EASY_FRACTION",
    "FINAL_WINDOW_DAYS",
    "READINESS_EXPLANATION",
    "AttemptOutcome",
    "Calendar",
    "Catalog",
    "DueItem",
    "DueQueue",
    "ItemReadiness",
    "Planner",
    "Readiness",
    "ReviewOutcome",
    "calendar_for",
    "catalog_from_library",
    "drill_rating",
]


def __getattr__(name: str) -> Any:
    if name == "EASY_FRACTION":  # built on first use (see tokdrill.scheduling.ratings)
        from tokdrill.scheduling import ratings

        return ratings.EASY_FRACTION
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
