"""The mistake log and the pull rule: a failed concept makes the cards that teach it due the
same day, passing later does not undo it, reviewing the card does; weak items come first."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest
from factories import make_attempt

from tokdrill.clock import FixedClock
from tokdrill.content import load_library
from tokdrill.content.model import Library
from tokdrill.practice.due import due_queue
from tokdrill.practice.mistakes import WEAK_DAYS, build_mistakes, mistakes
from tokdrill.progress.records import ConceptResult, TestOutcome, concept_results
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog, catalog_from_library
from tokdrill.scheduling.planner import Planner


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library([], use_cache=False, check_symbols=False)


def taught(catalog: Catalog) -> Catalog:
    """The small catalog with card b2 teaching merge-order and w1 teaching tie-break; the
    wordpiece drill checks tie-break."""
    return msgspec.structs.replace(
        catalog,
        card_concepts={"b2": ("merge-order",), "w1": ("tie-break",)},
        drill_concepts={"wordpiece": ("tie-break",)},
    )


def fail(store: Store, clock: FixedClock, concept: str, drill: str = "bpe-train", passed: bool = False) -> None:
    tests = (TestOutcome("t.py::test_x", "passed" if passed else "failed", "", (concept,)),)
    store.add_concept_results(concept_results(drill, "app", clock.now(), tests))


def test_concept_results_name_the_failed_tests_per_concept() -> None:
    tests = (
        TestOutcome("t.py::test_a", "failed", "", ("merge-order", "tie-break")),
        TestOutcome("t.py::test_b", "passed", "", ("merge-order",)),
        TestOutcome("t.py::test_c", "error", "", ("tie-break",)),
        TestOutcome("t.py::test_d", "passed"),
    )
    results = concept_results("bpe-encode", "check", make_attempt().ended_at, tests)
    assert [(r.concept, r.failed_tests) for r in results] == [
        ("merge-order", ("t.py::test_a",)),
        ("tie-break", ("t.py::test_a", "t.py::test_c")),
    ]


def test_a_failed_concept_makes_its_card_due_today_even_a_new_one(
    store: Store, planner: Planner, catalog: Catalog, clock: FixedClock
) -> None:
    catalog = taught(catalog)
    store.set_new_cards_per_day(0)  # no new card would come otherwise
    assert due_queue(planner, catalog).cards == ()
    fail(store, clock, "merge-order")
    queue = due_queue(planner, catalog).cards
    assert [i.item_id for i in queue] == ["b2"]
    assert queue[0].pulled_by is not None and queue[0].pulled_by.concept == "merge-order"


def test_a_reviewed_card_is_pulled_forward_and_stays_due_after_a_pass(
    store: Store, planner: Planner, catalog: Catalog, clock: FixedClock
) -> None:
    catalog = taught(catalog)
    planner.review_card("b2", 4, 5.0)  # Easy: due days from now
    clock.advance(hours=1)
    assert "b2" not in [i.item_id for i in due_queue(planner, catalog).cards if not i.is_new]
    fail(store, clock, "merge-order")
    clock.advance(minutes=5)
    fail(store, clock, "merge-order", passed=True)  # the drill passes later: the card stays due
    assert due_queue(planner, catalog).cards[0].item_id == "b2"
    state = store.item_state("card", "b2")
    assert state is not None and state.due > clock.now()  # the pull changed no scheduler state
    clock.advance(minutes=1)
    planner.review_card("b2", 3, 5.0)  # reviewing the card is what settles it
    assert "b2" not in [i.item_id for i in due_queue(planner, catalog).cards]


def test_a_failure_older_than_the_last_review_pulls_nothing(
    store: Store, planner: Planner, catalog: Catalog, clock: FixedClock
) -> None:
    catalog = taught(catalog)
    fail(store, clock, "merge-order")
    clock.advance(minutes=1)
    planner.review_card("b2", 4, 5.0)
    assert "b2" not in [i.item_id for i in due_queue(planner, catalog).cards]


def test_drills_checking_a_weak_concept_come_first_until_fixed_or_old(
    store: Store, planner: Planner, catalog: Catalog, clock: FixedClock
) -> None:
    catalog = taught(catalog)
    store.set_new_drills_per_day(5)
    assert [i.item_id for i in due_queue(planner, catalog).drills] == ["bpe-train", "wordpiece"]
    fail(store, clock, "tie-break", drill="wordpiece")
    drills = due_queue(planner, catalog).drills
    assert [(i.item_id, i.weak) for i in drills] == [("wordpiece", True), ("bpe-train", False)]
    clock.advance(days=WEAK_DAYS, minutes=1)
    assert next(i.item_id for i in due_queue(planner, catalog).drills) == "bpe-train"  # too old to be weak
    fail(store, clock, "tie-break", drill="wordpiece")
    clock.advance(minutes=1)
    fail(store, clock, "tie-break", drill="wordpiece", passed=True)  # fixed
    assert next(i.item_id for i in due_queue(planner, catalog).drills) == "bpe-train"


def test_the_log_counts_dates_and_fixes_per_concept(library: Library, clock: FixedClock) -> None:
    t0 = clock.now()
    results = [
        ConceptResult("bpe-encode", "app", t0, "merge-order", ("test_bpe_encode.py::test_rank[2]",)),
        ConceptResult("bpe-train", "check", t0 + timedelta(hours=1), "tie-break", ("test_bpe_train.py::test_tie",)),
        ConceptResult(
            "bpe-encode", "check", t0 + timedelta(hours=2), "merge-order", ("test_bpe_encode.py::test_rank[3]",)
        ),
        ConceptResult("bpe-train", "app", t0 + timedelta(hours=3), "tie-break"),
    ]
    log = build_mistakes(results, library)
    assert [(m.concept, m.count, m.fixed) for m in log] == [("merge-order", 2, False), ("tie-break", 1, True)]
    merge = log[0]
    assert merge.last == t0 + timedelta(hours=2) and merge.drills == ("bpe-encode",)
    assert merge.tests == ("test_bpe_encode.py::test_rank",)
    assert merge.lesson == library.concept("merge-order").lesson
    assert merge.card is not None and "merge-order" in library.card(merge.card.card_id).concepts
    assert log[1].fixed_at == t0 + timedelta(hours=3)


def test_every_concept_of_the_vocabulary_is_taught_by_a_card(library: Library) -> None:
    catalog = catalog_from_library(library)
    assert [c.id for c in library.concepts.values() if not catalog.cards_teaching(c.id)] == []


def test_mistakes_reads_the_store(store: Store, clock: FixedClock, library: Library) -> None:
    fail(store, clock, "merge-order", drill="bpe-encode")
    assert [m.concept for m in mistakes(store, library)] == ["merge-order"]


def test_a_drill_failed_and_not_passed_since_is_offered_again_whatever_its_schedule(
    store: Store, planner: Planner, catalog: Catalog, clock: FixedClock
) -> None:
    catalog = taught(catalog)
    store.set_new_drills_per_day(0)  # nothing new today: only a failure can bring a drill
    assert due_queue(planner, catalog).drills == ()
    fail(store, clock, "tie-break", drill="wordpiece")
    (item,) = due_queue(planner, catalog).drills
    assert (item.item_id, item.weak, item.pulled_by is not None) == ("wordpiece", True, True)
    clock.advance(minutes=1)
    fail(store, clock, "tie-break", drill="wordpiece", passed=True)  # fixed
    assert due_queue(planner, catalog).drills == ()
