"""Random sequences of practice, from the app and the CLI at once, keep every number true.

A hypothesis state machine drives the practice service (the app through its Backend, the CLI
through a service opened and closed per command, as a separate process would) with verdicts it
builds itself (grading is tested elsewhere), including sessions left and discarded, over a store
in a temporary folder and a clock it moves both ways. After every step: Today, the Stats screen and ``tokdrill stats --json`` (read
from the file the way the command reads it) count the same due items; each drill's tries and
passes equal what the model expects (one attempt per start at most); no give-up is a typing
point; no concept is logged that no failed check blamed; and a reopen loses nothing.
"""

from __future__ import annotations

import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.content import load_library
from tokdrill.content.model import Drill
from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.practice.own_editor import source_hash
from tokdrill.practice.service import Practice
from tokdrill.practice.stats import compute_stats
from tokdrill.progress import settings as keys
from tokdrill.progress.store import Store
from tokdrill.progress.transfer import export_document, import_document

LIBRARY = load_library([], check_symbols=False)
DRILLS = ("bpe-encode", "viterbi-segment")
CONCEPTS = {"bpe-encode": ("merge-order", "inputs-unchanged"), "viterbi-segment": ("viterbi-not-greedy", "log-space")}
CARDS = tuple(card.id for card in LIBRARY.all_cards())[:6]
TESTS = ("dedicated_a", "dedicated_b", "both")


def verdict(drill_id: str, failing: frozenset[str]) -> Verdict:
    """A verdict of three tests: one dedicated to each of the drill's two concepts, one to both."""
    a, b = CONCEPTS[drill_id]
    tags = {"dedicated_a": (a,), "dedicated_b": (b,), "both": (a, b)}
    results = tuple(
        TestResult(f"test_{drill_id}.py::{name}", "failed" if name in failing else "passed", "", tags[name])
        for name in TESTS
    )
    return Verdict(drill_id, not failing, results, 0.1)


def expected_blame(drill_id: str, failing: frozenset[str]) -> set[str]:
    """The concepts the blame rule must log for ``failing``, worked out for this test layout."""
    a, b = CONCEPTS[drill_id]
    blamed = {c for name, c in (("dedicated_a", a), ("dedicated_b", b)) if name in failing}
    if "both" in failing and not blamed:
        blamed.add(a)  # every concept cleared by its passing dedicated test: the main one
    return blamed


class PracticeMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="tokdrill-state-"))
        self.path = self.folder / "progress.sqlite3"
        self.clock = FixedClock()
        self.backend = self._open()
        self.attempts = dict.fromkeys(DRILLS, 0)
        self.passes = dict.fromkeys(DRILLS, 0)
        self.starts: dict[str, dict[str, object]] = {}  # the CLI's start per drill, as the model sees it
        self.sessions: dict[str, int] = {}  # the app's open drill sessions: submissions so far
        self.app_logged: dict[str, str] = {}  # the source last logged per drill by the app
        self.blamable: set[tuple[str, str]] = set()
        self.drafts: dict[str, tuple[str, float, int, int]] = {}

    def _open(self) -> Backend:
        keeper, problems = ProgressKeeper.open(self.path, self.clock)
        assert problems == []
        return Backend(LIBRARY, keeper, self.clock, [])

    def teardown(self) -> None:
        self.backend.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def drill(self, drill_id: str) -> Drill:
        return LIBRARY.drill(drill_id)

    # ------------------------------------------------------------------ the CLI
    @rule(drill_id=st.sampled_from(DRILLS))
    def cli_start(self, drill_id: str) -> None:
        self.clock.advance(seconds=1)  # a command or a key takes a moment
        practice, _ = Practice.open(LIBRARY, self.path, self.clock)
        try:
            _, abandoned = practice.start(self.drill(drill_id), "recall", str(self.folder / f"{drill_id}.py"))
        finally:
            assert practice.close().state == "saved"
        start = self.starts.get(drill_id)
        was_abandoned = start is not None and start["open"] and int(str(start["checks"])) > 0
        assert (abandoned is not None) == was_abandoned
        if was_abandoned:
            self.attempts[drill_id] += 1
        self.starts[drill_id] = {"open": True, "checks": 0, "hash": None}

    @rule(
        drill_id=st.sampled_from(DRILLS),
        failing=st.frozensets(st.sampled_from(TESTS)),
        version=st.integers(0, 2),
    )
    def cli_check(self, drill_id: str, failing: frozenset[str], version: int) -> None:
        self.clock.advance(seconds=1)  # a command or a key takes a moment
        source = f"# version {version}\n"
        practice, _ = Practice.open(LIBRARY, self.path, self.clock)
        try:
            kept = practice.check(self.drill(drill_id), verdict(drill_id, failing), source, "mine.py")
        finally:
            assert practice.close().state == "saved"
        start = self.starts.get(drill_id)
        digest = source_hash(source)
        if start is not None and start["hash"] == digest:
            assert kept.kind == "unchanged"
            return
        if start is not None and not start["open"]:
            assert kept.kind == "practice" and kept.recorded is None
            return
        assert kept.kind == "recorded"
        self.blamable |= {(drill_id, c) for c in expected_blame(drill_id, failing)}
        assert set(kept.failed_concepts) == expected_blame(drill_id, failing)
        if start is None:
            self.starts[drill_id] = {"open": bool(failing), "checks": 1, "hash": digest}
            assert kept.recorded is None
        elif not failing:
            assert kept.recorded is not None and kept.recorded.attempt.passed
            self.attempts[drill_id] += 1
            self.passes[drill_id] += 1
            self.starts[drill_id] = {"open": False, "checks": int(str(start["checks"])) + 1, "hash": digest}
        else:
            assert kept.recorded is None
            self.starts[drill_id] = {"open": True, "checks": int(str(start["checks"])) + 1, "hash": digest}

    # ------------------------------------------------------------------ the app
    @rule(
        drill_id=st.sampled_from(DRILLS),
        failing=st.frozensets(st.sampled_from(TESTS)),
        version=st.integers(0, 2),
    )
    def app_submit(self, drill_id: str, failing: frozenset[str], version: int) -> None:
        self.clock.advance(seconds=1)  # a command or a key takes a moment
        source = f"# app version {version}\n"
        submissions = self.sessions.get(drill_id, 0) + 1
        self.sessions[drill_id] = submissions
        blamed = self.backend.record_grade(self.drill(drill_id), verdict(drill_id, failing), source)
        if self.app_logged.get(drill_id) == source:
            assert blamed == ()
        else:
            assert set(blamed) == expected_blame(drill_id, failing)
            self.blamable |= {(drill_id, c) for c in blamed}
            self.app_logged[drill_id] = source
        if not failing:
            summary = self.backend.record_attempt(
                self.drill(drill_id),
                "retype",
                started_at=self.clock.now() - timedelta(minutes=5),
                active_seconds=300.0,
                verdict=verdict(drill_id, failing),
                submissions=submissions,
                keystrokes=400,
                retype_accuracy=1.0,
                wpm=48.0,
                typing_accuracy=0.97,
                corrected_errors=3,
                costly_keys=(("(", 2),),
            )
            self.attempts[drill_id] += 1
            self.passes[drill_id] += 1
            assert summary.attempt_number == self.attempts[drill_id]
            del self.sessions[drill_id]
            self.app_logged.pop(drill_id, None)
            self.drafts.pop(drill_id, None)  # a pass clears the drill's draft

    @rule(drill_id=st.sampled_from(DRILLS), keystrokes=st.integers(0, 30))
    def app_give_up(self, drill_id: str, keystrokes: int) -> None:
        self.clock.advance(seconds=1)  # a command or a key takes a moment
        summary = self.backend.give_up(
            self.drill(drill_id),
            "retype",
            started_at=self.clock.now() - timedelta(seconds=40),
            active_seconds=40.0,
            verdict=None,
            submissions=self.sessions.pop(drill_id, 0),
            keystrokes=keystrokes,
        )
        self.app_logged.pop(drill_id, None)
        self.attempts[drill_id] += 1
        assert summary.rating == "Again"

    @rule(drill_id=st.sampled_from(DRILLS), seconds=st.floats(1, 3000))
    def app_leave_then_discard(self, drill_id: str, seconds: float) -> None:
        """Leave a drill session (its draft keeps it), then open the drill again and discard the
        draft: a session that was submitted is an attempt not passed, one never submitted none."""
        self.clock.advance(seconds=1)
        submissions = self.sessions.pop(drill_id, 0)
        self.app_logged.pop(drill_id, None)
        started = self.clock.now() - timedelta(seconds=seconds)
        self.backend.save_draft(drill_id, "recall", "def f(", seconds, started_at=started, submissions=submissions)
        summary = self.backend.abandon_draft(self.drill(drill_id), "recall")
        assert (summary is not None) == (submissions > 0)
        if summary is not None:
            self.attempts[drill_id] += 1
        assert self.backend.draft(drill_id, "recall") is None

    @rule(
        drill_id=st.sampled_from(DRILLS),
        text=st.text(st.characters(codec="utf-8"), min_size=1, max_size=20),
        seconds=st.floats(0, 3000),
        keystrokes=st.integers(0, 500),
        errors=st.integers(0, 500),
    )
    def leave_and_restore(self, drill_id: str, text: str, seconds: float, keystrokes: int, errors: int) -> None:
        errors = min(errors, keystrokes)
        self.backend.save_draft(drill_id, "retype", text, seconds, keystrokes=keystrokes, typing_errors=errors)
        self.drafts[drill_id] = (text, seconds, keystrokes, errors)
        self._check_draft(drill_id)

    def _check_draft(self, drill_id: str) -> None:
        draft = self.backend.draft(drill_id, "retype")
        assert draft is not None
        assert (draft.text, draft.elapsed_seconds, draft.keystrokes, draft.typing_errors) == self.drafts[drill_id]

    # ------------------------------------------------------------------ cards, clock, settings
    @rule(card=st.sampled_from(CARDS), rating=st.integers(1, 4))
    def review(self, card: str, rating: int) -> None:
        self.backend.rate_card(LIBRARY.card(card), rating, 4.0)

    @rule()
    def undo(self) -> None:
        self.backend.undo_last_review()

    @rule(minutes=st.integers(-600, 60 * 24 * 12))
    def move_clock(self, minutes: int) -> None:
        self.clock.current += timedelta(minutes=minutes)

    @rule(per_day=st.integers(0, 12), interview_in=st.none() | st.integers(1, 40))
    def change_settings(self, per_day: int, interview_in: int | None) -> None:
        self.backend.set_setting(keys.NEW_CARDS_PER_DAY, per_day)
        day = None if interview_in is None else self.backend.local_day(self.clock.now()) + timedelta(days=interview_in)
        self.backend.set_interview_date(day)

    @rule()
    def export_and_import(self) -> None:
        store = self.backend.store  # every queued write applied
        document = export_document(store)
        with Store.open(self.path, clock=self.clock) as other:
            import_document(other, document, replace=True)

    @rule()
    def reopen(self) -> None:
        assert self.backend.close().state == "saved"
        self.backend = self._open()
        self.sessions.clear()  # an app session ends with the app
        self.app_logged.clear()
        for drill_id in self.drafts:
            self._check_draft(drill_id)

    # ------------------------------------------------------------------ what must hold
    @invariant()
    def every_screen_counts_the_same(self) -> None:
        self.backend.progress.flush(10.0)
        today = self.backend.today()
        stats = self.backend.stats()
        with Store.open_for_reading(self.path, clock=self.clock) as store:  # as `tokdrill stats --json` reads it
            command = compute_stats(store, self.backend.catalog, self.clock).to_json()
        assert today.due == stats.due
        assert today.readiness == (None if stats.readiness is None else stats.readiness.overall)
        assert command["readiness"] == (None if stats.readiness is None else stats.readiness.to_json())
        assert command["due_now"] == stats.due.to_json()
        for drill_id in DRILLS:
            row = next(d for d in stats.drills if d.drill_id == drill_id)
            json_row = next(d for d in command["drills"] if d["id"] == drill_id)
            assert (row.attempts, row.passes) == (self.attempts[drill_id], self.passes[drill_id])
            assert (json_row["attempts"], json_row["passes"]) == (row.attempts, row.passes)
            assert (json_row["best_seconds"], json_row["median_seconds"]) == (row.best_seconds, row.median_seconds)

    @invariant()
    def no_give_up_is_a_typing_point(self) -> None:
        store = self.backend.store
        assert all(a.wpm is None for a in store.attempts() if not a.passed)
        assert len(self.backend.typing_history()) == sum(1 for a in store.attempts() if a.passed and a.origin == "app")

    @invariant()
    def only_blamed_concepts_are_logged(self) -> None:
        logged = {(r.drill_id, r.concept) for r in self.backend.store.concept_results(failed=True)}
        assert logged <= self.blamable
        assert {m.concept for m in self.backend.mistakes()} == {c for _, c in logged}

    @invariant()
    def discarded_drafts_stay_discarded(self) -> None:
        store = self.backend.store  # every queued write applied
        assert all(store.draft(drill_id, "recall") is None for drill_id in DRILLS)

    @precondition(lambda self: bool(self.drafts))
    @invariant()
    def drafts_keep_their_figures(self) -> None:
        for drill_id in self.drafts:
            self._check_draft(drill_id)


PracticeMachine.TestCase.settings = settings(
    max_examples=200,
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestPracticeMachine = pytest.mark.fuzz(pytest.mark.slow(PracticeMachine.TestCase))  # 200 examples: 15-30 s
