"""The app's one door into the core: content, the practice service, grader and clock.

Everything here is a thin, typed call into ``tokdrill.content``, ``tokdrill.practice`` (the
service the CLI calls too: starts, attempts, drafts, the mistake log, what is due, stats, mock
rounds) and ``tokdrill.grading``, plus small view records of data. The words the screens show
are the UI's (``tokdrill.ui``). No Textual imports: this module is testable on its own.

Threading: :meth:`Backend.grade` runs in a Textual worker thread; every other method is called
from the UI thread and returns without waiting for the database: writes are queued
(:class:`tokdrill.practice.keeper.ProgressKeeper`) and store trouble is reported to the
listener set with :meth:`Backend.set_store_listener`, never raised.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from msgspec import Struct

from tokdrill import locations
from tokdrill.clock import Clock, SystemClock
from tokdrill.content.model import Card, Drill, Library, introduction_order
from tokdrill.practice.due import DueCounts, due_counts
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.practice.mistakes import Mistake
from tokdrill.practice.service import TYPING_HISTORY, Practice, Recorded, TypingPoint, TypingRecord
from tokdrill.practice.stats import ACTIVITY_DAYS, Stats
from tokdrill.progress import settings as setting_keys
from tokdrill.progress.records import (
    Draft,
    MockAnswer,
    MockRound,
    Mode,
    Origin,
    TestOutcome,
)
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import StoreStatus
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import DueItem, Planner

if TYPE_CHECKING:  # the grader, mock rounds and charts load when first used, not for Today
    from tokdrill.grading.verdict import Verdict
    from tokdrill.grading.warm import WarmGrader
    from tokdrill.practice.mock import MockPlan
    from tokdrill.practice.series import ChartSeries


class Today(Struct, frozen=True):
    """What the Today screen shows: the due counts, the due drills (their queue items and
    drills, in order), the cards pulled by failed tests (with their titles), the drill a
    newcomer starts with, the interview countdown, readiness, streak and today's work."""

    due: DueCounts
    due_cards: tuple[Card, ...]
    drill_items: tuple[DueItem, ...]
    due_drills: tuple[Drill, ...]
    pulled: tuple[tuple[DueItem, str], ...]
    start_here: Drill | None
    interview_date: date | None
    days_left: int | None
    readiness: float | None
    weakest: tuple[str, ...]
    streak: int
    done_today: int
    first_run: bool
    first_drill: Drill | None


class AttemptSummary(Struct, frozen=True):
    """What a passed attempt produced: its time against the target and the previous best."""

    seconds: float
    target_seconds: int
    previous_best: float | None
    attempt_number: int
    rating: str
    next_due: str


class MockAnswerView(Struct, frozen=True):
    """One answer on a mock round's scorecard: the question asked, what was typed, the key
    points covered and missed (main answers), and the model answer (follow-ups)."""

    question: str
    answer: MockAnswer
    missed_points: tuple[str, ...]
    model_answer: str


class Scheduled(Struct, frozen=True):
    """What a mock round scheduled for one item: the round's drill (``next_due`` its next due
    day as text, or "-"), a card it asked (the ``rating`` its answer earned), or a card its drill
    made due today (``concept``: the concept the drill failed)."""

    kind: Literal["drill", "card"]
    title: str
    next_due: str
    rating: int | None = None
    concept: str | None = None


class MockScorecard(Struct, frozen=True):
    """What a finished mock round shows: the round as stored, the drill's title, each answer,
    and what is now scheduled because of the round."""

    mock: MockRound
    drill_title: str
    answers: tuple[MockAnswerView, ...]
    scheduled: tuple[Scheduled, ...]


STUDY_MORE_STEP = 10
"""New cards "study more" adds when the daily setting is 0."""

PULLED_CARDS_SHOWN = 5
"""At most this many cards pulled by failed tests are listed one by one on Today."""


