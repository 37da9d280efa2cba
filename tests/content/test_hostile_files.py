"""Whatever a content file holds (YAML tags, anchors, merge keys, nesting, binary, odd encodings,
escapes, other kinds of files), loading reports `file:line: field: message` or accepts it."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import ordinary_account
import pytest
from content_helpers import deck_yaml, drill_yaml, load_only

from tokdrill.content import files
from tokdrill.content.yaml_reading import MAX_DEPTH

DECK_HEAD = (
    "deck: hostile\ntitle: Hostile\ncards:\n  - id: hostile-card\n    question: Q?\n    key_points: [one, two]\n"
)

# name -> (the card's `answer:` value as YAML, line of the error, its field, a phrase of the message)
BAD_VALUES = {
    "timestamp-garbage": ("!!timestamp garbage", 7, "cards[0].answer", "not a valid timestamp"),
    "timestamp-impossible": ("!!timestamp 2001-02-30", 7, "cards[0].answer", "not a valid timestamp"),
    "timestamp-valid": ("!!timestamp 2001-12-14", 7, "cards[0].answer", "got a date"),
    "plain-date": ("2001-12-14", 7, "cards[0].answer", "got a date (2001-12-14) (put it in quotes"),
    "bool-maybe": ("!!bool maybe", 7, "cards[0].answer", "not a valid bool"),
    "int-word": ("!!int many", 7, "cards[0].answer", "not a valid int"),
    "int-huge": ("9" * 5000, 7, "cards[0].answer", "not a valid int"),
    "float-word": ("!!float much", 7, "cards[0].answer", "not a valid float"),
    "binary": ("!!binary aGVsbG8=", 7, "cards[0].answer", "unsupported YAML tag tag:yaml.org,2002:binary"),
    "python-object": ("!!python/object/apply:os.system [echo hi]", 7, "cards[0].answer", "unsupported YAML tag"),
    "python-name": ("!!python/name:os.system", 7, "cards[0].answer", "unsupported YAML tag"),
    "set": ("!!set {a: null}", 7, "cards[0].answer", "unsupported YAML tag"),
    "omap": ("!!omap [{a: 1}]", 7, "cards[0].answer", "unsupported YAML tag"),
    "local-tag": ("!mine text", 7, "cards[0].answer", "unsupported YAML tag !mine"),
    "str-tag-on-map": ("!!str {a: 1}", 7, "cards[0].answer", "unsupported YAML tag"),
    "escape-sequence": ('"clear \\e[2J the screen"', 7, "cards[0].answer", "control character"),
    "nul-escape": ('"a\\0b"', 7, "cards[0].answer", "control character"),
    "c1-escape": ('"a\\x9bb"', 7, "cards[0].answer", "control character"),
    "null-tag": ("!!null whatever", 7, "cards[0].answer", "missing"),
    "infinity": (".inf", 7, "cards[0].answer", "expected a string, got a number (inf)"),
}


@pytest.mark.parametrize("name", sorted(BAD_VALUES))
def test_every_tagged_or_escaped_value_is_an_error_at_its_line(tmp_path: Path, name: str) -> None:
    value, line, field, phrase = BAD_VALUES[name]
    path = tmp_path / "deck.yaml"
    path.write_text(DECK_HEAD + f"    answer: {value}\n", encoding="utf-8")
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(line, field)], [str(e) for e in library.errors]
    assert phrase in library.errors[0].message or (
        name == "null-tag" and library.errors[0].message == "must not be empty"
    )
    assert library.decks == {}


def test_a_quoted_key_with_an_escape_sequence_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(deck_yaml("d", "c") + '    "\\e[2Jx": 1\n', encoding="utf-8")
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(9, "cards[0]")]
    assert "'\\x1b[2Jx' holds a control character" in library.errors[0].message


def test_anchors_aliases_and_merge_keys_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(
        "deck: merged\ntitle: &title Merged deck\ndescription: *title\ncards:\n"
        "  - &base\n    id: base-card\n    question: Q?\n    answer: A.\n    key_points: &points [one, two]\n"
        "  - <<: *base\n    id: second-card\n    key_points: *points\n"
        "  - <<: [{question: First wins?, answer: Yes.}, {question: Not this., key_points: [x, y]}]\n"
        "    id: third-card\n    key_points: [three, four]\n",
        encoding="utf-8",
    )
    library = load_only(path)
    assert library.errors == ()
    assert library.deck("merged").description == "Merged deck"
    second, third = library.card("second-card"), library.card("third-card")
    assert (second.question, second.answer, second.key_points) == ("Q?", "A.", ("one", "two"))
    assert (third.question, third.key_points) == ("First wins?", ("three", "four"))
    assert second.origin.line == 10


def test_a_merge_of_something_other_than_a_mapping_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(deck_yaml("d", "c") + "    <<: [just text]\n", encoding="utf-8")
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(9, "cards[0].<<")]
    assert "merges a mapping" in library.errors[0].message


def test_recursive_aliases_and_alias_bombs_load_without_blowing_up(tmp_path: Path) -> None:
    bomb = "".join(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 12))
    path = tmp_path / "drill.yaml"
    path.write_text("l0: &l0 [x, x, x, x, x, x, x, x, x]\n" + bomb + "id: d\ntags: &t [*t]\n", encoding="utf-8")
    library = load_only(path)  # 9**12 strings if expanded: only the shared structure exists
    fields = {e.field for e in library.errors}
    assert {"l0", "l11", "tags[0]", "title"} <= fields
    assert library.drills == {}


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("id: x\ntags: " + "[" * 5000 + "]" * 5000 + "\n", "nest"),
        ("id: x\ntags: " + "{a: " * 5000 + "1" + "}" * 5000 + "\n", "nest"),
        ("id: x\ntags: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n", f"more than {MAX_DEPTH} levels"),
        ("id: x\ntags:\n" + "".join(" " * i + "-\n" for i in range(2000)), "nest"),
    ],
    ids=["flow-list", "flow-map", "just-past-the-limit", "block"],
)
def test_deep_nesting_is_an_error_not_a_recursion_error(tmp_path: Path, text: str, phrase: str) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    library = load_only(path)
    assert any(phrase in e.message for e in library.errors), [str(e) for e in library.errors]


@pytest.mark.parametrize(
    ("data", "line", "field", "phrase"),
    [
        (bytes(range(256)) * 8, 1, "yaml", "control characters are not allowed"),
        (b"\x89PNG\r\n\x1a\n" + bytes(64), 1, "yaml", "unacceptable character"),
        (b"deck: x\ntitle: caf\xe9\n", 1, "yaml", "utf-8"),
        (b"", 1, "file", "empty"),
        (b"# only a comment\n", 1, "file", "empty"),
        (b"id: a\n---\nid: b\n", 2, "yaml", "expected a single document"),
        (b"just a sentence\n", 1, "file", "got a string"),
        (b"~\n", 1, "file", "got nothing"),
        (b"--- null\n", 1, "file", "got nothing"),
        (b"- a\n- b\n", 1, "file", "got a list"),
    ],
    ids=["binary", "png", "latin-1", "empty", "comment-only", "two-documents", "scalar", "tilde", "null", "list"],
)
def test_files_that_are_not_yaml_content_are_errors(
    tmp_path: Path, data: bytes, line: int, field: str, phrase: str
) -> None:
    path = tmp_path / "odd.yaml"
    path.write_bytes(data)
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(line, field)], [str(e) for e in library.errors]
    assert phrase.lower() in library.errors[0].message.lower()


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig"])
def test_unicode_files_with_a_byte_order_mark_load(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "deck.yaml"
    path.write_bytes(deck_yaml("bom-deck", "bom-card").replace("Q bom-card?", "Qué? ≠").encode(encoding))
    library = load_only(path)
    assert library.errors == () and library.card("bom-card").question == "Qué? ≠"


def test_a_file_larger_than_the_limit_is_refused_without_reading_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "MAX_BYTES", 1000)
    monkeypatch.setattr(files.read_bounded, "__defaults__", (1000,))
    path = tmp_path / "big.yaml"
    path.write_text(deck_yaml("big", *(f"card-{i}" for i in range(40))), encoding="utf-8")
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(1, "file")]
    assert "too large" in library.errors[0].message


def test_a_named_pipe_among_content_files_never_blocks(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "deck.yaml").write_text(deck_yaml("pipe-neighbour", "pipe-card"), encoding="utf-8")
    library = load_only(tmp_path)  # a folder: the pipe is not a regular file, so it is not content
    assert library.errors == () and "pipe-neighbour" in library.decks
    single = load_only(tmp_path / "pipe.yaml")  # named on its own
    assert [(e.field, e.message) for e in single.errors] == [
        ("content", "not a content file or folder (a pipe, device or socket)")
    ]


def test_a_pipe_swapped_in_after_listing_is_reported_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    with pytest.raises(files.UnreadableFile, match="not a regular file"):
        files.read_bounded(tmp_path / "pipe.yaml")


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder an unprivileged user can reach (pytest's own temporary folders are private)."""
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-shared-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in sorted(folder.rglob("*"), reverse=True):
            path.chmod(0o700)
        shutil.rmtree(folder)


