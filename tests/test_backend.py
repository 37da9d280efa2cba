"""The backend's grader: prepared while the user types, and never started again once closed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tokdrill.backend import Backend


def test_preparing_a_drill_collects_its_tests_and_reports_broken_ones(tmp_path: Path) -> None:
    backend = Backend.open()
    try:
        drill = backend.library.drill("bytes-to-unicode")
        assert backend.prepare_grading(drill) == []
        broken = dataclasses.replace(drill, id="ghost", hidden_tests=(tmp_path / "test_gone.py",))
        (error,) = backend.prepare_grading(broken)
        assert error.startswith("ghost: hidden test file not found")
        assert backend.grade(drill, backend.reference(drill)).passed
    finally:
        backend.close()


def test_once_closed_no_grader_is_started_again() -> None:
    backend = Backend.open()
    drill = backend.library.drill("bytes-to-unicode")
    backend.close()
    assert backend.prepare_grading(drill) == []
    verdict = backend.grade(drill, backend.reference(drill))
    assert verdict.internal and "closing" in verdict.problem
    assert backend._grader is None
