"""Reading Anki's plain-text exports: real ones from Anki, hand-written ones, and broken ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from anki_helpers import add_note, anki_collection, export_cards_text, export_notes_text

from tokdrill.anki.notes import AnkiFileError
from tokdrill.anki.textexport import read_text_export

BACK = 'Ranks decide,<br>not counts.<div>Tab\there &amp; "quotes"</div>'


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("anki-text")
    with anki_collection(folder) as col:
        add_note(col, "Basic", {"Front": "Which pair merges <b>first</b>?", "Back": BACK}, deck="BPE", tags=["bpe"])
        add_note(col, "Basic", {"Front": "# of merges", "Back": "vocab size - alphabet\n#not a comment"}, deck="BPE")
        add_note(col, "Cloze", {"Text": "{{c1::WordPiece}} is BERT's"}, deck="BPE")
        return {
            "notes": export_notes_text(col, folder / "notes.txt"),
            "plain": export_notes_text(
                col,
                folder / "plain.txt",
                with_html=False,
                with_tags=False,
                with_deck=False,
                with_notetype=False,
                with_guid=False,
            ),
            "cards": export_cards_text(col, folder / "cards.txt"),
        }


def test_notes_export_with_every_column(exports: dict[str, Path]) -> None:
    notes = read_text_export(exports["notes"])
    assert [n.notetype for n in notes] == ["Basic", "Basic", "Cloze"]
    first, second, cloze = notes
    assert first.fields == ("Which pair merges <b>first</b>?", BACK)
    assert first.tags == ("bpe",) and first.deck == "BPE" and first.guid
    assert second.fields[0] == "# of merges"  # a field starting with '#' is data, not a comment
    assert "#not a comment" in second.fields[1]
    assert cloze.kind == "cloze"
    assert len({n.guid for n in notes}) == 3
    assert first.where.startswith("line ")


def test_plain_text_export_is_escaped_into_html(exports: dict[str, Path]) -> None:
    notes = read_text_export(exports["plain"])
    assert notes[0].fields[0] == "Which pair merges first?"
    assert notes[0].guid is None and notes[0].deck == "" and notes[0].tags == ()
    assert "&amp;" in notes[0].fields[1]  # text '&' shown as text once it is HTML


def test_cards_export_gives_rendered_question_and_answer(exports: dict[str, Path]) -> None:
    notes = read_text_export(exports["cards"])
    assert len(notes) == 3
    assert notes[2].fields[0].count("[...]") == 1 and "WordPiece" in notes[2].fields[1]


def _write(tmp_path: Path, text: str | bytes, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_headers_columns_and_quoted_multiline_fields(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "#separator:Semicolon\n#html:false\n#tags:global\n#columns:Front;Back;Tags\n#tags column:3\n"
        '"multi\nline";"a ""quoted"" <b>";one two\n'
        "# a comment line\n"
        'second;"# inside quotes\nstill the field";\n',
    )
    first, second = read_text_export(path)
    assert first.fields == ("multi<br>line", 'a "quoted" &lt;b&gt;')
    assert first.field_names == ("Front", "Back")
    assert first.tags == ("global", "one", "two")
    assert first.where == "line 6"
    assert second.fields == ("second", "# inside quotes<br>still the field")
    assert second.where == "line 9"


def test_separator_is_found_when_not_declared(tmp_path: Path) -> None:
    path = _write(tmp_path, "front|back\nq2|a2\n")
    assert [n.fields for n in read_text_export(path)] == [("front", "back"), ("q2", "a2")]


def test_legacy_tags_first_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "tags:old style\nfront\tback\n")
    (note,) = read_text_export(path)
    assert note.tags == ("old", "style") and note.fields == ("front", "back")


def test_html_is_guessed_when_not_declared(tmp_path: Path) -> None:
    (note,) = read_text_export(_write(tmp_path, "<b>q</b>\ta &amp; b\n"))
    assert note.fields == ("<b>q</b>", "a &amp; b")
    (note,) = read_text_export(_write(tmp_path, "q < r\ta & b\n", "plain.txt"))
    assert note.fields == ("q &lt; r", "a &amp; b")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"front\tback\n\xff\xfe broken\n", ":2: not UTF-8 text"),
        (b"PK\x03\x04\x00\x00binary", "holds binary data"),
        ("#separator:bananas\nq\ta\n", ":1: separator: unknown separator 'bananas'"),
        ("#html:maybe\nq\ta\n", ":1: html: expected true or false, got 'maybe'"),
        ("#separator:tab\n#guid column:zero\nq\ta\n", ":2: guid column: expected a column number from 1, got 'zero'"),
    ],
)
def test_broken_files_name_file_line_and_field(tmp_path: Path, text: str | bytes, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(AnkiFileError) as caught:
        read_text_export(path)
    assert str(caught.value).startswith(str(path))
    assert message in str(caught.value)


def test_a_file_past_the_size_cap_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tokdrill.anki import textexport

    monkeypatch.setattr(textexport, "MAX_TEXT_BYTES", 1 << 10)
    path = _write(tmp_path, "q\ta\n" * 1000)
    with pytest.raises(AnkiFileError, match="larger than 1 KiB; not read"):
        read_text_export(path)


def test_a_field_larger_than_csvs_default_limit(tmp_path: Path) -> None:
    picture = '<img src="data:image/png;base64,' + "A" * (300 << 10) + '">'
    quoted = picture.replace('"', '""')
    (note,) = read_text_export(_write(tmp_path, f'#html:true\nQ\t"{quoted}"\n'))
    assert note.fields[1] == picture
