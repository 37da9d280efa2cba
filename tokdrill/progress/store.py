"""The SQLite progress store: attempts, reviews, scheduler states, drafts and settings.

* One file (``tokdrill.locations.database_path()``), WAL journal, ``synchronous=FULL``, a busy
  timeout so two tokdrill processes can share it, and every write inside one
  ``BEGIN IMMEDIATE`` transaction (``Store.write()``), so a killed process never leaves half a
  record behind.
* Safe to call from several threads (e.g. Textual workers): one connection guarded by a
  re-entrant lock.
* A file that is not a tokdrill database, or is damaged, raises :class:`StoreError` naming the
  file; a damaged file is first copied aside (``error.backup``) and never reset or rewritten.
  Opening runs ``PRAGMA quick_check`` on files small enough for it to be quick, and every row
  read is decoded through the schema in :mod:`tokdrill.progress.document` (the one that also
  reads imports), so a damaged cell is reported, never passed on.
* History is keyed by content ids and never deleted when content disappears: see
  :meth:`Store.retired`.
"""

from __future__ import annotations

import errno
import json
import math
import os
import shutil
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

from msgspec import Struct

from tokdrill.clock import Clock, SystemClock
from tokdrill.progress import settings as keys
from tokdrill.progress.document import (
    COLUMNS,
    AttemptRecord,
    ConceptResultRecord,
    DraftRecord,
    MockRoundRecord,
    ReviewRecord,
    RowProblem,
    ScheduleRecord,
    StartRecord,
    decode_row,
    row_values,
)
from tokdrill.progress.errors import Problem, StoreError
from tokdrill.progress.records import (
    Attempt,
    ConceptResult,
    Draft,
    ItemState,
    Kind,
    LatestAttempt,
    MockRound,
    Mode,
    RetiredItems,
    Review,
    Start,
    to_iso,
)
from tokdrill.progress.schema import APPLICATION_ID, SCHEMA_VERSION, migrate

DEFAULT_BUSY_TIMEOUT = 10.0
QUICK_CHECK_MAX_BYTES = 8 * 1024 * 1024
"""Files up to this size get ``PRAGMA quick_check`` when opened (it reads every page)."""
_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
_BUSY = ("SQLITE_BUSY", "SQLITE_LOCKED")
_PROBLEMS: tuple[tuple[str, Problem], ...] = (
    ("SQLITE_FULL", "full"),
    ("SQLITE_READONLY", "readonly"),
    ("SQLITE_PERM", "readonly"),
    ("SQLITE_AUTH", "readonly"),
    ("SQLITE_CANTOPEN", "unavailable"),
    ("SQLITE_IOERR", "io"),
)

ATTEMPT_COLUMNS = ", ".join(COLUMNS["attempts"])
REVIEW_COLUMNS = ", ".join(COLUMNS["reviews"])
SCHEDULE_COLUMNS = ", ".join(COLUMNS["schedule"])
DRAFT_COLUMNS = ", ".join(COLUMNS["drafts"])
CONCEPT_RESULT_COLUMNS = ", ".join(COLUMNS["concept_results"])
MOCK_ROUND_COLUMNS = ", ".join(COLUMNS["mock_rounds"])
START_COLUMNS = ", ".join(COLUMNS["starts"])


def backup_copy(path: Path, stamp: datetime) -> Path | None:
    """Copy ``path`` (and its -wal/-shm companions) aside as ``<name>.broken-<stamp>``; return it
    (None when no copy could be written, e.g. a full disk or a read-only folder)."""
    base = path.with_name(f"{path.name}.broken-{stamp.strftime('%Y%m%dT%H%M%SZ')}")
    target, n = base, 1
    while target.exists():
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    try:
        shutil.copy2(path, target)
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                shutil.copy2(companion, target.with_name(target.name + suffix))
    except OSError:
        return None
    return target


