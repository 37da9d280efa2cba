"""Reading what can be read from a damaged progress database, and repairing it from that.

:func:`salvage` copies the damaged file (with its -wal) into a private temporary folder, reads
it table by table, row by row, decoding each row through the same schema that reads imports,
and puts every row that decodes into a fresh store beside the copy. Rows on damaged pages or
with damaged cells are counted as lost. The damaged file itself is never opened for writing.

:func:`repair` then makes that fresh store the user's progress: the damaged file (already
copied aside as ``<name>.broken-<stamp>``) is replaced atomically. Only ever on the user's
word: ``tokdrill repair``, or Repair in the app.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tokdrill.clock import Clock, SystemClock
from tokdrill.progress.document import COLUMNS, TABLES, RowProblem, decode_row, row_values
from tokdrill.progress.errors import StoreError
from tokdrill.progress.store import Store, backup_copy, decode_setting

MAX_RESTARTS = 2000
"""How many times one table's scan may resume past a damaged spot before giving up on the rest."""

_UNREADABLE = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file raises: SQLite's errors, and a UnicodeDecodeError when SQLite's
message quotes damaged schema bytes."""


@dataclass
class Salvage:
    """A fresh store (in a temporary folder) holding every row that could be read, with counts
    of rows kept and lost per table and the problems met (``table row N: field: message``)."""

    store: Store
    folder: Path
    kept: dict[str, int] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for people: what was kept and what was lost."""
        kept = ", ".join(f"{n} {t}" for t, n in self.kept.items() if n) or "nothing"
        lost = sum(self.lost.values())
        tail = f"; {lost} damaged record(s) could not be read" if lost else ""
        if self.lost.get("file"):
            tail = "; the file's header is unreadable, so nothing in it could be read"
        return f"could read {kept}{tail}"

    def close(self) -> None:
        """Close the fresh store and remove its temporary folder."""
        self.store.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _rows(conn: sqlite3.Connection, table: str, problems: list[str]) -> tuple[list[tuple[object, ...]], int]:
    """Every row of ``table`` that SQLite can return (by rowid, resuming past damaged spots),
    and how many times the scan hit damage."""
    columns = ", ".join(COLUMNS[table]) if table != "settings" else "key, value"
    out: list[tuple[object, ...]] = []
    last = -(2**63)
    hits = 0
    restarts = 0
    while restarts <= MAX_RESTARTS:
        try:
            cursor = conn.execute(f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid", (last,))
            for row in cursor:
                last = int(row[0])
                out.append(tuple(row[1:]))
            return out, hits
        except _UNREADABLE as exc:
            hits += 1
            restarts += 1
            if hits == 1:
                problems.append(f"{table}: {exc}")
            try:  # jump past the damaged spot: the next rowid SQLite can still find
                nxt = conn.execute(f"SELECT min(rowid) FROM {table} WHERE rowid > ?", (last + 1,)).fetchone()[0]
            except _UNREADABLE:
                nxt = None
            if nxt is None or int(nxt) <= last:
                last += 1
            else:
                last = int(nxt) - 1
    problems.append(f"{table}: gave up after {MAX_RESTARTS} damaged spots")
    return out, hits


def salvage(path: Path, clock: Clock | None = None) -> Salvage:
    """Everything that can be read from the database at ``path`` (damaged or not), in a fresh
    store in a new temporary folder. Never writes ``path``."""
    clock = clock or SystemClock()
    folder = Path(tempfile.mkdtemp(prefix="tokdrill-salvage-"))
    copy = folder / "damaged.sqlite3"
    fresh = Store.open(folder / "progress.sqlite3", clock=clock, verify=False)
    result = Salvage(fresh, folder, dict.fromkeys((*TABLES, "settings"), 0), dict.fromkeys((*TABLES, "settings"), 0))
    try:
        shutil.copyfile(path, copy)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, folder / "damaged.sqlite3-wal")
    except OSError as exc:
        result.problems.append(f"{path}: cannot read: {exc.strerror or exc}")
        result.lost["file"] = 1
        return result
    try:
        conn = sqlite3.connect(copy, isolation_level=None)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except _UNREADABLE as exc:
        result.problems.append(f"{path}: {exc}")
        result.lost["file"] = 1
        return result
    try:
        with fresh.write() as w:
            for table in (*TABLES, "settings"):
                try:
                    rows, hits = _rows(conn, table, result.problems)
                except _UNREADABLE as exc:  # the table itself is gone
                    result.problems.append(f"{table}: {exc}")
                    result.lost[table] += 1
                    continue
                result.lost[table] += hits
                for row in rows:
                    try:
                        if table == "settings":
                            w.set_setting(str(row[0]), decode_setting(row[0], row[1]))
                        else:
                            record = decode_row(table, row, f"{table} row {row[0]!r}")
                            verb = "INSERT OR IGNORE"
                            cols = COLUMNS[table]
                            w.conn.execute(
                                f"{verb} INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                row_values(table, record),
                            )
                        result.kept[table] += 1
                    except (RowProblem, ValueError) as exc:
                        result.lost[table] += 1
                        if len(result.problems) < 50:
                            result.problems.append(str(exc))
    finally:
        conn.close()
    return result


def repair(path: Path, clock: Clock | None = None, found: Salvage | None = None) -> Salvage:
    """Replace the damaged database at ``path`` with what can be read from it (``found``, or a
    new :func:`salvage`). A copy of the damaged file is put aside first (``<name>.broken-*``)
    unless one is already there. Returns the salvage (its store stays usable; close it)."""
    clock = clock or SystemClock()
    result = found if found is not None else salvage(path, clock)
    already = list(path.parent.glob(f"{path.name}.broken-*"))
    if path.exists() and not already and backup_copy(path, clock.now()) is None:
        raise StoreError(f"cannot copy {path} aside before repairing it", path, problem="readonly")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        source = sqlite3.connect(result.store.path)
        target = sqlite3.connect(tmp)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        for suffix in ("-wal", "-shm"):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                companion.unlink()
        os.replace(tmp, path)
    except (OSError, sqlite3.Error) as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise StoreError(f"cannot write the repaired store to {path}: {exc}", path, problem="readonly") from exc
    return result
