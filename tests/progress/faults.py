"""Fault injection shared by the store-fault tests: a database that fills up (SQLite's own
SQLITE_FULL), another process holding the write lock, and a collector of queue statuses."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

from factories import T0

from tokdrill.clock import FixedClock
from tokdrill.progress.records import TestOutcome
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import StoreStatus

WAIT = 60.0  # generous bound for the writer thread on a loaded machine; never reached when it works
BIG = tuple(TestOutcome(f"test_x.py::test_{i}", "failed", "x" * 400) for i in range(20))  # needs new pages


class Statuses:
    """Collects what the queue reports, and lets a test wait for a given state."""

    def __init__(self) -> None:
        self.seen: list[StoreStatus] = []
        self._cond = threading.Condition()

    def __call__(self, status: StoreStatus) -> None:
        with self._cond:
            self.seen.append(status)
            self._cond.notify_all()

    def wait_for(self, state: str) -> StoreStatus:
        with self._cond:
            assert self._cond.wait_for(lambda: any(s.state == state for s in self.seen), timeout=WAIT), self.seen
            return next(s for s in self.seen if s.state == state)


def full_after(pages_more: int):  # type: ignore[no-untyped-def]
    """A writer-store opener whose database may grow by only ``pages_more`` pages: SQLite
    itself then answers SQLITE_FULL ("database or disk is full"), as on a full disk."""
    opened: list[Store] = []

    def opener(path: Path) -> Store:
        store = Store.open(path, clock=FixedClock(T0), busy_timeout=1)
        with store.read() as conn:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages + pages_more}")
        opened.append(store)
        return store

    def free_space() -> None:
        for store in opened:
            with store.read() as conn:
                conn.execute("PRAGMA max_page_count = 1073741823")

    opener.free_space = free_space  # type: ignore[attr-defined]
    return opener


LOCKER = textwrap.dedent(
    """
    import sqlite3, sys
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    print("LOCKED", flush=True)
    sys.stdin.readline()
    conn.execute("ROLLBACK")
    """
)


def hold_lock(db: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the database's write lock until told to let go."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LOCKER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "LOCKED"
    yield proc
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def release(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    proc.stdin.write("\n")
    proc.stdin.flush()
    proc.wait(WAIT)
