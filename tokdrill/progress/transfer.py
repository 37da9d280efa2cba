"""Lossless JSON export and validated import of the whole progress store, and a CSV of attempts.

Document (``FORMAT``, ``FORMAT_VERSION`` 1)::

    {"format": "tokdrill-progress", "format_version": 1, "schema_version": 2,
     "exported_at": "...", "settings": {...}, "attempts": [...], "reviews": [...],
     "schedule": [...], "drafts": [...]}

Timestamps are kept exactly as stored; floats are written with Python's shortest exact repr,
so export -> import --replace -> export gives the same document (``exported_at`` aside).

Import validates the whole document first and changes nothing if any record is wrong
(:class:`ImportRejected` lists every problem as ``attempts[3].mode: ...``). Then, in one
transaction:

* ``replace=True``: the store's contents become exactly the document's (ids included).
* ``replace=False`` (merge, the default): attempts and reviews not already present are added
  with new ids (an attempt is "present" when drill, mode, start and end match; a review when
  card and time match); an item's scheduler state is taken from the document when it was
  reviewed later than the stored one; a draft when it was saved later; a setting only when it is
  not set locally.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from tokdrill.grading.verdict import OUTCOMES
from tokdrill.progress import settings as keys
from tokdrill.progress.records import KINDS, MODES, from_iso, to_iso
from tokdrill.progress.schema import SCHEMA_VERSION
from tokdrill.progress.store import (
    ATTEMPT_COLUMNS,
    DRAFT_COLUMNS,
    REVIEW_COLUMNS,
    SCHEDULE_COLUMNS,
    Store,
)

FORMAT = "tokdrill-progress"
FORMAT_VERSION = 1
MAX_PROBLEMS_SHOWN = 20
TABLES = ("attempts", "reviews", "schedule", "drafts")
_COLUMNS = {
    "attempts": ATTEMPT_COLUMNS.split(", "),
    "reviews": REVIEW_COLUMNS.split(", "),
    "schedule": SCHEDULE_COLUMNS.split(", "),
    "drafts": DRAFT_COLUMNS.split(", "),
}
_JSON_COLUMNS = {"tests", "state", "state_before", "state_after"}
_BOOL_COLUMNS = {"passed"}
_TIME_COLUMNS = {"started_at", "ended_at", "reviewed_at", "due", "last_review", "first_seen", "saved_at"}
CSV_COLUMNS = (
    "id",
    "drill_id",
    "mode",
    "started_at",
    "ended_at",
    "active_seconds",
    "target_seconds",
    "passed",
    "submissions",
    "tests_passed",
    "tests_total",
    "keystrokes",
    "retype_accuracy",
)


class ImportRejected(ValueError):
    """The document is not valid; ``problems`` lists each as ``where: what``. Nothing changed."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        shown = problems[:MAX_PROBLEMS_SHOWN]
        more = len(problems) - len(shown)
        text = "\n".join(f"  {p}" for p in shown) + (f"\n  ... and {more} more" if more else "")
        super().__init__(f"import refused, nothing was changed ({len(problems)} problem(s)):\n{text}")


@dataclass(frozen=True)
class ImportSummary:
    """Rows added (and, when merging, skipped as already present) per table."""

    added: dict[str, int]
    skipped: dict[str, int]
    replaced: bool


# ---------------------------------------------------------------- export


def export_document(store: Store) -> dict[str, Any]:
    """The whole store as a JSON-ready document (one consistent snapshot)."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "exported_at": to_iso(store.clock.now()),
    }
    with store.read() as conn:
        doc["settings"] = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM settings ORDER BY key")}
        order = {"attempts": "id", "reviews": "id", "schedule": "kind, item_id", "drafts": "drill_id, mode"}
        for table in TABLES:
            cols = _COLUMNS[table]
            rows = []
            for row in conn.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order[table]}"):
                record = dict(zip(cols, row))
                for col in cols:
                    if col in _JSON_COLUMNS and record[col] is not None:
                        record[col] = json.loads(record[col])
                    elif col in _BOOL_COLUMNS:
                        record[col] = bool(record[col])
                rows.append(record)
            doc[table] = rows
    return doc


def write_attempts_csv(store: Store, out: IO[str]) -> int:
    """Write every attempt (oldest first) as CSV with a header row; returns the row count."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    n = 0
    with store.read() as conn:
        for row in conn.execute(f"SELECT {ATTEMPT_COLUMNS} FROM attempts ORDER BY ended_at, id"):
            tests = json.loads(row[9])
            passed_tests = sum(1 for t in tests if t.get("outcome") == "passed")
            writer.writerow(
                [
                    *row[:7],
                    "yes" if row[7] else "no",
                    row[8],
                    passed_tests,
                    len(tests),
                    "" if row[10] is None else row[10],
                    "" if row[11] is None else row[11],
                ]
            )
            n += 1
    return n


# ---------------------------------------------------------------- validation

Check = Callable[[Any], str | None]  # returns a problem description or None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


def _text(v: Any) -> str | None:
    return None if isinstance(v, str) and v else f"expected a non-empty string, got {v!r}"


