"""Every shipped card sends the reader somewhere they can check it, and speaks only of things they have.

Cards cite papers (authors, year, venue or arXiv id) and library documentation or tokenizer files
under ``references:``; they never mention documents a user does not have.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]

# Words that would point a user at material they never see: research notes, "the book", numbered
# source texts. ("seed" alone is fine: SentencePiece's seed vocabulary and random seeds are real.)
UNSHIPPED = re.compile(
    r"\bseed\s*0\d\d\b|\bseeds?\s+(?:text|say|says|claim|claims|suggest|suggests|table)\b|\bthe book\b|\bsource texts?\b",
    re.IGNORECASE,
)


def _cards() -> list[tuple[str, dict[str, object]]]:
    cards = []
    for path in sorted((ROOT / "questions").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cards += [(f"{path.name}:{card['id']}", card) for card in data.get("cards") or []]
    return cards


CARDS = _cards()


@pytest.mark.parametrize(("where", "card"), CARDS, ids=[w for w, _ in CARDS])
def test_card_cites_at_least_one_followable_source(where: str, card: dict[str, object]) -> None:
    references = card.get("references")
    assert isinstance(references, list) and references, f"{where}: no references"
    for ref in references:
        assert isinstance(ref, dict) and ref.get("title"), f"{where}: a reference without a title: {ref!r}"
        assert ref.get("venue") or ref.get("url"), f"{where}: {ref['title']!r} has neither venue nor url"
        url = ref.get("url")
        assert url is None or re.fullmatch(r"https?://\S+", str(url)), f"{where}: bad url {url!r}"
        if "year" in ref:
            assert isinstance(ref["year"], int) and 1950 <= ref["year"] <= 2100, f"{where}: year {ref['year']!r}"


@pytest.mark.parametrize(("where", "card"), CARDS, ids=[w for w, _ in CARDS])
def test_card_never_mentions_material_users_do_not_have(where: str, card: dict[str, object]) -> None:
    text = yaml.safe_dump(card, allow_unicode=True)
    found = UNSHIPPED.findall(text)
    assert not found, f"{where}: mentions {found}"


def test_papers_name_their_authors_and_year() -> None:
    """A reference with an arXiv id or a conference venue is a paper: it needs authors and a year."""
    missing = []
    for where, card in CARDS:
        references = card.get("references")
        for ref in references if isinstance(references, list) else []:
            venue = str(ref.get("venue", ""))
            is_paper = re.search(
                r"arXiv:|ACL|EMNLP|NAACL|NeurIPS|ICML|ICLR|TACL|JMLR|ICASSP|EACL|COLM|S&P|USENIX", venue
            )
            if is_paper and not (ref.get("authors") and ref.get("year")):
                missing.append(f"{where}: {ref['title']}")
    assert not missing, missing


def test_the_wording_check_catches_a_mention() -> None:
    assert UNSHIPPED.search("As seed 003 says, BPE is greedy.")
    assert UNSHIPPED.search("The book claims otherwise.")
    assert not UNSHIPPED.search("SentencePiece mines a seed vocabulary; random.Random(seed) is injected.")
