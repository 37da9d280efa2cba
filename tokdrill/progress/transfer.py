"""Lossless JSON export and validated import of the whole progress store, and a CSV of attempts.

Document (``FORMAT``, ``FORMAT_VERSION`` 3; the records are declared once, in
:mod:`tokdrill.progress.document`)::

    {"format": "tokdrill-progress", "format_version": 3, "schema_version": 5,
     "exported_at": "...", "settings": {...}, "attempts": [...], "reviews": [...],
     "schedule": [...], "drafts": [...], "concept_results": [...], "mock_rounds": [...],
     "starts": [...]}

Timestamps are kept exactly as stored; floats are written with their shortest exact repr, so
export -> import --replace -> export gives the same document (``exported_at`` aside). Versions 1
and 2 (before typing measurements, origins and concepts; before concept results, mock rounds and
starts) are read too.

Import parses the whole document first, each record through its schema, and changes nothing if
any record is wrong (:class:`ImportRejected` lists every problem as ``attempts[3].mode: ...``).
Then, in one transaction:

* ``replace=True``: the store's contents become exactly the document's (ids included).
* ``replace=False`` (merge, the default): attempts and reviews not already present are added
  with new ids (an attempt is "present" when drill, mode, start and end match; a review when
  card and time match); an item's scheduler state is taken from the document when it was
  reviewed later than the stored one; a draft when it was saved later; a setting only when it is
  not set locally; concept results and mock rounds not already present are added (matched by
  drill, time and concept; by start time); a start when it is newer than the stored one.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import msgspec

from tokdrill.progress import settings as keys
from tokdrill.progress.document import (
    COLUMNS,
    FORMAT,
    FORMAT_VERSION,
    TABLES,
    AttemptRecord,
    ConceptResultRecord,
    DocumentHead,
    DraftRecord,
    InvalidRecord,
    MockRoundRecord,
    ReviewRecord,
    ScheduleRecord,
    StartRecord,
    check_time,
    decode_record,
    decode_row,
    error_text,
    record_json,
    row_values,
)
from tokdrill.progress.records import to_iso
from tokdrill.progress.schema import SCHEMA_VERSION
from tokdrill.progress.store import ATTEMPT_COLUMNS, Store, decode_attempt, decode_setting

MAX_PROBLEMS_SHOWN = 20
LEGACY_SETTINGS = {"day_offset_minutes"}
CSV_COLUMNS = (
    "id",
    "drill_id",
    "mode",
    "origin",
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
    "wpm",
    "typing_accuracy",
    "corrected_errors",
)


class ImportRejected(ValueError):
    """The document is not valid; ``problems`` lists each as ``where: what``. Nothing changed."""

    def __init__(self, problems: list[str], position: tuple[int, int] | None = None) -> None:
        self.problems = problems
        self.position = position  # (line, column) of a JSON syntax error, when that is the problem
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


@dataclass(frozen=True)
class ParsedDocument:
    """A valid export document: its settings and its records, table by table."""

    settings: dict[str, keys.SettingValue]
    attempts: list[AttemptRecord]
    reviews: list[ReviewRecord]
    schedule: list[ScheduleRecord]
    drafts: list[DraftRecord]
    concept_results: list[ConceptResultRecord]
    mock_rounds: list[MockRoundRecord]
    starts: list[StartRecord]


# ---------------------------------------------------------------- export

_ORDER = {
    "attempts": "id",
    "reviews": "id",
    "schedule": "kind, item_id",
    "drafts": "drill_id, mode",
    "concept_results": "id",
    "mock_rounds": "id",
    "starts": "drill_id",
}


def export_document(store: Store) -> dict[str, Any]:
    """The whole store as a JSON-ready document (one consistent snapshot). Every row is decoded
    through the schema on the way out, so a damaged row stops the export (StoreError) instead
    of writing a file that cannot be imported."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "schema_version": SCHEMA_VERSION,
        "exported_at": to_iso(store.clock.now()),
    }
    with store.read() as conn:
        doc["settings"] = {
            k: decode_setting(k, v) for k, v in conn.execute("SELECT key, value FROM settings ORDER BY key")
        }
        for table in TABLES:
            cols = ", ".join(COLUMNS[table])
            doc[table] = [
                record_json(decode_row(table, tuple(row), f"{table} row {row[0]!r}"))
                for row in conn.execute(f"SELECT {cols} FROM {table} ORDER BY {_ORDER[table]}")
            ]
    return doc


