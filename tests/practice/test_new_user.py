"""What a new user did, step by step, gives one attempt per start, blames what failed, and shows
the same numbers on every screen."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tokdrill.backend import Backend
from tokdrill.cli import main
from tokdrill.clock import FixedClock
from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.practice.service import Practice

DRILL = "viterbi-segment"
HIGHEST_RANK_FIRST = Path(__file__).parents[1] / "reference_impl/submissions/bpe/wrong/encode_highest_rank.py"
CORRECT = "def viterbi_segment(word, log_probs): ...  # correct\n"
BROKEN = "def viterbi_segment(word, log_probs) ...  # a syntax error\n"


def passed(drill_id: str = DRILL) -> Verdict:
    return Verdict(drill_id, True, (TestResult("t.py::test_best", "passed", "", ("viterbi-not-greedy",)),), 0.1)


def syntax_error(drill_id: str = DRILL) -> Verdict:
    return Verdict(drill_id, False, (), 0.1, problem="your code failed to import (SyntaxError)")


def greedy(drill_id: str = DRILL) -> Verdict:
    """A greedy Viterbi: the search fails, the dedicated log-space and unsegmentable tests pass."""
    tests = (
        TestResult("t.py::test_globally_best", "failed", "greedy split", ("viterbi-not-greedy",)),
        TestResult("t.py::test_log_probability", "passed", "", ("log-space",)),
        TestResult("t.py::test_unsegmentable", "passed", "", ("unsegmentable-word",)),
        TestResult("t.py::test_vocabulary_unchanged", "failed", "", ("inputs-unchanged", "viterbi-not-greedy")),
        TestResult("t.py::test_random", "failed", "", ("viterbi-not-greedy", "log-space", "unsegmentable-word")),
    )
    return Verdict(drill_id, False, tests, 0.1)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def practice(clock: FixedClock) -> Iterator[Practice]:
    opened = Backend.open(clock=clock)
    yield opened.practice
    opened.close()


def test_break_and_restore_after_a_pass_records_one_attempt(practice: Practice, clock: FixedClock) -> None:
    drill = practice.library.drill(DRILL)
    practice.start(drill, "recall", "v.py")
    clock.advance(minutes=7)
    first = practice.check(drill, passed(), CORRECT, "v.py")
    assert first.kind == "recorded" and first.recorded is not None
    clock.advance(seconds=20)
    broken = practice.check(drill, syntax_error(), BROKEN, "v.py")  # no new clock starts
    assert broken.kind == "practice" and broken.recorded is None
    clock.advance(seconds=1)
    restored = practice.check(drill, passed(), CORRECT, "v.py")
    assert restored.kind == "unchanged" and restored.recorded is None
    practice.progress.flush(10)
    (row,) = [d for d in practice.stats().drills if d.drill_id == DRILL]
    assert (row.attempts, row.passes, row.best_seconds) == (1, 1, 7 * 60.0)


def test_a_greedy_viterbi_blames_the_search_alone(practice: Practice, clock: FixedClock) -> None:
    drill = practice.library.drill(DRILL)
    practice.start(drill, "recall", "v.py")
    kept = practice.check(drill, greedy(), "def viterbi_segment(): greedy\n", "v.py")
    assert kept.failed_concepts == ("viterbi-not-greedy",)
    again = practice.check(drill, greedy(), "def viterbi_segment(): greedy\n", "v.py")  # the same file: once
    assert again.kind == "unchanged"
    practice.progress.flush(10)
    assert [m.concept for m in practice.mistakes()] == ["viterbi-not-greedy"]
    assert [(m.concept, m.count) for m in practice.mistakes()] == [("viterbi-not-greedy", 1)]


@pytest.mark.sandbox  # the real command grades in the sandbox
def test_check_json_names_what_each_failed_test_blames(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An apply_merges that takes the highest rank first blames merge-order alone, though the
    test that checks the ranks are left unchanged fails too (its answer is wrong)."""
    mine = tmp_path / "mine.py"
    mine.write_text(HIGHEST_RANK_FIRST.read_text(encoding="utf-8"))
    assert main(["check", "bpe-encode", str(mine), "--json", "--no-record"]) == 1
    doc = json.loads(capsys.readouterr().out)
    failed = [t for t in doc["tests"] if t["outcome"] != "passed"]
    assert failed and all(set(t["blames"]) <= set(t["concepts"]) for t in failed)
    assert {c for t in failed for c in t["blames"]} == {"merge-order"}
    assert any("inputs-unchanged" in t["concepts"] for t in failed)
    assert all("blames" not in t for t in doc["tests"] if t["outcome"] == "passed")


