"""A card's ``see_it``: a text the card opens in the Playground, checked like every other field."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_helpers import load_only

from tokdrill.encodings import SHIPPED_ENCODINGS

CARD = "deck: d\ntitle: D\ncards:\n  - id: c\n    question: Q?\n    answer: A.\n    key_points: [one, two]\n"


def _deck(tmp_path: Path, see_it: str) -> Path:
    path = tmp_path / "d.yaml"
    path.write_text(CARD + see_it)
    return path


def test_a_card_with_see_it_loads_it(tmp_path: Path) -> None:
    path = _deck(tmp_path, "    see_it:\n      text: '1234567'\n      encodings: [o200k_base]\n      note: digits\n")
    library = load_only(path)
    assert not library.errors
    see_it = library.card("c").see_it
    assert see_it is not None
    assert (see_it.text, see_it.encodings, see_it.note) == ("1234567", ("o200k_base",), "digits")


def test_encodings_default_to_the_shipped_tables(tmp_path: Path) -> None:
    see_it = load_only(_deck(tmp_path, "    see_it:\n      text: x\n")).card("c").see_it
    assert see_it is not None and see_it.encodings == SHIPPED_ENCODINGS


@pytest.mark.parametrize(
    ("see_it", "line", "field", "phrase"),
    [
        ("    see_it: just text\n", 8, "cards[0].see_it", "expected a mapping"),
        (
            "    see_it:\n      text: x\n      encodings: [/etc/tokenizer.json]\n",
            10,
            "cards[0].see_it.encodings",
            "not a shipped encoding",
        ),
        ("    see_it:\n      note: x\n", 9, "cards[0].see_it.text", "missing required key"),
        ("    see_it:\n      text: x\n      colour: red\n", 10, "cards[0].see_it.colour", "unknown key"),
    ],
)
def test_a_bad_see_it_names_file_line_and_field(
    tmp_path: Path, see_it: str, line: int, field: str, phrase: str
) -> None:
    library = load_only(_deck(tmp_path, see_it))
    assert [(e.line, e.field) for e in library.errors] == [(line, field)], [str(e) for e in library.errors]
    assert phrase in library.errors[0].message
