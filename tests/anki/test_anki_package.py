"""Reading Anki packages: current and older formats from real Anki, and every way a file can fail
to be one (each gives one clear message naming the file)."""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import pytest
import zstandard
from anki_helpers import add_note, anki_collection, export_package

from tokdrill.anki import package as package_module
from tokdrill.anki.notes import AnkiFileError
from tokdrill.anki.package import read_package

FRONT = "What does <b>BPE</b> merge?"
BACK = 'The most frequent <i>pair</i>,<br>then repeat.<img src="merges.png">[sound:bpe.mp3]'


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real Anki packages of one collection: current (zstd, schema 18) and legacy format."""
    folder = tmp_path_factory.mktemp("anki-packages")
    with anki_collection(folder) as col:
        add_note(col, "Basic", {"Front": FRONT, "Back": BACK}, deck="Tokenization::BPE", tags=["bpe", "merges"])
        add_note(col, "Cloze", {"Text": "{{c1::WordPiece}} is used by {{c2::BERT}}"}, deck="Tokenization::WordPiece")
        add_note(col, "Basic (optional reversed card)", {"Front": "F", "Back": "B", "Add Reverse": "y"})
        occlusion = "{{c1::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2:oi=1}}"
        add_note(col, "Image Occlusion", {"Occlusion": occlusion, "Image": '<img src="merges.png">'})
        return {
            "latest": export_package(col, folder / "latest.apkg"),
            "legacy": export_package(col, folder / "legacy.apkg", legacy=True),
        }


@pytest.mark.parametrize("fmt", ["latest", "legacy"])
def test_reads_notes_types_decks_and_tags_from_real_anki_packages(packages: dict[str, Path], fmt: str) -> None:
    notes = read_package(packages[fmt])
    assert [n.notetype for n in notes] == ["Basic", "Cloze", "Basic (optional reversed card)", "Image Occlusion"]
    basic, cloze, reversible, occlusion = notes
    assert basic.fields == (FRONT, BACK)
    assert basic.field_names == ("Front", "Back")
    assert basic.tags == ("bpe", "merges")
    assert basic.deck == "Tokenization::BPE"
    assert basic.kind == "standard" and basic.guid
    assert cloze.kind == "cloze" and cloze.field_names == ("Text", "Back Extra")
    assert cloze.deck == "Tokenization::WordPiece"
    assert reversible.field_names == ("Front", "Back", "Add Reverse")
    assert occlusion.kind == "image-occlusion"


def test_the_placeholder_collection_of_a_current_package_is_not_read(packages: dict[str, Path]) -> None:
    """A current package also holds a collection.anki2 whose only note asks to update Anki."""
    with zipfile.ZipFile(packages["latest"]) as archive:
        assert {"meta", "collection.anki21b", "collection.anki2"} <= set(archive.namelist())
    texts = " ".join(f for note in read_package(packages["latest"]) for f in note.fields)
    assert "update" not in texts.lower()


def _rezip(source: Path, target: Path, *, drop: tuple[str, ...] = (), add: dict[str, bytes] | None = None) -> Path:
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for info in old.infolist():
            if info.filename not in drop:
                new.writestr(info.filename, old.read(info.filename))
        for name, data in (add or {}).items():
            new.writestr(name, data)
    return target


def _expect_error(path: Path, *fragments: str) -> None:
    with pytest.raises(AnkiFileError) as caught:
        read_package(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: "), message
    for fragment in fragments:
        assert fragment in message


def test_a_file_that_is_not_a_zip(tmp_path: Path) -> None:
    path = tmp_path / "deck.apkg"
    path.write_text("#separator:tab\nfront\tback\n", encoding="utf-8")
    _expect_error(path, "not an Anki package (it is not a zip archive)")


def test_a_zip_without_a_collection(tmp_path: Path) -> None:
    path = tmp_path / "deck.apkg"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "hello")
    _expect_error(path, "not an Anki package (no collection.anki2 inside)")


def test_a_newer_package_format_than_known(packages: dict[str, Path], tmp_path: Path) -> None:
    path = _rezip(packages["latest"], tmp_path / "future.apkg", drop=("meta",), add={"meta": b"\x08\x04"})
    _expect_error(path, "made by a newer Anki than tokdrill reads (package format 4)", "Support older Anki versions")


def test_a_current_package_missing_its_compressed_collection(packages: dict[str, Path], tmp_path: Path) -> None:
    path = _rezip(packages["latest"], tmp_path / "cut.apkg", drop=("collection.anki21b",))
    _expect_error(path, "no collection.anki21b inside")


def test_damaged_compressed_collection(packages: dict[str, Path], tmp_path: Path) -> None:
    with zipfile.ZipFile(packages["latest"]) as archive:
        data = archive.read("collection.anki21b")
    path = _rezip(
        packages["latest"],
        tmp_path / "bad.apkg",
        drop=("collection.anki21b",),
        add={"collection.anki21b": data[: len(data) // 2]},
    )
    _expect_error(path, "damaged package (collection.anki21b is cut short)")


def test_a_collection_that_is_not_sqlite(packages: dict[str, Path], tmp_path: Path) -> None:
    path = _rezip(
        packages["legacy"], tmp_path / "bad.apkg", drop=("collection.anki21",), add={"collection.anki21": b"x" * 4096}
    )
    _expect_error(path, "its collection is not an SQLite database")


def test_a_corrupt_sqlite_collection(packages: dict[str, Path], tmp_path: Path) -> None:
    with zipfile.ZipFile(packages["legacy"]) as archive:
        data = bytearray(archive.read("collection.anki21"))
    data[100:] = b"\xff" * (len(data) - 100)  # keep the header, destroy every page
    path = _rezip(
        packages["legacy"], tmp_path / "bad.apkg", drop=("collection.anki21",), add={"collection.anki21": bytes(data)}
    )
    _expect_error(path, "damaged collection database")


def test_a_collection_without_notes(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE cards (id INTEGER)")
    path = tmp_path / "x.apkg"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(db, "collection.anki2")
    _expect_error(path, "not an Anki collection (it has no notes table)")


def test_a_view_posing_as_the_notes_table_is_not_run(tmp_path: Path) -> None:
    """A crafted collection could make ``notes`` an endless recursive view: it is not a table."""
    db = tmp_path / "c.sqlite"
    with sqlite3.connect(db) as con:
        con.execute(
            "CREATE VIEW notes AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT n AS id, '' AS guid, 0 AS mid, '' AS tags, '' AS flds FROM r"
        )
    path = tmp_path / "x.apkg"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(db, "collection.anki2")
    _expect_error(path, "it has no notes table")


def test_a_member_larger_than_the_cap_is_not_unpacked(
    packages: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(package_module, "MAX_COLLECTION_BYTES", 64 << 10)
    _expect_error(packages["legacy"], "collection.anki21 unpacks to more than")
    # the compressed collection's size is only known while unpacking: the cap holds there too
    _expect_error(packages["latest"], "collection.anki21b unpacks to more than")


def test_a_zstd_bomb_stops_at_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(package_module, "MAX_COLLECTION_BYTES", 1 << 20)
    bomb = zstandard.ZstdCompressor(level=19).compress(b"\0" * (64 << 20))
    assert len(bomb) < 64 << 10
    path = tmp_path / "bomb.apkg"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("meta", b"\x08\x03")
        archive.writestr("collection.anki21b", bomb)
    _expect_error(path, "unpacks to more than 1 MiB")


def test_members_are_never_extracted_under_their_own_names(packages: dict[str, Path], tmp_path: Path) -> None:
    """Path tricks in member names have nothing to act on: only known names are read, into a
    private scratch file."""
    outside = tmp_path / "escaped.txt"
    evil = {
        f"../../{outside.name}": b"boo",
        str(outside): b"boo",
        "../collection.anki2": b"boo",
    }
    path = _rezip(packages["legacy"], tmp_path / "tricks.apkg", add=evil)
    assert read_package(path)[0].notetype == "Basic"
    assert not outside.exists() and not (tmp_path.parent / outside.name).exists()


def test_a_member_listed_twice(packages: dict[str, Path], tmp_path: Path) -> None:
    with zipfile.ZipFile(packages["legacy"]) as archive:
        data = archive.read("collection.anki21")
    with pytest.warns(UserWarning, match="Duplicate name"):
        path = _rezip(packages["legacy"], tmp_path / "twice.apkg", add={"collection.anki21": data})
    _expect_error(path, "damaged package (collection.anki21 is in it 2 times)")


def test_an_unsupported_compression_method(packages: dict[str, Path], tmp_path: Path) -> None:
    path = _rezip(packages["legacy"], tmp_path / "odd.apkg")
    raw = bytearray(path.read_bytes())
    # Mark every member as compressed with method 9 (Deflate64), which zipfile cannot read.
    for offset in _header_offsets(bytes(raw)):
        raw[offset : offset + 2] = (9).to_bytes(2, "little")
    path.write_bytes(bytes(raw))
    _expect_error(path, "cannot read")


def test_an_encrypted_member(packages: dict[str, Path], tmp_path: Path) -> None:
    path = _rezip(packages["legacy"], tmp_path / "locked.apkg")
    raw = bytearray(path.read_bytes())
    for offset in _header_offsets(bytes(raw), method=False):
        raw[offset] |= 0x01  # general purpose flag bit 0: encrypted
    path.write_bytes(bytes(raw))
    _expect_error(path, "cannot read", "encrypted")


def _header_offsets(data: bytes, *, method: bool = True) -> list[int]:
    """Offsets of the compression-method field (else the flag bits) in every zip header."""
    offsets = []
    fields = ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)) if method else ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8))
    for signature, field in fields:
        start = 0
        while (index := data.find(signature, start)) >= 0:
            offsets.append(index + field)
            start = index + 4
    return offsets


def test_an_unreadable_path(tmp_path: Path) -> None:
    _expect_error(tmp_path, "cannot read")


@pytest.mark.parametrize("column", ["models", "decks"])
def test_note_types_or_decks_nested_too_deeply_are_a_clear_message(tmp_path: Path, column: str) -> None:
    """An older-format collection keeps note types and decks as JSON: nesting a hundred thousand
    levels deep gives one message naming the file, not a RecursionError."""
    deep = '{"1": ' * 100_000 + "{}" + "}" * 100_000
    values = {"models": "{}", "decks": "{}"} | {column: deep}
    db = tmp_path / "c.sqlite"
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE notes (id INTEGER, guid TEXT, mid INTEGER, tags TEXT, flds TEXT)")
        con.execute("INSERT INTO notes VALUES (1, 'g', 1, '', 'front\x1fback')")
        con.execute("CREATE TABLE col (models TEXT, decks TEXT)")
        con.execute("INSERT INTO col VALUES (?, ?)", (values["models"], values["decks"]))
    path = tmp_path / "deep.apkg"
    with zipfile.ZipFile(path, "w") as archive:
        archive.write(db, "collection.anki2")
    _expect_error(path, f"damaged collection (its {column} are nested too deeply to be read)")
