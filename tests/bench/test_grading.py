"""The sandbox-overhead figure compares like with like: the plain run of the tests is timed in
turn with the warm verdicts, in a fork that freezes its heap as the grading server does, and
that fork is made by a single-threaded helper process, never by the benchmark's own."""

from __future__ import annotations

import os
import threading

import pytest

from tokdrill.bench import grading
from tokdrill.bench.plain_run import PlainRuns
from tokdrill.content.loader import load_library


class _Grader:
    def __init__(self, events: list[str]) -> None:
        self.events = events

    def grade(self, drill: object, source: str) -> None:
        self.events.append("verdict")


def test_each_verdict_is_timed_right_after_a_plain_run_of_the_same_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []

    def floor() -> float:
        events.append("plain")
        return 7.0

    monkeypatch.setattr(grading, "THINK_SECONDS", 0.0)
    warm, plain = grading._timed(_Grader(events), object(), "src", 3, floor)  # type: ignore[arg-type]
    assert events == ["plain", "verdict"] * 3
    assert len(warm) == 3 and all(ms >= 0 for ms in warm)
    assert plain == [7.0, 7.0, 7.0]


def test_without_a_floor_only_verdicts_are_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    monkeypatch.setattr(grading, "THINK_SECONDS", 0.0)
    warm, plain = grading._timed(_Grader(events), object(), "src", 2, None)  # type: ignore[arg-type]
    assert events == ["verdict", "verdict"] and plain == [] and len(warm) == 2


def test_the_plain_run_times_the_hidden_tests_against_the_retype_text() -> None:
    drill = load_library([]).drills["bytes-to-unicode"]
    with PlainRuns() as plain:
        sample = plain.sample(drill, grading.retype_source(drill))
        assert sample is not None and sample > 0.0
        broken = plain.sample(drill, "raise SystemExit(3)\n")
    assert broken is None  # the fork reports nothing when the source does not even load


def test_a_threaded_benchmark_never_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forking while another thread runs may deadlock the child (Python 3.12+ warns): the plain
    runs fork in the helper, so the benchmark's process may have threads and never calls fork."""
    drill = load_library([]).drills["bytes-to-unicode"]
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()

    def refuse() -> int:
        raise AssertionError("os.fork() called in the benchmark's own, multi-threaded process")

    monkeypatch.setattr(os, "fork", refuse)
    try:
        with PlainRuns() as plain:
            sample = plain.sample(drill, grading.retype_source(drill))
    finally:
        stop.set()
        other.join()
    assert sample is not None and sample > 0.0
