"""The one door the app (and the commands that record practice) use into the core: content,
progress store, scheduler, grader and clock.

Everything here is a thin call into ``tokdrill.content``, ``tokdrill.progress``,
``tokdrill.scheduling`` and ``tokdrill.grading`` (the same functions the CLI uses), plus small
view records that the screens render. No Textual imports: this module is testable on its own.

Threading: :meth:`Backend.grade` runs in a Textual worker thread; every other method is called
from the UI thread (the store is thread-safe anyway).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal

from tokdrill import locations
from tokdrill.clock import Clock, SystemClock
from tokdrill.content.model import Card, Drill, Library, introduction_order
from tokdrill.grading.verdict import Verdict
from tokdrill.progress.records import Attempt, Draft, Mode
from tokdrill.scheduling.stats import ACTIVITY_DAYS


@dataclass(frozen=True)
class QueueItem:
    """One line of Today's queue: a drill, or the batch of due cards (``kind='cards'``)."""

    kind: Literal["drill", "cards"]
    item_id: str
    title: str
    detail: str


@dataclass(frozen=True)
class Today:
    """What the Today screen shows."""

    queue: tuple[QueueItem, ...]
    due_cards: tuple[Card, ...]
    new_cards: int
    due_drills: tuple[Drill, ...]
    interview_date: date | None
    days_left: int | None
    readiness: float | None
    weakest: tuple[str, ...]
    streak: int
    done_today: int
    first_run: bool
    first_drill: Drill | None


@dataclass(frozen=True)
class AttemptSummary:
    """What a passed attempt produced: its time against the target and the previous best."""

    seconds: float
    target_seconds: int
    previous_best: float | None
    attempt_number: int
    rating: str
    next_due: str