def _connect_read_only(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """A connection that never writes ``path``. In a folder the user cannot write, SQLite may be
    unable to create the WAL index; then the file is read as immutable (nobody can change it)."""
    uri = path.resolve().as_uri()
    for query in ("mode=ro", "mode=ro&immutable=1"):
        conn = sqlite3.connect(
            f"{uri}?{query}", uri=True, timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.Error:
            conn.close()
            if query.endswith("immutable=1"):
                raise
    raise AssertionError("unreachable")


def _in_transaction(conn: sqlite3.Connection) -> bool:
    """Whether a transaction is open (read afresh: a failed statement may have ended it)."""
    return conn.in_transaction


def _insert_sql(table: str) -> str:
    columns = COLUMNS[table]
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _new_row(table: str, record: Struct, keep_id: bool) -> tuple[Any, ...]:
    values = row_values(table, record)
    return values if keep_id else (None, *values[1:])


def decode_attempt(row: tuple[Any, ...]) -> Attempt:
    """The validated Attempt of a row selected with ATTEMPT_COLUMNS (RowProblem if damaged)."""
    record: AttemptRecord = decode_row("attempts", row, f"attempts row {row[0]!r}")
    return record.to_record()


def decode_review(row: tuple[Any, ...]) -> Review:
    """The validated Review of a row selected with REVIEW_COLUMNS."""
    record: ReviewRecord = decode_row("reviews", row, f"reviews row {row[0]!r}")
    return record.to_record()


def decode_state(row: tuple[Any, ...]) -> ItemState:
    """The validated ItemState of a row selected with SCHEDULE_COLUMNS."""
    record: ScheduleRecord = decode_row("schedule", row, f"schedule row {row[0]!r}/{row[1]!r}")
    return record.to_record()


def decode_draft(row: tuple[Any, ...]) -> Draft:
    """The validated Draft of a row selected with DRAFT_COLUMNS."""
    record: DraftRecord = decode_row("drafts", row, f"drafts row {row[0]!r}/{row[1]!r}")
    return record.to_record()


def decode_concept_result(row: tuple[Any, ...]) -> ConceptResult:
    """The validated ConceptResult of a row selected with CONCEPT_RESULT_COLUMNS."""
    record: ConceptResultRecord = decode_row("concept_results", row, f"concept_results row {row[0]!r}")
    return record.to_record()


def decode_mock_round(row: tuple[Any, ...]) -> MockRound:
    """The validated MockRound of a row selected with MOCK_ROUND_COLUMNS."""
    record: MockRoundRecord = decode_row("mock_rounds", row, f"mock_rounds row {row[0]!r}")
    return record.to_record()


def decode_start(row: tuple[Any, ...]) -> Start:
    """The validated Start of a row selected with START_COLUMNS."""
    record: StartRecord = decode_row("starts", row, f"starts row {row[0]!r}")
    return record.to_record()


def decode_setting(key: object, text: object) -> keys.SettingValue:
    """The validated value of a stored setting row (RowProblem if damaged)."""
    where = f"settings row {key!r}"
    if not isinstance(key, str) or not isinstance(text, str):
        raise RowProblem(where, "expected text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise RowProblem(where, "not valid JSON") from None
    try:
        return keys.validate_setting(key, value)
    except ValueError as exc:
        raise RowProblem(where, str(exc)) from None


def checked_id(value: object, where: str) -> str:
    """A stored item id, checked to be non-empty text (RowProblem if not)."""
    if not isinstance(value, str) or not value:
        raise RowProblem(where, f"expected an id, got {value!r}")
    return value


def checked_number(value: object, where: str) -> float:
    """A stored number an aggregate returned, checked finite and non-negative (RowProblem if not)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise RowProblem(where, f"expected a number >= 0, got {value!r}")
    return float(value)


# ---------------------------------------------------------------- writer


class Writer:
    """Write operations available inside one ``Store.write()`` transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def insert_attempt(self, attempt: Attempt) -> int:
        """Validate and insert an attempt (its ``id`` kept when set); returns its id."""
        record = AttemptRecord.of(attempt)
        cur = self.conn.execute(_insert_sql("attempts"), _new_row("attempts", record, attempt.id is not None))
        return int(cur.lastrowid or 0)

    def insert_review(self, review: Review) -> int:
        """Validate and insert a card review (its ``id`` kept when set); returns its id."""
        record = ReviewRecord.of(review)
        cur = self.conn.execute(_insert_sql("reviews"), _new_row("reviews", record, review.id is not None))
        return int(cur.lastrowid or 0)

    def item_state(self, kind: Kind, item_id: str) -> ItemState | None:
        """The stored scheduler state of one item, read inside this transaction."""
        row = self.conn.execute(
            f"SELECT {SCHEDULE_COLUMNS} FROM schedule WHERE kind = ? AND item_id = ?", (kind, item_id)
        ).fetchone()
        return None if row is None else decode_state(row)

    def put_item_state(self, state: ItemState) -> None:
        """Validate and insert or replace one item's scheduler state."""
        record = ScheduleRecord.of(state)
        self.conn.execute(
            _insert_sql("schedule").replace("INSERT", "INSERT OR REPLACE", 1), row_values("schedule", record)
        )

    def delete_item_state(self, kind: Kind, item_id: str) -> None:
        """Forget one item's scheduler state (it becomes new again)."""
        self.conn.execute("DELETE FROM schedule WHERE kind = ? AND item_id = ?", (kind, item_id))

    def newest_review(self, card_id: str | None = None) -> Review | None:
        """The review recorded last (of ``card_id``, or of any card), read inside this
        transaction: the one whose outcome is the card's stored state, whatever the clocks said."""
        where, params = ("WHERE card_id = ?", (card_id,)) if card_id is not None else ("", ())
        row = self.conn.execute(
            f"SELECT {REVIEW_COLUMNS} FROM reviews {where} ORDER BY id DESC LIMIT 1", params
        ).fetchone()
        return None if row is None else decode_review(row)

    def review_made(self, card_id: str, reviewed_at: datetime) -> Review | None:
        """The stored review of ``card_id`` made at ``reviewed_at``, if any."""
        row = self.conn.execute(
            f"SELECT {REVIEW_COLUMNS} FROM reviews WHERE card_id = ? AND reviewed_at = ? ORDER BY id DESC LIMIT 1",
            (card_id, to_iso(reviewed_at)),
        ).fetchone()
        return None if row is None else decode_review(row)

    def delete_review(self, review_id: int) -> None:
        """Delete one review (undo); the totals follow by trigger."""
        self.conn.execute("DELETE FROM reviews WHERE id = ?", (review_id,))

    def save_draft(self, draft: Draft) -> None:
        """Validate and insert or replace the draft of (drill, mode)."""
        record = DraftRecord.of(draft)
        self.conn.execute(_insert_sql("drafts").replace("INSERT", "INSERT OR REPLACE", 1), row_values("drafts", record))

    def clear_draft(self, drill_id: str, mode: Mode) -> None:
        """Delete the draft of (drill, mode), if any."""
        self.conn.execute("DELETE FROM drafts WHERE drill_id = ? AND mode = ?", (drill_id, mode))

    def draft_saved_at(self, drill_id: str, mode: Mode) -> str | None:
        """When the stored draft of (drill, mode) was saved (stored text), or None."""
        row = self.conn.execute(
            "SELECT saved_at FROM drafts WHERE drill_id = ? AND mode = ?", (drill_id, mode)
        ).fetchone()
        return None if row is None else str(row[0])

    def has_attempt(self, attempt: Attempt) -> bool:
        """Whether an attempt of the same drill and mode that started and ended at the same
        moments is stored (the natural key a replayed or imported attempt is matched by)."""
        row = self.conn.execute(
            "SELECT 1 FROM attempts WHERE drill_id = ? AND mode = ? AND started_at = ? AND ended_at = ?",
            (attempt.drill_id, attempt.mode, to_iso(attempt.started_at), to_iso(attempt.ended_at)),
        ).fetchone()
        return row is not None

    def insert_concept_results(self, results: Iterable[ConceptResult]) -> None:
        """Validate and insert how a graded submission did on each of its concepts."""
        for result in results:
            record = ConceptResultRecord.of(result)
            self.conn.execute(
                _insert_sql("concept_results"), _new_row("concept_results", record, result.id is not None)
            )

    def has_concept_results(self, drill_id: str, at: datetime) -> bool:
        """Whether the concept results of the submission of ``drill_id`` graded ``at`` are stored."""
        row = self.conn.execute(
            "SELECT 1 FROM concept_results WHERE drill_id = ? AND at = ?", (drill_id, to_iso(at))
        ).fetchone()
        return row is not None

    def insert_mock_round(self, mock: MockRound) -> int:
        """Validate and insert a mock round unless one that started at the same moment is
        stored; returns its id."""
        record = MockRoundRecord.of(mock)
        row = self.conn.execute("SELECT id FROM mock_rounds WHERE started_at = ?", (record.started_at,)).fetchone()
        if row is not None:
            return int(row[0])
        cur = self.conn.execute(_insert_sql("mock_rounds"), _new_row("mock_rounds", record, mock.id is not None))
        return int(cur.lastrowid or 0)

    def start(self, drill_id: str) -> Start | None:
        """The drill's start in the user's own editor, read inside this transaction."""
        row = self.conn.execute(f"SELECT {START_COLUMNS} FROM starts WHERE drill_id = ?", (drill_id,)).fetchone()
        return None if row is None else decode_start(row)

    def put_start(self, start: Start) -> None:
        """Validate and insert or replace the drill's start."""
        record = StartRecord.of(start)
        self.conn.execute(_insert_sql("starts").replace("INSERT", "INSERT OR REPLACE", 1), row_values("starts", record))

    def clear_start(self, drill_id: str) -> None:
        """Forget the drill's start (its attempt is recorded)."""
        self.conn.execute("DELETE FROM starts WHERE drill_id = ?", (drill_id,))

    def set_setting(self, key: str, value: object) -> None:
        """Validate and store one setting (None for a known key stores null, i.e. unset)."""
        checked = keys.validate_setting(key, value)
        self.conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(checked)))


# ---------------------------------------------------------------- store


class Store:
    """An open progress database. Create with :meth:`Store.open`; close with :meth:`close`
    (or use it as a context manager)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Clock, read_only: bool = False) -> None:
        self._conn = conn
        self.path = path
        self.clock = clock
        self.read_only = read_only
        self._lock = threading.RLock()
        self._backup: Path | None = None  # one copy per open store, however many errors follow

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock | None = None,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        read_only: bool = False,
        verify: bool = True,
    ) -> Store:
        """Open (creating or migrating as needed) the database at ``path``.

        Raises StoreError for a foreign, damaged, too-new or unusable file; a damaged or foreign
        file is copied aside first and left untouched. ``read_only`` opens an existing file
        without ever writing it (no creation, no migration: it must be at the current schema).
        ``verify`` runs ``PRAGMA quick_check`` when the file is at most QUICK_CHECK_MAX_BYTES.
        """
        path = Path(path)
        clock = clock or SystemClock()
        if not read_only:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                problem: Problem = "full" if exc.errno == errno.ENOSPC else "readonly"
                raise StoreError(
                    f"cannot create the data folder {path.parent}: {exc.strerror}", path, problem=problem
                ) from exc
        if path.is_dir():
            raise StoreError(f"{path} is a folder, not a tokdrill progress database", path, problem="foreign")
        if read_only and not path.exists():
            raise StoreError(f"{path} does not exist", path)
        # Only SQLite reads the file: a process loses all its locks on a file when it closes any
        # descriptor of it, and another process may then delete the WAL this one still uses.
        try:
            size = path.stat().st_size if path.exists() else 0
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror}", path, problem="unavailable") from exc
        try:
            if read_only:
                conn = _connect_read_only(path, busy_timeout)
            else:
                conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the progress database {path}: {exc}", path) from exc
        store = cls(conn, path, clock, read_only)
        try:
            with store._guard():
                conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
                fresh = store._check_identity()
                if not read_only:
                    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                    if str(mode).lower() != "wal":
                        raise StoreError(f"cannot switch {path} to WAL mode (got {mode!r})", path)
                    conn.execute("PRAGMA synchronous = FULL")
                    store._migrate()
                elif store._version() != SCHEMA_VERSION:
                    raise StoreError(f"{path} needs an upgrade to schema {SCHEMA_VERSION} and cannot be written", path)
                if verify and not fresh and size <= QUICK_CHECK_MAX_BYTES:
                    store._quick_check()
        except BaseException:
            conn.close()
            raise
        return store

    @classmethod
    def open_for_reading(cls, path: str | os.PathLike[str], *, clock: Clock | None = None) -> Store:
        """Open ``path`` to read it: normally, or read-only when it cannot be written (a
        read-only folder or file), so that stats and export still work there."""
        try:
            return cls.open(path, clock=clock)
        except StoreError as exc:
            if exc.problem not in ("readonly", "unavailable") or not Path(path).is_file():
                raise
            try:
                return cls.open(path, clock=clock, read_only=True)
            except StoreError:
                raise exc from None

    def _version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    def _check_identity(self) -> bool:
        """Refuse another program's or a newer tokdrill's file; True for a brand-new empty one.

        The three facts are read in one snapshot: a second process creating the same new
        database at this moment is seen either before it started or after it committed."""
        with self.read() as conn:
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        fresh = bool(app_id == 0 and version == 0 and tables == 0)
        if app_id != APPLICATION_ID and not fresh:
            raise StoreError(
                f"{self.path} is a SQLite database of another program, not tokdrill's progress",
                self.path,
                backup_copy(self.path, self.clock.now()),
                problem="foreign",
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer tokdrill (schema {version}, this one knows up to {SCHEMA_VERSION})",
                self.path,
                problem="newer",
            )
        if version < 0:
            raise self._damaged(f"its schema version reads {version}, which no tokdrill writes")
        return fresh

    def _migrate(self) -> None:
        if self._version() == SCHEMA_VERSION:
            return
        with self.write():  # re-checked under the write lock: another process may have created or migrated it
            self._check_identity()
            version = self._version()
            if version < SCHEMA_VERSION:
                migrate(self._conn, version)

    def _quick_check(self) -> None:
        rows = self._conn.execute("PRAGMA quick_check(5)").fetchall()
        if [r[0] for r in rows] != ["ok"]:
            detail = "; ".join(str(r[0]) for r in rows)
            raise self._damaged(f"the integrity check found: {detail}")

    # -- plumbing ------------------------------------------------------------------------

    def _backed_up(self) -> Path | None:
        """The backup copy of the file, made at the first damage found."""
        if self._backup is None and self.path.exists():
            self._backup = backup_copy(self.path, self.clock.now())
        return self._backup

    def _damaged(self, detail: str) -> StoreError:
        return StoreError(
            f"the progress database {self.path} is damaged ({detail})", self.path, self._backed_up(), problem="damaged"
        )

    def _writable_on_disk(self) -> bool:
        """True when this process may write the database file and create files beside it."""
        return os.access(self.path, os.W_OK) and os.access(self.path.parent, os.W_OK | os.X_OK)

    def _translate(self, exc: sqlite3.Error) -> StoreError | None:
        name = getattr(exc, "sqlite_errorname", "") or ""
        text = str(exc)
        if name == "SQLITE_NOTADB":
            return StoreError(
                f"{self.path} is not a SQLite database (it may be damaged or another program's file)",
                self.path,
                self._backed_up(),
                problem="damaged",
            )
        if name.startswith(_DAMAGED) or "malformed" in text or "not a database" in text or "decode" in text:
            return self._damaged(text)
        if name.startswith(_BUSY) or "locked" in text:
            return StoreError(
                f"the progress database {self.path} stayed locked by another process ({text})",
                self.path,
                problem="busy",
            )
        readonly = name.startswith("SQLITE_READONLY") or "readonly" in text or "read-only" in text
        if readonly and not self.read_only and self._writable_on_disk():
            # the file and its folder may be written, so the refusal comes from the file itself:
            # a header whose write version SQLite does not know (a flipped byte) is damage
            return self._damaged(text)
        for prefix, problem in _PROBLEMS:
            if name.startswith(prefix):
                return StoreError(
                    f"cannot write the progress database {self.path} ({text})", self.path, problem=problem
                )
        if "readonly" in text or "read-only" in text:
            return StoreError(f"cannot write the progress database {self.path} ({text})", self.path, problem="readonly")
        if "disk" in text and "full" in text:
            return StoreError(f"cannot write the progress database {self.path} ({text})", self.path, problem="full")
        if isinstance(exc, (sqlite3.OperationalError, sqlite3.DatabaseError)) and not isinstance(
            exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError)
        ):
            # "no such table", "unsupported file format", "duplicate column" in a migration...:
            # the file's structure is not what its header says, which is damage.
            return self._damaged(text)
        return None

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.IntegrityError:
            raise
        except RowProblem as exc:
            raise self._damaged(str(exc)) from exc
        except UnicodeDecodeError as exc:  # SQLite quoting a damaged schema's bytes in its error
            raise self._damaged(f"text that is not UTF-8: {exc.reason}") from exc
        except sqlite3.Error as exc:
            translated = self._translate(exc)
            if translated is None:
                raise
            raise translated from exc

    @contextmanager
    def write(self) -> Iterator[Writer]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on any exception).
        Nested calls on the same thread join the outer transaction."""
        if self.read_only:
            raise StoreError(f"{self.path} is open read-only", self.path, problem="readonly")
        with self._lock, self._guard():
            if self._conn.in_transaction:
                yield Writer(self._conn)
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Writer(self._conn)
                self._conn.execute("COMMIT")
            except BaseException:
                if _in_transaction(self._conn):  # SQLite may already have rolled back (e.g. disk full)
                    try:
                        self._conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass  # the first error is the one to report
                raise

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A consistent read snapshot: the connection inside a deferred transaction."""
        with self._lock, self._guard():
            if self._conn.in_transaction:
                yield self._conn
                return
            self._conn.execute("BEGIN")
            try:
                yield self._conn
            finally:
                if _in_transaction(self._conn):
                    self._conn.execute("COMMIT")

    def close(self) -> None:
        """Close the connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """The schema version of the open database (always SCHEMA_VERSION once open)."""
        with self.read() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])

    # -- attempts ------------------------------------------------------------------------

    def add_attempt(self, attempt: Attempt, state: ItemState | None = None) -> int:
        """Record a finished attempt (and the drill's new scheduler state, if given) in one
        transaction; a passed attempt also clears the (drill, mode) draft. Returns the id."""
        with self.write() as w:
            attempt_id = w.insert_attempt(attempt)
            if state is not None:
                w.put_item_state(state)
            if attempt.passed:
                w.clear_draft(attempt.drill_id, attempt.mode)
        return attempt_id

    def attempts(
        self,
        drill_id: str | None = None,
        limit: int | None = None,
        *,
        mode: Mode | None = None,
        passed: bool | None = None,
        typed: bool = False,
    ) -> list[Attempt]:
        """Attempts, newest first; optionally only one drill's, one mode's, only passed (or
        failed) ones, only those with typing figures (``typed``), and at most ``limit`` of them."""
        sql = f"SELECT {ATTEMPT_COLUMNS} FROM attempts"
        conditions, params = [], []
        for column, value in (("drill_id", drill_id), ("mode", mode), ("passed", passed)):
            if value is not None:
                conditions.append(f"{column} = ?")
                params.append(int(value) if column == "passed" else value)
        if typed:
            conditions.append("wpm IS NOT NULL")
        if conditions:
            sql += " WHERE " + " AND ".join(conditions)
        sql += " ORDER BY ended_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with self.read() as conn:
            return [decode_attempt(r) for r in conn.execute(sql, params)]

    def attempt_count(self, drill_id: str) -> int:
        """How many attempts of a drill are stored (its counter, not a scan of its history)."""
        with self.read() as conn:
            row = conn.execute("SELECT attempts FROM drill_totals WHERE drill_id = ?", (drill_id,)).fetchone()
        return 0 if row is None else int(checked_number(row[0], f"drill_totals of {drill_id!r}: attempts"))

    def best_seconds(self, drill_id: str, mode: Mode | None = None) -> float | None:
        """The fastest passing active time of a drill (in one mode, if given), None if never passed."""
        sql = "SELECT MIN(active_seconds) FROM attempts WHERE drill_id = ? AND passed = 1"
        params: list[Any] = [drill_id]
        if mode is not None:
            sql += " AND mode = ?"
            params.append(mode)
        with self.read() as conn:
            value = conn.execute(sql, params).fetchone()[0]
            return None if value is None else checked_number(value, f"attempts of {drill_id!r}: active_seconds")

    def latest_attempts(self, drill_ids: Iterable[str]) -> dict[str, LatestAttempt]:
        """Each drill's newest attempt (whatever its verdict); drills never tried are absent."""
        out: dict[str, LatestAttempt] = {}
        with self.read() as conn:
            for drill_id in drill_ids:
                row = conn.execute(
                    "SELECT active_seconds, passed, target_seconds FROM attempts WHERE drill_id = ? "
                    "ORDER BY ended_at DESC, id DESC LIMIT 1",
                    (drill_id,),
                ).fetchone()
                if row is None:
                    continue
                where = f"newest attempt of {drill_id!r}"
                seconds = checked_number(row[0], f"{where}: active_seconds")
                target = checked_number(row[2], f"{where}: target_seconds")
                if row[1] not in (0, 1) or not target.is_integer() or target < 1:
                    raise RowProblem(where, f"passed {row[1]!r} / target_seconds {row[2]!r} out of range")
                out[drill_id] = LatestAttempt(seconds, bool(row[1]), int(target))
        return out

    # -- concept results, mock rounds, starts ---------------------------------------------

    def add_concept_results(self, results: Iterable[ConceptResult]) -> None:
        """Record how a graded submission did on each concept (one transaction)."""
        with self.write() as w:
            w.insert_concept_results(results)

    def concept_results(
        self, concepts: Iterable[str] | None = None, *, failed: bool | None = None
    ) -> list[ConceptResult]:
        """Concept results, oldest first; only those of ``concepts`` if given, only failed (or
        passed) ones if ``failed`` is given."""
        sql = f"SELECT {CONCEPT_RESULT_COLUMNS} FROM concept_results"
        conditions: list[str] = []
        params: list[Any] = []
        if concepts is not None:
            wanted = list(concepts)
            conditions.append(f"concept IN ({', '.join('?' * len(wanted))})")
            params.extend(wanted)
        if failed is not None:
            conditions.append("failed_tests != '[]'" if failed else "failed_tests = '[]'")
        if conditions:
            sql += " WHERE " + " AND ".join(conditions)
        sql += " ORDER BY at, id"
        with self.read() as conn:
            return [decode_concept_result(r) for r in conn.execute(sql, params)]

    def last_failures(self) -> dict[str, ConceptResult]:
        """Each failed concept's newest failed result."""
        return self._newest_results(failed=True)

    def last_passes(self) -> dict[str, ConceptResult]:
        """Each concept's newest passed result."""
        return self._newest_results(failed=False)

    def _newest_results(self, *, failed: bool) -> dict[str, ConceptResult]:
        test = "failed_tests != '[]'" if failed else "failed_tests = '[]'"
        sql = (
            f"SELECT {CONCEPT_RESULT_COLUMNS} FROM concept_results c WHERE {test} AND at = "
            f"(SELECT MAX(at) FROM concept_results d WHERE d.concept = c.concept AND d.{test}) ORDER BY at, id"
        )
        with self.read() as conn:
            return {r.concept: r for r in (decode_concept_result(row) for row in conn.execute(sql))}

    def add_mock_round(self, mock: MockRound) -> int:
        """Record a mock round; returns its id."""
        with self.write() as w:
            return w.insert_mock_round(mock)

    def mock_rounds(self, limit: int | None = None) -> list[MockRound]:
        """Mock rounds, newest first (at most ``limit``)."""
        sql = f"SELECT {MOCK_ROUND_COLUMNS} FROM mock_rounds ORDER BY started_at DESC, id DESC"
        params: list[Any] = []
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with self.read() as conn:
            return [decode_mock_round(r) for r in conn.execute(sql, params)]

    def start(self, drill_id: str) -> Start | None:
        """The drill's start in the user's own editor, if any."""
        with self.read() as conn:
            row = conn.execute(f"SELECT {START_COLUMNS} FROM starts WHERE drill_id = ?", (drill_id,)).fetchone()
        return None if row is None else decode_start(row)

    def count(self, table: str) -> int:
        """Number of rows in one of the tables (attempts, reviews, schedule, drafts, settings, ...)."""
        known = ("attempts", "reviews", "schedule", "drafts", "settings", "drill_totals", "card_totals")
        if table not in (*known, "concept_results", "mock_rounds", "starts"):
            raise ValueError(f"unknown table {table!r}")
        with self.read() as conn:
            return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    # -- reviews and scheduler states ----------------------------------------------------

    def add_review(self, review: Review, state: ItemState) -> int:
        """Record a card review together with the card's new scheduler state; returns the id."""
        with self.write() as w:
            review_id = w.insert_review(review)
            w.put_item_state(state)
        return review_id

    def reviews(self, card_id: str | None = None, limit: int | None = None) -> list[Review]:
        """Reviews, newest first, optionally of one card and at most ``limit`` of them."""
        sql = f"SELECT {REVIEW_COLUMNS} FROM reviews"
        params: list[Any] = []
        if card_id is not None:
            sql += " WHERE card_id = ?"
            params.append(card_id)
        sql += " ORDER BY reviewed_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with self.read() as conn:
            return [decode_review(r) for r in conn.execute(sql, params)]

    def item_state(self, kind: Kind, item_id: str) -> ItemState | None:
        """The scheduler state of one card or drill, None if it was never reviewed."""
        with self.read() as conn:
            row = conn.execute(
                f"SELECT {SCHEDULE_COLUMNS} FROM schedule WHERE kind = ? AND item_id = ?", (kind, item_id)
            ).fetchone()
            return None if row is None else decode_state(row)

    def item_states(self, kind: Kind) -> dict[str, ItemState]:
        """Every stored scheduler state of one kind, by item id."""
        with self.read() as conn:
            rows = conn.execute(f"SELECT {SCHEDULE_COLUMNS} FROM schedule WHERE kind = ?", (kind,)).fetchall()
            return {str(r[1]): decode_state(r) for r in rows}

    # -- drafts --------------------------------------------------------------------------

    def save_draft(self, draft: Draft) -> None:
        """Save (insert or replace) the editor text of an unfinished drill."""
        with self.write() as w:
            w.save_draft(draft)

    def draft(self, drill_id: str, mode: Mode) -> Draft | None:
        """The saved draft of (drill, mode), or None."""
        with self.read() as conn:
            row = conn.execute(
                f"SELECT {DRAFT_COLUMNS} FROM drafts WHERE drill_id = ? AND mode = ?", (drill_id, mode)
            ).fetchone()
            return None if row is None else decode_draft(row)

    def drafts(self) -> list[Draft]:
        """Every saved draft, most recently saved first."""
        with self.read() as conn:
            rows = conn.execute(f"SELECT {DRAFT_COLUMNS} FROM drafts ORDER BY saved_at DESC").fetchall()
            return [decode_draft(r) for r in rows]

    def clear_draft(self, drill_id: str, mode: Mode) -> None:
        """Delete the draft of (drill, mode), if any."""
        with self.write() as w:
            w.clear_draft(drill_id, mode)

    # -- settings ------------------------------------------------------------------------

    def get_setting(self, key: str) -> keys.SettingValue:
        """A setting's value (its default when unset; None for unknown ui.* keys)."""
        keys.validate_setting(key, keys.DEFAULTS.get(key))
        with self.read() as conn:
            row = conn.execute("SELECT key, value FROM settings WHERE key = ?", (key,)).fetchone()
            value = None if row is None else decode_setting(row[0], row[1])
        return keys.DEFAULTS.get(key) if value is None else value

    def set_setting(self, key: str, value: object) -> None:
        """Validate and store a setting; ValueError names the key and the problem."""
        keys.validate_setting(key, value)  # before the write lock: a bad value never waits for it
        with self.write() as w:
            w.set_setting(key, value)

    def settings(self) -> dict[str, keys.SettingValue]:
        """Every stored setting (validated values, unset keys absent)."""
        with self.read() as conn:
            return {k: decode_setting(k, v) for k, v in conn.execute("SELECT key, value FROM settings ORDER BY key")}

    def interview_date(self) -> date | None:
        """The interview date, or None when not set."""
        value = self.get_setting(keys.INTERVIEW_DATE)
        return date.fromisoformat(value) if isinstance(value, str) else None

    def set_interview_date(self, day: date | None) -> None:
        """Set (or clear, with None) the interview date."""
        self.set_setting(keys.INTERVIEW_DATE, None if day is None else day.isoformat())

    def _int_setting(self, key: str) -> int:
        value = self.get_setting(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else int(str(keys.DEFAULTS[key]))

    def new_cards_per_day(self) -> int:
        """How many never-seen cards to introduce per day (before the interview adjustment)."""
        return self._int_setting(keys.NEW_CARDS_PER_DAY)

    def set_new_cards_per_day(self, n: int) -> None:
        """Set the daily limit of new cards."""
        self.set_setting(keys.NEW_CARDS_PER_DAY, n)

    def new_drills_per_day(self) -> int:
        """How many never-attempted drills to offer per day (before the interview adjustment)."""
        return self._int_setting(keys.NEW_DRILLS_PER_DAY)

    def set_new_drills_per_day(self, n: int) -> None:
        """Set the daily limit of new drills."""
        self.set_setting(keys.NEW_DRILLS_PER_DAY, n)

    def desired_retention(self) -> float:
        """FSRS desired retention (probability of recall when an item falls due)."""
        value = self.get_setting(keys.DESIRED_RETENTION)
        return float(value) if isinstance(value, (int, float)) else 0.9

    def auto_indent(self) -> bool:
        """Whether the drill editor indents new lines by itself (default off)."""
        return self.get_setting(keys.AUTO_INDENT) is True

    def set_auto_indent(self, on: bool) -> None:
        """Turn the editor's auto-indent on or off."""
        self.set_setting(keys.AUTO_INDENT, on)

    def mock_minutes(self) -> int:
        """Length of a mock interview, in minutes."""
        return self._int_setting(keys.MOCK_MINUTES)

    def set_mock_minutes(self, minutes: int) -> None:
        """Set the length of a mock interview (10..180 minutes)."""
        self.set_setting(keys.MOCK_MINUTES, minutes)

    def timezone(self) -> str | None:
        """The IANA time zone days are counted in, or None for the machine's zone."""
        value = self.get_setting(keys.TIMEZONE)
        return value if isinstance(value, str) else None

    def set_timezone(self, name: str | None) -> None:
        """Count days in the IANA zone ``name`` (None: follow the machine's zone)."""
        self.set_setting(keys.TIMEZONE, name)

    # -- retired content -----------------------------------------------------------------

    def retired(self, drill_ids: Iterable[str], card_ids: Iterable[str]) -> RetiredItems:
        """Ids with stored history that are not among the current content's drill/card ids."""
        drills, cards = set(drill_ids), set(card_ids)
        with self.read() as conn:
            stored_drills = {
                checked_id(r[0], "drill id")
                for r in conn.execute(
                    "SELECT drill_id FROM drill_totals UNION SELECT drill_id FROM drafts "
                    "UNION SELECT item_id FROM schedule WHERE kind = 'drill'"
                )
            }
            stored_cards = {
                checked_id(r[0], "card id")
                for r in conn.execute(
                    "SELECT card_id FROM card_totals UNION SELECT item_id FROM schedule WHERE kind = 'card'"
                )
            }
            return RetiredItems(tuple(sorted(stored_drills - drills)), tuple(sorted(stored_cards - cards)))
