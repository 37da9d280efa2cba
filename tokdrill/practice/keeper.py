"""The app's hold on the progress store: reads from one connection, writes through the write
queue, and what happens when the database cannot be used.

* Writes (attempts, ratings, drafts, settings, undo) are queued jobs: they return at once and
  the queue's thread applies them (:mod:`tokdrill.progress.write_queue`). Reads see the
  pending ones where it matters (a draft, a setting, cards already rated).
* A journal a previous run left (writes it could not save) is replayed on open.
* A read-only or locked database still opens for reading; writes wait and are retried.
* A damaged database is copied aside, what can be read is shown from a salvaged copy, and
  nothing is written until the user agrees to :meth:`ProgressKeeper.repair`.
* Anything else (a newer tokdrill's file, an unreadable folder) opens an empty scratch store
  for reading, and writes are kept in the journal.

Status changes reach the app through ``set_listener`` (called from the queue's thread).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from tokdrill.clock import Clock
from tokdrill.practice import recording
from tokdrill.progress import settings as keys
from tokdrill.progress.document import DraftRecord, StartRecord, validated
from tokdrill.progress.errors import StoreError
from tokdrill.progress.records import Attempt, ConceptResult, Draft, MockRound, Mode, Review, Start, from_iso, to_iso
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import Job, StoreStatus, WriteQueue, read_journals
from tokdrill.scheduling.planner import AttemptPreview, Planner

if TYPE_CHECKING:  # salvage and repair load only for a damaged database
    from tokdrill.progress.salvage import Salvage

READ_BUSY_TIMEOUT = 1.0
"""Seconds a read waits for another process's lock (reads rarely wait at all in WAL mode)."""
SETTLE_TIMEOUT = 10.0
"""Seconds :attr:`ProgressKeeper.store` waits for pending writes before returning anyway."""

T = TypeVar("T")