LOAD_AND_PRINT = (
    "import sys; from tokdrill.content.loader import load_library; "
    "lib = load_library(sys.argv[1:], include_shipped=False, use_cache=False); "
    "print(sorted(lib.decks)); print([str(e) for e in lib.errors])"
)


@pytest.mark.ordinary_user
@pytest.mark.usefixtures("ordinary_python")
def test_unreadable_files_and_folders_are_errors_for_an_ordinary_user(shared_dir: Path) -> None:
    folder = shared_dir / "content"
    (folder / "questions").mkdir(parents=True)
    (folder / "secret.yaml").write_text(deck_yaml("secret", "secret-card"), encoding="utf-8")
    (folder / "open.yaml").write_text(deck_yaml("open", "open-card"), encoding="utf-8")
    locked = shared_dir / "locked"
    (locked / "inside").mkdir(parents=True)
    for path in folder.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    folder.chmod(0o755)
    (folder / "secret.yaml").chmod(0o000)
    (folder / "questions").chmod(0o000)
    locked.chmod(0o000)
    done = ordinary_account.run_python(LOAD_AND_PRINT, str(folder), str(locked / "inside"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    decks, errors = done.stdout.splitlines()
    assert decks == "['open']"
    assert f"{folder / 'secret.yaml'}:1: file: cannot read: Permission denied" in errors
    assert f"{folder / 'questions'}:1: content: cannot list this folder: Permission denied" in errors
    assert f"{locked / 'inside'}:1: content: cannot read: Permission denied" in errors


@pytest.mark.slow
def test_a_hundred_thousand_unknown_keys_give_a_bounded_list_of_errors(content_dir: Path) -> None:
    path = content_dir / "drill.yaml"
    path.write_text(drill_yaml("many") + "".join(f"extra-{i}: {i}\n" for i in range(100_000)), encoding="utf-8")
    library = load_only(path)
    assert len(library.errors) == 201
    assert library.errors[-1].message == "99800 more problem(s) in this file not shown"
