"""What is due now and in what order, and the one count of it that every screen shows.

:func:`due_queue` takes the scheduler's queue (:meth:`Planner.scheduled_queue`: due reviews
oldest first, then today's new items) and applies the mistake log
(:mod:`tokdrill.practice.mistakes`): cards pulled by a failed check come first (newest failure
first, new cards among them too, outside the new-card limit), and so does a drill whose own
submission last failed a weak concept (failed and not passed since: it is offered again whatever
its schedule); then items of a weak concept, then the rest in the scheduler's order. :func:`due_counts` is the count Today, the Stats
screen and ``tokdrill stats`` (text and ``--json``) all print.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from msgspec import Struct

from tokdrill.practice.mistakes import pulled_cards, weak_concepts
from tokdrill.progress.records import ConceptResult, ItemState, Kind
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.fsrs_bridge import retrievability
from tokdrill.scheduling.planner import DueItem, DueQueue, Planner


class DueCounts(Struct, frozen=True):
    """How many cards and drills are due now, and how many of each are new (never practised)."""

    cards: int
    new_cards: int
    drills: int
    new_drills: int

    def describe(self) -> str:
        """``14 cards, 2 drills (16 new)``: how the CLI and the Stats screen say it."""
        cards = f"{self.cards} card{'' if self.cards == 1 else 's'}"
        drills = f"{self.drills} drill{'' if self.drills == 1 else 's'}"
        new = self.new_cards + self.new_drills
        return f"{cards}, {drills}" + (f" ({new} new)" if new else "")

    def to_json(self) -> dict[str, int]:
        """The ``due_now`` object of ``tokdrill stats --json``."""
        return {"cards": self.cards, "new_cards": self.new_cards, "drills": self.drills, "new_drills": self.new_drills}


def due_queue(planner: Planner, catalog: Catalog, extra_new: int = 0) -> DueQueue:
    """Cards and drills to practise now, in order (see the module's rule). ``extra_new`` raises
    today's new-card limit ("study more")."""
    queue = planner.scheduled_queue(catalog, extra_new)
    store = planner.store
    failures = store.last_failures()
    if not failures:
        return queue
    now = planner.clock.now()
    card_states = store.item_states("card")
    weak = weak_concepts(failures, store.last_passes(), now)
    pulls = pulled_cards(catalog.card_concepts, card_states, failures)
    cards = _follow_mistakes(planner, "card", queue.cards, pulls, weak, catalog.card_concepts, card_states, now)
    retry = _failed_drills(queue.drills, failures, weak, catalog)
    drill_states = store.item_states("drill")
    drills = _follow_mistakes(planner, "drill", queue.drills, retry, weak, catalog.drill_concepts, drill_states, now)
    return DueQueue(
        cards, drills, queue.new_cards_limit, queue.new_cards_left, queue.new_drills_limit, queue.new_drills_left
    )


def due_counts(queue: DueQueue) -> DueCounts:
    """The counts of ``queue``: the one definition of "due now"."""
    return DueCounts(
        cards=len(queue.cards),
        new_cards=sum(1 for i in queue.cards if i.is_new),
        drills=len(queue.drills),
        new_drills=sum(1 for i in queue.drills if i.is_new),
    )


def _failed_drills(
    queue: tuple[DueItem, ...], failures: Mapping[str, ConceptResult], weak: Mapping[str, datetime], catalog: Catalog
) -> dict[str, ConceptResult]:
    """Drills not in ``queue`` whose own submission last failed a weak concept, each with that
    failure: a drill failed and not passed since is offered again whatever its schedule."""
    queued = {i.item_id for i in queue}
    found: dict[str, ConceptResult] = {}
    for concept, failure in failures.items():
        drill_id = failure.drill_id
        wanted = concept in weak and drill_id in catalog.drill_targets and drill_id not in queued
        if wanted and (drill_id not in found or failure.at > found[drill_id].at):
            found[drill_id] = failure
    return found


def _follow_mistakes(
    planner: Planner,
    kind: Kind,
    queue: tuple[DueItem, ...],
    pulls: Mapping[str, ConceptResult],
    weak: Mapping[str, datetime],
    concepts: Mapping[str, tuple[str, ...]],
    states: Mapping[str, ItemState],
    now: datetime,
) -> tuple[DueItem, ...]:
    """``queue`` with the pulled items (cards of a failed concept, drills failed and not passed
    since) added in front and weak items before the others."""
    scheduler = planner.cards if kind == "card" else planner.drills
    pulled = []
    for item_id, failure in sorted(pulls.items(), key=lambda p: p[1].at, reverse=True):
        state = states.get(item_id)
        recall = 0.0 if state is None else retrievability(scheduler, state.state, now)
        pulled.append(DueItem(kind, item_id, None if state is None else failure.at, recall, failure, True))
    rest = [
        DueItem(i.kind, i.item_id, i.due, i.recall_now, None, any(c in weak for c in concepts.get(i.item_id, ())))
        for i in queue
        if i.item_id not in pulls
    ]
    rest.sort(key=lambda i: not i.weak)  # stable: the order within each group is kept
    return (*pulled, *rest)
