"""Root's grading figures are reported even when the ordinary-account worker cannot run; the
table then says why that half was skipped."""

from __future__ import annotations

import pytest

from tokdrill.bench import grading


def test_a_worker_that_cannot_run_is_reported_as_skipped_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(args: list[str]) -> dict[str, list[float]]:
        raise RuntimeError("the ordinary-user worker failed:\n  setresuid: Operation not permitted")

    monkeypatch.setattr(grading, "_as_ordinary_user", fails)
    assert grading._ordinary_user_or_why(["warm", "3", "bpe-full"]) == (
        None,
        "the ordinary-user worker failed: setresuid: Operation not permitted",
    )


def test_a_worker_that_runs_gives_its_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grading, "_as_ordinary_user", lambda args: {"bpe-full": [40.0, 42.0]})
    assert grading._ordinary_user_or_why(["warm", "2", "bpe-full"]) == ({"bpe-full": [40.0, 42.0]}, "")
