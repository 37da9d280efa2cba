"""Record factories and seeded practice shared by the tests (imported by name: tests have no packages)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.grading.verdict import TestResult as VerdictTest
from tokdrill.grading.verdict import Verdict
from tokdrill.progress.records import Attempt
from tokdrill.progress.records import TestOutcome as TestResult
from tokdrill.scheduling.planner import Planner

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def make_attempt(
    drill_id: str = "bpe-train",
    *,
    at: datetime = T0,
    seconds: float = 300.0,
    target: int = 600,
    passed: bool = True,
    mode: str = "recall",
    **extra: object,
) -> Attempt:
    """An attempt that ended at ``at`` after ``seconds`` of active time."""
    return Attempt(
        drill_id=drill_id,
        mode=mode,
        started_at=at - timedelta(seconds=seconds + 30),
        ended_at=at,  # type: ignore[arg-type]
        active_seconds=seconds,
        target_seconds=target,
        passed=passed,
        submissions=extra.pop("submissions", 2),  # type: ignore[arg-type]
        tests=extra.pop(
            "tests",
            (
                TestResult("test_bpe.py::test_merges", "passed"),  # type: ignore[arg-type]
                TestResult("test_bpe.py::test_ties", "failed" if not passed else "passed", "got 3"),
            ),
        ),
        **extra,  # type: ignore[arg-type]
    )


def fsrs_state(due: datetime, last_review: datetime | None, state: int = 2) -> dict[str, object]:
    """A valid fsrs card dict (Review state unless told) due at ``due``."""
    return {
        "card_id": 1,
        "state": state,
        "step": None if state == 2 else 0,
        "stability": None if last_review is None else 2.3,
        "difficulty": None if last_review is None else 5.1,
        "due": due.isoformat(),
        "last_review": None if last_review is None else last_review.isoformat(),
    }


def seed_practice(
    planner: Planner,
    clock: FixedClock,
    drill_id: str,
    target: int,
    card_ids: Sequence[str],
    days: int = 14,
    seed: int = 7,
) -> None:
    """``days`` days of practice recorded through ``planner`` on ``clock`` (advanced a day at a
    time): each day a retype attempt of ``drill_id`` (times around ``target``, getting faster,
    every fourth one failed, typing speed rising) and reviews of some of ``card_ids`` (mostly Good)."""
    rng = random.Random(seed)
    for day in range(days):
        seconds = target * (1.4 - 0.6 * day / days) * rng.uniform(0.85, 1.15)
        passed = day % 4 != 3
        planner.record_attempt(
            make_attempt(
                drill_id,
                at=clock.now(),
                seconds=round(seconds, 1),
                target=target,
                passed=passed,
                mode="retype",
                wpm=round(28 + 1.5 * day + rng.uniform(-3, 3), 1),
                typing_accuracy=0.95,
            )
        )
        for card_id in rng.sample(list(card_ids), k=min(len(card_ids), rng.randint(2, 6))):
            planner.review_card(card_id, rng.choices((1, 2, 3, 4), weights=(2, 1, 6, 2))[0], 8.0)
        clock.advance(days=1)


def record_retype_pass(
    backend: Backend,
    clock: FixedClock,
    seconds: float,
    *,
    drill_id: str = "bytes-to-unicode",
    wpm: float | None = None,
    accuracy: float | None = None,
    corrected_errors: int = 3,
    costly_keys: tuple[tuple[str, int], ...] = (("(", 2),),
) -> None:
    """Record a passing retype attempt of ``drill_id`` through the backend, then move the clock a
    day on. Typing figures are stored only when ``wpm`` is given."""
    drill = backend.library.drill(drill_id)
    test = f"test_{drill_id.replace('-', '_')}.py::test_table"
    verdict = Verdict(drill.id, True, (VerdictTest(test, "passed"),), 0.05)
    backend.record_attempt(
        drill,
        "retype",
        started_at=clock.now(),
        active_seconds=seconds,
        verdict=verdict,
        submissions=1,
        keystrokes=600,
        retype_accuracy=0.98,
        wpm=wpm,
        typing_accuracy=accuracy,
        corrected_errors=None if wpm is None else corrected_errors,
        costly_keys=None if wpm is None else costly_keys,
    )
    clock.advance(days=1)
