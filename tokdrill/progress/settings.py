"""Known settings, their defaults and validation (values are stored as JSON text).

Keys the store knows are checked on write, on import and when read back; keys under ``ui.``
are values the UI may keep (theme, last screen, ...): a string, number, true/false or null,
or a flat list of those.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Final

INTERVIEW_DATE: Final = "interview_date"  # "YYYY-MM-DD" or null
NEW_CARDS_PER_DAY: Final = "new_cards_per_day"
NEW_DRILLS_PER_DAY: Final = "new_drills_per_day"
DESIRED_RETENTION: Final = "desired_retention"
AUTO_INDENT: Final = "auto_indent"  # the drill editor indents new lines by itself
MOCK_MINUTES: Final = "mock_minutes"  # length of a mock interview
TIMEZONE: Final = "timezone"  # IANA name ("Europe/Berlin"), or null for the machine's zone
TOKEN_PRICE: Final = "token_price_per_million"  # the playground's cost line, per million tokens
UI_PREFIX: Final = "ui."
UI_KEY_MAX = 64

JsonScalar = str | int | float | bool | None
SettingValue = JsonScalar | list[JsonScalar]

DEFAULTS: dict[str, SettingValue] = {
    INTERVIEW_DATE: None,
    NEW_CARDS_PER_DAY: 10,
    NEW_DRILLS_PER_DAY: 2,
    DESIRED_RETENTION: 0.9,
    AUTO_INDENT: False,
    MOCK_MINUTES: 45,
    TIMEZONE: None,
    TOKEN_PRICE: None,
}

DESCRIPTIONS: dict[str, str] = {
    INTERVIEW_DATE: "the interview day, YYYY-MM-DD (empty: none set)",
    NEW_CARDS_PER_DAY: "new flashcards introduced per day (0-1000)",
    NEW_DRILLS_PER_DAY: "new drills offered per day (0-100)",
    DESIRED_RETENTION: "chance of remembering an item when it comes due (0.7-0.99)",
    AUTO_INDENT: "the drill editor indents new lines by itself (true/false)",
    MOCK_MINUTES: "length of a mock interview in minutes (10-180)",
    TIMEZONE: "time zone your days are counted in, an IANA name like Europe/Berlin (empty: the machine's)",
    TOKEN_PRICE: "price per million tokens for the playground's cost line, e.g. 2.5 (empty: no cost line)",
}

_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]{1,32}(/[A-Za-z0-9_+\-]{1,32}){0,3}")


def _interview_date(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) != 10:
        raise ValueError(f"expected a date YYYY-MM-DD or null, got {value!r}")
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"expected a date YYYY-MM-DD, got {value!r}") from None
    if not 1970 <= day.year <= 9000:
        raise ValueError(f"expected a year from 1970 to 9000, got {value!r}")
    return value


def _int_between(low: int, high: int) -> Callable[[object], int]:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"expected a whole number from {low} to {high}, got {value!r}")
        return value

    return check


def _retention(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.7 <= value <= 0.99:
        raise ValueError(f"expected a number from 0.7 to 0.99, got {value!r}")
    return float(value)


def _price(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100_000:
        raise ValueError(f"expected a price from 0 to 100000 per million tokens, or null, got {value!r}")
    return float(value)


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _timezone(value: object) -> str | None:
    """An IANA zone name the machine's zone database (or the tzdata package) knows, or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not _ZONE_NAME.fullmatch(value):
        raise ValueError(f"expected an IANA time zone name like Europe/Berlin, or null, got {value!r}")
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"unknown time zone {value!r} (expected an IANA name like Europe/Berlin)") from None
    return value


def _ui_value(value: object) -> SettingValue:
    def scalar(v: object) -> bool:
        if isinstance(v, float):
            return v == v and v not in (float("inf"), float("-inf"))
        return v is None or isinstance(v, (str, int, bool))

    if scalar(value):
        return value  # type: ignore[return-value]  # checked by scalar()
    if isinstance(value, list) and all(scalar(v) for v in value):
        return value
    raise ValueError("expected a string, number, true/false, null, or a flat list of those")


VALIDATORS: dict[str, Callable[[object], SettingValue]] = {
    INTERVIEW_DATE: _interview_date,
    NEW_CARDS_PER_DAY: _int_between(0, 1000),
    NEW_DRILLS_PER_DAY: _int_between(0, 100),
    DESIRED_RETENTION: _retention,
    AUTO_INDENT: _boolean,
    MOCK_MINUTES: _int_between(10, 180),
    TIMEZONE: _timezone,
    TOKEN_PRICE: _price,
}


def validate_setting(key: str, value: object) -> SettingValue:
    """The normalised value for ``key``; ValueError with a readable reason if it is not allowed."""
    if key in VALIDATORS:
        return VALIDATORS[key](value)
    if key.startswith(UI_PREFIX) and len(UI_PREFIX) < len(key) <= UI_KEY_MAX and key.isprintable():
        return _ui_value(value)
    raise ValueError(f"unknown setting {key!r} (known: {', '.join(sorted(VALIDATORS))}, or ui.*)")


def legacy_day_offset(minutes: object) -> str | None:
    """The zone name that replaces an old ``day_offset_minutes`` setting: a whole-hour offset
    becomes the fixed ``Etc/GMT`` zone (whose sign is inverted by POSIX convention); anything
    else, None (the machine's zone)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes % 60 or not -12 * 60 <= minutes <= 14 * 60:
        return None
    hours = minutes // 60
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{-hours:+d}"


_NULL_WORDS = ("", "none", "null")
_TRUE_WORDS = ("true", "on", "yes")
_FALSE_WORDS = ("false", "off", "no")


def setting_from_text(key: str, text: str) -> SettingValue:
    """The value a person means by ``text`` for ``key`` ("20", "0.85", "true", "2026-03-01",
    "Europe/Berlin"; empty, "none" or "null" for no value), validated: ValueError says why not.
    The app's Settings screen and ``tokdrill config`` read what people type with this."""
    word = text.strip()
    value: object
    if word.lower() in _NULL_WORDS:
        value = None
    elif word.lower() in _TRUE_WORDS:
        value = True
    elif word.lower() in _FALSE_WORDS:
        value = False
    else:
        try:
            value = int(word)
        except ValueError:
            try:
                value = float(word)
            except ValueError:
                value = word
    return validate_setting(key, value)


def setting_text(value: SettingValue) -> str:
    """How a setting's value is written for people: ``true``/``false``, numbers as typed, ``none``
    for no value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(setting_text(v) for v in value)
    return str(value)
