"""Writes to the progress store, done off the caller's thread, kept until they succeed.

The app hands every write (a rating, an attempt, an autosaved draft, a setting) to a
:class:`WriteQueue`. Its own thread applies the jobs in order, each in one transaction, on its
own connection, so the UI thread never waits for the database, even while another process holds
the write lock for minutes. When a write fails for a reason that can pass (locked, disk full,
read-only folder, I/O error), the job stays at the head of the queue and is retried with
growing pauses; the queue reports what happened and what to do through ``on_status`` (once per
change, not once per retry), and keeps every pending job in a side file (the *journal*, one JSON
line per job) so that typing, ratings and attempts survive even if the program is then closed or
killed. The next start replays the journal. Nothing is ever dropped silently: a job the store
refuses as invalid is reported as lost.

A damaged or foreign database is never written: the queue is *held* (jobs kept and journaled)
until :meth:`WriteQueue.retarget` points it at a usable file.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from pathlib import Path
from typing import Any, Literal

from msgspec import Struct

from tokdrill.clock import Clock
from tokdrill.progress.atomic_write import write_atomically
from tokdrill.progress.errors import ADVICE, Problem, StoreError
from tokdrill.progress.store import Store

JOURNAL_NAME = "unsaved-progress.jsonl"
REFUSED_NAME = "refused-progress.jsonl"
"""Writes the store refused (never retried), kept for the record beside the journal."""
RETRY_PAUSES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds between retries of a failing write (the last one repeats)."""
WRITER_BUSY_TIMEOUT = 0.25
"""How long the writer's connection waits for another process's lock per try: short, so that
pending writes reach the side file at once when a lock is held for long."""
BATCH_MAX = 200
"""At most this many pending jobs are applied in one transaction."""
BUSY_QUIET_SECONDS = 3.0
"""A lock held by another process is reported only once it has lasted this long (another
tokdrill finishing a write is not worth a message)."""

JournalEntry = dict[str, Any]
State = Literal["saved", "retrying", "held", "lost"]


class Job(Struct, frozen=True):
    """One write: ``run`` applies it to a Store (in the queue's thread); ``entry`` is its JSON
    form for the journal (``{"op": ..., ...}``, read back by the owner's replay function);
    ``label`` names it for people ("your rating of card bpe-why"). A pending job with the same
    ``replaces`` key is superseded by a newer one (e.g. autosaves of one draft)."""

    label: str
    entry: JournalEntry
    run: Callable[[Store], object]
    replaces: Hashable | None = None


class StoreStatus(Struct, frozen=True):
    """What the queue reports: ``state`` ``saved`` (all written), ``retrying`` (a write failed
    and will be retried), ``held`` (the database cannot be written until the user acts) or
    ``lost`` (one job was refused as invalid and dropped); ``message`` says what happened and
    what to do; ``pending`` counts unsaved jobs; ``journal`` is the side file holding them."""

    state: State
    message: str
    pending: int
    problem: Problem | None = None
    journal: Path | None = None


def journal_candidates(data_dir: Path) -> list[Path]:
    """Where the journal may live, best first: the data folder, then a per-user temporary folder
    (used when the data folder cannot be written: full disk, read-only folder)."""
    user = str(os.getuid()) if hasattr(os, "getuid") else (os.environ.get("USERNAME") or "user")
    return [data_dir / JOURNAL_NAME, Path(tempfile.gettempdir()) / f"tokdrill-{user}" / JOURNAL_NAME]


def distrust(info: os.stat_result, what: str) -> str | None:
    """Why a journal or its folder (``what``, described by ``info``) may hold writes that are not
    the user's own: it belongs to another account, or another account may write to it. None when
    it can be trusted (on systems without user ids, always)."""
    if not hasattr(os, "getuid"):
        return None
    if info.st_uid != os.getuid():
        return f"{what} belongs to another account"
    if info.st_mode & stat.S_IWOTH or (info.st_mode & stat.S_IWGRP and info.st_gid != os.getgid()):
        return f"{what} can be written by other accounts"
    return None


