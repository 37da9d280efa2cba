"""Practice in the user's own editor: ``tokdrill start`` starts a drill's clock, and every
``tokdrill check`` records what its grading showed.

Rules: each graded check logs its concept results (the mistake log) with origin ``check``. The
first passing check after a start records the attempt, timed from the start to that check (wall
time: the clock does not pause between checks), with the number of checks as its submissions;
the start is then cleared, so later passes add no attempt. A failing check without a start
starts the clock there; a passing one without a start is not timed and records no attempt.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from tokdrill.clock import Clock
from tokdrill.grading.verdict import Verdict
from tokdrill.progress.records import Attempt, Mode, Start, TestOutcome, concept_results
from tokdrill.progress.store import Store
from tokdrill.scheduling.planner import AttemptOutcome, Planner


@dataclass(frozen=True)
class CheckRecord:
    """What one recorded check did: the attempt it recorded (on the first pass after a start),
    the start still running, and the concepts it failed."""

    attempt: AttemptOutcome | None
    start: Start | None
    failed_concepts: tuple[str, ...]
    seconds: float | None = None
    """The recorded attempt's time, from the start to the pass."""
    due_day: str | None = None
    """The local day the drill is next due, when an attempt was recorded."""


def start_drill(store: Store, clock: Clock, drill_id: str, mode: Mode, path: str) -> Start:
    """Start (or restart) the drill's clock now for the file at ``path``."""
    start = Start(drill_id, mode, path, clock.now(), 0)
    with store.write() as w:
        w.put_start(start)
    return start


def record_check(
    store: Store, clock: Clock, drill_id: str, target_seconds: int, verdict: Verdict, path: str
) -> CheckRecord:
    """Record one graded check of ``drill_id`` (one transaction); see the module's rules."""
    now: datetime = clock.now()
    tests = tuple(TestOutcome.from_result(t) for t in verdict.tests)
    results = concept_results(drill_id, "check", now, tests)
    planner = Planner(store, clock)
    with store.write() as w:
        w.insert_concept_results(results)
        start = w.start(drill_id)
        if start is None:
            start = None if verdict.passed else Start(drill_id, "recall", path, now, 1)
            if start is not None:
                w.put_start(start)
            outcome, seconds = None, None
        elif verdict.passed:
            attempt = Attempt(
                drill_id=drill_id,
                mode=start.mode,
                started_at=start.started_at,
                ended_at=now,
                active_seconds=max(0.0, (now - start.started_at).total_seconds()),
                target_seconds=target_seconds,
                passed=True,
                submissions=start.checks + 1,
                tests=tests,
                origin="check",
            )
            outcome, seconds = planner.record_attempt(attempt), attempt.active_seconds
            w.clear_start(drill_id)
            start = None
        else:
            start = replace(start, checks=start.checks + 1)
            w.put_start(start)
            outcome, seconds = None, None
    failed = tuple(r.concept for r in results if r.failed)
    due = None if outcome is None else planner.calendar().day_of(outcome.next_due).isoformat()
    return CheckRecord(outcome, start, failed, seconds, due)
