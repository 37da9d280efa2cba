"""The SQLite progress store: attempts, reviews, scheduler states, drafts and settings.

* One file (``tokdrill.locations.database_path()``), WAL journal, ``synchronous=FULL``, a busy
  timeout so two tokdrill processes can share it, and every write inside one
  ``BEGIN IMMEDIATE`` transaction (``Store.write()``), so a killed process never leaves half a
  record behind.
* Safe to call from several threads (e.g. Textual workers): one connection guarded by a
  re-entrant lock.
* A file that is not a tokdrill database, or is damaged, raises :class:`StoreError` naming the
  file; a damaged file is first copied aside (``error.backup``) and never reset or rewritten.
* History is keyed by content ids and never deleted when content disappears: see
  :meth:`Store.retired`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

from tokdrill.clock import Clock, SystemClock
from tokdrill.progress import settings as keys
from tokdrill.progress.errors import StoreError
from tokdrill.progress.records import (
    KINDS,
    MODES,
    Attempt,
    Draft,
    ItemState,
    Kind,
    Mode,
    RetiredItems,
    Review,
    from_iso,
    outcomes_from_json,
    outcomes_to_json,
    to_iso,
)
from tokdrill.progress.schema import APPLICATION_ID, SCHEMA_VERSION, migrate

SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_BUSY_TIMEOUT = 10.0
_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
_BUSY = ("SQLITE_BUSY", "SQLITE_LOCKED")

ATTEMPT_COLUMNS = (
    "id, drill_id, mode, started_at, ended_at, active_seconds, target_seconds, passed, "
    "submissions, tests, keystrokes, retype_accuracy"
)
REVIEW_COLUMNS = "id, card_id, rating, answer_seconds, reviewed_at, state_before, state_after"
SCHEDULE_COLUMNS = "kind, item_id, state, due, last_review, first_seen, reps"
DRAFT_COLUMNS = "drill_id, mode, text, elapsed_seconds, saved_at"


def backup_copy(path: Path, stamp: datetime) -> Path:
    """Copy ``path`` (and its -wal/-shm companions) aside as ``<name>.broken-<stamp>``; return it."""
    base = path.with_name(f"{path.name}.broken-{stamp.strftime('%Y%m%dT%H%M%SZ')}")
    target, n = base, 1
    while target.exists():
        n += 1
        target = base.with_name(f"{base.name}-{n}")
    shutil.copy2(path, target)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            shutil.copy2(companion, target.with_name(target.name + suffix))
    return target


# ---------------------------------------------------------------- row <-> record conversion


def attempt_row(a: Attempt) -> tuple[Any, ...]:
    """Column values (in ATTEMPT_COLUMNS order) of an attempt; validates what SQL cannot say."""
    if a.mode not in MODES:
        raise ValueError(f"attempt mode must be one of {MODES}, got {a.mode!r}")
    return (
        a.id,
        a.drill_id,
        a.mode,
        to_iso(a.started_at),
        to_iso(a.ended_at),
        float(a.active_seconds),
        int(a.target_seconds),
        int(bool(a.passed)),
        int(a.submissions),
        outcomes_to_json(a.tests),
        a.keystrokes,
        a.retype_accuracy,
    )


def attempt_from_row(row: tuple[Any, ...]) -> Attempt:
    """An Attempt from a row selected with ATTEMPT_COLUMNS."""
    return Attempt(
        id=row[0],
        drill_id=row[1],
        mode=row[2],
        started_at=from_iso(row[3]),
        ended_at=from_iso(row[4]),
        active_seconds=row[5],
        target_seconds=row[6],
        passed=bool(row[7]),
        submissions=row[8],
        tests=outcomes_from_json(row[9]),
        keystrokes=row[10],
        retype_accuracy=row[11],
    )


def review_row(r: Review) -> tuple[Any, ...]:
    """Column values (in REVIEW_COLUMNS order) of a review."""
    if not 1 <= int(r.rating) <= 4:
        raise ValueError(f"rating must be 1..4, got {r.rating!r}")
    before = None if r.state_before is None else json.dumps(r.state_before, sort_keys=True)
    return (
        r.id,
        r.card_id,
        int(r.rating),
        float(r.answer_seconds),
        to_iso(r.reviewed_at),
        before,
        json.dumps(r.state_after, sort_keys=True),
    )


def review_from_row(row: tuple[Any, ...]) -> Review:
    """A Review from a row selected with REVIEW_COLUMNS."""
    return Review(
        id=row[0],
        card_id=row[1],
        rating=row[2],
        answer_seconds=row[3],
        reviewed_at=from_iso(row[4]),
        state_before=None if row[5] is None else json.loads(row[5]),
        state_after=json.loads(row[6]),
    )


def state_row(s: ItemState) -> tuple[Any, ...]:
    """Column values (in SCHEDULE_COLUMNS order) of an item state."""
    if s.kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {s.kind!r}")
    return (
        s.kind,
        s.item_id,
        json.dumps(s.state, sort_keys=True),
        to_iso(s.due),
        None if s.last_review is None else to_iso(s.last_review),
        to_iso(s.first_seen),
        int(s.reps),
    )


def state_from_row(row: tuple[Any, ...]) -> ItemState:
    """An ItemState from a row selected with SCHEDULE_COLUMNS."""
    return ItemState(
        kind=row[0],
        item_id=row[1],
        state=json.loads(row[2]),
        due=from_iso(row[3]),
        last_review=None if row[4] is None else from_iso(row[4]),
        first_seen=from_iso(row[5]),
        reps=row[6],
    )


def draft_row(d: Draft) -> tuple[Any, ...]:
    """Column values (in DRAFT_COLUMNS order) of a draft."""
    if d.mode not in MODES:
        raise ValueError(f"draft mode must be one of {MODES}, got {d.mode!r}")
    return (d.drill_id, d.mode, d.text, float(d.elapsed_seconds), to_iso(d.saved_at))


def draft_from_row(row: tuple[Any, ...]) -> Draft:
    """A Draft from a row selected with DRAFT_COLUMNS."""
    return Draft(row[0], row[1], row[2], row[3], from_iso(row[4]))


# ---------------------------------------------------------------- writer


class Writer:
    """Write operations available inside one ``Store.write()`` transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def insert_attempt(self, attempt: Attempt) -> int:
        """Insert an attempt (its ``id`` kept when set) and return its id."""
        cur = self.conn.execute(
            f"INSERT INTO attempts ({ATTEMPT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", attempt_row(attempt)
        )
        return int(cur.lastrowid or 0)

    def insert_review(self, review: Review) -> int:
        """Insert a card review (its ``id`` kept when set) and return its id."""
        cur = self.conn.execute(f"INSERT INTO reviews ({REVIEW_COLUMNS}) VALUES (?,?,?,?,?,?,?)", review_row(review))
        return int(cur.lastrowid or 0)

    def item_state(self, kind: Kind, item_id: str) -> ItemState | None:
        """The stored scheduler state of one item, read inside this transaction."""
        row = self.conn.execute(
            f"SELECT {SCHEDULE_COLUMNS} FROM schedule WHERE kind = ? AND item_id = ?", (kind, item_id)
        ).fetchone()
        return None if row is None else state_from_row(row)

    def put_item_state(self, state: ItemState) -> None:
        """Insert or replace one item's scheduler state."""
        self.conn.execute(
            f"INSERT OR REPLACE INTO schedule ({SCHEDULE_COLUMNS}) VALUES (?,?,?,?,?,?,?)", state_row(state)
        )

    def save_draft(self, draft: Draft) -> None:
        """Insert or replace the draft of (drill, mode)."""
        self.conn.execute(f"INSERT OR REPLACE INTO drafts ({DRAFT_COLUMNS}) VALUES (?,?,?,?,?)", draft_row(draft))

    def clear_draft(self, drill_id: str, mode: Mode) -> None:
        """Delete the draft of (drill, mode), if any."""
        self.conn.execute("DELETE FROM drafts WHERE drill_id = ? AND mode = ?", (drill_id, mode))

    def set_setting(self, key: str, value: Any) -> None:
        """Validate and store one setting (None for a known key stores null, i.e. unset)."""
        value = keys.validate_setting(key, value)
        self.conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(value)))