def _read_trusted(path: Path) -> str:
    """The text of the journal at ``path``, read only when it and its folder are the user's own
    (:func:`distrust`) and it is a regular file reached without a symbolic link; raises
    PermissionError saying why not."""
    reason = distrust(path.parent.stat(), "its folder")
    if reason is None:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as fh:
            info = os.fstat(fd)
            reason = "it is not a regular file" if not stat.S_ISREG(info.st_mode) else distrust(info, "it")
            if reason is None:
                return fh.read().decode("utf-8")
    raise PermissionError(13, f"{reason}, so it was left alone and not replayed")


def read_journals(data_dir: Path) -> tuple[list[JournalEntry], list[Path], list[str]]:
    """Entries of every journal found (oldest file first), the files read, and problems with
    lines that could not be read (named ``file:line``). A journal that another account wrote or
    could have written is not read (:func:`distrust`): it is named once among the problems."""
    entries: list[JournalEntry] = []
    found: list[Path] = []
    problems: list[str] = []
    existing = [p for p in journal_candidates(data_dir) if p.is_file() or p.is_symlink()]
    for path in sorted(existing, key=lambda p: p.lstat().st_mtime):
        try:
            text = _read_trusted(path)
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            if isinstance(exc, OSError) and exc.errno == errno.ELOOP:
                reason = "it is a symbolic link, so it was left alone and not replayed"
            problems.append(f"{path}: cannot read unsaved progress: {reason}")
            continue
        found.append(path)
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except (ValueError, RecursionError):
                problems.append(f"{path}:{number}: unsaved progress line is damaged and was skipped")
                continue
            if isinstance(entry, dict) and isinstance(entry.get("op"), str):
                entries.append(entry)
            else:
                problems.append(f"{path}:{number}: unsaved progress line is not a saved write and was skipped")
    return entries, found, problems


def _write_atomically(path: Path, text: str) -> None:
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    reason = distrust(path.parent.stat(), str(path.parent))
    if reason is not None:
        raise PermissionError(13, reason)
    write_atomically(path, text)