def _any_text(v: Any) -> str | None:
    return None if isinstance(v, str) else f"expected a string, got {type(v).__name__}"


def _time(v: Any) -> str | None:
    if not isinstance(v, str):
        return f"expected an ISO timestamp string, got {v!r}"
    try:
        from_iso(v)
    except ValueError:
        return f"expected an ISO timestamp with timezone, got {v!r}"
    return None


def _opt(check: Check) -> Check:
    return lambda v: None if v is None else check(v)


def _nonneg(v: Any) -> str | None:
    return None if _is_num(v) and v >= 0 else f"expected a number >= 0, got {v!r}"


def _nonneg_int(v: Any) -> str | None:
    return None if _is_int(v) and v >= 0 else f"expected a whole number >= 0, got {v!r}"


def _pos_int(v: Any) -> str | None:
    return None if _is_int(v) and v > 0 else f"expected a whole number > 0, got {v!r}"


def _one_of(options: tuple[Any, ...]) -> Check:
    return lambda v: None if v in options and not isinstance(v, bool) else f"expected one of {list(options)}, got {v!r}"


def _boolean(v: Any) -> str | None:
    return None if isinstance(v, bool) else f"expected true or false, got {v!r}"


def _fraction(v: Any) -> str | None:
    return None if _is_num(v) and 0 <= v <= 1 else f"expected a number from 0 to 1, got {v!r}"


def _tests(v: Any) -> str | None:
    if not isinstance(v, list):
        return f"expected a list of test outcomes, got {type(v).__name__}"
    for i, t in enumerate(v):
        if not isinstance(t, dict) or set(t) != {"name", "outcome", "message"}:
            return f"[{i}]: expected {{name, outcome, message}}, got {t!r}"
        if not isinstance(t["name"], str) or not isinstance(t["message"], str) or t["outcome"] not in OUTCOMES:
            return f"[{i}]: name and message must be strings and outcome one of {list(OUTCOMES)}, got {t!r}"
    return None


