"""The deck schema: one YAML mapping -> a :class:`Deck` of valid cards, plus errors.

Deck keys: ``deck`` (id), ``title``, ``cards`` required; ``description`` optional.
Card keys: ``id``, ``question``, ``answer``, ``key_points`` (2-6 phrases; a point may list
phrases that mean the same, separated by ``|``: ``argmax | most frequent``) required;
``follow_ups`` (list of ``{question, answer}``), ``tags``, ``concepts`` (concept ids, checked
against the vocabulary by the loader), ``references`` (list of ``{title, authors, year, venue,
url}``), ``see_it`` (``{text, encodings, note}``: a text the card opens in the Playground) optional.
A broken card drops that card only; a broken deck header drops the deck (its cards
are still checked, so every error is reported).
"""

from __future__ import annotations

from pathlib import Path

from tokdrill.content.keypoints import empty_alternative
from tokdrill.content.model import Card, ContentError, Deck, FollowUp, Origin
from tokdrill.content.schema.fields import Fields, expect_mapping
from tokdrill.content.schema.results import ParsedDeck
from tokdrill.content.yaml_reading import YamlMap

DECK_REQUIRED = ("deck", "title", "cards")
DECK_OPTIONAL = ("description",)
CARD_REQUIRED = ("id", "question", "answer", "key_points")
CARD_OPTIONAL = ("follow_ups", "tags", "concepts", "references", "see_it")
FOLLOW_UP_KEYS = ("question", "answer")
KEY_POINTS_MIN, KEY_POINTS_MAX = 2, 6


def read_deck(path: Path, mapping: YamlMap, errors: list[ContentError]) -> ParsedDeck | None:
    """Check a whole deck file: the deck of its valid cards, with where ids and concepts are written.

    Returns None when the deck itself is unusable (bad id, title, or card list) or no card is
    valid; every problem found is appended to ``errors`` either way.
    """
    f = Fields(path, mapping, "", errors)
    f.check_keys(DECK_REQUIRED, DECK_OPTIONAL)
    deck_id = f.ident("deck")
    title = f.text("title")
    description = f.text("description", required=False)
    items = f.items("cards")
    header_ok = f.ok
    cards: list[Card] = []
    card_ids: list[tuple[int, int]] = []
    concept_lines: list[tuple[int, ...]] = []
    for index, (item, line) in enumerate(zip(items or (), items.item_lines if items else ())):
        parsed = _parse_card(path, item, line, f"cards[{index}]", deck_id or "", errors)
        if parsed is not None:
            card, id_line, lines = parsed
            cards.append(card)
            card_ids.append((index, id_line))
            concept_lines.append(lines)
    if not header_ok or not cards or deck_id is None or title is None or description is None:
        return None
    deck = Deck(deck_id, title, description, tuple(cards), Origin(path, mapping.line))
    return ParsedDeck(deck, mapping.value_lines["deck"], tuple(card_ids), tuple(concept_lines))


def _parse_card(
    path: Path, item: object, line: int, prefix: str, deck_id: str, errors: list[ContentError]
) -> tuple[Card, int, tuple[int, ...]] | None:
    """The card, the line of its id and the line of each of its concepts; None if it is unusable."""
    mapping = expect_mapping(path, item, line, prefix, errors)
    if mapping is None:
        return None
    f = Fields(path, mapping, prefix, errors)
    f.check_keys(CARD_REQUIRED, CARD_OPTIONAL)
    card_id = f.ident("id")
    question = f.text("question")
    answer = f.text("answer")
    key_points = f.text_list("key_points")
    if key_points is not None and not KEY_POINTS_MIN <= len(key_points) <= KEY_POINTS_MAX:
        f.error(
            f.value_line("key_points"),
            f.name("key_points"),
            f"give {KEY_POINTS_MIN} to {KEY_POINTS_MAX} short phrases, got {len(key_points)}",
        )
    for index, point in enumerate(key_points or ()):
        if empty_alternative(point):
            line = mapping.list_lines("key_points")[index]
            f.error(line, f"{f.name('key_points')}[{index}]", f"{point!r} has an empty alternative: write `a | b`")
    follow_ups = _follow_ups(f)
    tags = f.tags()
    concepts = f.idents("concepts")
    references = f.references()
    see_it_ok, see_it = f.see_it()
    if not f.ok or not see_it_ok or card_id is None or question is None or answer is None or key_points is None:
        return None
    if follow_ups is None or tags is None or concepts is None or references is None:
        return None  # an entry inside one of these lists was unusable; its error is recorded
    card = Card(
        card_id,
        deck_id,
        question,
        answer,
        follow_ups,
        key_points,
        tags,
        references,
        Origin(path, mapping.line),
        tuple(concept for concept, _ in concepts),
        see_it,
    )
    return card, mapping.value_lines["id"], tuple(line for _, line in concepts)


def _follow_ups(f: Fields) -> tuple[FollowUp, ...] | None:
    items = f.items("follow_ups", required=False, allow_empty=True)
    if items is None:
        return None
    result: list[FollowUp] = []
    for index, (item, line) in enumerate(zip(items, items.item_lines)):
        field = f"{f.name('follow_ups')}[{index}]"
        mapping = f.mapping_at(item, line, field)
        if mapping is None:
            continue
        inner = Fields(f.path, mapping, field, f.errors)
        inner.check_keys(FOLLOW_UP_KEYS)
        question, answer = inner.text("question"), inner.text("answer")
        if inner.ok and question is not None and answer is not None:
            result.append(FollowUp(question, answer))
    return tuple(result) if len(result) == len(items) else None