class WriteQueue:
    """Applies jobs to the store at ``path`` on its own thread, in order, until each succeeds.

    ``on_status`` is called from the queue's thread whenever the state changes (and when the
    queue empties after trouble). ``open_store`` opens the writer's connection (tests inject
    faults through it). Call :meth:`close` to stop: it waits ``grace`` seconds for pending
    jobs, then leaves the rest in the journal.
    """

    def __init__(
        self,
        path: Path,
        clock: Clock,
        on_status: Callable[[StoreStatus], None] | None = None,
        *,
        open_store: Callable[[Path], Store] | None = None,
        journal_dirs: Iterable[Path] | None = None,
        held: StoreError | None = None,
    ) -> None:
        self.path = path
        self.clock = clock
        self.on_status = on_status
        self._open_store = open_store or (
            lambda p: Store.open(p, clock=clock, busy_timeout=WRITER_BUSY_TIMEOUT, verify=False)
        )
        dirs = list(journal_dirs) if journal_dirs is not None else None
        self._journals = [d / JOURNAL_NAME for d in dirs] if dirs is not None else journal_candidates(path.parent)
        self._cond = threading.Condition()
        self._jobs: deque[Job] = deque()
        self._busy: list[Job] = []  # the jobs being applied right now (one transaction)
        self._singly = 0  # how many of the next jobs to apply one at a time (to isolate a bad one)
        self._store: Store | None = None
        self._stop = False
        self._wake = False
        self._held: StoreError | None = held
        self._failing: StoreError | None = None
        self._failing_since = 0.0
        self._reported: StoreError | None = None
        self._journal: Path | None = None  # where pending jobs were last written
        self._journal_error: str | None = None
        self._thread = threading.Thread(target=self._loop, name="tokdrill-store-writer", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ caller side

    def submit(self, job: Job) -> None:
        """Queue ``job`` (replacing a pending one with the same ``replaces`` key); returns at once."""
        with self._cond:
            if job.replaces is not None:
                self._jobs = deque(j for j in self._jobs if j.replaces != job.replaces)
            self._jobs.append(job)
            if self._failing is not None or self._held is not None:
                self._save_journal_locked()
            self._cond.notify_all()

    def adopt(self, jobs: list[Job], files: list[Path]) -> None:
        """Take over the jobs of journals an earlier run left (``files``): they go first, are
        journaled again by this queue, and the old files are removed once that worked."""
        with self._cond:
            self._jobs.extendleft(reversed(jobs))
            if jobs:
                self._save_journal_locked()
                if self._journal is None:
                    return  # could not re-journal them: leave the old files in place
            for old in files:
                if old != self._journal:
                    _remove(old)
            self._cond.notify_all()

    def pending(self) -> list[Job]:
        """Jobs not yet written, oldest first (including the one being written now)."""
        with self._cond:
            return self._busy + list(self._jobs)

    def status(self) -> StoreStatus:
        """The current state (what ``on_status`` last reported)."""
        with self._cond:
            return self._status_locked()

    def retry_now(self) -> None:
        """Try the pending writes again without waiting for the next pause to end."""
        with self._cond:
            self._wake = True
            self._cond.notify_all()

    def retarget(self, path: Path) -> None:
        """Write to ``path`` from now on (e.g. a repaired store) and release a hold."""
        with self._cond:
            self.path = path
            self._held = None
            self._failing = None
            self._reported = None
            if self._store is not None:
                self._store.close()
                self._store = None
            self._wake = True
            self._cond.notify_all()

    def hold(self, error: StoreError) -> None:
        """Stop writing (the database is damaged or foreign); jobs are kept and journaled."""
        with self._cond:
            self._held = error
            self._save_journal_locked()
        self._report()

    def flush(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every pending job to be written; True if none is left."""
        with self._cond:
            self._wake = True
            self._cond.notify_all()
            return self._cond.wait_for(lambda: not self._jobs and not self._busy, timeout=timeout)

    def close(self, grace: float = 2.0) -> StoreStatus:
        """Stop the thread after at most ``grace`` seconds of trying; whatever is still pending
        stays in the journal for the next start. Returns the final status."""
        self.flush(grace)
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self._thread.join(timeout=WRITER_BUSY_TIMEOUT + 2)
        with self._cond:
            if self._jobs or self._busy:
                self._save_journal_locked()
            status = self._status_locked()
            if self._store is not None and not self._thread.is_alive():
                self._store.close()
                self._store = None
        return status

    # ------------------------------------------------------------------ queue's thread

    def _loop(self) -> None:
        pause = 0
        while True:
            with self._cond:
                while not self._stop and (not self._jobs or self._held is not None):
                    self._cond.wait()
                if self._stop:
                    return
                size = 1 if self._singly else BATCH_MAX
                self._singly = max(0, self._singly - 1)
                batch = [self._jobs.popleft() for _ in range(min(size, len(self._jobs)))]
                self._busy = batch
            outcome = self._apply(batch)
            with self._cond:
                self._busy = []
                if outcome == "split":
                    self._jobs.extendleft(reversed(batch))
                    self._singly = len(batch)
                    continue
                if outcome == "retry":
                    self._jobs.extendleft(reversed(batch))
                    self._save_journal_locked()
                    wait = RETRY_PAUSES[min(pause, len(RETRY_PAUSES) - 1)]
                    pause += 1
                    self._wake = False
                    self._cond.wait_for(lambda: self._stop or self._wake, timeout=wait)
                    self._wake = False
                    continue
                pause = 0
                recovered = self._reported is not None and outcome == "done"
                if outcome == "done":
                    self._failing = None
                    self._reported = None
                if not self._jobs:
                    self._clear_journal_locked()
                elif self._journal is not None:
                    self._save_journal_locked()
                self._cond.notify_all()
            if recovered:
                self._report()

    def _apply(self, batch: list[Job]) -> Literal["done", "retry", "dropped", "split"]:
        try:
            if self._store is None:
                self._store = self._open_store(self.path)
            store = self._store
            with store.write():  # one transaction (one sync to disk) for the whole batch
                for job in batch:
                    job.run(store)
        except StoreError as exc:
            if self._store is not None and exc.problem in ("unavailable", "io"):
                self._store.close()  # reopen on the next try: the file may have been replaced
                self._store = None
            with self._cond:
                if self._failing is None or self._failing.problem != exc.problem:
                    self._failing_since = time.monotonic()
                if exc.retryable:
                    self._failing = exc
                else:
                    self._held = exc
                self._save_journal_locked()
                quiet = exc.problem == "busy" and time.monotonic() - self._failing_since < BUSY_QUIET_SECONDS
                news = self._reported is None or self._reported.problem != exc.problem
                if news and not quiet:
                    self._reported = exc
            if (news and not quiet) or not exc.retryable:
                self._report()
            return "retry"
        except Exception as exc:  # noqa: BLE001 - a write that can never succeed must not stop the others
            if len(batch) > 1:
                return "split"  # find the one that fails, apply the others
            job = batch[0]
            kept = self._keep_refused(job)
            where = f"; it is kept in {kept}" if kept else ""
            self._report(StoreStatus("lost", f"could not save {job.label}: {exc}{where}", len(self.pending())))
            return "dropped"
        return "done"

    def _keep_refused(self, job: Job) -> Path | None:
        """Append a job the store refused to a side file beside the journal (for the record)."""
        line = json.dumps(job.entry, ensure_ascii=False) + "\n"
        for candidate in self._journals:
            target = candidate.with_name(REFUSED_NAME)
            try:
                if not target.parent.exists():
                    target.parent.mkdir(mode=0o700, parents=True)
                reason = distrust(target.parent.stat(), str(target.parent))
                if reason is not None:
                    continue  # never write into a folder another account may have prepared
                fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
                with os.fdopen(fd, "a", encoding="utf-8") as fh:
                    fh.write(line)
                return target
            except OSError:
                continue
        return None

    # ------------------------------------------------------------------ journal and status

    def _save_journal_locked(self) -> None:
        jobs = self._busy + list(self._jobs)
        text = "".join(json.dumps(j.entry, ensure_ascii=False) + "\n" for j in jobs)
        errors = []
        for candidate in self._journals:
            try:
                _write_atomically(candidate, text)
            except OSError as exc:
                errors.append(f"{candidate}: {exc.strerror or exc}")
                continue
            if self._journal is not None and self._journal != candidate:
                _remove(self._journal)
            self._journal = candidate
            self._journal_error = None
            return
        self._journal_error = "; ".join(errors)

    def _clear_journal_locked(self) -> None:
        if self._journal is not None:
            _remove(self._journal)
            self._journal = None

    def _status_locked(self) -> StoreStatus:
        pending = len(self._jobs) + len(self._busy)
        trouble = self._held or self._failing
        if trouble is None:
            return StoreStatus("saved", "progress saved", pending)
        kept = f"{pending} unsaved change(s) are kept in memory"
        if self._journal is not None:
            kept += f" and in {self._journal}"
        elif self._journal_error:
            kept += f" (no side file could be written: {self._journal_error})"
        if self._held is not None:
            message = f"Progress is not being saved: {trouble}. {kept}; {ADVICE[trouble.problem]}."
            return StoreStatus("held", message, pending, trouble.problem, self._journal)
        message = (
            f"Cannot save progress right now: {trouble}. {kept} and saved as soon as it works again "
            f"(retrying); {ADVICE[trouble.problem]}."
        )
        return StoreStatus("retrying", message, pending, trouble.problem, self._journal)

    def _report(self, status: StoreStatus | None = None) -> None:
        if self.on_status is None:
            return
        if status is None:
            with self._cond:
                status = self._status_locked()
        try:
            self.on_status(status)
        except Exception:  # noqa: BLE001 - a broken listener must not stop the writes
            pass


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass
