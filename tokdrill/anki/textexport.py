"""Read Anki's plain-text exports ("Notes in Plain Text" and "Cards in Plain Text").

The file is UTF-8, one note per record, fields split by a separator and quoted CSV-style
(``"..."``, ``""`` for a quote; a quoted field may span lines). Header lines at the top, each
``#key:value``, describe it: ``separator`` (``tab``, ``comma``, ``semicolon``, ``space``,
``pipe``, ``colon`` or the character itself), ``html`` (``true``/``false``), ``tags`` (tags for
every note), ``columns`` (field names), and the 1-based ``guid column``, ``notetype column``,
``deck column`` and ``tags column``. A first line ``tags:...`` is the older form of ``#tags``.
Without a separator header the first separator found decides (tab, pipe, semicolon, colon,
comma, then space, as Anki does); without an ``html`` header the fields are HTML when any looks
like HTML. Other lines starting with ``#`` outside a quoted field are comments.
"""

from __future__ import annotations

import csv
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tokdrill.anki import notetype as nt
from tokdrill.anki.notes import STOCK_FIELDS, AnkiFileError, AnkiNote, NoteKind, size_text, stock_cards

MAX_TEXT_BYTES = 256 << 20
"""Largest text export read (256 MiB)."""

SEPARATORS = {"tab": "\t", "pipe": "|", "semicolon": ";", "colon": ":", "comma": ",", "space": " "}
"""Names Anki writes, in the order it tries them when a file does not say."""
_SNIFF_BYTES = 8 << 10
_LOOKS_LIKE_HTML = re.compile(r"</?[a-z][a-z0-9]*\b[^>]*>|&(?:[a-z]+|#[0-9]+|#x[0-9a-f]+);", re.IGNORECASE)
_CLOZE = re.compile(r"\{\{c\d+::")


@dataclass
class _Header:
    separator: str | None = None
    is_html: bool | None = None
    tags: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    special: dict[str, int] = field(default_factory=dict)  # "guid"/"notetype"/"deck"/"tags" -> 0-based column
    lines: int = 0  # header lines consumed


def read_text_export(path: Path) -> list[AnkiNote]:
    """Every note in the text export at ``path``, in file order."""
    text = _read_text(path)
    lines = text.splitlines(keepends=True)
    header = _parse_header(path, lines)
    body = lines[header.lines :]
    separator = header.separator or _sniff_separator("".join(body)[:_SNIFF_BYTES])
    records = list(_records(path, body, separator, header.lines))
    is_html = header.is_html
    if is_html is None:
        is_html = any(_LOOKS_LIKE_HTML.search(value) for _line, row in records for value in row)
    return [note for line, row in records if (note := _note(row, line, header, is_html)) is not None]


def _read_text(path: Path) -> str:
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_TEXT_BYTES + 1)
    except OSError as exc:
        raise AnkiFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_TEXT_BYTES:
        raise AnkiFileError(f"{path}: larger than {size_text(MAX_TEXT_BYTES)}; not read")
    if b"\x00" in data:
        raise AnkiFileError(f"{path}: not an Anki text export (it holds binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise AnkiFileError(f"{path}:{line}: not UTF-8 text (Anki's text exports are UTF-8)") from None


def _parse_header(path: Path, lines: list[str]) -> _Header:
    header = _Header()
    for index, raw in enumerate(lines):
        line = raw.rstrip("\r\n")
        if index == 0 and line.startswith("tags:"):
            header.tags = tuple(line[len("tags:") :].split())
        elif line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep:
                _header_value(path, index + 1, header, key.strip().lower(), value)
        else:
            break
        header.lines = index + 1
    return header


def _header_value(path: Path, line: int, header: _Header, key: str, value: str) -> None:
    if key == "separator":
        name = value.strip().lower()
        separator = SEPARATORS.get(name) or (value if len(value) == 1 else None)
        if separator is None:
            raise AnkiFileError(f"{path}:{line}: separator: unknown separator {value!r}")
        header.separator = separator
    elif key == "html":
        flag = value.strip().lower()
        if flag not in ("true", "false"):
            raise AnkiFileError(f"{path}:{line}: html: expected true or false, got {value!r}")
        header.is_html = flag == "true"
    elif key == "tags":
        header.tags = tuple(value.split())
    elif key == "columns":
        header.columns = tuple(next(csv.reader([value], delimiter=header.separator or "\t"), []))
    elif key.endswith(" column") and key[: -len(" column")] in ("guid", "notetype", "deck", "tags"):
        number = value.strip()
        if not number.isdigit() or int(number) < 1:
            raise AnkiFileError(f"{path}:{line}: {key}: expected a column number from 1, got {value!r}")
        header.special[key[: -len(" column")]] = int(number) - 1


def _sniff_separator(sample: str) -> str:
    for separator in SEPARATORS.values():
        if separator in sample:
            return separator
    return " "


def _records(path: Path, body: list[str], separator: str, offset: int) -> Iterator[tuple[int, list[str]]]:
    """``(line number, fields)`` per record; comment lines (``#`` where a record starts) skipped."""

    def lines() -> Iterator[str]:
        inside_quotes = False
        for line in body:
            if not inside_quotes and line.startswith("#"):
                yield "\n"  # keeps csv's line count in step; an empty record is skipped below
                continue
            if line.count('"') % 2:
                inside_quotes = not inside_quotes
            yield line

    # csv refuses fields over 128 KiB by default; a note with an inline picture is larger
    csv.field_size_limit(max(csv.field_size_limit(), MAX_TEXT_BYTES))
    reader = csv.reader(lines(), delimiter=separator, quotechar='"', doublequote=True, strict=False)
    start = 1
    try:
        for row in reader:
            if any(value.strip() for value in row):
                yield offset + start, row
            start = reader.line_num + 1
    except csv.Error as exc:
        raise AnkiFileError(f"{path}:{offset + start}: not a readable record ({exc})") from None


def _note(row: list[str], line: int, header: _Header, is_html: bool) -> AnkiNote | None:
    special = header.special

    def column(name: str) -> str:
        index = special.get(name)
        return row[index].strip() if index is not None and index < len(row) else ""

    taken = set(special.values())
    fields = [value for index, value in enumerate(row) if index not in taken]
    names = tuple(name for index, name in enumerate(header.columns) if index not in taken)
    if not is_html:
        fields = [html.escape(value, quote=False).replace("\r\n", "\n").replace("\n", "<br>") for value in fields]
    while fields and not fields[-1].strip():
        fields.pop()
    if not fields:
        return None
    notetype = column("notetype")
    if notetype == nt.NOTE_TYPE_NAME and not names:
        names = nt.FIELDS
    elif not names:
        names = STOCK_FIELDS.get(notetype.casefold(), ())
    kind: NoteKind = "standard"
    if notetype.casefold().startswith("image occlusion") or "image-occlusion:" in fields[0]:
        kind = "image-occlusion"
    elif notetype.casefold().startswith("cloze") or _CLOZE.search(fields[0]):
        kind = "cloze"
    return AnkiNote(
        guid=column("guid") or None,
        notetype=notetype,
        kind=kind,
        field_names=names[: len(fields)],
        fields=tuple(fields),
        tags=header.tags + tuple(column("tags").split()),
        deck=column("deck"),
        where=f"line {line}",
        cards=stock_cards(notetype, tuple(fields)) if kind == "standard" else (),
    )