def write_attempts_csv(store: Store, out: IO[str]) -> int:
    """Write every attempt (oldest first) as CSV with a header row; returns the row count."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    n = 0
    with store.read() as conn:
        for row in conn.execute(f"SELECT {ATTEMPT_COLUMNS} FROM attempts ORDER BY ended_at, id"):
            a = decode_attempt(tuple(row))
            writer.writerow(
                [
                    a.id,
                    a.drill_id,
                    a.mode,
                    a.origin,
                    to_iso(a.started_at),
                    to_iso(a.ended_at),
                    a.active_seconds,
                    a.target_seconds,
                    "yes" if a.passed else "no",
                    a.submissions,
                    sum(1 for t in a.tests if t.outcome == "passed"),
                    len(a.tests),
                    *("" if v is None else v for v in (a.keystrokes, a.retype_accuracy, a.wpm)),
                    *("" if v is None else v for v in (a.typing_accuracy, a.corrected_errors)),
                ]
            )
            n += 1
    return n


# ---------------------------------------------------------------- parsing


def _as_bytes(doc: object) -> bytes:
    if isinstance(doc, (bytes, bytearray, memoryview)):
        return bytes(doc)
    if isinstance(doc, str):
        try:
            return doc.encode("utf-8")
        except UnicodeEncodeError:
            raise ImportRejected(["document: contains text that is not valid Unicode"]) from None
    try:
        return msgspec.json.encode(doc)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        raise ImportRejected([f"document: not a JSON document ({exc})"]) from None


def byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of a byte offset in ``data``."""
    before = data[:offset]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return line, column


def parse_document(doc: object) -> ParsedDocument:
    """Parse an export (JSON bytes or text, or the same already loaded as Python data) through the
    schema. Raises ImportRejected listing every problem (``where: what``)."""
    data = _as_bytes(doc)
    try:
        head = msgspec.json.decode(data, type=DocumentHead)
    except msgspec.ValidationError as exc:
        text = error_text(exc)
        if text.startswith("Expected `object`"):
            text = f"document: expected a JSON object ({text})"
        raise ImportRejected([text]) from None
    except msgspec.DecodeError as exc:
        message = str(exc)
        found = msgspec_byte(message)
        position = None if found is None else byte_position(data, found)
        where = "document" if position is None else f"line {position[0]}, column {position[1]}"
        raise ImportRejected([f"{where}: not valid JSON: {message}"], position) from None
    except RecursionError:
        raise ImportRejected(["document: nested too deeply"]) from None

    problems: list[str] = []
    if head.format != FORMAT:
        problems.append(f"format: expected {FORMAT!r}, got {head.format!r}")
    if not 1 <= head.format_version <= FORMAT_VERSION:
        problems.append(
            f"format_version: this tokdrill reads versions 1 to {FORMAT_VERSION}, got {head.format_version!r}"
        )
    if not 1 <= head.schema_version <= SCHEMA_VERSION:
        problems.append(f"schema_version: expected 1..{SCHEMA_VERSION}, got {head.schema_version!r}")
    try:
        check_time(head.exported_at, "exported_at")
    except ValueError as exc:
        problems.append(str(exc))

    settings: dict[str, keys.SettingValue] = {}
    for key, raw in head.settings.items():
        try:
            value = msgspec.json.decode(raw)
        except (msgspec.DecodeError, RecursionError):
            problems.append(f"settings.{key}: not a valid value")
            continue
        if key in LEGACY_SETTINGS:
            zone = keys.legacy_day_offset(value)
            if zone is not None and keys.TIMEZONE not in head.settings:
                settings[keys.TIMEZONE] = zone
            continue
        try:
            settings[key] = keys.validate_setting(key, value)
        except ValueError as exc:
            problems.append(f"settings.{key}: {exc}")

    tables: dict[str, list[Any]] = {}
    for table in TABLES:
        records = []
        for i, raw in enumerate(getattr(head, table)):
            try:
                records.append(decode_record(table, raw, f"{table}[{i}]"))
            except InvalidRecord as exc:
                problems.append(str(exc))
        tables[table] = records
    problems.extend(_duplicates(tables))
    if problems:
        raise ImportRejected(problems)
    return ParsedDocument(settings, **tables)


def msgspec_byte(message: str) -> int | None:
    """The byte offset msgspec names in a DecodeError message ("... (byte 123)"), if any."""
    import re

    match = re.search(r"\(byte (\d+)\)", message)
    return int(match.group(1)) if match else None


def _duplicates(tables: dict[str, list[Any]]) -> list[str]:
    problems = []
    keys_of: dict[str, Callable[[Any], tuple[Any, ...]]] = {
        "attempts": lambda r: (r.id,),
        "reviews": lambda r: (r.id,),
        "schedule": lambda r: (r.kind, r.item_id),
        "drafts": lambda r: (r.drill_id, r.mode),
        "concept_results": lambda r: (r.id,),
        "mock_rounds": lambda r: (r.id,),
        "starts": lambda r: (r.drill_id,),
    }
    names = {
        "attempts": "id",
        "reviews": "id",
        "schedule": "kind/item_id",
        "drafts": "drill_id/mode",
        "concept_results": "id",
        "mock_rounds": "id",
        "starts": "drill_id",
    }
    for table, records in tables.items():
        seen: set[tuple[Any, ...]] = set()
        for i, record in enumerate(records):
            key = keys_of[table](record)
            if key in seen:
                problems.append(f"{table}[{i}]: duplicate {names[table]} {'/'.join(map(str, key))}")
            seen.add(key)
    return problems


