"""Read the notes of an Anki package (``.apkg``, or a whole-collection ``.colpkg``).

A package is a zip archive holding a SQLite collection: ``collection.anki21b`` (zstd-compressed,
note types in their own tables; Anki 2.1.50 and later), ``collection.anki21`` or
``collection.anki2`` (older Anki, note types as JSON). A ``meta`` member says which one is
current: a package made for new Anki versions also carries a ``collection.anki2`` whose only
note asks the user to update, which must not be mistaken for the deck.

Nothing from the archive is written under a name it chooses: the one member needed is copied,
size-capped, into a private scratch folder and opened read-only. Every way a file can fail to be
a package (not a zip, no collection, a format newer than this reader, a damaged archive or
database, a member past the size cap) raises :class:`~tokdrill.anki.notes.AnkiFileError`.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import zstandard

from tokdrill.anki.notes import AnkiFileError, AnkiNote, CardTemplate, NoteKind, size_text
from tokdrill.anki.wire import WireError, string_fields, varint_fields

MAX_COLLECTION_BYTES = 1 << 30
"""Largest collection unpacked (1 GiB; a 50,000-note collection is far smaller)."""
MAX_META_BYTES = 1 << 10
_ZSTD_INPUT = 1 << 10

LATEST, NEWEST_KNOWN = 3, 3
"""``PackageMetadata.Version`` values: 3 means ``collection.anki21b``; larger ones are newer
formats than this reader knows."""
COMPRESSED, LEGACY_2, LEGACY_1 = "collection.anki21b", "collection.anki21", "collection.anki2"
_NOTE_KIND_CLOZE = 1
_STOCK_IMAGE_OCCLUSION = 6
_FIELD_SEPARATOR = "\x1f"
_SQLITE_MAGIC = b"SQLite format 3\x00"


def read_package(path: Path) -> list[AnkiNote]:
    """Every note in the package at ``path``, in the order Anki created them."""
    with tempfile.TemporaryDirectory(prefix="tokdrill-anki-") as scratch:
        database = Path(scratch) / "collection.sqlite"
        _unpack_collection(path, database)
        return _read_collection(path, database)


def _unpack_collection(path: Path, database: Path) -> None:
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile:
        raise AnkiFileError(f"{path}: not an Anki package (it is not a zip archive)") from None
    except OSError as exc:
        raise AnkiFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with archive:
        members = _members(path, archive)
        version = _version(path, archive, members)
        if version > NEWEST_KNOWN:
            raise AnkiFileError(
                f"{path}: made by a newer Anki than tokdrill reads (package format {version}); in Anki, "
                "export again with 'Support older Anki versions' ticked"
            )
        if version == LATEST or (COMPRESSED in members and not {LEGACY_2, LEGACY_1} & members.keys()):
            name, compressed = COMPRESSED, True
        else:
            name = LEGACY_2 if LEGACY_2 in members else LEGACY_1
            compressed = False
        info = members.get(name)
        if info is None:
            raise AnkiFileError(f"{path}: not an Anki package (no {name} inside)")
        _copy_member(path, archive, info, database, compressed)


def _members(path: Path, archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    infos = archive.infolist()
    counts = Counter(info.filename for info in infos)
    wanted = ("meta", COMPRESSED, LEGACY_2, LEGACY_1)
    repeated = [name for name in wanted if counts[name] > 1]
    if repeated:
        raise AnkiFileError(f"{path}: damaged package ({repeated[0]} is in it {counts[repeated[0]]} times)")
    return {info.filename: info for info in infos if info.filename in wanted}


def _version(path: Path, archive: zipfile.ZipFile, members: dict[str, zipfile.ZipInfo]) -> int:
    """The package format version from ``meta`` (0 when there is none: an older package)."""
    info = members.get("meta")
    if info is None:
        return 0
    if info.file_size > MAX_META_BYTES:
        raise AnkiFileError(f"{path}: damaged package (its meta member is {info.file_size} bytes)")
    with _member_errors(path, "meta"), archive.open(info) as member:
        data = member.read(MAX_META_BYTES + 1)
    try:
        return varint_fields(data).get(1, 0)
    except WireError as exc:
        raise AnkiFileError(f"{path}: damaged package (meta: {exc})") from None


@contextmanager
def _member_errors(path: Path, name: str) -> Iterator[None]:
    """Turn the ways reading a member fails into one clear :class:`AnkiFileError`."""
    try:
        yield
    except AnkiFileError:
        raise
    except RuntimeError as exc:  # zipfile: encrypted member
        raise AnkiFileError(f"{path}: cannot read {name}: {exc}") from None
    except NotImplementedError as exc:  # zipfile: compression method it lacks
        raise AnkiFileError(f"{path}: cannot read {name}: {exc}") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, zstandard.ZstdError) as exc:
        raise AnkiFileError(f"{path}: damaged package ({name}: {exc})") from None
    except OSError as exc:
        raise AnkiFileError(f"{path}: cannot unpack {name}: {exc.strerror or exc}") from None


def _copy_member(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, compressed: bool) -> None:
    """Copy one member to ``dest``, decompressing zstd if ``compressed``, never past the cap."""
    limit = MAX_COLLECTION_BYTES
    if not compressed and info.file_size > limit:
        raise _too_large(path, info.filename)
    with _member_errors(path, info.filename), archive.open(info) as member, dest.open("wb") as out:
        chunks: Iterator[bytes]
        if compressed:
            # Fed in small pieces, so even a crafted stream (zstd expands up to tens of thousands
            # of times) yields a bounded amount per step, and the cap is checked before it grows.
            decompressor = zstandard.ZstdDecompressor().decompressobj()
            chunks = (decompressor.decompress(piece) for piece in iter(lambda: member.read(_ZSTD_INPUT), b""))
        else:
            chunks = iter(lambda: member.read(1 << 20), b"")
        copied = 0
        for chunk in chunks:
            copied += len(chunk)
            if copied > limit:
                raise _too_large(path, info.filename)
            out.write(chunk)
        if compressed and not decompressor.eof:
            raise AnkiFileError(f"{path}: damaged package ({info.filename} is cut short)")


def _too_large(path: Path, name: str) -> AnkiFileError:
    return AnkiFileError(f"{path}: {name} unpacks to more than {size_text(MAX_COLLECTION_BYTES)}; not read")


def _read_collection(path: Path, database: Path) -> list[AnkiNote]:
    with database.open("rb") as fh:
        if fh.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
            raise AnkiFileError(f"{path}: damaged package (its collection is not an SQLite database)")
    try:
        connection = sqlite3.connect(f"{database.as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as exc:
        raise AnkiFileError(f"{path}: cannot open its collection: {exc}") from None
    try:
        connection.create_collation("unicase", _unicase)
        return _Collection(path, connection).notes()
    except sqlite3.Error as exc:
        raise AnkiFileError(f"{path}: damaged collection database ({exc})") from None
    finally:
        connection.close()


def _unicase(a: str, b: str) -> int:
    x, y = a.casefold(), b.casefold()
    return (x > y) - (x < y)


class _NoteType:
    def __init__(
        self, name: str, kind: NoteKind, fields: tuple[str, ...], templates: dict[int, CardTemplate] | None = None
    ) -> None:
        self.name, self.kind, self.fields = name, kind, fields
        self.templates = templates or {}


class _Collection:
    """Reads note types, decks and notes from either collection schema."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self.db = connection
        rows = connection.execute("SELECT name, type FROM sqlite_master").fetchall()
        self.tables = {name for name, kind in rows if kind == "table"}
        if "notes" not in self.tables:
            raise AnkiFileError(f"{path}: not an Anki collection (it has no notes table)")
        self.modern = {"notetypes", "fields", "decks"} <= self.tables

    def notes(self) -> list[AnkiNote]:
        types = self._note_types()
        decks = self._decks()
        has_cards = "cards" in self.tables
        deck_of = "(SELECT c.did FROM cards c WHERE c.nid = n.id ORDER BY c.ord LIMIT 1)" if has_cards else "NULL"
        query = f"SELECT n.id, n.guid, n.mid, n.tags, n.flds, {deck_of} FROM notes n ORDER BY n.id"
        unknown = _NoteType("", "standard", ())
        ordinals = self._card_ordinals() if has_cards else {}
        result = []
        for index, (nid, guid, mid, tags, flds, did) in enumerate(self.db.execute(query), start=1):
            if not isinstance(flds, str):
                raise AnkiFileError(f"{self.path}: damaged collection (note {index} has no text fields)")
            kind = types.get(mid, unknown)
            cards = tuple(kind.templates[o] for o in ordinals.get(nid, ()) if o in kind.templates)
            result.append(
                AnkiNote(
                    guid=str(guid) if guid not in (None, "") else None,
                    notetype=kind.name,
                    kind=kind.kind,
                    field_names=kind.fields,
                    fields=tuple(flds.split(_FIELD_SEPARATOR)),
                    tags=tuple(str(tags or "").split()),
                    deck=decks.get(did, ""),
                    where=f"note {index}",
                    cards=cards if kind.kind == "standard" else (),
                    anki_cards=len(ordinals.get(nid, ())) if has_cards else None,
                )
            )
        return result

    def _note_types(self) -> dict[Any, _NoteType]:
        if self.modern:
            fields: dict[Any, list[str]] = {}
            for ntid, _ord, name in self.db.execute("SELECT ntid, ord, name FROM fields ORDER BY ntid, ord"):
                fields.setdefault(ntid, []).append(str(name))
            templates = self._templates() if "templates" in self.tables else {}
            types = {}
            for ntid, name, config in self.db.execute("SELECT id, name, config FROM notetypes"):
                try:
                    values = varint_fields(bytes(config or b""))
                except (WireError, TypeError):
                    values = {}
                kind = _kind(values.get(1, 0), values.get(9, 0))
                types[ntid] = _NoteType(str(name), kind, tuple(fields.get(ntid, ())), templates.get(ntid))
            return types
        models = self._col_json("models")
        types = {}
        for key, model in models.items():
            if not isinstance(model, dict):
                continue
            flds = [f for f in model.get("flds") or [] if isinstance(f, dict)]
            names = tuple(str(f.get("name", "")) for f in sorted(flds, key=lambda f: _int(f.get("ord"))))
            kind = _kind(_int(model.get("type")), _int(model.get("originalStockKind")))
            tmpls = [t for t in model.get("tmpls") or [] if isinstance(t, dict)]
            by_ordinal = {
                _int(t.get("ord")): CardTemplate(
                    _int(t.get("ord")), str(t.get("name", "")), str(t.get("qfmt", "")), str(t.get("afmt", ""))
                )
                for t in tmpls
            }
            types[_int(key)] = _NoteType(str(model.get("name", "")), kind, names, by_ordinal)
        return types

    def _templates(self) -> dict[Any, dict[int, CardTemplate]]:
        """Each note type's card templates by ordinal (a template whose formats cannot be read
        keeps empty ones: its cards then take the note's first two fields)."""
        found: dict[Any, dict[int, CardTemplate]] = {}
        for ntid, ordinal, name, config in self.db.execute("SELECT ntid, ord, name, config FROM templates"):
            try:
                formats = string_fields(bytes(config or b""))
            except (WireError, TypeError):
                formats = {}
            found.setdefault(ntid, {})[_int(ordinal)] = CardTemplate(
                _int(ordinal), str(name), formats.get(1, ""), formats.get(2, "")
            )
        return found

    def _card_ordinals(self) -> dict[Any, list[int]]:
        """The template ordinal of every card of each note, ascending."""
        found: dict[Any, list[int]] = {}
        for nid, ordinal in self.db.execute("SELECT nid, ord FROM cards ORDER BY nid, ord"):
            ordinals = found.setdefault(nid, [])
            if _int(ordinal) not in ordinals:
                ordinals.append(_int(ordinal))
        return found

    def _decks(self) -> dict[Any, str]:
        if self.modern:
            return {did: str(name).replace("\x1f", "::") for did, name in self.db.execute("SELECT id, name FROM decks")}
        decks = self._col_json("decks")
        return {_int(key): str(deck.get("name", "")) for key, deck in decks.items() if isinstance(deck, dict)}

    def _col_json(self, column: str) -> dict[str, Any]:
        if "col" not in self.tables:
            raise AnkiFileError(f"{self.path}: not an Anki collection (it has no note types)")
        row = self.db.execute(f"SELECT {column} FROM col LIMIT 1").fetchone()
        try:
            value = json.loads(row[0]) if row and row[0] else {}
        except (TypeError, ValueError):
            raise AnkiFileError(f"{self.path}: damaged collection (its {column} are unreadable)") from None
        except RecursionError:  # JSON nested deeper than the interpreter's recursion allows
            raise AnkiFileError(
                f"{self.path}: damaged collection (its {column} are nested too deeply to be read)"
            ) from None
        if not isinstance(value, dict):
            raise AnkiFileError(f"{self.path}: damaged collection (its {column} are unreadable)")
        return value


def _kind(kind: int, stock_kind: int) -> NoteKind:
    if stock_kind == _STOCK_IMAGE_OCCLUSION:
        return "image-occlusion"
    return "cloze" if kind == _NOTE_KIND_CLOZE else "standard"


def _int(value: object) -> int:
    try:
        return int(value)  # type: ignore[call-overload,no-any-return]
    except (TypeError, ValueError):
        return -1
