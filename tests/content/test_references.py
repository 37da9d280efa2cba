"""`references:` on drills and cards: what is accepted, how each mistake is reported, how it reads."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_helpers import deck_yaml, drill_yaml, load_only

from tokdrill.content.model import Reference

SENNRICH = (
    "  - title: Neural Machine Translation of Rare Words with Subword Units\n"
    "    authors: Rico Sennrich, Barry Haddow, Alexandra Birch\n"
    "    year: 2016\n"
    "    venue: ACL 2016\n"
    "    url: https://aclanthology.org/P16-1162/\n"
)


def card_with(references: str) -> str:
    """A deck whose only card carries ``references`` (YAML text, the lines after the key)."""
    return deck_yaml("ref-deck", "ref-card") + f"    references:{references}"


def test_drill_and_card_references_load_with_every_field(content_dir: Path) -> None:
    (content_dir / "d.yaml").write_text(drill_yaml("ref-drill") + "references:\n" + SENNRICH, encoding="utf-8")
    (content_dir / "k.yaml").write_text(
        card_with("\n" + SENNRICH.replace("  - ", "      - ").replace("\n    ", "\n        ")), encoding="utf-8"
    )
    library = load_only(content_dir)
    assert library.errors == ()
    expected = Reference(
        title="Neural Machine Translation of Rare Words with Subword Units",
        authors="Rico Sennrich, Barry Haddow, Alexandra Birch",
        year=2016,
        venue="ACL 2016",
        url="https://aclanthology.org/P16-1162/",
    )
    assert library.drill("ref-drill").references == (expected,)
    assert library.card("ref-card").references == (expected,)
    assert library.drill("ref-drill").to_json()["references"] == [
        {
            "title": expected.title,
            "authors": expected.authors,
            "year": 2016,
            "venue": "ACL 2016",
            "url": "https://aclanthology.org/P16-1162/",
        }
    ]


def test_references_are_optional_and_a_title_with_a_venue_or_url_is_enough(content_dir: Path) -> None:
    (content_dir / "k.yaml").write_text(
        card_with(' [{title: SentencePiece, venue: "arXiv:1808.06226"}, {title: Docs, url: "http://example.org/x"}]\n'),
        encoding="utf-8",
    )
    (content_dir / "plain.yaml").write_text(deck_yaml("plain-deck", "plain-card"), encoding="utf-8")
    library = load_only(content_dir)
    assert library.errors == ()
    assert [str(r) for r in library.card("ref-card").references] == [
        "SentencePiece. arXiv:1808.06226",
        "Docs. http://example.org/x",
    ]
    assert library.card("plain-card").references == ()


@pytest.mark.parametrize(
    ("entry", "field", "phrase"),
    [
        ("[{venue: ACL 2016}]", "references[0].title", "missing required key"),
        ("[{title: T}]", "references[0]", "give a `venue`"),
        ("[{title: T, url: 'ftp://example.org/x'}]", "references[0].url", "http:// or https://"),
        ("[{title: T, url: 'https://exa mple.org'}]", "references[0].url", "must not contain spaces"),
        ("[{title: T, url: 'https://'}]", "references[0].url", "http:// or https://"),
        ("[{title: T, url: 'https://[::1'}]", "references[0].url", "not a valid URL"),
        ("[{title: T, venue: V, year: '2016'}]", "references[0].year", "expected a year"),
        ("[{title: T, venue: V, year: true}]", "references[0].year", "expected a year"),
        ("[{title: T, venue: V, year: 3016}]", "references[0].year", "between 1800 and 2100"),
        ("[{title: T, venue: V, doi: x}]", "references[0].doi", "unknown key"),
        ("[{title: T, venue: ''}]", "references[0].venue", "must not be empty"),
        ("[{title: [T], venue: V}]", "references[0].title", "expected a string"),
        ("[Sennrich 2016]", "references[0]", "expected a mapping, got a string"),
        ("{title: T, venue: V}", "references", "expected a list"),
        ("[]", "references", "must not be an empty list"),
    ],
)
def test_each_bad_reference_is_reported_at_its_line_and_drops_the_card(
    content_dir: Path, entry: str, field: str, phrase: str
) -> None:
    path = content_dir / "k.yaml"
    path.write_text(card_with(f" {entry}\n"), encoding="utf-8")
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(9, f"cards[0].{field}")], [str(e) for e in library.errors]
    assert phrase in library.errors[0].message
    assert library.decks == {}


def test_the_retired_source_key_says_to_use_references(content_dir: Path) -> None:
    path = content_dir / "d.yaml"
    path.write_text(drill_yaml("old-drill") + "source: {seed: notes.txt, section: '1'}\n", encoding="utf-8")
    library = load_only(path)
    [error] = library.errors
    assert (error.line, error.field) == (11, "source")
    assert "use `references`" in error.message
    assert library.drills == {}


@pytest.mark.parametrize(
    ("reference", "text"),
    [
        (Reference("T", "A. Author", 2020, "V", "https://x.org"), "A. Author (2020). T. V. https://x.org"),
        (Reference("T", year=2020, venue="V"), "(2020). T. V"),
        (Reference("T", authors="A", url="https://x.org"), "A. T. https://x.org"),
    ],
)
def test_a_reference_reads_as_one_citation_line(reference: Reference, text: str) -> None:
    assert str(reference) == text
    assert reference.to_json()["title"] == "T"
    assert None not in reference.to_json().values()
