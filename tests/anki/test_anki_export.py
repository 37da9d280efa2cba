"""`tokdrill export-anki`: the package is a zip with an Anki collection, stable ids, real HTML."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from pathlib import Path

import pytest
from anki_helpers import anki_collection, folder_snapshot, import_into_anki, write_tricky_content

from tokdrill.anki import notetype as nt
from tokdrill.anki.export import write_package
from tokdrill.cli import main
from tokdrill.content import Deck, load_library


@pytest.fixture
def tricky(tmp_path: Path) -> Deck:
    write_tricky_content(tmp_path / "content")
    library = load_library([tmp_path / "content"], include_shipped=False, use_cache=False)
    assert library.ok, library.errors
    return library.deck("tricky")


def _collection(package: Path, scratch: Path) -> sqlite3.Connection:
    with zipfile.ZipFile(package) as archive:
        assert set(archive.namelist()) == {"collection.anki2", "media"}
        assert json.loads(archive.read("media")) == {}
        (scratch / "col.sqlite").write_bytes(archive.read("collection.anki2"))
    return sqlite3.connect(scratch / "col.sqlite")


def _notes(package: Path, scratch: Path) -> dict[str, tuple[str, list[str], list[str], int]]:
    """card id -> (guid, fields, tags, note type id), read straight from the SQLite collection."""
    db = _collection(package, scratch)
    rows = db.execute("SELECT guid, flds, tags, mid FROM notes").fetchall()
    db.close()
    notes = {}
    for guid, flds, tags, mid in rows:
        fields = flds.split("\x1f")
        notes[fields[nt.FIELDS.index(nt.CARD_ID)]] = (guid, fields, tags.split(), mid)
    return notes


def test_the_package_holds_one_note_per_card_with_every_part(tricky: Deck, tmp_path: Path) -> None:
    package = tmp_path / "out.apkg"
    summary = write_package([tricky], package, timestamp=1_700_000_000)
    assert summary.notes == {"tricky": 2}
    notes = _notes(package, tmp_path)
    assert set(notes) == {"tricky-markers", "tricky-code"}
    guid, fields, tags, mid = notes["tricky-code"]
    question, answer, follow_ups, key_points, references, card_id = fields
    assert guid == nt.note_guid("tricky-code")
    assert mid == nt.note_type_id()
    assert card_id == "tricky-code"
    # Markdown became HTML, code was highlighted by Pygments (classes styled by the note type's CSS)
    assert "<ol>" in answer and "<blockquote>" in answer and "<strong>one</strong>" in answer
    assert '<code class="language-python">' in answer and '<span class="n">symbols</span>' in answer
    assert '<pre><code class="language-python">' in question
    assert follow_ups.startswith('<details class="follow-up"><summary>And with <code>')
    assert "<pre><code>[&quot;a&quot;, &quot;b&quot;]" in follow_ups
    assert key_points == (
        '<ul class="key-points"><li>split into symbols</li><li>lowest-ranked pair</li><li>one token</li></ul>'
    )
    assert references == ""
    assert tags == []
    _, marker_fields, marker_tags, _ = notes["tricky-markers"]
    # tokenizer notation is text, not markup; Anki forbids spaces in tags
    assert "est&lt;/w&gt; ends a word" in marker_fields[1]
    assert "<code>est&lt;/w&gt;</code>" in marker_fields[0]
    assert "<td><code>a|b</code></td>" in marker_fields[1]
    assert marker_tags == ["bpe", "word_boundary", "concept::word-boundary-marker"]
    assert marker_fields[4] == (
        '<ul class="references"><li><a class="title" href="https://aclanthology.org/P16-1162/">Neural Machine '
        'Translation of Rare Words with Subword Units</a>, <span class="authors">Rico Sennrich, Barry Haddow, '
        'Alexandra Birch</span> (<span class="year">2016</span>). <span class="venue">ACL 2016</span></li>'
        '<li><span class="title">Language Models are Unsupervised Multitask Learners</span>. '
        '<span class="venue">OpenAI technical report</span></li></ul>'
    )


def test_note_type_and_deck_are_named_and_styled(tricky: Deck, tmp_path: Path) -> None:
    package = tmp_path / "out.apkg"
    write_package([tricky], package, timestamp=1_700_000_000)
    db = _collection(package, tmp_path)
    models_json, decks_json = db.execute("SELECT models, decks FROM col").fetchone()
    db.close()
    model = json.loads(models_json)[str(nt.note_type_id())]
    assert model["name"] == nt.NOTE_TYPE_NAME
    assert [f["name"] for f in model["flds"]] == list(nt.FIELDS)
    assert ".nightMode pre code .k" in model["css"] and "pre code .k" in model["css"]
    assert "<hr id=answer>" in model["tmpls"][0]["afmt"]
    deck = json.loads(decks_json)[str(nt.deck_id("tricky"))]
    assert deck["name"] == "tokdrill::Conversions that must survive"


def test_two_exports_give_the_same_guids_and_ids(tricky: Deck, tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "one.apkg", tmp_path / "b" / "two.apkg"
    first.parent.mkdir()
    second.parent.mkdir()
    write_package([tricky], first, timestamp=1_700_000_000)
    write_package([tricky], second, timestamp=1_800_000_000)
    one, two = _notes(first, first.parent), _notes(second, second.parent)
    assert {k: (v[0], v[3]) for k, v in one.items()} == {k: (v[0], v[3]) for k, v in two.items()}
    assert len({v[0] for v in one.values()}) == 2


def test_anki_imports_the_package_and_updates_it_on_a_newer_export(tricky: Deck, tmp_path: Path) -> None:
    """Anki's own importer: new notes first, then the same GUIDs update instead of duplicating."""
    first, second = tmp_path / "first.apkg", tmp_path / "second.apkg"
    write_package([tricky], first, timestamp=1_700_000_000)
    write_package([tricky], second, timestamp=1_800_000_000)
    with anki_collection(tmp_path) as col:
        log = import_into_anki(col, first)
        assert (len(log.new), len(log.updated), len(log.duplicate)) == (2, 0, 0)
        log = import_into_anki(col, second)
        assert (len(log.new), len(log.updated)) == (0, 2)
        assert col.note_count() == 2 and col.card_count() == 2
        note = col.get_note(col.find_notes('"Card ID:tricky-code"')[0])
        assert note.guid == nt.note_guid("tricky-code")
        assert note.note_type()["name"] == nt.NOTE_TYPE_NAME
        card = note.cards()[0]
        assert "encode(" in card.question()
        assert "Ranks, not counts, decide." in card.answer()
        assert col.decks.name(card.did) == "tokdrill::Conversions that must survive"