class Backend:
    """Content + store + planner + grader + clock, opened once per app run."""

    def __init__(self, library: Library, store: Any, clock: Clock, problems: list[str]) -> None:
        self.library = library
        self.store = store  # tokdrill.progress.store.Store, or None when the database is unusable
        self.clock = clock
        self.problems = problems
        self._grader: Any = None
        self._grader_lock = threading.Lock()
        self._reference_cache: dict[tuple[str, ...], str] = {}
        self.broken_drills: set[str] = set()
        self._symbols_checked = False
        self._symbols_lock = threading.Lock()
        self._catalog: Any = None
        self._planner: Any = None
        if store is not None:
            from tokdrill.scheduling import Planner, catalog_from_library

            self._catalog = catalog_from_library(library)
            self._planner = Planner(store, clock)

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
        from tokdrill.progress.errors import StoreError
        from tokdrill.progress.store import Store

        clock = clock or SystemClock()
        # Drill symbols are checked after the first frame (check_symbols), which keeps
        # reference_impl's import off the start-up path; everything else is checked here.
        library = load_library(
            locations.extra_content_dirs(list(content_dirs or []), data_dir),
            cache_dir=locations.cache_dir(data_dir),
            check_symbols=False,
        )
        problems = [str(error) for error in library.errors]
        path = locations.database_path(data_dir)
        try:
            store = Store.open(path, clock=clock)
        except StoreError as exc:
            problems.append(f"progress database: {exc}")
            problems.append("Progress of this session goes to a temporary folder and is not kept.")
            store = Store.open(Path(_scratch_dir()) / "progress.sqlite3", clock=clock)
        return cls(library, store, clock, problems)

    def close(self) -> None:
        """Stop the warm grader and close the store."""
        with self._grader_lock:
            if self._grader is not None:
                self._grader.close()
                self._grader = None
        if self.store is not None:
            self.store.close()

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
            from tokdrill.content.reference import symbol_problem

            found = []
            for drill in list(self.library.drills.values()):
                for symbol in drill.symbols:
                    problem = symbol_problem(symbol)
                    if problem is not None:
                        found.append(f"{drill.origin}: symbols: {problem}")
                        self.broken_drills.add(drill.id)
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
        with self._grader_lock:
            if self._grader is None:
                from tokdrill.grading import WarmGrader

                self._grader = WarmGrader()
            grader = self._grader
        return grader.grade(drill, source)

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
    ) -> AttemptSummary:
        """Record a finished attempt (rated and rescheduled by the planner); returns the summary."""
        previous = [a.active_seconds for a in self.store.attempts(drill.id) if a.passed and a.mode == mode]
        attempt = Attempt(
            drill_id=drill.id,
            mode=mode,
            started_at=started_at,
            ended_at=self.clock.now(),
            active_seconds=float(active_seconds),
            target_seconds=drill.target_seconds,
            passed=verdict.passed,
            submissions=submissions,
            tests=tuple(verdict.tests),
            keystrokes=keystrokes,
            retype_accuracy=retype_accuracy,
        )
        outcome = self._planner.record_attempt(attempt)
        count = len(self.store.attempts(drill.id))
        due_day = self._planner.calendar().day_of(outcome.state.due)
        return AttemptSummary(
            seconds=float(active_seconds),
            target_seconds=drill.target_seconds,
            previous_best=min(previous) if previous else None,
            attempt_number=count,
            rating=outcome.rating.name,
            next_due=due_day.isoformat(),
        )

    def save_draft(self, drill_id: str, mode: Mode, text: str, elapsed_seconds: float) -> None:
        """Autosave the editor text of an unfinished drill."""
        self.store.save_draft(Draft(drill_id, mode, text, float(elapsed_seconds), self.clock.now()))

    def draft(self, drill_id: str, mode: Mode) -> Draft | None:
        """The saved draft of (drill, mode), if any."""
        return self.store.draft(drill_id, mode)

    def discard_draft(self, drill_id: str, mode: Mode) -> None:
        self.store.clear_draft(drill_id, mode)

    def rate_card(self, card: Card, rating: int, answer_seconds: float) -> None:
        """Record a review (1 Again .. 4 Easy) and reschedule the card."""
        self._planner.review_card(card.id, rating, max(0.0, answer_seconds))

    def interview_date(self) -> date | None:
        return self.store.interview_date()

    def set_interview_date(self, day: date | None) -> None:
        self.store.set_interview_date(day)

    # ------------------------------------------------------------------------------- views
    def review_queue(self) -> list[Card]:
        """Cards due now (reviews first, then today's new cards), in the planner's order."""
        queue = self._planner.due_queue(self._catalog)
        return [self.library.card(item.item_id) for item in queue.cards]

    def today(self) -> Today:
        """Due items, countdown, readiness and streak for the Today screen."""
        planner = self._planner
        queue = planner.due_queue(self._catalog)
        cards = tuple(self.library.card(i.item_id) for i in queue.cards)
        new_cards = sum(1 for i in queue.cards if i.is_new)
        drill_items = [i for i in queue.drills if i.item_id not in self.broken_drills]
        drills = tuple(self.library.drill(i.item_id) for i in drill_items)
        items: list[QueueItem] = []
        now = self.clock.now()
        for item, drill in zip(drill_items, drills):
            if item.is_new:
                detail = f"new · target {drill.target_seconds // 60} min"
            else:
                late = (now - item.due).days if item.due else 0
                detail = f"due{f' {late} d ago' if late > 0 else ''} · recall {item.recall_now * 100:.0f}%"
            items.append(QueueItem("drill", drill.id, f"Drill: {drill.title}", detail))
        first = self.first_drill() if self.store.count("attempts") == 0 else None
        if first is not None:  # a newcomer starts with the gentlest drill, due or not
            items = [i for i in items if i.item_id != first.id]
            items.insert(
                0,
                QueueItem(
                    "drill", first.id, f"Drill: {first.title}", f"start here · target {first.target_seconds // 60} min"
                ),
            )
        if cards:
            reviews = len(cards) - new_cards
            items.append(
                QueueItem(
                    "cards",
                    "due",
                    f"Review {len(cards)} card{'s' if len(cards) != 1 else ''}",
                    f"{reviews} due · {new_cards} new",
                )
            )
        interview = self.store.interview_date()
        readiness = planner.readiness(self._catalog) if interview else None
        today = planner.calendar().day_of(now)
        first_run = self.store.count("attempts") == 0 and self.store.count("reviews") == 0
        weakest = tuple(self._title(r.kind, r.item_id) for r in readiness.weakest) if readiness else ()
        return Today(
            queue=tuple(items),
            due_cards=cards,
            new_cards=new_cards,
            due_drills=drills,
            interview_date=interview,
            days_left=None if interview is None else (interview - today).days,
            readiness=None if readiness is None else readiness.overall,
            weakest=weakest,
            streak=planner.streak(),
            done_today=self.activity(1)[-1][1],
            first_run=first_run,
            first_drill=self.first_drill() if first_run else None,
        )

    def _title(self, kind: str, item_id: str) -> str:
        if kind == "drill" and item_id in self.library.drills:
            return self.library.drills[item_id].title
        return item_id

    def stats(self) -> Any:
        """The same Stats the ``tokdrill stats`` command prints (tokdrill.scheduling.stats)."""
        from tokdrill.scheduling.stats import compute_stats

        return compute_stats(self.store, self._catalog, self.clock)

    def activity(self, days: int = ACTIVITY_DAYS) -> list[tuple[date, int]]:
        """Attempts + reviews per local day for the last ``days`` days, oldest first."""
        from tokdrill.scheduling.stats import daily_activity

        cal = self._planner.calendar()
        return list(daily_activity(self.store, cal, cal.day_of(self.clock.now()), days))


def _scratch_dir() -> str:
    import tempfile

    return tempfile.mkdtemp(prefix="tokdrill-unsaved-")