def test_a_fresh_store_shows_the_same_due_counts_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    backend = Backend.open()
    try:
        today, stats = backend.today(), backend.stats()
    finally:
        backend.close()
    assert today.due == stats.due and today.due.new_cards > 0
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["due_now"] == today.due.to_json()
    assert main(["stats"]) == 0
    assert f"Due now: {today.due.describe()}" in capsys.readouterr().out


def test_a_give_up_is_tried_not_new_and_no_typing_point(clock: FixedClock) -> None:
    backend = Backend.open(clock=clock)
    try:
        drill = backend.library.drill("bpe-encode")
        backend.give_up(
            drill, "retype", started_at=clock.now(), active_seconds=9.0, verdict=None, submissions=0, keystrokes=8
        )
        backend.progress.flush(10)
        assert backend.typing_history() == []
        (row,) = [d for d in backend.stats().drills if d.drill_id == drill.id]
        assert (row.attempts, row.passes) == (1, 0)
        assert backend.store.item_state("drill", drill.id) is not None  # scheduled, no longer new
        clock.advance(days=2)
        due = {i.item_id: i for i in backend.practice.due().drills}
        assert drill.id in due and not due[drill.id].is_new  # given up: due again, not "new"
    finally:
        backend.close()


def test_a_restored_draft_keeps_its_typing_and_the_clock_at_leaving(clock: FixedClock) -> None:
    backend = Backend.open(clock=clock)
    backend.save_draft(
        "bpe-encode",
        "retype",
        "def en",
        95.0,
        keystrokes=44,
        typing_keystrokes=40,
        typing_errors=6,
        costly_keys=(("(", 4),),
    )
    backend.close()
    clock.advance(minutes=30)
    again = Backend.open(clock=clock)
    try:
        draft = again.draft("bpe-encode", "retype")
        assert draft is not None
        figures = (draft.elapsed_seconds, draft.keystrokes, draft.typing_keystrokes, draft.typing_errors)
        assert figures == (95.0, 44, 40, 6) and draft.costly_keys == (("(", 4),)
    finally:
        again.close()


def test_the_same_failed_submission_in_the_app_is_logged_once(clock: FixedClock) -> None:
    backend = Backend.open(clock=clock)
    try:
        drill = backend.library.drill(DRILL)
        assert backend.record_grade(drill, greedy(), "same source") == ("viterbi-not-greedy",)
        clock.advance(seconds=5)
        assert backend.record_grade(drill, greedy(), "same source") == ()
        backend.progress.flush(10)
        assert len(backend.store.concept_results(failed=True)) == 1
    finally:
        backend.close()


def test_a_draft_goes_on_with_its_session_and_a_discarded_submitted_one_is_an_attempt(clock: FixedClock) -> None:
    backend = Backend.open(clock=clock)
    try:
        drill = backend.library.drill(DRILL)
        started = clock.now()
        clock.advance(minutes=4)
        backend.save_draft(drill.id, "recall", "def viterbi_segment(", 240.0, started_at=started, submissions=2)
        draft = backend.draft(drill.id, "recall")
        assert draft is not None and (draft.started_at, draft.submissions) == (started, 2)
        clock.advance(hours=3)
        summary = backend.abandon_draft(drill, "recall")  # not restored: the session is over
        assert summary is not None and summary.rating == "Again" and summary.seconds == 240.0
        assert backend.draft(drill.id, "recall") is None
        backend.save_draft(drill.id, "recall", "def viterbi_segment(", 30.0, started_at=clock.now(), submissions=0)
        assert backend.abandon_draft(drill, "recall") is None  # never submitted: nothing to record
        backend.progress.flush(10)
        (attempt,) = backend.store.attempts(drill.id)
        assert (attempt.passed, attempt.submissions, attempt.started_at) == (False, 2, started)
    finally:
        backend.close()
