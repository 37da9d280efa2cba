"""The notes shown beside a shipped card's Playground text say what the shipped tables compute for it."""

from __future__ import annotations

import fact_sources as src
import pytest
from card_facts import CL, O2, end_offsets

from tokdrill.content.loader import load_library
from tokdrill.content.model import SeeIt


@pytest.fixture(scope="module")
def see_its() -> dict[str, SeeIt]:
    library = load_library([], use_cache=False)
    return {card.id: card.see_it for card in library.all_cards() if card.see_it is not None}


def test_every_o200k_boundary_of_the_hindi_sentence_is_a_cl100k_boundary(see_its: dict[str, SeeIt]) -> None:
    text = see_its["xfer-align-two-tokenizations"].text
    assert text == src.PARALLEL["Hindi"]
    assert end_offsets(O2, text) < end_offsets(CL, text)


def test_the_two_periods_are_different_tokens(see_its: dict[str, SeeIt]) -> None:
    first, last = see_its["v25-deepseek-v3-boundary-bias"].text.split("\n", 1)
    assert src.token_bytes(CL, first + "\n")[-1] == b".\n"
    assert src.token_bytes(CL, last)[-1] == b"."


def test_o200k_has_whole_tokens_for_two_of_the_math_symbols(see_its: dict[str, SeeIt]) -> None:
    symbols = see_its["mcode-math-symbols"].text
    assert [ch for ch in symbols if src.count(O2, ch) == 1] == ["√", "∞"]
    assert all(src.count(CL, ch) == 2 for ch in symbols)


def test_a_special_tokens_spelling_in_ordinary_text_never_becomes_its_id(see_its: dict[str, SeeIt]) -> None:
    text = see_its["nc-special-token-safe-encode"].text
    for name in (CL, O2):
        assert not set(src.ids(name, text)) & set(src.special_tokens(name).values())
        assert src.count(name, text) > 3


def test_words_stay_separate_pieces_in_the_multi_word_phrases(see_its: dict[str, SeeIt]) -> None:
    text = see_its["span-why-words-stop-merges"].text
    for name in (CL, O2):
        assert all(piece.count(b" ") <= 1 for piece in src.token_bytes(name, text))
