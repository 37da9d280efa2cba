"""Record factories shared by the progress tests (imported by name: tests have no packages)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tokdrill.progress.records import Attempt
from tokdrill.progress.records import TestOutcome as TestResult

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
