"""The practice service: the one place the app (through :class:`tokdrill.backend.Backend`) and
every CLI command start drills, record graded outcomes, give-ups and drafts, and read what is
due, the mistake log, the stats and what a mock round asks.

Every write is a job on the progress keeper's write queue (:mod:`tokdrill.practice.recording`),
so whoever makes it, it is journalled and retried the same way. Reads go to the keeper's read
store and raise :class:`tokdrill.progress.errors.StoreError` when it fails; the backend turns
that into a notice, a command into a message.

The rules: an attempt is one start to its first pass, or a give-up, or a start abandoned by the
next one (:mod:`tokdrill.practice.own_editor` for the CLI; in the app the drill screen's session
is the start, and a draft keeps it: restoring the draft goes on with it, discarding a draft that
was submitted records it as not passed). A give-up is recorded as attempted and not passed, without typing figures. A
failed check blames only what failed (:mod:`tokdrill.practice.blame`), and the same source
graded twice in a row is logged once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from msgspec import Struct
from msgspec.structs import replace

from tokdrill.clock import Clock
from tokdrill.content.model import Drill, Library
from tokdrill.practice.blame import blamed_concepts, concept_results
from tokdrill.practice.due import due_queue
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.practice.mistakes import Mistake, mistakes
from tokdrill.practice.stats import ACTIVITY_DAYS, Stats, compute_stats, daily_activity
from tokdrill.progress.records import Attempt, Draft, Mode, Origin, Start, TestOutcome
from tokdrill.progress.write_queue import StoreStatus
from tokdrill.scheduling.catalog import Catalog, catalog_from_library
from tokdrill.scheduling.planner import AttemptPreview, DueQueue, Planner
from tokdrill.scheduling.ratings import drill_rating
from tokdrill.scheduling.readiness import Readiness

if TYPE_CHECKING:  # imported where used: Today, the app's first screen, needs none of them
    from tokdrill.grading.verdict import Verdict
    from tokdrill.practice.mock import DrillHistory, MockPlan
    from tokdrill.practice.own_editor import CheckKind
    from tokdrill.practice.series import ChartSeries


class TypingPoint(Struct, frozen=True):
    """One retype attempt's typing figures (for the Stats screen's typing trend)."""

    drill_id: str
    ended_at: datetime
    wpm: float
    accuracy: float | None
    corrected_errors: int | None
    costly_keys: tuple[tuple[str, int], ...]


TYPING_HISTORY = 30
"""How many recent retype attempts the typing trend covers."""


class TypingRecord(Struct, frozen=True):
    """The typing figures of a retype attempt that passed (none for a give-up)."""

    keystrokes: int | None = None
    retype_accuracy: float | None = None
    wpm: float | None = None
    typing_accuracy: float | None = None
    corrected_errors: int | None = None
    costly_keys: tuple[tuple[str, int], ...] | None = None


class Recorded(Struct, frozen=True):
    """A recorded attempt as its maker sees it at once: the attempt, its rating and next due
    (worked out from the stored state while the write is queued; None when the store cannot be
    read now), the best passing time before it and its number among the drill's attempts."""

    attempt: Attempt
    preview: AttemptPreview | None
    previous_best: float | None
    number: int

    @property
    def rating_name(self) -> str:
        """Again, Hard, Good or Easy."""
        if self.preview is not None:
            return self.preview.rating.name
        a = self.attempt
        return drill_rating(a.passed, a.active_seconds, a.target_seconds).name


class CheckRecord(Struct, frozen=True):
    """What one ``tokdrill check`` did: its kind (:data:`own_editor.CheckKind`), the concepts it
    blamed (per failed test), the start afterwards and the attempt it recorded, if any."""

    kind: CheckKind
    blamed: dict[str, tuple[str, ...]]
    start: Start | None
    recorded: Recorded | None

    @property
    def failed_concepts(self) -> tuple[str, ...]:
        """The concepts logged as failed (none unless the check was recorded)."""
        if self.kind != "recorded":
            return ()
        return tuple(dict.fromkeys(c for concepts in self.blamed.values() for c in concepts))


