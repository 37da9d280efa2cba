"""Mock interview rounds: what a round asks, how its typed answers are scored, and what it records.

A round is one drill written from memory, then :func:`question_count` questions answered by
typing, each followed by one of its follow-ups, all under one clock (the ``mock_minutes``
setting).

**Which drill** (:func:`pick_drill`): drills failed recently come first (a failed attempt or a
failed submission in the last :data:`RECENT_DAYS` days, newest first, not passed since), then
the drills Today has due (weak spots first, then those practised before, then new ones, each
in Today's order), then the rest. A drill passed in
the last :data:`RESTING_HOURS` hours is taken only when no other drill is left, and among equals
a drill whose target fits the round's drill time comes first. **Its target** in the round is its
own target, cut to :data:`DRILL_SHARE` of the round's clock when longer, so the questions keep
their time. **The questions** are cards with follow-ups: cards pulled by failed tests or teaching
weak concepts first, then cards teaching a concept the drill checks, then due ones, then the
rest in deck order.

A main answer is scored by the card's key points (:mod:`tokdrill.content.keypoints`) and rated
like a review from that share (:func:`answer_rating`): the answer is a real recall of the card,
so it is recorded as one and reschedules the card. A follow-up has no key points; its model
answer is shown beside what was typed. Concepts missed are those the drill's failed tests
blame and those taught by cards answered with less than half their key points.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from tokdrill.clock import clock_text
from tokdrill.content.keypoints import match_key_points
from tokdrill.content.model import Card, Library
from tokdrill.practice.blame import blamed_concepts
from tokdrill.progress.records import MockAnswer, MockRound, TestOutcome
from tokdrill.scheduling.planner import DueQueue

LONG_ROUND_MINUTES = 40
"""A round of at least this many minutes asks four questions; a shorter one three."""
WEAK_ANSWER = 0.5
"""An answer covering less than this share of its key points misses the card's concepts."""
GOOD_ANSWER = 0.8
"""An answer covering at least this share is rated Good; between WEAK_ANSWER and this, Hard."""


RECENT_DAYS = 14
"""A drill failed within this many days (and not passed since) is asked first."""
RESTING_HOURS = 24
"""A drill passed within this many hours is asked only when no other drill is left."""
DRILL_SHARE = 0.5
"""At most this share of a round's clock goes to its drill."""


@dataclass(frozen=True)
class MockPlan:
    """What a round asks: the drill, its target in this round, the cards, which follow-up of
    each, and the clock."""

    drill_id: str
    card_ids: tuple[str, ...]
    follow_ups: tuple[int, ...]
    clock_seconds: int
    drill_target_seconds: int = 0


@dataclass(frozen=True)
class DrillHistory:
    """When a drill was last failed (an attempt or a submission) and last passed, if ever."""

    last_failed: datetime | None = None
    last_passed: datetime | None = None


def round_target(drill_target_seconds: int, clock_seconds: int) -> int:
    """The drill's target in a round of ``clock_seconds``: its own, cut to the round's share."""
    return min(drill_target_seconds, int(clock_seconds * DRILL_SHARE))


def pick_drill(
    queue: DueQueue, library: Library, history: Mapping[str, DrillHistory], clock_seconds: int, now: datetime
) -> str | None:
    """The drill a round asks (see the module's rule), None without drills."""
    due_items = sorted((i for i in queue.drills if i.item_id in library.drills), key=lambda i: (not i.weak, i.is_new))
    due = [i.item_id for i in due_items]
    due_rank = {drill_id: n for n, drill_id in enumerate(dict.fromkeys(due))}
    recent, resting = now - timedelta(days=RECENT_DAYS), now - timedelta(hours=RESTING_HOURS)
    share = clock_seconds * DRILL_SHARE

    def failed_recently(drill_id: str) -> bool:
        h = history.get(drill_id, DrillHistory())
        return (
            h.last_failed is not None and h.last_failed >= recent and (h.last_passed or h.last_failed) <= h.last_failed
        )

    def key(drill_id: str) -> tuple[bool, int, float, bool, int]:
        h = history.get(drill_id, DrillHistory())
        passed_lately = h.last_passed is not None and h.last_passed >= resting
        group = 0 if failed_recently(drill_id) else 1 if drill_id in due_rank else 2
        newest_failure = -(h.last_failed.timestamp()) if group == 0 and h.last_failed else 0.0
        fits = library.drill(drill_id).target_seconds <= share
        return (passed_lately, group, newest_failure, not fits, due_rank.get(drill_id, len(due_rank)))

    return min(library.drills, key=key, default=None)


def question_count(minutes: int) -> int:
    """How many questions a round of ``minutes`` asks."""
    return 4 if minutes >= LONG_ROUND_MINUTES else 3


def plan_round(
    queue: DueQueue,
    library: Library,
    minutes: int,
    rounds_so_far: int,
    history: Mapping[str, DrillHistory],
    now: datetime,
) -> MockPlan | None:
    """The round to ask now (None when there is no drill or no card with a follow-up).
    ``rounds_so_far`` rotates which follow-up of each card is asked; ``history`` says when each
    drill was last failed and passed (:func:`pick_drill`)."""
    clock_seconds = minutes * 60
    drill_id = pick_drill(queue, library, history, clock_seconds, now)
    if drill_id is None:
        return None
    known = {card.id: card for card in library.all_cards()}
    urgent = [i.item_id for i in queue.cards if i.pulled_by is not None or i.weak]
    checked = set(library.drill(drill_id).concepts)
    related = [card.id for card in known.values() if checked.intersection(card.concepts)]
    ordered = dict.fromkeys([*urgent, *related, *(i.item_id for i in queue.cards), *known])
    cards = [known[c] for c in ordered if c in known and known[c].follow_ups]
    picked = cards[: question_count(minutes)]
    if not picked:
        return None
    follow = tuple(rounds_so_far % len(card.follow_ups) for card in picked)
    target = round_target(library.drill(drill_id).target_seconds, clock_seconds)
    return MockPlan(drill_id, tuple(c.id for c in picked), follow, clock_seconds, target)


def score_answer(card: Card, answer: str) -> MockAnswer:
    """A main answer scored by the card's key points."""
    matches = match_key_points(answer, card.key_points)
    return MockAnswer(card.id, None, answer, sum(1 for m in matches if m.covered), len(matches))


def follow_up_answer(card: Card, index: int, answer: str) -> MockAnswer:
    """A follow-up answer (kept as typed: follow-ups have no key points to score)."""
    return MockAnswer(card.id, index, answer, 0, 0)


def share(answer: MockAnswer) -> float | None:
    """The share of key points an answer covered (None for a follow-up)."""
    return answer.covered / answer.total if answer.total else None


def answer_rating(answer: MockAnswer) -> int:
    """The review rating a main answer earns: Good from GOOD_ANSWER, Hard from WEAK_ANSWER, else Again."""
    covered = share(answer)
    if covered is None:
        return 3
    return 3 if covered >= GOOD_ANSWER else 2 if covered >= WEAK_ANSWER else 1


def concepts_missed(tests: Sequence[TestOutcome], answers: Sequence[MockAnswer], library: Library) -> tuple[str, ...]:
    """Concepts the drill's failed tests blame (:mod:`tokdrill.practice.blame`), then those of
    cards answered weakly, each once."""
    found = [c for concepts in blamed_concepts(tests).values() for c in concepts]
    known = {card.id: card for card in library.all_cards()}
    for answer in answers:
        covered = share(answer)
        if covered is not None and covered < WEAK_ANSWER and answer.card_id in known:
            found.extend(known[answer.card_id].concepts)
    return tuple(dict.fromkeys(found))


MOCK_ROUNDS_SHOWN = 10
"""Stats lists at most this many recent mock rounds."""


def round_line(mock: MockRound, day: date) -> str:
    """One stored round on one line, as Stats lists it: day, drill verdict and time against its
    target, key points covered over all main answers, concepts missed."""
    verdict = "passed" if mock.drill_passed else "not passed"
    timed = (
        ""
        if mock.drill_seconds is None
        else f" {clock_text(mock.drill_seconds)}/{clock_text(mock.drill_target_seconds)}"
    )
    mains = [a for a in mock.answers if a.follow_up is None]
    points = f"key points {sum(a.covered for a in mains)}/{sum(a.total for a in mains)}"
    missed = ", ".join(mock.concepts_missed) if mock.concepts_missed else "none"
    return f"{day.isoformat()}  {mock.drill_id} {verdict}{timed} · {points} · missed: {missed}"
