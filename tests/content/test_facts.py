"""Every computable number a shipped card states is recomputed from the library that produces it.

Each fact in ``card_facts.FACTS`` names a card, the sentence of that card that states the fact
(with ``{}`` where the computed values go) and the code that computes the values. The card must
contain the sentence with exactly the values the code computes today, so a library upgrade or
an edit that changes a number fails here with both versions side by side.
"""

from __future__ import annotations

import re
import string
from functools import partial

import pytest
from card_facts import FACTS, Fact, card_texts, flatten, rendered


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return card_texts()


@pytest.mark.parametrize("fact", FACTS, ids=[f"{f.card}:{f.claim[:40]}" for f in FACTS])
def test_card_states_what_the_library_computes(fact: Fact, texts: dict[str, str]) -> None:
    assert fact.card in texts, f"no shipped card {fact.card!r}"
    expected = rendered(fact)
    card = texts[fact.card]
    if expected in card:
        return
    # Show what the card says in the same place, if the surrounding words are still there.
    literal = [re.escape(flatten(part)) for part, *_ in string.Formatter().parse(fact.claim)]
    found = re.search("(.{1,40}?)".join(literal), card)
    stated = found.group(0) if found else "(the sentence is not in the card)"
    pytest.fail(f"{fact.card}: the library computes\n  {expected}\nbut the card says\n  {stated}")


def test_every_fact_computes_at_least_one_value() -> None:
    """A claim with no placeholder would be a hard-coded result, not a computed one."""
    empty = [f"{f.card}: {f.claim}" for f in FACTS if not any(name is not None for *_, name, _, _ in _fields(f))]
    assert not empty, empty


def test_every_value_sits_between_words_of_the_card() -> None:
    """A claim may not start or end with a value, or "1 byte" would also match a card saying "11 byte"."""
    loose = []
    for fact in FACTS:
        fields = _fields(fact)
        if not fields[0][0] or fields[-1][1] is not None:
            loose.append(f"{fact.card}: {fact.claim}")
    assert not loose, loose


def test_facts_are_unique() -> None:
    keys = [(f.card, f.claim) for f in FACTS]
    assert len(keys) == len(set(keys))


def test_the_check_fails_when_a_card_states_another_value(texts: dict[str, str]) -> None:
    """A value one digit off (or one character longer) is not accepted for any fact."""
    accepted = []
    for fact in FACTS:
        off_by_one = tuple(v + "9" for v in fact.values())
        wrong = Fact(fact.card, fact.claim, partial(tuple, off_by_one), fact.how)
        if rendered(wrong) in texts[fact.card]:
            accepted.append(f"{fact.card}: {rendered(wrong)}")
    assert not accepted, accepted


def _fields(fact: Fact) -> list[tuple[str, str | None, str | None, str | None]]:
    return list(string.Formatter().parse(fact.claim))
