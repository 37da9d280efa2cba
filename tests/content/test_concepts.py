"""Concepts: the vocabulary files, cards that teach them, hidden tests that check them."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from content_helpers import drill_yaml, load_only

from tokdrill.cli import main
from tokdrill.content import loader
from tokdrill.content.hidden_tests import read_hidden_test_file

VOCABULARY = """\
concepts:
  - id: my-merge-order
    title: Merges apply in rank order
    lesson: Replay merges in the order they were learned, never by frequency.
  - id: my-tie-break
    title: Ties go to the larger pair
    lesson: When counts tie, the pair that sorts last wins.
"""

HIDDEN = """\
import pytest
from pytest import mark

pytestmark = [pytest.mark.slow, pytest.mark.concept("my-tie-break")]


@pytest.mark.concept("my-merge-order")
@pytest.mark.parametrize("n", [1, 2])
def test_rank_order(impl, n):
    assert impl


def test_only_module_marks(impl):
    assert impl


def helper_not_a_test():
    pass


@mark.concept("my-merge-order")
class TestGroup:
    pytestmark = pytest.mark.concept("my-tie-break")

    def test_inside(self, impl):
        assert impl

    class TestNested:
        @pytest.mark.concept("my-merge-order", "my-tie-break")
        async def test_deep(self, impl):
            assert impl


class NotCollected:
    @pytest.mark.concept("nowhere")
    def test_ignored(self):
        pass