# ---------------------------------------------------------------- store


class Store:
    """An open progress database. Create with :meth:`Store.open`; close with :meth:`close`
    (or use it as a context manager)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, clock: Clock) -> None:
        self._conn = conn
        self.path = path
        self.clock = clock
        self._lock = threading.RLock()
        self._backup: Path | None = None  # one copy per open store, however many errors follow

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, clock: Clock | None = None, busy_timeout: float = DEFAULT_BUSY_TIMEOUT
    ) -> Store:
        """Open (creating or migrating as needed) the database at ``path``.

        Raises StoreError for a foreign, damaged, too-new or unwritable file; a damaged or
        foreign file is copied aside first and left untouched.
        """
        path = Path(path)
        clock = clock or SystemClock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data folder {path.parent}: {exc.strerror}", path) from exc
        if path.is_dir():
            raise StoreError(f"{path} is a folder, not a tokdrill progress database", path)
        if path.exists() and path.stat().st_size > 0:
            with open(path, "rb") as fh:
                header = fh.read(len(SQLITE_HEADER))
            if header != SQLITE_HEADER:
                raise StoreError(
                    f"{path} is not a SQLite database (it may be damaged or another program's file)",
                    path,
                    backup_copy(path, clock.now()),
                )
        try:
            conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the progress database {path}: {exc}", path) from exc
        store = cls(conn, path, clock)
        try:
            with store._guard():
                conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
                store._check_identity()
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise StoreError(f"cannot switch {path} to WAL mode (got {mode!r})", path)
                conn.execute("PRAGMA synchronous = FULL")
                store._migrate()
        except BaseException:
            conn.close()
            raise
        return store

    def _check_identity(self) -> None:
        app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        tables = self._conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app_id != APPLICATION_ID and (app_id != 0 or version != 0 or tables != 0):
            raise StoreError(
                f"{self.path} is a SQLite database of another program, not tokdrill's progress "
                "(choose another --data-dir or move the file)",
                self.path,
                backup_copy(self.path, self.clock.now()),
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer tokdrill (schema {version}, this one knows "
                f"up to {SCHEMA_VERSION}); upgrade tokdrill to use it",
                self.path,
            )

    def _migrate(self) -> None:
        if self._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        with self.write():  # re-read under the write lock: another process may have migrated
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version < SCHEMA_VERSION:
                migrate(self._conn, version)

    # -- plumbing ------------------------------------------------------------------------

    def _translate(self, exc: sqlite3.Error) -> StoreError | None:
        name = getattr(exc, "sqlite_errorname", "") or ""
        if name.startswith(_DAMAGED) or "malformed" in str(exc) or "not a database" in str(exc):
            if self._backup is None and self.path.exists():
                self._backup = backup_copy(self.path, self.clock.now())
            backup = self._backup
            return StoreError(f"the progress database {self.path} is damaged ({exc})", self.path, backup)
        if name.startswith(_BUSY):
            return StoreError(
                f"the progress database {self.path} stayed locked by another process ({exc}); try again",
                self.path,
            )
        if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_FULL", "SQLITE_PERM")):
            return StoreError(f"cannot write the progress database {self.path} ({exc})", self.path)
        return None

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            translated = self._translate(exc)
            if translated is None:
                raise
            raise translated from exc

    @contextmanager
    def write(self) -> Iterator[Writer]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on any exception).
        Nested calls on the same thread join the outer transaction."""
        with self._lock, self._guard():
            if self._conn.in_transaction:
                yield Writer(self._conn)
                return
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield Writer(self._conn)
            except BaseException:
                if self._conn.in_transaction:  # SQLite may already have rolled back (e.g. disk full)
                    self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

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
                if self._conn.in_transaction:
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
    ) -> list[Attempt]:
        """Attempts, newest first; optionally only one drill's, one mode's, only passed (or
        failed) ones, and at most ``limit`` of them."""
        sql = f"SELECT {ATTEMPT_COLUMNS} FROM attempts"
        conditions, params = [], []
        for column, value in (("drill_id", drill_id), ("mode", mode), ("passed", passed)):
            if value is not None:
                conditions.append(f"{column} = ?")
                params.append(int(value) if column == "passed" else value)
        if conditions:
            sql += " WHERE " + " AND ".join(conditions)
        sql += " ORDER BY ended_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        with self.read() as conn:
            return [attempt_from_row(r) for r in conn.execute(sql, params)]

    def best_seconds(self, drill_id: str, mode: Mode | None = None) -> float | None:
        """The fastest passing active time of a drill (in one mode, if given), None if never passed."""
        sql = "SELECT MIN(active_seconds) FROM attempts WHERE drill_id = ? AND passed = 1"
        params: list[Any] = [drill_id]
        if mode is not None:
            sql += " AND mode = ?"
            params.append(mode)
        with self.read() as conn:
            return conn.execute(sql, params).fetchone()[0]

    def count(self, table: str) -> int:
        """Number of rows in one of the tables (attempts, reviews, schedule, drafts, settings, ...)."""
        if table not in ("attempts", "reviews", "schedule", "drafts", "settings", "drill_totals", "card_totals"):
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
            return [review_from_row(r) for r in conn.execute(sql, params)]

    def item_state(self, kind: Kind, item_id: str) -> ItemState | None:
        """The scheduler state of one card or drill, None if it was never reviewed."""
        with self.read() as conn:
            row = conn.execute(
                f"SELECT {SCHEDULE_COLUMNS} FROM schedule WHERE kind = ? AND item_id = ?", (kind, item_id)
            ).fetchone()
        return None if row is None else state_from_row(row)

    def item_states(self, kind: Kind) -> dict[str, ItemState]:
        """Every stored scheduler state of one kind, by item id."""
        with self.read() as conn:
            rows = conn.execute(f"SELECT {SCHEDULE_COLUMNS} FROM schedule WHERE kind = ?", (kind,)).fetchall()
        return {r[1]: state_from_row(r) for r in rows}

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
        return None if row is None else draft_from_row(row)

    def drafts(self) -> list[Draft]:
        """Every saved draft, most recently saved first."""
        with self.read() as conn:
            rows = conn.execute(f"SELECT {DRAFT_COLUMNS} FROM drafts ORDER BY saved_at DESC").fetchall()
        return [draft_from_row(r) for r in rows]

    def clear_draft(self, drill_id: str, mode: Mode) -> None:
        """Delete the draft of (drill, mode), if any."""
        with self.write() as w:
            w.clear_draft(drill_id, mode)

    # -- settings ------------------------------------------------------------------------

    def get_setting(self, key: str) -> Any:
        """A setting's value (its default when unset; None for unknown ui.* keys)."""
        keys.validate_setting(key, keys.DEFAULTS.get(key))
        with self.read() as conn:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if row is None:
            return keys.DEFAULTS.get(key)
        value = json.loads(row[0])
        return keys.DEFAULTS.get(key) if value is None and key in keys.DEFAULTS else value

    def set_setting(self, key: str, value: Any) -> None:
        """Validate and store a setting; ValueError names the key and the problem."""
        with self.write() as w:
            w.set_setting(key, value)

    def settings(self) -> dict[str, Any]:
        """Every stored setting (raw values, unset keys absent)."""
        with self.read() as conn:
            return {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM settings ORDER BY key")}

    def interview_date(self) -> date | None:
        """The interview date, or None when not set."""
        value = self.get_setting(keys.INTERVIEW_DATE)
        return None if value is None else date.fromisoformat(value)

    def set_interview_date(self, day: date | None) -> None:
        """Set (or clear, with None) the interview date."""
        self.set_setting(keys.INTERVIEW_DATE, None if day is None else day.isoformat())

    def new_cards_per_day(self) -> int:
        """How many never-seen cards to introduce per day (before the interview adjustment)."""
        return int(self.get_setting(keys.NEW_CARDS_PER_DAY))

    def set_new_cards_per_day(self, n: int) -> None:
        """Set the daily limit of new cards."""
        self.set_setting(keys.NEW_CARDS_PER_DAY, n)

    def new_drills_per_day(self) -> int:
        """How many never-attempted drills to offer per day (before the interview adjustment)."""
        return int(self.get_setting(keys.NEW_DRILLS_PER_DAY))

    def set_new_drills_per_day(self, n: int) -> None:
        """Set the daily limit of new drills."""
        self.set_setting(keys.NEW_DRILLS_PER_DAY, n)

    def day_offset_minutes(self) -> int | None:
        """Offset of the user's day from UTC in minutes, or None to use the machine's."""
        value = self.get_setting(keys.DAY_OFFSET_MINUTES)
        return None if value is None else int(value)

    def set_day_offset_minutes(self, minutes: int | None) -> None:
        """Fix the user's day offset from UTC (None: follow the machine's local time)."""
        self.set_setting(keys.DAY_OFFSET_MINUTES, minutes)

    def desired_retention(self) -> float:
        """FSRS desired retention (probability of recall when an item falls due)."""
        return float(self.get_setting(keys.DESIRED_RETENTION))

    # -- retired content -----------------------------------------------------------------

    def retired(self, drill_ids: Iterable[str], card_ids: Iterable[str]) -> RetiredItems:
        """Ids with stored history that are not among the current content's drill/card ids."""
        drills, cards = set(drill_ids), set(card_ids)
        with self.read() as conn:
            stored_drills = {
                r[0]
                for r in conn.execute(
                    "SELECT drill_id FROM drill_totals UNION SELECT drill_id FROM drafts "
                    "UNION SELECT item_id FROM schedule WHERE kind = 'drill'"
                )
            }
            stored_cards = {
                r[0]
                for r in conn.execute(
                    "SELECT card_id FROM card_totals UNION SELECT item_id FROM schedule WHERE kind = 'card'"
                )
            }
        return RetiredItems(tuple(sorted(stored_drills - drills)), tuple(sorted(stored_cards - cards)))