class ProgressKeeper:
    """Reads and queued writes of one user's progress. Open with :meth:`open`."""

    def __init__(
        self,
        path: Path,
        reader: Store,
        queue: WriteQueue,
        clock: Clock,
        *,
        damaged: StoreError | None = None,
        salvaged: Salvage | None = None,
        scratch: Path | None = None,
    ) -> None:
        self.path = path
        self.clock = clock
        self.session_started = clock.now()
        self.damaged = damaged
        self._reader = reader
        self._queue = queue
        self._salvaged = salvaged
        self._scratch = scratch
        self._lock = threading.Lock()
        self._local = threading.local()  # a thread's stand-in reader while a read falls back
        self._empty: tuple[Path, Store] | None = None
        self._retired: list[Store] = []
        self._spent: list[Salvage] = []  # salvages already used by a repair (removed at the end)
        self._generation = 0  # bumped whenever reads move to another store
        self._listener: Callable[[StoreStatus], None] | None = None
        self._last: StoreStatus | None = None
        queue.on_status = self._status

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(
        cls, path: Path, clock: Clock, *, queue_opener: Callable[[Path], Store] | None = None
    ) -> tuple[ProgressKeeper, list[str]]:
        """Open the progress at ``path`` however it is; returns the keeper and readable problems
        (never raises for the database's state)."""
        problems: list[str] = []
        damaged: StoreError | None = None
        held: StoreError | None = None
        salvaged: Salvage | None = None
        scratch: Path | None = None
        try:
            reader = Store.open(path, clock=clock, busy_timeout=READ_BUSY_TIMEOUT)
        except StoreError as exc:
            if exc.problem in ("damaged", "foreign"):
                damaged = held = exc
                if exc.problem == "damaged":
                    from tokdrill.progress.salvage import salvage

                    salvaged = salvage(path, clock)
                    reader = salvaged.store
                    problems.append(
                        f"progress database: {exc}\nShowing what could be read ({salvaged.summary()}). "
                        "Nothing new is written to it: choose 'Repair progress' in the palette (or run "
                        "`tokdrill repair`) to continue from what was read; until then your work is kept "
                        "in a side file."
                    )
                else:
                    scratch, reader = _scratch_store(clock)
                    problems.append(f"progress database: {exc}\nYour work this session is kept in a side file.")
            else:
                if exc.problem == "newer":
                    held = exc
                try:
                    reader = Store.open(path, clock=clock, busy_timeout=READ_BUSY_TIMEOUT, read_only=True)
                    problems.append(f"progress database: {exc}\nShowing your progress read-only; {exc.advice}.")
                except StoreError:
                    scratch, reader = _scratch_store(clock)
                    problems.append(
                        f"progress database: {exc}\nNo progress could be read; {exc.advice}. "
                        "Your work this session is kept and saved when the database can be written."
                    )
        queue = WriteQueue(path, clock, open_store=queue_opener, held=held)
        keeper = cls(path, reader, queue, clock, damaged=damaged, salvaged=salvaged, scratch=scratch)
        problems.extend(keeper._replay())
        return keeper, problems

    def _replay(self) -> list[str]:
        entries, files, problems = read_journals(self.path.parent)
        jobs = []
        for entry in entries:
            try:
                jobs.append(recording.job_from_entry(entry, self.clock))
            except ValueError as exc:
                problems.append(f"unsaved progress from an earlier run: skipped one write ({exc})")
        if files:
            self._queue.adopt(jobs, files)
            if jobs:
                problems.append(f"{len(jobs)} change(s) that an earlier run could not save are being saved now.")
        return problems

    # ------------------------------------------------------------------ reading

    @property
    def reader(self) -> Store:
        """The store reads go to (the real file, a read-only view, or a salvaged copy; an empty
        store while :meth:`guarded` falls back on this thread)."""
        stand_in: Store | None = getattr(self._local, "reader", None)
        return self._reader if stand_in is None else stand_in

    @property
    def store(self) -> Store:
        """The store once every pending write has been applied (waits up to SETTLE_TIMEOUT):
        for commands and tests that read right after writing; never for the UI thread."""
        self._queue.flush(SETTLE_TIMEOUT)
        return self._reader

    def planner(self) -> Planner:
        """A planner over the read store that sees settings not yet written."""
        return Planner(self.reader, self.clock, self.setting)

    def guarded(self, read: Callable[[], T], fallback: T) -> T:
        """``read()``, or ``fallback`` when the store fails (reported through the listener; a
        damaged file switches to what can be read from it)."""
        generation = self._generation
        try:
            return read()
        except StoreError as exc:
            if exc.problem in ("damaged", "foreign") and (self.damaged is None or generation != self._generation):
                if self.damaged is None:
                    self._switch_to_salvage(exc)
                try:
                    return read()  # again, over what could be read
                except StoreError:
                    return fallback
            self._status(
                StoreStatus("retrying", f"Cannot read progress right now: {exc}; {exc.advice}.", 0, exc.problem)
            )
            return fallback

    def guarded_view(self, read: Callable[[], T]) -> T:
        """``read()``; when the store fails, ``read()`` again over an empty store (so a screen
        still shows, with nothing in it) after reporting the trouble."""
        failed = False

        def attempt() -> T | None:
            nonlocal failed
            failed = False
            try:
                return read()
            except StoreError:
                failed = True
                raise

        result = self.guarded(attempt, None)
        if not failed:
            return result  # type: ignore[return-value]  # read() returned it
        if self._empty is None:
            self._empty = _scratch_store(self.clock)
        self._local.reader = self._empty[1]
        try:
            return read()
        finally:
            self._local.reader = None

    def _switch_to_salvage(self, exc: StoreError) -> None:
        from tokdrill.progress.salvage import salvage

        self.damaged = exc
        self._queue.hold(exc)
        found = salvage(self.path, self.clock)
        self._retired.append(self._reader)  # closed at the end: a read in progress may still hold it
        self._reader, self._salvaged = found.store, found
        self._generation += 1
        self._status(
            StoreStatus(
                "held",
                f"{exc}. Showing what could be read ({found.summary()}); choose 'Repair progress' in the "
                "palette (or run `tokdrill repair`) to continue from it.",
                len(self._queue.pending()),
                exc.problem,
            )
        )

    def _pending_entries(self) -> list[dict[str, object]]:
        return [job.entry for job in self._queue.pending()]

    def draft(self, drill_id: str, mode: Mode) -> Draft | None:
        """The newest draft of (drill, mode): a pending save or discard wins over the stored one."""
        for entry in reversed(self._pending_entries()):
            if entry["op"] == "draft":
                draft = entry["draft"]
                if isinstance(draft, dict) and draft.get("drill_id") == drill_id and draft.get("mode") == mode:
                    record: DraftRecord = validated(DraftRecord, draft, "draft")
                    return record.to_record()
            if entry["op"] == "clear_draft" and entry.get("drill_id") == drill_id and entry.get("mode") == mode:
                return None
        return self.guarded(lambda: self.reader.draft(drill_id, mode), None)

    def start(self, drill_id: str) -> Start | None:
        """The drill's start in the user's own editor, a pending one included."""
        for entry in reversed(self._pending_entries()):
            start = entry.get("start")
            if entry["op"] == "start" and isinstance(start, dict) and start.get("drill_id") == drill_id:
                record: StartRecord = validated(StartRecord, start, "start")
                return record.to_record()
        return self.reader.start(drill_id)

    def setting(self, key: str) -> keys.SettingValue:
        """A setting's value, a pending change included."""
        for entry in reversed(self._pending_entries()):
            if entry["op"] == "setting" and entry.get("key") == key:
                value = entry["value"]
                return keys.DEFAULTS.get(key) if value is None else keys.validate_setting(key, value)
        return self.guarded(lambda: self.reader.get_setting(key), keys.DEFAULTS.get(key))

    def cards_rated_pending(self) -> set[str]:
        """Cards whose rating is queued but not yet written (kept out of the review queue)."""
        return {str(e["card_id"]) for e in self._pending_entries() if e["op"] == "review"}

    def pending_attempts(self, drill_id: str) -> int:
        """Attempts of ``drill_id`` queued but not yet written."""
        count = 0
        for entry in self._pending_entries():
            attempt = entry.get("attempt")
            if entry["op"] == "attempt" and isinstance(attempt, dict) and attempt.get("drill_id") == drill_id:
                count += 1
        return count

    # ------------------------------------------------------------------ writing

    def submit(self, job: Job) -> None:
        """Queue one write."""
        self._queue.submit(job)

    def record_attempt(self, attempt: Attempt) -> AttemptPreview | None:
        """Queue a finished attempt; returns its rating and next due worked out from the stored
        state (None when the store cannot be read right now)."""
        job = recording.attempt_job(attempt, self.clock)  # refuses a bad attempt before queueing
        preview = self.guarded(lambda: self.planner().preview_attempt(attempt), None)
        self.submit(job)
        return preview

    def record_concept_results(self, results: tuple[ConceptResult, ...]) -> None:
        """Queue how one graded submission did on each of its concepts."""
        if results:
            self.submit(recording.concept_results_job(results))

    def record_mock_round(self, mock: MockRound) -> None:
        """Queue a finished mock round."""
        self.submit(recording.mock_round_job(mock))

    def rate_card(self, card_id: str, rating: int, answer_seconds: float) -> None:
        """Queue a card review made now."""
        self.submit(recording.review_job(card_id, rating, answer_seconds, self.clock.now(), self.clock))

    def undo_last_review(self) -> str | None:
        """Queue an undo of this session's newest rating; returns the card it puts back (None
        when this session has no rating left to undo). The undo names the review it removes, so
        replaying it after a crash removes nothing more."""
        undone: set[tuple[str, str]] = set()
        queued: list[tuple[str, str]] = []
        for entry in self._pending_entries():
            if entry["op"] == "review":
                queued.append((str(entry["card_id"]), str(entry["at"])))
            elif entry["op"] == "undo" and "card_id" in entry:
                undone.add((str(entry["card_id"]), str(entry["at"])))
        target = next((r for r in reversed(queued) if r not in undone), None)
        if target is None:
            none: list[Review] = []
            stored = self.guarded(lambda: self.reader.reviews(limit=len(undone) + 1), none)
            recent = ((r.card_id, to_iso(r.reviewed_at)) for r in stored if r.reviewed_at >= self.session_started)
            target = next((r for r in recent if r not in undone), None)
        if target is None:
            return None
        card, at = target
        self.submit(recording.undo_job(card, from_iso(at), self.clock))
        return card

    def save_draft(self, draft: Draft) -> None:
        """Queue a draft save (replacing a pending save of the same draft)."""
        self.submit(recording.draft_job(draft))

    def discard_draft(self, drill_id: str, mode: Mode, at: datetime | None = None) -> None:
        """Queue the removal of the draft of (drill, mode)."""
        self.submit(recording.clear_draft_job(drill_id, mode, at or self.clock.now()))

    def put_start(self, start: Start) -> None:
        """Queue a drill's start (or its new state after a check)."""
        self.submit(recording.start_job(start))

    def set_setting(self, key: str, value: object) -> None:
        """Validate now (ValueError) and queue a setting change."""
        self.submit(recording.setting_job(key, value))

    # ------------------------------------------------------------------ status, repair, close

    def set_listener(self, listener: Callable[[StoreStatus], None] | None) -> None:
        """Who hears about store trouble (called from the queue's thread); told at once of any
        trouble reported before it was set."""
        with self._lock:
            self._listener = listener
            last = self._last
        if listener is not None and last is not None and last.state != "saved":
            listener(last)

    def _status(self, status: StoreStatus) -> None:
        with self._lock:
            self._last = status
            listener = self._listener
        if listener is not None:
            listener(status)

    def status(self) -> StoreStatus:
        """The write queue's current state."""
        return self._queue.status()

    def flush(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every pending write; True when none is left."""
        return self._queue.flush(timeout)

    def retry_now(self) -> None:
        """Try pending writes again at once."""
        self._queue.retry_now()

    def repair(self) -> str:
        """Replace a damaged database with what could be read from it (the user agreed), then
        write the pending changes to it. Returns a sentence for the user."""
        if self.damaged is None:
            return "The progress database is not damaged; nothing to repair."
        from tokdrill.progress.salvage import repair

        found = repair(self.path, self.clock, self._salvaged)
        reader = Store.open(self.path, clock=self.clock, busy_timeout=READ_BUSY_TIMEOUT)
        self._retired.append(self._reader)
        self._reader = reader
        self._generation += 1
        self._spent.append(found)
        self._salvaged = None
        self.damaged = None
        self._queue.retarget(self.path)
        return f"Progress repaired: {found.summary()}. Saving continues in {self.path}."

    def close(self, grace: float = 2.0) -> StoreStatus:
        """Stop the writer (pending writes stay in the journal) and close everything; never raises."""
        status = self._queue.close(grace)
        try:
            self._reader.close()
            for store in self._retired:
                store.close()
        finally:
            if self._salvaged is not None:
                self._salvaged.close()
            for spent in self._spent:
                spent.close()
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
            if self._empty is not None:
                self._empty[1].close()
                shutil.rmtree(self._empty[0], ignore_errors=True)
        return status


def _scratch_store(clock: Clock) -> tuple[Path, Store]:
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-unsaved-"))
    return folder, Store.open(folder / "progress.sqlite3", clock=clock)