def test_cli_exports_chosen_decks_and_reports(tmp_path: Path, capsys) -> None:
    package = tmp_path / "two.apkg"
    assert main(["export-anki", "--deck", "bpe", "--deck", "wordpiece", "--json", str(package)]) == 0
    report = json.loads(capsys.readouterr().out)
    library = load_library([])
    expected = {"bpe": len(library.deck("bpe").cards), "wordpiece": len(library.deck("wordpiece").cards)}
    assert report == {"file": str(package), "decks": expected, "notes": sum(expected.values())}
    assert len(_notes(package, tmp_path)) == sum(expected.values())


def test_cli_exports_every_deck_by_default(tmp_path: Path, capsys) -> None:
    package = tmp_path / "all.apkg"
    assert main(["export-anki", str(package)]) == 0
    total = len(load_library([]).all_cards())
    assert capsys.readouterr().out.startswith(f"wrote {package}: {total} notes in ")
    assert len(_notes(package, tmp_path)) == total


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--deck", "no-such-deck", "out.apkg"], "no deck with id 'no-such-deck' (decks: "),
        (["out.zip"], "the file name must end in .apkg"),
    ],
)
def test_cli_usage_errors_write_nothing(argv: list[str], message: str, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["export-anki", *argv]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_the_old_package_and_no_partial_file(
    tricky: Deck, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "out" / "deck.apkg"
    package.parent.mkdir()
    package.write_bytes(b"the previous export")

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(zipfile.ZipFile, "writestr", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_package([tricky], package, timestamp=1_700_000_000)
    assert folder_snapshot(package.parent) == {"deck.apkg": b"the previous export"}


def test_cli_reports_an_unwritable_target(tmp_path: Path, capsys) -> None:
    target = tmp_path / "missing-folder" / "out.apkg"
    assert main(["export-anki", "--deck", "bpe", str(target)]) == 1
    err = capsys.readouterr().err
    assert f"cannot write {target}: No such file or directory" in err


def test_decks_sharing_a_title_stay_apart_in_anki(tricky: Deck, tmp_path: Path) -> None:
    twin = Deck("tricky-twin", tricky.title, "", tricky.cards[:0], tricky.origin)
    package = tmp_path / "twins.apkg"
    write_package([tricky, twin], package, timestamp=1_700_000_000)
    db = _collection(package, tmp_path)
    names = {d["name"] for d in json.loads(db.execute("SELECT decks FROM col").fetchone()[0]).values()}
    db.close()
    assert {
        "tokdrill::Conversions that must survive (tricky)",
        "tokdrill::Conversions that must survive (tricky-twin)",
    } <= names