"""


def concept_deck(*card_concepts: str) -> str:
    """A deck with one card per entry of ``card_concepts`` (a YAML flow list of concept ids)."""
    cards = "".join(
        f"  - id: c{i}\n    question: Q{i}?\n    answer: A{i}.\n    key_points: [one, two]\n    concepts: {c}\n"
        for i, c in enumerate(card_concepts)
    )
    return f"deck: concept-deck\ntitle: Concepts\ncards:\n{cards}"


@pytest.fixture
def vocabulary(content_dir: Path) -> Path:
    path = content_dir / "concepts.yaml"
    path.write_text(VOCABULARY, encoding="utf-8")
    return path


def test_a_concept_file_gives_the_library_its_vocabulary(vocabulary: Path) -> None:
    library = load_only(vocabulary)
    assert library.errors == ()
    assert list(library.concepts) == ["my-merge-order", "my-tie-break"]
    concept = library.concept("my-tie-break")
    assert concept.title == "Ties go to the larger pair" and concept.lesson.startswith("When counts tie")
    assert str(concept.origin) == f"{vocabulary}:5"
    with pytest.raises(KeyError, match="no concept with id 'nope'"):
        library.concept("nope")


@pytest.mark.parametrize(
    ("text", "line", "field", "phrase"),
    [
        ("concepts:\n  - id: a\n    title: A\n", 2, "concepts[0].lesson", "missing required key"),
        ("concepts:\n  - id: Bad Id\n    title: A\n    lesson: L.\n", 2, "concepts[0].id", "not a valid id"),
        ("concepts:\n  - id: a\n    title: A\n    lesson: L.\n    extra: 1\n", 5, "concepts[0].extra", "unknown key"),
        ("concepts: my-merge-order\n", 1, "concepts", "expected a list"),
        ("concepts:\n  - my-merge-order\n", 2, "concepts[0]", "expected a mapping"),
        ("title: x\nconcepts:\n  - id: a\n    title: A\n    lesson: L.\n", 1, "title", "unknown key"),
    ],
)
def test_each_concept_file_mistake_names_file_line_and_field(
    content_dir: Path, text: str, line: int, field: str, phrase: str
) -> None:
    path = content_dir / "concepts.yaml"
    path.write_text(text, encoding="utf-8")
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors][:1] == [(line, field)], [str(e) for e in library.errors]
    assert phrase in library.errors[0].message


def test_a_concept_defined_twice_keeps_the_first_and_names_both(content_dir: Path, vocabulary: Path) -> None:
    (content_dir / "more.yaml").write_text(
        "concepts:\n  - id: my-merge-order\n    title: Again\n    lesson: L.\n  - id: extra\n    title: E\n    lesson: L.\n",
        encoding="utf-8",
    )
    library = load_only(vocabulary, content_dir / "more.yaml")
    assert [(e.path.name, e.line, e.field) for e in library.errors] == [("more.yaml", 2, "concepts[0].id")]
    assert f"{vocabulary}:2" in library.errors[0].message
    assert library.concept("my-merge-order").title == "Merges apply in rank order"
    assert "extra" in library.concepts


def test_cards_name_known_concepts_and_an_unknown_one_drops_only_its_card(content_dir: Path, vocabulary: Path) -> None:
    deck = content_dir / "deck.yaml"
    deck.write_text(
        concept_deck("[my-merge-order, my-tie-break]", "[my-merge-order, no-such-thing]", "[]"), encoding="utf-8"
    )
    library = load_only(content_dir)
    assert [str(e) for e in library.errors] == [
        f"{deck}:13: cards[1].concepts[1]: unknown concept 'no-such-thing' "
        "(define it in a concept file such as questions/concepts.yaml)"
    ]
    assert library.card("c0").concepts == ("my-merge-order", "my-tie-break")
    assert library.card("c2").concepts == ()
    assert "c1" not in {c.id for c in library.all_cards()}
    assert [c.id for c in library.cards_teaching("my-merge-order")] == ["c0"]


def test_a_card_may_use_a_concept_from_a_file_loaded_after_it(content_dir: Path) -> None:
    (content_dir / "a-deck.yaml").write_text(concept_deck("[late-concept]"), encoding="utf-8")
    (content_dir / "z-concepts.yaml").write_text(
        "concepts:\n  - id: late-concept\n    title: Late\n    lesson: Defined after the deck.\n", encoding="utf-8"
    )
    library = load_only(content_dir)
    assert library.errors == () and library.card("c0").concepts == ("late-concept",)


@pytest.mark.parametrize(
    ("concepts", "field", "phrase"),
    [
        ("[Merge Order]", "cards[0].concepts[0]", "not a valid id"),
        ("[my-merge-order, my-merge-order]", "cards[0].concepts[1]", "listed twice"),
        ("my-merge-order", "cards[0].concepts", "expected a list"),
    ],
)
def test_a_malformed_card_concept_list_is_reported(
    content_dir: Path, vocabulary: Path, concepts: str, field: str, phrase: str
) -> None:
    (content_dir / "deck.yaml").write_text(concept_deck(concepts), encoding="utf-8")
    library = load_only(content_dir)
    assert [(e.line, e.field) for e in library.errors] == [(8, field)]
    assert phrase in library.errors[0].message


def test_hidden_test_markers_are_read_without_importing_the_file(tmp_path: Path) -> None:
    path = tmp_path / "test_marks.py"
    path.write_text("raise SystemExit('imported!')\n" + HIDDEN, encoding="utf-8")
    scan = read_hidden_test_file(path)
    assert scan.errors == ()
    found = {test.name: [c for c, _ in test.concepts] for test in scan.tests}
    assert found == {
        "test_marks.py::test_rank_order": ["my-tie-break", "my-merge-order"],
        "test_marks.py::test_only_module_marks": ["my-tie-break"],
        "test_marks.py::TestGroup::test_inside": ["my-tie-break", "my-merge-order"],
        "test_marks.py::TestGroup::TestNested::test_deep": ["my-tie-break", "my-merge-order"],
    }
    rank_order = next(t for t in scan.tests if t.name.endswith("test_rank_order"))
    assert rank_order.concepts == (("my-tie-break", 5), ("my-merge-order", 8))


@pytest.mark.parametrize(
    ("source", "line", "field", "phrase"),
    [
        ("NAME = 'x'\n\n@pytest.mark.concept(NAME)\ndef test_a(impl): pass\n", 3, "concepts", "quoted strings"),
        ("@pytest.mark.concept\ndef test_a(impl): pass\n", 1, "concepts", "at least one concept"),
        ("@pytest.mark.concept()\ndef test_a(impl): pass\n", 1, "concepts", "write the concepts as names"),
        ("def test_a(impl):\n    return (\n", 2, "python", "not valid Python"),
        ("x = 1\x00\n", 1, "python", "not valid Python"),
        ("x = 1\n\ny = 2\x00\n", 3, "python", "not valid Python"),
    ],
)
def test_a_malformed_hidden_test_file_is_an_error_not_an_exception(
    tmp_path: Path, source: str, line: int, field: str, phrase: str
) -> None:
    path = tmp_path / "test_bad.py"
    path.write_text("import pytest\n" + source if field == "concepts" else source, encoding="utf-8")
    scan = read_hidden_test_file(path)
    offset = 1 if field == "concepts" else 0
    assert [(e.line, e.field) for e in scan.errors] == [(line + offset, field)], scan.errors
    assert phrase in scan.errors[0].message


def test_reading_a_hidden_test_file_prints_no_python_warnings(tmp_path: Path) -> None:
    """Questionable escapes warn when Python compiles the file; reading it for its tests does
    not (a warning printed while the app draws would garble the screen)."""
    path = tmp_path / "test_escapes.py"
    path.write_text("def test_a(impl):\n    assert impl('\\e') == '\\d'\n", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scan = read_hidden_test_file(path)
    assert [t.name for t in scan.tests] == ["test_escapes.py::test_a"] and scan.errors == ()
    assert caught == []


def test_a_drill_knows_which_concepts_each_hidden_test_checks(content_dir: Path, vocabulary: Path) -> None:
    (content_dir / "hidden" / "test_user_drill.py").write_text(HIDDEN, encoding="utf-8")
    (content_dir / "d.yaml").write_text(drill_yaml("marked"), encoding="utf-8")
    library = load_only(content_dir)
    assert library.errors == ()
    drill = library.drill("marked")
    assert drill.concepts_of("test_user_drill.py::test_rank_order[2]") == ("my-tie-break", "my-merge-order")
    assert drill.concepts_of("test_user_drill.py::TestGroup::test_inside") == ("my-tie-break", "my-merge-order")
    assert drill.concepts_of("test_user_drill.py::test_unknown") == ()
    assert drill.concepts == ("my-tie-break", "my-merge-order")
    assert [d.id for d in library.drills_checking("my-tie-break")] == ["marked"]


def test_an_unknown_marker_concept_is_reported_once_at_the_decorator(content_dir: Path, vocabulary: Path) -> None:
    test_file = content_dir / "hidden" / "test_user_drill.py"
    test_file.write_text(
        'import pytest\n\n\n@pytest.mark.concept("my-merge-order", "made-up")\ndef test_a(impl):\n    assert impl\n',
        encoding="utf-8",
    )
    (content_dir / "d1.yaml").write_text(drill_yaml("first"), encoding="utf-8")
    (content_dir / "d2.yaml").write_text(drill_yaml("second"), encoding="utf-8")
    library = load_only(content_dir)
    shown = [(e.path.name, e.line, e.field) for e in library.errors]
    assert shown == [
        ("d1.yaml", 7, "hidden_tests[0]"),
        ("test_user_drill.py", 4, "concepts"),
        ("d2.yaml", 7, "hidden_tests[0]"),
    ]
    assert library.errors[1].message.startswith("unknown concept 'made-up'")
    assert "left out" in library.errors[0].message
    assert library.drills == {}


def test_untaught_and_untested_concepts(content_dir: Path, vocabulary: Path) -> None:
    (content_dir / "hidden" / "test_user_drill.py").write_text(
        'import pytest\n\n\n@pytest.mark.concept("my-tie-break")\ndef test_a(impl):\n    assert impl\n',
        encoding="utf-8",
    )
    (content_dir / "d.yaml").write_text(drill_yaml("d"), encoding="utf-8")
    (content_dir / "deck.yaml").write_text(concept_deck("[my-merge-order]"), encoding="utf-8")
    library = load_only(content_dir)
    assert library.errors == ()
    assert [c.id for c in library.untaught_concepts()] == ["my-tie-break"]
    assert [c.id for c in library.untested_concepts()] == ["my-merge-order"]


def test_validate_notes_untaught_and_untested_concepts_without_failing(
    content_dir: Path, vocabulary: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (content_dir / "deck.yaml").write_text(concept_deck("[my-merge-order]"), encoding="utf-8")
    assert main(["validate", str(content_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "ok: 2 file(s), 0 drill(s), 1 deck(s), 1 card(s), 2 concept(s)"
    assert lines[1:] == [
        f"{vocabulary}:5: my-tie-break: note: no card teaches it",
        f"{vocabulary}:2: my-merge-order: note: no hidden test checks it",
        f"{vocabulary}:5: my-tie-break: note: no hidden test checks it",
    ]
    assert main(["validate", "--json", str(content_dir)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["valid"] is True and document["concepts"] == 2
    assert document["untaught_concepts"] == ["my-tie-break"]
    assert document["untested_concepts"] == ["my-merge-order", "my-tie-break"]


def test_validate_rejects_an_unknown_card_concept(content_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (content_dir / "deck.yaml").write_text(concept_deck("[nowhere]"), encoding="utf-8")
    assert main(["validate", str(content_dir)]) == 1
    assert "deck.yaml:8: cards[0].concepts[0]: unknown concept 'nowhere'" in capsys.readouterr().out


def test_hidden_test_readings_are_cached_and_refreshed_on_edit(
    content_dir: Path, vocabulary: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[Path] = []
    real = loader._read_hidden
    monkeypatch.setattr(loader, "_read_hidden", lambda path: reads.append(path) or real(path))
    test_file = content_dir / "hidden" / "test_user_drill.py"
    test_file.write_text('import pytest\n@pytest.mark.concept("my-tie-break")\ndef test_a(impl): pass\n', "utf-8")
    (content_dir / "d.yaml").write_text(drill_yaml("d"), encoding="utf-8")
    cache = tmp_path / "cache"
    first = loader.load_library([content_dir], include_shipped=False, cache_dir=cache)
    assert first.drill("d").concepts == ("my-tie-break",) and len(reads) == 1
    second = loader.load_library([content_dir], include_shipped=False, cache_dir=cache)
    assert second == first and len(reads) == 1
    test_file.write_text('import pytest\n@pytest.mark.concept("my-merge-order")\ndef test_a(impl): pass\n', "utf-8")
    third = loader.load_library([content_dir], include_shipped=False, cache_dir=cache)
    assert third.drill("d").concepts == ("my-merge-order",) and len(reads) == 2
