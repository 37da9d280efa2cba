"""Field-level checks shared by the drill and deck schemas.

A :class:`Fields` wraps one YAML mapping and records a :class:`ContentError` for each problem
(unknown or missing key, wrong type, empty text, bad id) with the file, the line of the offending
key or value, and the field's dotted path. Accessors return None when the value is unusable, so
a schema can keep checking the other fields and report everything at once.
"""

from __future__ import annotations

import difflib
import re
import sys
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

from tokdrill.content.model import ContentError, Reference, SeeIt, shared_reference
from tokdrill.content.yaml_reading import INVALID, YamlList, YamlMap
from tokdrill.encodings import SHIPPED_ENCODINGS

ID_PATTERN = re.compile(r"[a-z0-9-]+")
REFERENCE_REQUIRED = ("title",)
REFERENCE_OPTIONAL = ("authors", "year", "venue", "url")
YEAR_RANGE = (1800, 2100)
RETIRED_KEYS = {
    "source": "`source` is no longer read; use `references` instead: a list of "
    "{title, authors, year, venue, url} (title, and venue or url, required)",
}
"""Keys older content files used, with what to write instead."""


def kind(value: object) -> str:
    """How a YAML value reads in an error message ("a string", "a list", ...)."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, YamlMap):
        return "a mapping"
    if isinstance(value, YamlList):
        return "a list"
    if isinstance(value, date):
        return f"a date ({value})"
    return type(value).__name__


def _quote_hint(value: object) -> str:
    if isinstance(value, bool | int | float | date):
        return " (put it in quotes to make it text)"
    return ""


def expect_mapping(path: Path, value: object, line: int, field: str, errors: list[ContentError]) -> YamlMap | None:
    """``value`` if it is a mapping; else record why not (unless the reader already did)."""
    if isinstance(value, YamlMap):
        return value
    if value is not INVALID:
        errors.append(ContentError(path, line, field, f"expected a mapping, got {kind(value)}"))
    return None


_HINT_LENGTH = 60  # longer unknown keys are cut in messages and get no "did you mean"


@lru_cache(maxsize=64)
def _key_sets(required: tuple[str, ...], optional: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(required), frozenset(required + optional)


class Fields:
    """Checked access to the keys of one mapping, reporting problems into ``errors``."""

    def __init__(self, path: Path, mapping: YamlMap, prefix: str, errors: list[ContentError]) -> None:
        self.path = path
        self.mapping = mapping
        self.prefix = prefix
        self.errors = errors
        self._start = len(errors)
        self._invalid = False

    @property
    def ok(self) -> bool:
        """True if no error was recorded through this object (nor any value was unreadable)."""
        return len(self.errors) == self._start and not self._invalid and not self.mapping.broken

    def _unreadable(self, value: object) -> bool:
        """True for a value the YAML reader already reported; the item is then invalid."""
        if value is INVALID:
            self._invalid = True
            return True
        return False

    def name(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def error(self, line: int, field: str, message: str) -> None:
        self.errors.append(ContentError(self.path, line, field, message))

    def value_line(self, key: str) -> int:
        return self.mapping.value_lines.get(key, self.mapping.line)

    def check_keys(self, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        """Report keys that are not allowed and required keys that are absent."""
        required_set, allowed_set = _key_sets(required, optional)
        keys = self.mapping.keys()
        if keys <= allowed_set and required_set <= keys:
            return
        allowed = required + optional
        for key in self.mapping:
            if key in allowed:
                continue
            if key in RETIRED_KEYS:
                self.error(self.mapping.key_lines[key], self.name(key), f"unknown key: {RETIRED_KEYS[key]}")
                continue
            close = difflib.get_close_matches(key, allowed, n=1) if len(key) <= _HINT_LENGTH else []
            hint = f"; did you mean `{close[0]}`?" if close else f" (allowed: {', '.join(allowed)})"
            shown = key if len(key) <= _HINT_LENGTH else key[: _HINT_LENGTH - 3] + "..."
            self.error(self.mapping.key_lines[key], self.name(shown), f"unknown key{hint}")
        for key in required:
            if key not in self.mapping:
                self.error(self.mapping.line, self.name(key), "missing required key")

    def text(self, key: str, *, required: bool = True) -> str | None:
        """A non-empty string (surrounding whitespace is not content)."""
        if key not in self.mapping:
            return None if required else ""
        value = self.mapping[key]
        if type(value) is str and value and not value.isspace():
            return value
        return self._text_value(value, self.value_line(key), self.name(key))

    def _text_value(self, value: object, line: int, field: str) -> str | None:
        if self._unreadable(value):
            return None
        if value is None or (isinstance(value, str) and (not value or value.isspace())):
            self.error(line, field, "must not be empty")
            return None
        if not isinstance(value, str):
            self.error(line, field, f"expected a string, got {kind(value)}{_quote_hint(value)}")
            return None
        return value

    def ident(self, key: str) -> str | None:
        """A stable id: ``[a-z0-9-]+``."""
        value = self.text(key)
        if value is not None and not ID_PATTERN.fullmatch(value):
            self.error(
                self.value_line(key),
                self.name(key),
                f"{value!r} is not a valid id: use only lowercase letters, digits and '-'",
            )
            return None
        return value

    def positive_int(self, key: str) -> int | None:
        if key not in self.mapping:
            return None
        value = self.mapping[key]
        if self._unreadable(value):
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(self.value_line(key), self.name(key), f"expected a whole number of seconds, got {kind(value)}")
            return None
        if value <= 0:
            self.error(self.value_line(key), self.name(key), f"must be positive, got {value}")
            return None
        return value

    def choice(self, key: str, choices: tuple[str, ...]) -> str | None:
        value = self.text(key)
        if value is not None and value not in choices:
            self.error(self.value_line(key), self.name(key), f"must be one of {', '.join(choices)}; got {value!r}")
            return None
        return value

    def items(self, key: str, *, required: bool = True, allow_empty: bool = False) -> YamlList | None:
        """The list under ``key`` (an absent optional key gives an empty list)."""
        if key not in self.mapping:
            return None if required else YamlList(self.mapping.line)
        value = self.mapping[key]
        if self._unreadable(value):
            return None
        if not isinstance(value, YamlList):
            self.error(self.value_line(key), self.name(key), f"expected a list, got {kind(value)}")
            return None
        if not value and not allow_empty:
            self.error(self.value_line(key), self.name(key), "must not be an empty list")
            return None
        return value

    def text_list(
        self,
        key: str,
        *,
        required: bool = True,
        allow_empty: bool = False,
        unique: bool = False,
    ) -> tuple[str, ...] | None:
        """A list of non-empty strings; ``unique`` reports repeated entries."""
        values = self.items(key, required=required, allow_empty=allow_empty)
        if values is None:
            return None
        if all(v.__class__ is str and v and not v.isspace() for v in values) and (
            not unique or len(set(values)) == len(values)
        ):
            return tuple(cast("list[str]", values))  # every item was just checked to be a str
        result: list[str] = []
        seen: dict[str, int] = {}
        good = True
        for index, (value, line) in enumerate(zip(values, values.item_lines)):
            field = f"{self.name(key)}[{index}]"
            checked = self._text_value(value, line, field)
            if checked is None:
                good = False
                continue
            if unique and checked in seen:
                self.error(line, field, f"{checked!r} is listed twice (first as item {seen[checked]})")
                good = False
                continue
            seen[checked] = index
            result.append(checked)
        return tuple(result) if good else None

    def tags(self, key: str = "tags") -> tuple[str, ...] | None:
        """An optional list of tags (strings). Tags recur across items, so each is stored once."""
        values = self.text_list(key, required=False, allow_empty=True)
        return None if values is None else tuple(sys.intern(v) for v in values)

    def mapping_at(self, value: object, line: int, field: str) -> YamlMap | None:
        self._unreadable(value)
        return expect_mapping(self.path, value, line, field, self.errors)

    def idents(self, key: str) -> tuple[tuple[str, int], ...] | None:
        """An optional list of unique ids (``[a-z0-9-]+``), each with its line; absent gives ``()``."""
        values = self.text_list(key, required=False, allow_empty=True, unique=True)
        if values is None:
            return None
        if not values:
            return ()
        lines = self.mapping.list_lines(key)
        result: list[tuple[str, int]] = []
        for index, value in enumerate(values):
            if not ID_PATTERN.fullmatch(value):
                message = f"{value!r} is not a valid id: use only lowercase letters, digits and '-'"
                self.error(lines[index], f"{self.name(key)}[{index}]", message)
                continue
            result.append((sys.intern(value), lines[index]))
        return tuple(result) if len(result) == len(values) else None

    def references(self, key: str = "references") -> tuple[Reference, ...] | None:
        """The optional list of references (``()`` when absent); None if any entry is unusable."""
        items = self.items(key, required=False)
        if items is None:
            return None
        result: list[Reference] = []
        for index, (item, line) in enumerate(zip(items, items.item_lines)):
            field = f"{self.name(key)}[{index}]"
            mapping = self.mapping_at(item, line, field)
            if mapping is None:
                continue
            reference = _reference(Fields(self.path, mapping, field, self.errors))
            if reference is None:
                self._invalid = True
                continue
            result.append(reference)
        return tuple(result) if len(result) == len(items) else None

    def see_it(self, key: str = "see_it") -> tuple[bool, SeeIt | None]:
        """The optional ``see_it`` mapping (``text``; ``encodings`` from the shipped tables,
        default both; ``note``): (ok, value)."""
        if key not in self.mapping:
            return True, None
        mapping = self.mapping_at(self.mapping[key], self.value_line(key), self.name(key))
        if mapping is None:
            return False, None
        inner = Fields(self.path, mapping, self.name(key), self.errors)
        inner.check_keys(("text",), ("encodings", "note"))
        text = inner.text("text")
        note = inner.text("note", required=False)
        encodings = inner.text_list("encodings", required=False) if "encodings" in mapping else SHIPPED_ENCODINGS
        for name in encodings or ():
            if name not in SHIPPED_ENCODINGS:
                inner.error(
                    inner.value_line("encodings"),
                    inner.name("encodings"),
                    f"{name!r} is not a shipped encoding (choose from {', '.join(SHIPPED_ENCODINGS)})",
                )
        if not inner.ok or text is None or note is None or not encodings:
            return False, None
        return True, SeeIt(text, tuple(encodings), note)

    def optional_text(self, key: str) -> str | None:
        """A non-empty string if ``key`` is given, else None (an empty value is an error)."""
        return self.text(key) if key in self.mapping else None

    def year(self, key: str) -> int | None:
        """An optional year (a whole number in :data:`YEAR_RANGE`)."""
        if key not in self.mapping:
            return None
        value = self.mapping[key]
        if self._unreadable(value):
            return None
        low, high = YEAR_RANGE
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(self.value_line(key), self.name(key), f"expected a year (a whole number), got {kind(value)}")
        elif not low <= value <= high:
            self.error(self.value_line(key), self.name(key), f"expected a year between {low} and {high}, got {value}")
        else:
            return value
        return None

    def url(self, key: str) -> str | None:
        """An optional http(s) address with a host and no spaces."""
        value = self.optional_text(key)
        if value is None:
            return None
        problem = url_problem(value)
        if problem is not None:
            self.error(self.value_line(key), self.name(key), problem)
            return None
        return value


def url_problem(value: str) -> str | None:
    """Why ``value`` is not a usable web address (None when it is)."""
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in value):
        return "a URL must not contain spaces or control characters"
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError as exc:
        return f"not a valid URL: {exc}"
    if parts.scheme not in ("http", "https") or not host:
        return f"expected an http:// or https:// address, got {value[:80]!r}"
    return None


def _reference(f: Fields) -> Reference | None:
    """One ``references`` entry: title required, venue or url required, the rest optional."""
    f.check_keys(REFERENCE_REQUIRED, REFERENCE_OPTIONAL)
    title = f.text("title")
    authors = f.optional_text("authors")
    year = f.year("year")
    venue = f.optional_text("venue")
    url = f.url("url")
    if "venue" not in f.mapping and "url" not in f.mapping:
        f.error(f.mapping.line, f.prefix, "give a `venue` (e.g. ACL 2016, arXiv:1508.07909) or a `url` to find it by")
    if not f.ok or title is None:
        return None
    return shared_reference(
        Reference(sys.intern(title), authors and sys.intern(authors), year, venue and sys.intern(venue), url)
    )