# ---------------------------------------------------------------- import


def import_document(store: Store, doc: object, *, replace: bool = False) -> ImportSummary:
    """Parse ``doc`` completely, then merge it into (or, with ``replace``, substitute it for)
    the store in one transaction. Raises ImportRejected, changing nothing, on any problem."""
    parsed = parse_document(doc)
    added = dict.fromkeys(TABLES, 0) | {"settings": 0}
    skipped = dict.fromkeys(TABLES, 0) | {"settings": 0}
    with store.write() as w:
        conn = w.conn
        if replace:
            for table in (*TABLES, "settings"):
                conn.execute(f"DELETE FROM {table}")
            for key, value in parsed.settings.items():
                w.set_setting(key, value)
            for table in TABLES:
                records = getattr(parsed, table)
                _insert(conn, table, [row_values(table, r) for r in records])
                added[table] = len(records)
            added["settings"] = len(parsed.settings)
            return ImportSummary(added, skipped, True)

        have_attempts = set(conn.execute("SELECT drill_id, mode, started_at, ended_at FROM attempts"))
        rows = []
        for a in parsed.attempts:
            natural = (a.drill_id, a.mode, a.started_at, a.ended_at)
            if natural in have_attempts:
                skipped["attempts"] += 1
                continue
            have_attempts.add(natural)
            rows.append((None, *row_values("attempts", a)[1:]))
        _insert(conn, "attempts", rows)
        added["attempts"] = len(rows)

        have_reviews = set(conn.execute("SELECT card_id, reviewed_at FROM reviews"))
        rows = []
        for r in parsed.reviews:
            if (r.card_id, r.reviewed_at) in have_reviews:
                skipped["reviews"] += 1
                continue
            have_reviews.add((r.card_id, r.reviewed_at))
            rows.append((None, *row_values("reviews", r)[1:]))
        _insert(conn, "reviews", rows)
        added["reviews"] = len(rows)

        current = {(k, i): lr for k, i, lr in conn.execute("SELECT kind, item_id, last_review FROM schedule")}
        rows = []
        for item in parsed.schedule:
            item_key = (item.kind, item.item_id)
            if item_key in current and (item.last_review or "") <= (current[item_key] or ""):
                skipped["schedule"] += 1
                continue
            rows.append(row_values("schedule", item))
        _insert(conn, "schedule", rows, replace=True)
        added["schedule"] = len(rows)

        saved = {(d, m): s for d, m, s in conn.execute("SELECT drill_id, mode, saved_at FROM drafts")}
        rows = []
        for d in parsed.drafts:
            if (d.drill_id, d.mode) in saved and d.saved_at <= saved[(d.drill_id, d.mode)]:
                skipped["drafts"] += 1
                continue
            rows.append(row_values("drafts", d))
        _insert(conn, "drafts", rows, replace=True)
        added["drafts"] = len(rows)

        have_results = set(conn.execute("SELECT drill_id, at, concept FROM concept_results"))
        rows = []
        for c in parsed.concept_results:
            if (c.drill_id, c.at, c.concept) in have_results:
                skipped["concept_results"] += 1
                continue
            have_results.add((c.drill_id, c.at, c.concept))
            rows.append((None, *row_values("concept_results", c)[1:]))
        _insert(conn, "concept_results", rows)
        added["concept_results"] = len(rows)

        have_rounds = {r[0] for r in conn.execute("SELECT started_at FROM mock_rounds")}
        rows = []
        for m in parsed.mock_rounds:
            if m.started_at in have_rounds:
                skipped["mock_rounds"] += 1
                continue
            have_rounds.add(m.started_at)
            rows.append((None, *row_values("mock_rounds", m)[1:]))
        _insert(conn, "mock_rounds", rows)
        added["mock_rounds"] = len(rows)

        started = dict(conn.execute("SELECT drill_id, started_at FROM starts"))
        rows = []
        for st in parsed.starts:
            if st.drill_id in started and st.started_at <= started[st.drill_id]:
                skipped["starts"] += 1
                continue
            rows.append(row_values("starts", st))
        _insert(conn, "starts", rows, replace=True)
        added["starts"] = len(rows)

        local = {r[0] for r in conn.execute("SELECT key FROM settings")}
        for key, value in parsed.settings.items():
            if key in local:
                skipped["settings"] += 1
            else:
                w.set_setting(key, value)
                added["settings"] += 1
    return ImportSummary(added, skipped, False)


def _insert(conn: Any, table: str, rows: list[tuple[Any, ...]], replace: bool = False) -> None:
    cols = COLUMNS[table]
    verb = "INSERT OR REPLACE" if replace else "INSERT"
    conn.executemany(f"{verb} INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", rows)


def document_text(doc: dict[str, Any]) -> str:
    """The export document as JSON text (one record per line group, UTF-8 kept readable)."""
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
