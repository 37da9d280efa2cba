"""The in-process grader forks its sandboxes, so it refuses to while other threads run: a child
forked from a threaded process may deadlock on a lock another thread held (Python 3.12+ warns)."""

from __future__ import annotations

import os
import threading

import pytest
from grading_helpers import GOOD_SOURCE

from tokdrill.grading.local import THREADED, LocalGrader
from tokdrill.grading.spec import DrillSpec


def test_with_other_threads_running_nothing_is_forked_and_the_verdict_says_why(
    tiny_drill: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse() -> int:
        raise AssertionError("os.fork() called while another thread ran")

    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    monkeypatch.setattr(os, "fork", refuse)
    try:
        verdict = LocalGrader(keep_standby=True).grade(DrillSpec.of(tiny_drill), GOOD_SOURCE)  # type: ignore[arg-type]
    finally:
        stop.set()
        other.join()
    assert not verdict.passed and verdict.internal
    assert THREADED in verdict.problem
