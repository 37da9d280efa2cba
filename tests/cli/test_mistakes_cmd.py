"""`tokdrill mistakes`: a failed merge-order test in an attempt makes a merge-order card due the
same day and is listed (JSON, text, Markdown), with the card's lesson."""

from __future__ import annotations

import json

import pytest

from tokdrill.backend import Backend
from tokdrill.cli import main
from tokdrill.clock import FixedClock
from tokdrill.grading.verdict import TestResult, Verdict


def test_a_failed_merge_order_test_schedules_its_cards_and_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    clock = FixedClock()
    backend = Backend.open(clock=clock)
    try:
        drill = backend.library.drill("bpe-encode")
        test = "test_bpe_encode.py::test_lowest_rank_first"
        verdict = Verdict(drill.id, False, (TestResult(test, "failed", "merged by frequency", ("merge-order",)),), 0.1)
        backend.record_grade(drill, verdict, "def encode(text, merges): ...")
        backend.record_attempt(
            drill,
            "recall",
            started_at=clock.now(),
            active_seconds=300.0,
            verdict=verdict,
            submissions=1,
            keystrokes=None,
            retype_accuracy=None,
        )
        backend.store  # noqa: B018 - the queued writes applied
        teaching = {c.id for c in backend.library.cards_teaching("merge-order")}
        due_now = {c.id for c in backend.review_queue()}
        assert teaching and teaching <= due_now
        pulls = [i.pulled_by for i, _title in backend.today().pulled]
        assert any(
            p is not None and (p.drill_id, p.origin, p.concept) == ("bpe-encode", "app", "merge-order") for p in pulls
        )
    finally:
        backend.close()

    assert main(["mistakes", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (entry,) = doc["mistakes"]
    assert entry["concept"] == "merge-order" and entry["count"] == 1 and entry["fixed"] is False
    assert entry["drills"] == ["bpe-encode"] and entry["tests"] == [test]
    assert entry["card"]["id"] in teaching and entry["lesson"]
    assert doc["not_fixed"] == 1

    assert main(["mistakes", "--markdown"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("# Mistakes to remember") and "## ✗ `merge-order`" in page and entry["lesson"] in page
    assert main(["mistakes"]) == 0
    assert "merge-order: Merges apply in rank order" in capsys.readouterr().out


def test_an_empty_log_says_how_it_fills(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mistakes"]) == 0
    assert "No mistakes logged yet" in capsys.readouterr().out
    assert main(["mistakes", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"mistakes": [], "not_fixed": 0}
