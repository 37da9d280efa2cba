"""A writer killed with SIGKILL loses nothing committed and leaves no half attempt; two
processes writing at once both get every row in, uncorrupted."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tokdrill.progress.store import Store

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")

WRITER = textwrap.dedent(
    """
    import sys, time
    from datetime import datetime, timedelta, timezone
    from tokdrill.clock import FixedClock
    from tokdrill.grading.verdict import TestResult
    from tokdrill.progress.records import Attempt, Draft
    from tokdrill.progress.store import Store
    from tokdrill.scheduling.planner import Planner

    path, name, count, hang = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    clock = FixedClock(datetime(2026, 1, 5, 9, tzinfo=timezone.utc))
    store = Store.open(path, clock=clock, busy_timeout=30)
    planner = Planner(store, clock)
    tests = tuple(TestResult(f"test_{i}.py::test_case", "passed", "x" * 200) for i in range(50))
    for i in range(count):
        clock.advance(hours=1)
        start = clock.now() - timedelta(seconds=300)
        attempt = Attempt(name, "recall", start, clock.now(), 300.0 + i, 600, i % 3 != 0, 1, tests)
        if hang == "hang" and i == count - 1:
            with store.write() as w:  # die inside an open transaction, after writing the attempt
                w.insert_attempt(attempt)
                w.save_draft(Draft(name, "recall", "half", 1.0, clock.now()))
                print("MID", flush=True)
                time.sleep(60)
        outcome = planner.record_attempt(attempt)
        print("COMMITTED", outcome.attempt_id, flush=True)
    print("DONE", flush=True)
    """
)


def _writer(path: Path, name: str, count: int, hang: str = "no") -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), name, str(count), hang],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _check_consistent(path: Path) -> sqlite3.Connection:
    """Integrity, and every drill's schedule has seen exactly its attempts (same transaction)."""
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    reps = dict(conn.execute("SELECT item_id, reps FROM schedule WHERE kind = 'drill'"))
    counts = dict(conn.execute("SELECT drill_id, COUNT(*) FROM attempts GROUP BY drill_id"))
    totals = dict(conn.execute("SELECT drill_id, attempts FROM drill_totals"))
    assert reps == counts == totals
    for (tests,) in conn.execute("SELECT tests FROM attempts"):
        assert tests.endswith("]")
    return conn


def test_sigkill_inside_a_write_loses_only_the_open_transaction(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    proc = _writer(path, "bpe-train", 6, hang="hang")
    committed = []
    for line in proc.stdout:  # type: ignore[union-attr]
        if line.startswith("COMMITTED"):
            committed.append(int(line.split()[1]))
        if line.startswith("MID"):
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert len(committed) == 5
    conn = _check_consistent(path)
    assert sorted(r[0] for r in conn.execute("SELECT id FROM attempts")) == committed
    assert conn.execute("SELECT COUNT(*) FROM drafts").fetchone()[0] == 0
    conn.close()
    with Store.open(path) as store:  # and tokdrill opens it normally afterwards
        assert len(store.attempts()) == 5


def test_sigkill_at_a_random_moment_of_a_busy_writer(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    proc = _writer(path, "wordpiece", 100_000)
    committed = []
    for line in proc.stdout:  # type: ignore[union-attr]
        if line.startswith("COMMITTED"):
            committed.append(int(line.split()[1]))
        if len(committed) == 40:
            break
    os.kill(proc.pid, signal.SIGKILL)  # it keeps writing while we read: killed mid-stream
    proc.wait(timeout=30)
    conn = _check_consistent(path)
    stored = {r[0] for r in conn.execute("SELECT id FROM attempts")}
    assert set(committed) <= stored
    conn.close()


def test_two_processes_writing_at_once_keep_every_row(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"  # not created yet: the writers also race to create it
    procs = [_writer(path, "shared-drill", 60), _writer(path, "shared-drill", 60), _writer(path, "other", 60)]
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert out.rstrip().endswith("DONE")
    conn = _check_consistent(path)
    assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 180
    ids = [int(line.split()[1]) for out, _ in outputs for line in out.splitlines() if line.startswith("COMMITTED")]
    assert sorted(ids) == sorted(r[0] for r in conn.execute("SELECT id FROM attempts"))
    assert dict(conn.execute("SELECT item_id, reps FROM schedule")) == {"shared-drill": 120, "other": 60}
    conn.close()
