"""The sandbox-overhead figure compares like with like: the plain run of the tests is timed in
turn with the warm verdicts, in a fork that freezes its heap as the grading server does."""

from __future__ import annotations

import pytest

from tokdrill.bench import grading
from tokdrill.content.loader import load_library
from tokdrill.grading.prepared import PreparedDrill
from tokdrill.grading.spec import DrillSpec


class _Grader:
    def __init__(self, events: list[str]) -> None:
        self.events = events

    def grade(self, drill: object, source: str) -> None:
        self.events.append("verdict")


def test_each_verdict_is_timed_right_after_a_plain_run_of_the_same_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []

    def floor(prepared: object, source: str) -> float:
        events.append("plain")
        return 7.0

    monkeypatch.setattr(grading, "THINK_SECONDS", 0.0)
    monkeypatch.setattr(grading, "_floor_sample", floor)
    warm, plain = grading._timed(_Grader(events), object(), "src", 3, object())  # type: ignore[arg-type]
    assert events == ["plain", "verdict"] * 3
    assert len(warm) == 3 and all(ms >= 0 for ms in warm)
    assert plain == [7.0, 7.0, 7.0]


def test_without_a_prepared_drill_only_verdicts_are_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    monkeypatch.setattr(grading, "THINK_SECONDS", 0.0)
    warm, plain = grading._timed(_Grader(events), object(), "src", 2, None)  # type: ignore[arg-type]
    assert events == ["verdict", "verdict"] and plain == [] and len(warm) == 2


def test_the_plain_run_times_the_hidden_tests_against_the_retype_text() -> None:
    drill = load_library([]).drills["bytes-to-unicode"]
    prepared = PreparedDrill(DrillSpec.of(drill))
    sample = grading._floor_sample(prepared, grading.retype_source(drill))
    assert sample is not None and sample > 0.0
    broken = grading._floor_sample(prepared, "raise SystemExit(3)\n")
    assert broken is None  # the fork reports nothing when the source does not even load
