"""Known settings, their defaults and validation (values are stored as JSON text).

Keys the store knows are checked on write and on import; keys under ``ui.`` are free-form
JSON values the UI may keep (theme, last screen, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

INTERVIEW_DATE = "interview_date"  # "YYYY-MM-DD" or null
NEW_CARDS_PER_DAY = "new_cards_per_day"
NEW_DRILLS_PER_DAY = "new_drills_per_day"
DAY_OFFSET_MINUTES = "day_offset_minutes"  # local time = UTC + this; null = the machine's offset
DESIRED_RETENTION = "desired_retention"
UI_PREFIX = "ui."

DEFAULTS: dict[str, Any] = {
    INTERVIEW_DATE: None,
    NEW_CARDS_PER_DAY: 10,
    NEW_DRILLS_PER_DAY: 2,
    DAY_OFFSET_MINUTES: None,
    DESIRED_RETENTION: 0.9,
}


def _interview_date(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"expected a date YYYY-MM-DD or null, got {value!r}")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"expected a date YYYY-MM-DD, got {value!r}") from None
    if len(value) != 10:
        raise ValueError(f"expected a date YYYY-MM-DD, got {value!r}")
    return value


def _int_between(low: int, high: int, nullable: bool = False) -> Callable[[Any], Any]:
    def check(value: Any) -> int | None:
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"expected a whole number from {low} to {high}, got {value!r}")
        return value

    return check


def _retention(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.7 <= value <= 0.99:
        raise ValueError(f"expected a number from 0.7 to 0.99, got {value!r}")
    return float(value)


VALIDATORS: dict[str, Callable[[Any], Any]] = {
    INTERVIEW_DATE: _interview_date,
    NEW_CARDS_PER_DAY: _int_between(0, 1000),
    NEW_DRILLS_PER_DAY: _int_between(0, 100),
    DAY_OFFSET_MINUTES: _int_between(-14 * 60, 14 * 60, nullable=True),
    DESIRED_RETENTION: _retention,
}


def validate_setting(key: str, value: Any) -> Any:
    """The normalised value for ``key``; ValueError with a readable reason if it is not allowed."""
    if key in VALIDATORS:
        return VALIDATORS[key](value)
    if key.startswith(UI_PREFIX) and len(key) > len(UI_PREFIX):
        return value
    raise ValueError(f"unknown setting {key!r} (known: {', '.join(sorted(VALIDATORS))}, or ui.*)")
