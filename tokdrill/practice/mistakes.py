"""The mistake log, and the rule by which a failed test schedules the cards of its concept.

Every graded submission (in the app, in ``tokdrill check``, in a mock round) leaves one
:class:`~tokdrill.progress.records.ConceptResult` per concept its hidden tests check. From those:

* the **mistake log** lists, per concept ever failed: how many submissions failed it, when last,
  on which drills and in which tests, whether it is *fixed* (a submission passed every test of
  the concept after the last failure), the concept's one-line lesson and the card that teaches it;
* the **pull rule**: a card that teaches a concept is due as soon as a submission fails that
  concept after the card's last review (or when the card was never reviewed), whatever its
  scheduler state says. Nothing is written to the card's schedule and no review is faked: the
  pull is read from the log, and it lasts until the card is reviewed, so passing the drill later
  does not undo it;
* **weak concepts**: failed in the last :data:`WEAK_DAYS` days and not fixed since. Today's queue
  puts drills that check them and cards that teach them first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from msgspec import Struct

from tokdrill.content.model import Library, bare_test_name
from tokdrill.progress.records import ConceptResult, ItemState
from tokdrill.progress.store import Store

WEAK_DAYS = 14
"""A concept failed within this many days (and not fixed since) is weak."""


class LinkedCard(Struct, frozen=True):
    """The card that teaches a concept: its id, question and first key point."""

    card_id: str
    question: str
    key_point: str


class Mistake(Struct, frozen=True):
    """One concept of the mistake log."""

    concept: str
    title: str
    lesson: str
    count: int
    first: datetime
    last: datetime
    drills: tuple[str, ...]
    tests: tuple[str, ...]
    fixed: bool
    fixed_at: datetime | None
    card: LinkedCard | None

    def to_json(self) -> dict[str, object]:
        """The JSON object ``tokdrill mistakes --json`` prints for this concept."""
        return {
            "concept": self.concept,
            "title": self.title,
            "lesson": self.lesson,
            "count": self.count,
            "first": self.first.isoformat(),
            "last": self.last.isoformat(),
            "drills": list(self.drills),
            "tests": list(self.tests),
            "fixed": self.fixed,
            "fixed_at": None if self.fixed_at is None else self.fixed_at.isoformat(),
            "card": None
            if self.card is None
            else {"id": self.card.card_id, "question": self.card.question, "key_point": self.card.key_point},
        }


def linked_card(library: Library, concept: str) -> LinkedCard | None:
    """The first card that teaches ``concept`` (its question on one line), if any."""
    for card in library.cards_teaching(concept):
        question = " ".join(card.question.split())
        return LinkedCard(card.id, question, card.key_points[0] if card.key_points else "")
    return None


def build_mistakes(results: Iterable[ConceptResult], library: Library) -> list[Mistake]:
    """The mistake log of ``results`` (oldest first): concepts not yet fixed first, then the
    most recently failed first."""
    failures: dict[str, list[ConceptResult]] = {}
    passes: dict[str, datetime] = {}
    for result in results:
        if result.failed:
            failures.setdefault(result.concept, []).append(result)
        else:
            passes[result.concept] = max(result.at, passes.get(result.concept, result.at))
    log = []
    for concept, failed in failures.items():
        last = max(r.at for r in failed)
        passed = passes.get(concept)
        fixed = passed is not None and passed > last
        known = library.concepts.get(concept)
        log.append(
            Mistake(
                concept=concept,
                title=known.title if known else concept,
                lesson=known.lesson if known else "",
                count=len(failed),
                first=min(r.at for r in failed),
                last=last,
                drills=tuple(dict.fromkeys(r.drill_id for r in failed)),
                tests=tuple(dict.fromkeys(bare_test_name(t) for r in failed for t in r.failed_tests)),
                fixed=fixed,
                fixed_at=passed if fixed else None,
                card=linked_card(library, concept),
            )
        )
    log.sort(key=lambda m: m.last, reverse=True)
    log.sort(key=lambda m: m.fixed)
    return log


def mistakes(store: Store, library: Library) -> list[Mistake]:
    """The mistake log of everything stored."""
    return build_mistakes(store.concept_results(), library)


def pulled_cards(
    card_concepts: Mapping[str, tuple[str, ...]],
    card_states: Mapping[str, ItemState],
    last_failures: Mapping[str, ConceptResult],
) -> dict[str, ConceptResult]:
    """The cards the pull rule makes due, each with the failure that pulled it (the newest
    failure of its concepts after its last review)."""
    pulled: dict[str, ConceptResult] = {}
    for card_id, concepts in card_concepts.items():
        state = card_states.get(card_id)
        reviewed = None if state is None else (state.last_review or state.first_seen)
        for concept in concepts:
            failure = last_failures.get(concept)
            if failure is None or (reviewed is not None and failure.at <= reviewed):
                continue
            if card_id not in pulled or failure.at > pulled[card_id].at:
                pulled[card_id] = failure
    return pulled


def weak_concepts(
    last_failures: Mapping[str, ConceptResult], last_passes: Mapping[str, ConceptResult], now: datetime
) -> dict[str, datetime]:
    """Concepts failed in the last :data:`WEAK_DAYS` days and not passed since, with when last failed."""
    since = now - timedelta(days=WEAK_DAYS)
    weak = {}
    for concept, failure in last_failures.items():
        passed = last_passes.get(concept)
        if failure.at >= since and (passed is None or passed.at < failure.at):
            weak[concept] = failure.at
    return weak
