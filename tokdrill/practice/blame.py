"""Which concepts a graded submission got wrong: the rule that fills the mistake log.

A hidden test names the concept(s) it checks (``@pytest.mark.concept(...)``, its main concept
first). A failed test does not blame every tag it carries:

* a test tagged with one concept (*dedicated* to it) blames that concept;
* a test tagged with several blames, among its concepts, those *convicted* by a failed test
  dedicated to them in the same submission; failing that, those not *cleared* (a concept is
  cleared when a test dedicated to it passed and none failed); and when every one of its
  concepts is cleared, its first concept, unless the submission's failure is already explained
  by a convicted concept elsewhere (then it blames none).

So a greedy Viterbi that passes the dedicated log-space and unsegmentable-word tests but fails
a test tagged with all three blames the search alone. Every concept the tests check gets one
result per submission: failed (naming the tests that blame it) or passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from tokdrill.progress.records import ConceptResult, Origin, TestOutcome


def blamed_concepts(tests: Sequence[TestOutcome]) -> dict[str, tuple[str, ...]]:
    """Test name -> the concepts it blames, for every test of ``tests`` that did not pass."""
    dedicated_passed: set[str] = set()
    dedicated_failed: set[str] = set()
    for test in tests:
        if len(test.concepts) == 1:
            (dedicated_passed if test.outcome == "passed" else dedicated_failed).add(test.concepts[0])
    cleared = dedicated_passed - dedicated_failed
    blame: dict[str, tuple[str, ...]] = {}
    for test in tests:
        if test.outcome == "passed" or not test.concepts:
            continue
        if len(test.concepts) == 1:
            blame[test.name] = test.concepts
            continue
        concepts = tuple(dict.fromkeys(test.concepts))
        convicted = tuple(c for c in concepts if c in dedicated_failed)
        open_ones = tuple(c for c in concepts if c not in cleared)
        blame[test.name] = convicted or open_ones or (() if dedicated_failed else concepts[:1])
    return blame


def concept_results(
    drill_id: str, origin: Origin, at: datetime, tests: Sequence[TestOutcome]
) -> tuple[ConceptResult, ...]:
    """One result per concept ``tests`` check (first-seen order), failed by the tests that
    blame it (:func:`blamed_concepts`), passed otherwise."""
    blame = blamed_concepts(tests)
    failed: dict[str, list[str]] = {}
    for test in tests:
        for concept in test.concepts:
            names = failed.setdefault(concept, [])
            if concept in blame.get(test.name, ()):
                names.append(test.name)
    return tuple(ConceptResult(drill_id, origin, at, c, tuple(names)) for c, names in failed.items())