def _fsrs_state(v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"expected an fsrs card object, got {type(v).__name__}"
    missing = {"state", "step", "stability", "difficulty", "due", "last_review"} - set(v)
    if missing:
        return f"fsrs card is missing {sorted(missing)}"
    if v["state"] not in (1, 2, 3):
        return f"fsrs card state must be 1, 2 or 3, got {v['state']!r}"
    return _time(v["due"]) or _opt(_time)(v["last_review"])


FIELDS: dict[str, dict[str, Check]] = {
    "attempts": {
        "id": _pos_int,
        "drill_id": _text,
        "mode": _one_of(MODES),
        "started_at": _time,
        "ended_at": _time,
        "active_seconds": _nonneg,
        "target_seconds": _pos_int,
        "passed": _boolean,
        "submissions": _nonneg_int,
        "tests": _tests,
        "keystrokes": _opt(_nonneg_int),
        "retype_accuracy": _opt(_fraction),
    },
    "reviews": {
        "id": _pos_int,
        "card_id": _text,
        "rating": _one_of((1, 2, 3, 4)),
        "answer_seconds": _nonneg,
        "reviewed_at": _time,
        "state_before": _opt(_fsrs_state),
        "state_after": _fsrs_state,
    },
    "schedule": {
        "kind": _one_of(KINDS),
        "item_id": _text,
        "state": _fsrs_state,
        "due": _time,
        "last_review": _opt(_time),
        "first_seen": _time,
        "reps": _nonneg_int,
    },
    "drafts": {
        "drill_id": _text,
        "mode": _one_of(MODES),
        "text": _any_text,
        "elapsed_seconds": _nonneg,
        "saved_at": _time,
    },
}
UNIQUE = {"attempts": ("id",), "reviews": ("id",), "schedule": ("kind", "item_id"), "drafts": ("drill_id", "mode")}


def validate_document(doc: Any) -> list[str]:
    """Every problem in an export document, as ``where: what`` strings (empty when valid)."""
    if not isinstance(doc, dict):
        return [f"document: expected a JSON object, got {type(doc).__name__}"]
    expected = {"format", "format_version", "schema_version", "exported_at", "settings", *TABLES}
    problems = [f"{key}: unknown field" for key in sorted(set(doc) - expected)]
    problems.extend(f"{key}: missing" for key in sorted(expected - set(doc)))
    if doc.get("format") != FORMAT:
        problems.append(f"format: expected {FORMAT!r}, got {doc.get('format')!r}")
    if doc.get("format_version") != FORMAT_VERSION:
        got = doc.get("format_version")
        problems.append(f"format_version: this tokdrill reads version {FORMAT_VERSION}, got {got!r}")
    sv = doc.get("schema_version")
    if not _is_int(sv) or not 1 <= sv <= SCHEMA_VERSION:
        problems.append(f"schema_version: expected 1..{SCHEMA_VERSION}, got {sv!r}")
    if "exported_at" in doc and _time(doc["exported_at"]):
        problems.append(f"exported_at: {_time(doc['exported_at'])}")
    settings = doc.get("settings", {})
    if not isinstance(settings, dict):
        problems.append("settings: expected an object")
    else:
        for key, value in settings.items():
            try:
                keys.validate_setting(key, value)
            except ValueError as exc:
                problems.append(f"settings.{key}: {exc}")
    for table in TABLES:
        rows = doc.get(table, [])
        if not isinstance(rows, list):
            problems.append(f"{table}: expected a list")
            continue
        fields = FIELDS[table]
        seen: set[tuple[Any, ...]] = set()
        for i, row in enumerate(rows):
            where = f"{table}[{i}]"
            if not isinstance(row, dict):
                problems.append(f"{where}: expected an object, got {type(row).__name__}")
                continue
            problems.extend(f"{where}.{key}: unknown field" for key in sorted(set(row) - set(fields)))
            for key in fields:
                if key not in row:
                    problems.append(f"{where}.{key}: missing")
                    continue
                problem = fields[key](row[key])
                if problem:
                    problems.append(f"{where}.{key}: {problem}")
            unique = tuple(row.get(k) for k in UNIQUE[table])
            if all(isinstance(u, (str, int)) for u in unique):
                if unique in seen:
                    problems.append(f"{where}: duplicate {'/'.join(UNIQUE[table])} {'/'.join(map(str, unique))}")
                seen.add(unique)
    return problems


# ---------------------------------------------------------------- import


def _db_row(table: str, record: dict[str, Any], keep_id: bool = True) -> tuple[Any, ...]:
    out = []
    for col in _COLUMNS[table]:
        value = record[col]
        if col == "id" and not keep_id:
            value = None
        elif col in _JSON_COLUMNS and value is not None:
            value = json.dumps(value, sort_keys=col != "tests", ensure_ascii=False)
        elif col in _BOOL_COLUMNS:
            value = int(value)
        elif col in _TIME_COLUMNS and value is not None:
            value = to_iso(from_iso(value))
        out.append(value)
    return tuple(out)


def _insert(conn: Any, table: str, rows: list[tuple[Any, ...]], replace: bool = False) -> None:
    cols = _COLUMNS[table]
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    conn.executemany(f"{verb} INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", rows)


def import_document(store: Store, doc: Any, *, replace: bool = False) -> ImportSummary:
    """Validate ``doc`` completely, then merge it into (or, with ``replace``, substitute it for)
    the store in one transaction. Raises ImportRejected, changing nothing, on any problem."""
    problems = validate_document(doc)
    if problems:
        raise ImportRejected(problems)
    added = dict.fromkeys(TABLES, 0) | {"settings": 0}
    skipped = dict.fromkeys(TABLES, 0) | {"settings": 0}
    with store.write() as w:
        conn = w.conn
        if replace:
            for table in (*TABLES, "settings"):
                conn.execute(f"DELETE FROM {table}")
            for key, value in doc["settings"].items():
                w.set_setting(key, value)
            for table in TABLES:
                _insert(conn, table, [_db_row(table, r) for r in doc[table]])
                added[table] = len(doc[table])
            added["settings"] = len(doc["settings"])
            return ImportSummary(added, skipped, True)

        have_attempts = set(conn.execute("SELECT drill_id, mode, started_at, ended_at FROM attempts"))
        rows = []
        for r in doc["attempts"]:
            row = _db_row("attempts", r, keep_id=False)
            key = (row[1], row[2], row[3], row[4])
            if key in have_attempts:
                skipped["attempts"] += 1
                continue
            have_attempts.add(key)
            rows.append(row)
        _insert(conn, "attempts", rows)
        added["attempts"] = len(rows)

        have_reviews = set(conn.execute("SELECT card_id, reviewed_at FROM reviews"))
        rows = []
        for r in doc["reviews"]:
            row = _db_row("reviews", r, keep_id=False)
            if (row[1], row[4]) in have_reviews:
                skipped["reviews"] += 1
                continue
            have_reviews.add((row[1], row[4]))
            rows.append(row)
        _insert(conn, "reviews", rows)
        added["reviews"] = len(rows)

        current = {(k, i): lr for k, i, lr in conn.execute("SELECT kind, item_id, last_review FROM schedule")}
        rows = []
        for r in doc["schedule"]:
            row = _db_row("schedule", r)
            key = (row[0], row[1])
            if key in current and (row[4] or "") <= (current[key] or ""):
                skipped["schedule"] += 1
                continue
            rows.append(row)
        _insert(conn, "schedule", rows, replace=True)
        added["schedule"] = len(rows)

        saved = {(d, m): s for d, m, s in conn.execute("SELECT drill_id, mode, saved_at FROM drafts")}
        rows = []
        for r in doc["drafts"]:
            row = _db_row("drafts", r)
            if (row[0], row[1]) in saved and row[4] <= saved[(row[0], row[1])]:
                skipped["drafts"] += 1
                continue
            rows.append(row)
        _insert(conn, "drafts", rows, replace=True)
        added["drafts"] = len(rows)

        local = {r[0] for r in conn.execute("SELECT key FROM settings")}
        for key, value in doc["settings"].items():
            if key in local:
                skipped["settings"] += 1
            else:
                w.set_setting(key, value)
                added["settings"] += 1
    return ImportSummary(added, skipped, False)