class Backend:
    """Content + store + planner + grader + clock, opened once per app run."""

    def __init__(self, library: Library, progress: ProgressKeeper, clock: Clock, problems: list[str]) -> None:
        self.library = library
        self.progress = progress
        self.clock = clock
        self.problems = problems
        self._grader: WarmGrader | None = None
        self._grader_lock = threading.Lock()
        self._closed = False  # closed: no grader is started again
        self._sandbox_checked = False
        self._reference_cache: dict[tuple[str, ...], str] = {}
        self.broken_drills: set[str] = set()
        self._symbols_checked = False
        self._symbols_lock = threading.Lock()
        self.practice = Practice(library, progress, clock)
        self._extra_new: tuple[date | None, int] = (None, 0)
        # what open() loaded content from: the --content folders and --data-dir
        self._content_sources: tuple[list[str], str | os.PathLike[str] | None] | None = None

    @property
    def store(self) -> Store:
        """The progress store with every queued write applied (waits for them): for commands
        and tests. Screens use the methods below, which never wait for the database."""
        return self.progress.store

    @property
    def catalog(self) -> Catalog:
        """The content's ids and targets as the scheduler sees them."""
        return self.practice.catalog

    @property
    def _planner(self) -> Planner:
        return self.progress.planner()

    @property
    def _reader(self) -> Store:
        return self.progress.reader

    @classmethod
    def open(
        cls,
        data_dir: str | os.PathLike[str] | None = None,
        content_dirs: Iterable[str] | None = None,
        clock: Clock | None = None,
    ) -> Backend:
        """Load content (shipped + ``--content`` + ``TOKDRILL_CONTENT``) and open the store.

        Problems never raise: broken content files and an unusable database become readable
        lines in :attr:`problems`; the app opens with what is valid (without a database,
        progress is kept in a throwaway in-memory store and the notice says so).
        """
        from tokdrill.content import load_library

        clock = clock or SystemClock()
        # Drill symbols are checked after the first frame (check_symbols), which keeps
        # reference_impl's import off the start-up path; everything else is checked here.
        library = load_library(
            locations.extra_content_dirs(list(content_dirs or []), data_dir),
            cache_dir=locations.cache_dir(data_dir),
            check_symbols=False,
        )
        problems = [str(error) for error in library.errors]
        progress, store_problems = ProgressKeeper.open(locations.database_path(data_dir), clock)
        problems.extend(store_problems)
        backend = cls(library, progress, clock, problems)
        backend._content_sources = (list(content_dirs or []), data_dir)
        return backend

    # ------------------------------------------------------------------- content on disk
    def content_signature(self) -> tuple[tuple[str, int, int], ...]:
        """Each user content file (``--content``, ``TOKDRILL_CONTENT``, the data folder's
        ``content/``) with its modification time and size: it changes when a deck is imported
        or edited while the app runs. A few stat calls; safe from a worker thread."""
        if self._content_sources is None:
            return ()
        from tokdrill.content.loader import content_files

        cli_dirs, data_dir = self._content_sources
        found = []
        for entry in locations.extra_content_dirs(cli_dirs, data_dir):
            for path in content_files(entry) if entry.is_dir() else [entry]:
                try:
                    info = path.stat()
                except OSError:
                    continue
                found.append((str(path), info.st_mtime_ns, info.st_size))
        return tuple(found)

    def load_content(self) -> Library:
        """The content as the files hold it now (loaded as :meth:`open` loads it); from a
        worker thread, then handed to :meth:`use_content` on the UI thread."""
        from tokdrill.content import load_library

        cli_dirs, data_dir = self._content_sources or ([], None)
        return load_library(
            locations.extra_content_dirs(cli_dirs, data_dir),
            cache_dir=locations.cache_dir(data_dir),
            check_symbols=False,
        )

    def use_content(self, library: Library) -> None:
        """Use ``library`` from now on (progress and settings stay as they are); its content
        problems replace those of the content it replaces."""
        old = {str(error) for error in self.library.errors}
        kept = [problem for problem in self.problems if problem not in old]
        self.library = library
        self.practice.use_library(library)
        self.problems = [str(error) for error in library.errors] + kept

    def close(self) -> StoreStatus:
        """Stop the warm grader, write what is pending (a couple of seconds at most; the rest
        stays in the side file for the next start) and close the store. Never raises."""
        with self._grader_lock:
            self._closed = True
            if self._grader is not None:
                self._grader.close()
                self._grader = None
        return self.progress.close()

    # ------------------------------------------------------------------------ store status
    def set_store_listener(self, listener: Callable[[StoreStatus], None] | None) -> None:
        """Who hears about store trouble and recovery (called from the writer's thread)."""
        self.progress.set_listener(listener)

    def store_status(self) -> StoreStatus:
        """Whether everything is saved, and if not, why and where it is kept."""
        return self.progress.status()

    @property
    def store_damaged(self) -> bool:
        """True while the progress database is damaged and only a salvaged copy is shown."""
        return self.progress.damaged is not None

    def repair_store(self) -> str:
        """Replace a damaged database with what could be read from it (the user agreed);
        returns what happened, for the user."""
        from tokdrill.progress.errors import StoreError

        try:
            return self.progress.repair()
        except StoreError as exc:
            return f"Repair failed: {exc}; {exc.advice}."

    @property
    def database_path(self) -> Path:
        """The progress database file."""
        return self.progress.path

    # ----------------------------------------------------------------------------- content
    def check_symbols(self) -> list[str]:
        """Problems with the drills' reference symbols, as ``file:line: symbols: message``.

        Runs once: the first call returns the problems (and adds them to :attr:`problems`),
        later calls return []. Drills with a problem land in :attr:`broken_drills` and refuse
        to open. Safe from a worker thread; it also warms up the reference code for retype.
        """
        with self._symbols_lock:
            if self._symbols_checked:
                return []
            from tokdrill.content.reference import release_parsed, symbol_problem

            found = []
            for drill in list(self.library.drills.values()):
                for symbol in drill.symbols:
                    problem = symbol_problem(symbol)
                    if problem is not None:
                        found.append(f"{drill.origin}: symbols: {problem}")
                        self.broken_drills.add(drill.id)
            release_parsed()
            self.problems.extend(found)
            self._symbols_checked = True
            return found

    def reference(self, drill: Drill) -> str:
        """The retype text of ``drill`` (reference code of its symbols), cached."""
        key = tuple(drill.symbols)
        if key not in self._reference_cache:
            from tokdrill.content.reference import reference_source

            self._reference_cache[key] = reference_source(drill.symbols)
        return self._reference_cache[key]

    def first_drill(self) -> Drill | None:
        """The drill a newcomer should start with: bytes-to-unicode, else the easiest one."""
        drills = self.library.drills
        if "bytes-to-unicode" in drills:
            return drills["bytes-to-unicode"]
        return min(drills.values(), key=introduction_order, default=None)

    # ----------------------------------------------------------------------------- grading
    def grade(self, drill: Drill, source: str) -> Verdict:
        """Grade ``source`` in the sandbox with the warm grader (started on first use)."""
        grader = self._warm_grader()
        if grader is None:
            from tokdrill.grading.decide import internal_error

            return internal_error(drill.id, (), "tokdrill was closing: nothing was graded")
        return grader.grade(drill, source)

    def prepare_grading(self, drill: Drill) -> list[str]:
        """Start the warm grader if need be and collect ``drill``'s tests in it now (with the
        reference's side of its checks), so that the first submission is as quick as the next.
        Takes seconds: call it from a worker thread. Returns error lines (grading reports them
        again)."""
        grader = self._warm_grader()
        return [] if grader is None else grader.preload([drill])

    def _warm_grader(self) -> WarmGrader | None:
        """The warm grader, started on first use; None once the backend is closed."""
        with self._grader_lock:
            if self._grader is None and not self._closed:
                from tokdrill.grading import WarmGrader

                self._grader = WarmGrader()
            return self._grader

    def check_sandbox(self) -> list[str]:
        """The grader's notice about a weak sandbox on this machine, as a problem line (once;
        [] when the sandbox protects the user's files). Safe from a worker thread."""
        with self._grader_lock:
            if self._sandbox_checked:
                return []
            self._sandbox_checked = True
            grader = self._grader
        from tokdrill.grading import sandbox_notice

        notice = sandbox_notice(grader)
        if not notice:
            return []
        found = [f"grading sandbox: {notice}"]
        self.problems.extend(found)
        return found

    # ---------------------------------------------------------------------------- progress
    def record_attempt(
        self,
        drill: Drill,
        mode: Mode,
        *,
        started_at: datetime,
        active_seconds: float,
        verdict: Verdict,
        submissions: int,
        keystrokes: int | None,
        retype_accuracy: float | None,
        wpm: float | None = None,
        typing_accuracy: float | None = None,
        corrected_errors: int | None = None,
        costly_keys: tuple[tuple[str, int], ...] | None = None,
        origin: Origin = "app",
    ) -> AttemptSummary:
        """Record the attempt a session ends with, its first pass (rated and rescheduled by the
        planner); returns the summary. ``next_due`` is the local day the drill comes back, the
        interview's final window applied."""
        typing = TypingRecord(keystrokes, retype_accuracy, wpm, typing_accuracy, corrected_errors, costly_keys)
        recorded = self.practice.finish(
            drill,
            mode,
            started_at=started_at,
            active_seconds=active_seconds,
            verdict=verdict,
            submissions=submissions,
            typing=typing,
            origin=origin,
        )
        return self._summary(recorded)

    def give_up(
        self,
        drill: Drill,
        mode: Mode,
        *,
        started_at: datetime,
        active_seconds: float,
        verdict: Verdict | None,
        submissions: int,
        keystrokes: int | None,
        origin: Origin = "app",
    ) -> AttemptSummary:
        """Record a session given up: attempted and not passed, with no typing figures."""
        recorded = self.practice.give_up(
            drill,
            mode,
            started_at=started_at,
            active_seconds=active_seconds,
            verdict=verdict,
            submissions=submissions,
            keystrokes=keystrokes,
            origin=origin,
        )
        return self._summary(recorded)

    def _summary(self, recorded: Recorded) -> AttemptSummary:
        preview = recorded.preview
        next_due = "-"
        if preview is not None:
            next_due = self.progress.guarded(lambda: self._planner.calendar().day_of(preview.next_due).isoformat(), "-")
        return AttemptSummary(
            seconds=recorded.attempt.active_seconds,
            target_seconds=recorded.attempt.target_seconds,
            previous_best=recorded.previous_best,
            attempt_number=recorded.number,
            rating=recorded.rating_name,
            next_due=next_due,
        )

    def record_grade(self, drill: Drill, verdict: Verdict, source: str, origin: Origin = "app") -> tuple[str, ...]:
        """Log how a graded submission did on each concept its tests check (queued): the mistake
        log, and the cards a failed concept makes due; returns the concepts blamed. A grading
        failure of tokdrill's own, or the same source submitted again, is not logged."""
        return self.practice.log_submission(drill, verdict, source, origin)

    def save_draft(
        self,
        drill_id: str,
        mode: Mode,
        text: str,
        elapsed_seconds: float,
        *,
        keystrokes: int | None = None,
        typing_keystrokes: int | None = None,
        typing_errors: int | None = None,
        costly_keys: tuple[tuple[str, int], ...] | None = None,
        started_at: datetime | None = None,
        submissions: int | None = None,
    ) -> None:
        """Autosave the editor text of an unfinished drill, with its clock, the typing counted
        so far and its session (when it started, the submissions so far), queued; kept in a
        side file while the database cannot be written."""
        draft = Draft(
            drill_id,
            mode,
            text,
            max(0.0, float(elapsed_seconds)),
            self.clock.now(),
            keystrokes,
            typing_keystrokes,
            typing_errors,
            costly_keys,
            started_at,
            submissions,
        )
        self.practice.save_draft(draft)

    def draft(self, drill_id: str, mode: Mode) -> Draft | None:
        """The newest draft of (drill, mode), a queued one included, if any."""
        return self.practice.draft(drill_id, mode)

    def discard_draft(self, drill_id: str, mode: Mode) -> None:
        """Forget the draft of (drill, mode)."""
        self.practice.discard_draft(drill_id, mode)

    def abandon_draft(self, drill: Drill, mode: Mode) -> AttemptSummary | None:
        """Discard the draft of (drill, mode) the user chose not to restore; a session that was
        submitted is recorded as an attempt not passed (returned)."""
        recorded = self.practice.abandon(drill, mode)
        return None if recorded is None else self._summary(recorded)

    def rate_card(self, card: Card, rating: int, answer_seconds: float) -> None:
        """Record a review (1 Again .. 4 Easy) and reschedule the card (queued)."""
        self.progress.rate_card(card.id, rating, max(0.0, answer_seconds))

    def study_more(self) -> int:
        """Raise today's new-card limit by one day's worth (the new-cards-per-day setting, at
        least one): "study more" once the day's new cards are done. Returns the step."""
        value = self.progress.setting(setting_keys.NEW_CARDS_PER_DAY)
        step = value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else STUDY_MORE_STEP
        self._extra_new = (self._local_today(), self.extra_new_today() + step)
        return step

    def has_unseen_cards(self) -> bool:
        """Whether any card has never been reviewed (what "study more" would bring in)."""

        def read() -> bool:
            seen = self._reader.item_states("card")
            return any(card_id not in seen for card_id in self.practice.catalog.card_ids)

        return self.progress.guarded(read, False)

    def extra_new_today(self) -> int:
        """How many new cards "study more" has added to today's limit."""
        day, extra = self._extra_new
        return extra if day == self._local_today() else 0

    def _local_today(self) -> date:
        return self.progress.guarded(lambda: self._planner.calendar().day_of(self.clock.now()), self.clock.now().date())

    def undo_last_review(self) -> str | None:
        """Undo this session's newest rating; returns the id of the card put back, or None."""
        return self.progress.undo_last_review()

    def preview_intervals(self, card: Card) -> dict[int, timedelta]:
        """How long until ``card`` is due again for each rating (1 Again .. 4 Easy)."""
        none: dict[int, timedelta] = {}
        return self.progress.guarded(lambda: self._planner.preview_intervals(card.id), none)

    def setting(self, key: str) -> setting_keys.SettingValue:
        """A setting's current value (a change not yet written included)."""
        return self.progress.setting(key)

    def set_setting(self, key: str, value: object) -> None:
        """Validate (ValueError naming the problem) and store a setting (queued)."""
        self.progress.set_setting(key, value)

    def auto_indent(self) -> bool:
        """Whether the drill editor indents new lines (the user's choice, kept across runs)."""
        return self.progress.setting(setting_keys.AUTO_INDENT) is True

    def set_auto_indent(self, on: bool) -> None:
        """Keep the drill editor's auto-indent choice."""
        self.progress.set_setting(setting_keys.AUTO_INDENT, bool(on))

    @staticmethod
    def readiness_explanation() -> str:
        """What the readiness percentage means and what raises it (as ``tokdrill stats`` says)."""
        from tokdrill.scheduling.readiness import READINESS_EXPLANATION

        return READINESS_EXPLANATION

    def interview_date(self) -> date | None:
        """The interview date, if set."""
        value = self.progress.setting(setting_keys.INTERVIEW_DATE)
        return date.fromisoformat(value) if isinstance(value, str) else None

    def set_interview_date(self, day: date | None) -> None:
        """Set (or clear) the interview date."""
        self.progress.set_setting(setting_keys.INTERVIEW_DATE, None if day is None else day.isoformat())

    # ------------------------------------------------------------------------------- views
    def review_queue(self, extra_new: int | None = None) -> list[Card]:
        """Cards due now (reviews first, then today's new cards, ``extra_new`` more of them
        for "study more", by default as many as :meth:`study_more` added today), in the
        planner's order; cards rated a moment ago are left out even while their rating waits
        to be written."""
        rated = self.progress.cards_rated_pending()
        extra = self.extra_new_today() if extra_new is None else extra_new

        def read() -> list[Card]:
            queue = self.practice.due(extra)
            return [self.library.card(i.item_id) for i in queue.cards if i.item_id not in rated]

        return self.progress.guarded_view(read)

    def today(self) -> Today:
        """Due items, countdown, readiness and streak for the Today screen."""
        return self.progress.guarded_view(self._today)

    def _today(self) -> Today:
        planner = self._planner
        queue = self.practice.due()
        counts = due_counts(queue)
        cards = tuple(self.library.card(i.item_id) for i in queue.cards)
        drill_items = [i for i in queue.drills if i.item_id not in self.broken_drills]
        drills = tuple(self.library.drill(i.item_id) for i in drill_items)
        now = self.clock.now()
        pulled = tuple((i, self._title("card", i.item_id)) for i in queue.cards if i.pulled_by is not None)
        first = self.first_drill() if self._reader.count("attempts") == 0 else None
        interview = planner.interview_date()
        readiness = self.practice.readiness() if interview else None
        today = planner.calendar().day_of(now)
        first_run = self._reader.count("attempts") == 0 and self._reader.count("reviews") == 0
        weakest = tuple(self._title(r.kind, r.item_id) for r in readiness.weakest) if readiness else ()
        return Today(
            due=counts,
            due_cards=cards,
            drill_items=tuple(drill_items),
            due_drills=drills,
            pulled=pulled[:PULLED_CARDS_SHOWN],
            start_here=first,
            interview_date=interview,
            days_left=None if interview is None else (interview - today).days,
            readiness=None if readiness is None else readiness.overall,
            weakest=weakest,
            streak=planner.streak(),
            done_today=self.activity(1)[-1][1],
            first_run=first_run,
            first_drill=self.first_drill() if first_run else None,
        )

    def mistakes(self) -> list[Mistake]:
        """The mistake log (tokdrill.practice.mistakes), as ``tokdrill mistakes`` prints it."""
        none: list[Mistake] = []
        return self.progress.guarded(self.practice.mistakes, none)

    def local_day(self, moment: datetime) -> date:
        """The user's calendar day of ``moment`` (the timezone setting)."""
        return self.progress.guarded(lambda: self._planner.calendar().day_of(moment), moment.date())

    # ------------------------------------------------------------------------- mock rounds
    def mock_minutes(self) -> int:
        """The length of a mock round (the ``mock_minutes`` setting)."""
        value = self.progress.setting(setting_keys.MOCK_MINUTES)  # validated: a whole number, default when unset
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"mock_minutes: expected a whole number, got {value!r}")
        return value

    def plan_mock(self) -> MockPlan | None:
        """The mock round to ask now (tokdrill.practice.mock), None without drills or cards
        with follow-ups."""
        return self.progress.guarded(lambda: self.practice.plan_mock(self.mock_minutes()), None)

    def finish_mock(
        self,
        plan: MockPlan,
        started_at: datetime,
        drill_verdict: Verdict | None,
        drill_seconds: float | None,
        drill_next_due: str | None,
        answers: tuple[MockAnswer, ...],
        answer_seconds: tuple[float, ...],
    ) -> MockScorecard:
        """Record a finished round (queued): each main answer as a review of its card rated by
        the key points it covered, and the round itself. The drill's attempt is recorded by the
        drill screen. Returns the scorecard."""
        from tokdrill.content.keypoints import match_key_points
        from tokdrill.practice.blame import blamed_concepts
        from tokdrill.practice.mock import answer_rating, concepts_missed

        drill = self.library.drill(plan.drill_id)
        tests = tuple(TestOutcome.from_result(t) for t in drill_verdict.tests) if drill_verdict else ()
        passed = drill_verdict is not None and drill_verdict.passed
        mock = MockRound(
            started_at=started_at,
            ended_at=self.clock.now(),
            clock_seconds=plan.clock_seconds,
            drill_id=drill.id,
            drill_target_seconds=plan.drill_target_seconds or drill.target_seconds,
            drill_passed=passed,
            drill_seconds=drill_seconds,
            answers=answers,
            concepts_missed=concepts_missed(tests, answers, self.library),
        )
        views: list[MockAnswerView] = []
        scheduled = [Scheduled("drill", drill.title, drill_next_due or "-")]
        today = self._local_today()
        for i, answer in enumerate(answers):
            card = self.library.card(answer.card_id)
            if answer.follow_up is None:
                missed = tuple(m.point for m in match_key_points(answer.answer, card.key_points) if not m.covered)
                views.append(MockAnswerView(card.question, answer, missed, ""))
                rating = answer_rating(answer)
                interval = self.preview_intervals(card).get(rating)
                seconds = answer_seconds[i] if i < len(answer_seconds) else 0.0
                self.rate_card(card, rating, seconds)
                due = "-" if interval is None else self.local_day(self.clock.now() + interval).isoformat()
                scheduled.append(Scheduled("card", self._title("card", card.id), due, rating=rating))
            else:
                follow = card.follow_ups[answer.follow_up]
                views.append(MockAnswerView(follow.question, answer, (), follow.answer))
        answered = {a.card_id for a in answers}
        for concept in dict.fromkeys(c for concepts in blamed_concepts(tests).values() for c in concepts):
            for card_id in self.practice.catalog.cards_teaching(concept):
                if card_id not in answered:
                    answered.add(card_id)
                    title = self._title("card", card_id)
                    scheduled.append(Scheduled("card", title, today.isoformat(), concept=concept))
        self.progress.record_mock_round(mock)
        return MockScorecard(mock, drill.title, tuple(views), tuple(scheduled))

    def mock_rounds(self, limit: int | None = None) -> list[MockRound]:
        """Stored mock rounds, newest first."""
        none: list[MockRound] = []
        return self.progress.guarded(lambda: self._reader.mock_rounds(limit), none)

    def _title(self, kind: str, item_id: str) -> str:
        """How an item is named to people: a drill's title, a card's question (shortened)."""
        if kind == "drill" and item_id in self.library.drills:
            return self.library.drills[item_id].title
        if kind == "card":
            for card in self.library.all_cards():
                if card.id == item_id:
                    question = " ".join(card.question.split())
                    return question if len(question) <= 48 else question[:47] + "…"
        return item_id

    def stats(self) -> Stats:
        """The same Stats the ``tokdrill stats`` command prints (tokdrill.practice.stats)."""
        return self.progress.guarded_view(self.practice.stats)

    def charts(self, drill_id: str | None = None, deck_id: str | None = None) -> ChartSeries:
        """The series of the Stats screen's charts, the same as ``tokdrill stats --plot`` draws
        (tokdrill.practice.series); the drill and deck default to the ones practised last."""
        return self.progress.guarded_view(lambda: self.practice.charts(drill_id, deck_id))

    def chart_choices(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The drills and decks the charts step through: those with history, else all."""
        return self.progress.guarded_view(self.practice.chart_choices)

    def typing_history(self, limit: int = TYPING_HISTORY) -> list[TypingPoint]:
        """The typing figures of the newest ``limit`` retype attempts that have them, oldest first."""
        none: list[TypingPoint] = []
        return self.progress.guarded(lambda: self.practice.typing_history(limit), none)

    def activity(self, days: int = ACTIVITY_DAYS) -> list[tuple[date, int]]:
        """Attempts + reviews per local day for the last ``days`` days, oldest first."""
        return self.progress.guarded_view(lambda: self.practice.activity(days))