class Practice:
    """Practice over one library, one progress keeper and one clock."""

    def __init__(self, library: Library | Callable[[], Library], progress: ProgressKeeper, clock: Clock) -> None:
        """``library`` may be a function that loads it: a command that only records a check
        never needs the whole content."""
        self._library = library
        self.progress = progress
        self.clock = clock
        self._graded: dict[tuple[str, Origin], str] = {}  # the source last logged per drill and origin
        self._lock = threading.Lock()

    @cached_property
    def library(self) -> Library:
        """The content practised."""
        return self._library if isinstance(self._library, Library) else self._library()

    @cached_property
    def catalog(self) -> Catalog:
        """The content's ids and targets as the scheduler sees them."""
        return catalog_from_library(self.library)

    def use_library(self, library: Library) -> None:
        """Practise ``library`` from now on (content reloaded while the app runs)."""
        self._library = library
        for cached in ("library", "catalog"):
            self.__dict__.pop(cached, None)

    @classmethod
    def open(cls, library: Library | Callable[[], Library], database: Path, clock: Clock) -> tuple[Practice, list[str]]:
        """The service over the progress at ``database`` (opened however it is) and its problems."""
        progress, problems = ProgressKeeper.open(database, clock)
        return cls(library, progress, clock), problems

    def close(self, grace: float = 10.0) -> StoreStatus:
        """Write what is pending within ``grace`` seconds (what cannot be written stays in the
        journal, replayed by the next run) and close; returns whether everything was saved."""
        self.progress.flush(grace)
        return self.progress.close()

    def planner(self) -> Planner:
        """A planner over the read store that sees settings not yet written."""
        return self.progress.planner()

    # ------------------------------------------------------------------ what is due
    def due(self, extra_new: int = 0) -> DueQueue:
        """What to practise now, in order (:func:`tokdrill.practice.due.due_queue`)."""
        return due_queue(self.planner(), self.catalog, extra_new)

    def readiness(self) -> Readiness | None:
        """Readiness by the interview date (None without one, or once it has passed): the same
        figure Today, the Stats screen and ``tokdrill stats`` show."""
        return self.planner().readiness(self.catalog)

    def stats(self) -> Stats:
        """Everything the Stats screen and ``tokdrill stats`` show."""
        return compute_stats(self.progress.reader, self.catalog, self.clock, self.planner())

    def typing_history(self, limit: int = TYPING_HISTORY) -> list[TypingPoint]:
        """The typing points of the newest ``limit`` passed retype attempts that measured them,
        oldest first (a give-up never measures them)."""
        points = [
            TypingPoint(a.drill_id, a.ended_at, a.wpm, a.typing_accuracy, a.corrected_errors, a.costly_keys or ())
            for a in self.progress.reader.attempts(mode="retype", typed=True, limit=limit)
            if a.wpm is not None
        ]
        return points[::-1]

    def activity(self, days: int = ACTIVITY_DAYS) -> list[tuple[date, int]]:
        """Attempts + reviews per local day for the last ``days`` days, oldest first."""
        calendar = self.planner().calendar()
        return list(daily_activity(self.progress.reader, calendar, calendar.day_of(self.clock.now()), days))

    def charts(self, drill_id: str | None = None, deck_id: str | None = None) -> ChartSeries:
        """The series of the Stats charts (``tokdrill stats --plot`` draws the same); the drill
        and deck default to the ones practised last."""
        from tokdrill.practice.series import chart_series

        return chart_series(self.progress.reader, self.catalog, self.planner(), drill_id, deck_id)

    def chart_choices(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The drills and decks the charts step through: those with history, else all."""
        from tokdrill.practice.series import chart_choices

        return chart_choices(self.progress.reader, self.catalog)

    def mistakes(self) -> list[Mistake]:
        """The mistake log."""
        return mistakes(self.progress.reader, self.library)

    def plan_mock(self, minutes: int) -> MockPlan | None:
        """The mock round to ask now (:mod:`tokdrill.practice.mock`)."""
        from tokdrill.practice.mock import plan_round

        reader = self.progress.reader
        return plan_round(
            self.due(), self.library, minutes, reader.count("mock_rounds"), self.drill_history(), self.clock.now()
        )

    def drill_history(self) -> dict[str, DrillHistory]:
        """When each drill was last failed (an attempt or a logged submission) and last passed."""
        from tokdrill.practice.mock import DrillHistory

        reader = self.progress.reader
        failed: dict[str, datetime] = {}
        passed: dict[str, datetime] = {}
        for attempt in reader.attempts():
            into = passed if attempt.passed else failed
            into[attempt.drill_id] = max(attempt.ended_at, into.get(attempt.drill_id, attempt.ended_at))
        for result in reader.concept_results(failed=True):
            failed[result.drill_id] = max(result.at, failed.get(result.drill_id, result.at))
        return {d: DrillHistory(failed.get(d), passed.get(d)) for d in failed.keys() | passed.keys()}

    # ------------------------------------------------------------------ the CLI's starts and checks
    def start(self, drill: Drill, mode: Mode, path: str) -> tuple[Start, Recorded | None]:
        """Start ``drill``'s clock now for the file at ``path``; a start it replaces that was
        checked and never passed is recorded as a failed attempt (returned)."""
        from tokdrill.practice import own_editor

        abandoned = own_editor.abandoned_attempt(self.progress.start(drill.id), drill.target_seconds)
        recorded = None if abandoned is None else self._record(abandoned)
        start = own_editor.new_start(drill.id, mode, path, self.clock.now())
        self.progress.put_start(start)
        return start, recorded

    def last_checked(self, drill_id: str) -> str | None:
        """The hash of the source last recorded for ``drill_id`` by a check, if any."""
        start = self.progress.start(drill_id)
        return None if start is None else start.source_hash

    def check(self, drill: Drill, verdict: Verdict, source: str, path: str) -> CheckRecord:
        """Record one ``tokdrill check`` (see :mod:`tokdrill.practice.own_editor`); a verdict
        of tokdrill's own failure records nothing, like an unchanged source."""
        from tokdrill.practice import own_editor

        now = self.clock.now()
        tests = tuple(TestOutcome.from_result(t) for t in verdict.tests)
        blamed = blamed_concepts(tests)
        if verdict.internal:  # tokdrill's own failure is not the user's
            return CheckRecord("unchanged", blamed, None, None)
        decision = own_editor.decide_check(
            self.progress.start(drill.id),
            drill.id,
            drill.target_seconds,
            path,
            own_editor.source_hash(source),
            verdict.passed,
            tests,
            now,
        )
        if decision.kind != "recorded":
            return CheckRecord(decision.kind, blamed, self.progress.start(drill.id), None)
        self.progress.record_concept_results(concept_results(drill.id, "check", now, tests))
        recorded = None if decision.attempt is None else self._record(decision.attempt)
        assert decision.start is not None
        self.progress.put_start(decision.start)
        return CheckRecord("recorded", blamed, decision.start, recorded)

    # ------------------------------------------------------------------ the app's submissions
    def log_submission(self, drill: Drill, verdict: Verdict, source: str, origin: Origin = "app") -> tuple[str, ...]:
        """Log how a graded submission did on each concept (the mistake log); returns the
        concepts blamed. A grading failure of tokdrill's own, or the same source as the
        previous submission of this drill, is not logged again."""
        from tokdrill.practice.own_editor import source_hash

        if verdict.internal:
            return ()
        digest = source_hash(source)
        with self._lock:
            if self._graded.get((drill.id, origin)) == digest:
                return ()
            self._graded[(drill.id, origin)] = digest
        tests = tuple(TestOutcome.from_result(t) for t in verdict.tests)
        results = concept_results(drill.id, origin, self.clock.now(), tests)
        self.progress.record_concept_results(results)
        return tuple(r.concept for r in results if r.failed)

    def finish(
        self,
        drill: Drill,
        mode: Mode,
        *,
        started_at: datetime,
        active_seconds: float,
        verdict: Verdict,
        submissions: int,
        typing: TypingRecord | None = None,
        origin: Origin = "app",
    ) -> Recorded:
        """Record the attempt a drill session ends with: its first pass (with its typing figures)."""
        typing = typing or TypingRecord()
        attempt = Attempt(
            drill_id=drill.id,
            mode=mode,
            started_at=started_at,
            ended_at=self.clock.now(),
            active_seconds=max(0.0, float(active_seconds)),
            target_seconds=drill.target_seconds,
            passed=verdict.passed,
            submissions=submissions,
            tests=tuple(TestOutcome.from_result(t) for t in verdict.tests),
            keystrokes=typing.keystrokes,
            retype_accuracy=typing.retype_accuracy,
            wpm=typing.wpm,
            typing_accuracy=typing.typing_accuracy,
            corrected_errors=typing.corrected_errors,
            costly_keys=typing.costly_keys,
            origin=origin,
        )
        with self._lock:
            self._graded.pop((drill.id, origin), None)
        return self._record(attempt)

    def give_up(
        self,
        drill: Drill,
        mode: Mode,
        *,
        started_at: datetime,
        active_seconds: float,
        verdict: Verdict | None,
        submissions: int,
        keystrokes: int | None = None,
        origin: Origin = "app",
    ) -> Recorded:
        """Record a session given up: attempted, not passed, and no typing-speed point."""
        from tokdrill.grading.verdict import Verdict

        last = verdict or Verdict(drill.id, False, (), 0.0, problem="given up before a submission")
        given_up = replace(last, passed=False)
        return self.finish(
            drill,
            mode,
            started_at=started_at,
            active_seconds=active_seconds,
            verdict=given_up,
            submissions=submissions,
            typing=TypingRecord(keystrokes=keystrokes),
            origin=origin,
        )

    def _record(self, attempt: Attempt) -> Recorded:
        reader = self.progress.reader
        previous_best = self.progress.guarded(lambda: reader.best_seconds(attempt.drill_id, attempt.mode), None)
        stored = self.progress.guarded(lambda: reader.attempt_count(attempt.drill_id), 0)
        number = stored + self.progress.pending_attempts(attempt.drill_id) + 1
        preview = self.progress.record_attempt(attempt)
        return Recorded(attempt, preview, previous_best, number)

    # ------------------------------------------------------------------ drafts
    def save_draft(self, draft: Draft) -> None:
        """Keep the editor text (and typing so far) of an unfinished drill (queued). A draft is
        never stamped older than the one it replaces (a clock set back must not lose it)."""
        previous = self.progress.draft(draft.drill_id, draft.mode)
        if previous is not None and previous.saved_at >= draft.saved_at:
            draft = replace(draft, saved_at=previous.saved_at + timedelta(microseconds=1))
        self.progress.save_draft(draft)

    def draft(self, drill_id: str, mode: Mode) -> Draft | None:
        """The newest draft of (drill, mode), a queued one included."""
        return self.progress.draft(drill_id, mode)

    def discard_draft(self, drill_id: str, mode: Mode) -> Draft | None:
        """Forget the draft of (drill, mode), however it was stamped; returns it."""
        draft = self.progress.draft(drill_id, mode)
        now = self.clock.now()
        self.progress.discard_draft(drill_id, mode, now if draft is None else max(now, draft.saved_at))
        return draft

    def abandon(self, drill: Drill, mode: Mode) -> Recorded | None:
        """Discard the draft of (drill, mode); a session that was submitted and never passed
        is recorded as an attempt not passed (an abandoned start), timed by the draft's clock."""
        draft = self.discard_draft(drill.id, mode)
        with self._lock:  # the next session logs its submissions afresh
            self._graded = {key: digest for key, digest in self._graded.items() if key[0] != drill.id}
        if draft is None or not draft.submissions or draft.started_at is None:
            return None
        attempt = Attempt(
            drill_id=drill.id,
            mode=mode,
            started_at=draft.started_at,
            ended_at=draft.saved_at,
            active_seconds=draft.elapsed_seconds,
            target_seconds=drill.target_seconds,
            passed=False,
            submissions=draft.submissions,
        )
        return self._record(attempt)
