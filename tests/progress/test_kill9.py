"""kill -9 during every kind of write, through the write queue, the app (pilot) and the CLI:
the database stays consistent, every write the app accepted is in the database or in the side
file (and then in the database after the next start), and an import is all or nothing."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from datetime import timedelta
from pathlib import Path

import pytest
from factories import T0, make_attempt
from faults import hold_lock, release

from tokdrill.clock import FixedClock
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.progress.store import Store
from tokdrill.progress.transfer import export_document

# Each test starts tokdrill in a child process and kills it at a chosen moment: seconds each.
pytestmark = pytest.mark.slow
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}

WRITER = textwrap.dedent(
    """
    import sys
    from datetime import timedelta
    from pathlib import Path
    from tokdrill.clock import FixedClock
    from tokdrill.progress.records import Attempt, Draft, TestOutcome
    from tokdrill.practice.keeper import ProgressKeeper
    from factories import T0, make_attempt

    clock = FixedClock(T0)
    keeper, _ = ProgressKeeper.open(Path(sys.argv[1]), clock)
    tests = tuple(TestOutcome(f"t.py::test_{i}", "passed", "m" * 100, ("merge-order",)) for i in range(20))
    for i in range(100_000):
        clock.advance(minutes=7)
        kind = i % 6
        if kind == 0:
            start = clock.now() - timedelta(seconds=300)
            keeper.record_attempt(Attempt("bpe-train", "recall", start, clock.now(), 300.0, 600, i % 4 != 0, 1, tests))
        elif kind == 1:
            keeper.rate_card(f"card-{i % 13}", 1 + i % 4, 2.0)
        elif kind == 2:
            keeper.save_draft(Draft("bpe-train", "retype", "x" * (i % 500), float(i), clock.now()))
        elif kind == 3:
            keeper.set_setting("mock_minutes", 10 + i % 100)
        elif kind == 4:
            keeper.undo_last_review()
        else:
            keeper.discard_draft("bpe-train", "retype")
        print("SUBMITTED", i, flush=True)
    """
)


def check_consistent(path: Path) -> None:
    """Integrity, totals that match the history, and every row readable by tokdrill."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        attempts = dict(conn.execute("SELECT drill_id, COUNT(*) FROM attempts GROUP BY drill_id"))
        assert attempts == dict(conn.execute("SELECT drill_id, attempts FROM drill_totals"))
        reviews = dict(conn.execute("SELECT card_id, COUNT(*) FROM reviews GROUP BY card_id"))
        assert reviews == dict(conn.execute("SELECT card_id, reviews FROM card_totals"))
        reps = dict(conn.execute("SELECT item_id, reps FROM schedule WHERE kind = 'card'"))
        assert reps == reviews  # undo and review kept the state and the history in step
    finally:
        conn.close()
    with Store.open(path, clock=FixedClock(T0)) as store:
        export_document(store)  # decodes every row


def kill_after(proc: subprocess.Popen[str], submitted: int, journal: Path | None = None) -> int:
    """Let ``proc`` submit at least ``submitted`` writes (and write ``journal``, if given), then
    SIGKILL it; returns how many writes it reported."""
    assert proc.stdout is not None
    seen = 0
    for line in proc.stdout:
        if line.startswith("SUBMITTED"):
            seen = int(line.split()[1]) + 1
            if seen >= submitted and (journal is None or journal.exists()):
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kill_9_during_queued_writes_of_every_kind(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "data" / "progress.sqlite3"
    rng = random.Random(seed)
    tests_dir = str(Path(__file__).parent.parent)
    for _ in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**ENV, "PYTHONPATH": os.pathsep.join([tests_dir, *sys.path])},
        )
        kill_after(proc, rng.randrange(6, 120))
        check_consistent(path)
        keeper, problems = ProgressKeeper.open(path, FixedClock(T0))  # replays what the killed run left
        assert not [p for p in problems if "skipped" in p]
        keeper.store  # noqa: B018 - waits for the replay
        keeper.close()
        check_consistent(path)


def test_kill_9_while_the_database_is_locked_loses_nothing_the_writer_accepted(tmp_path: Path) -> None:
    path = tmp_path / "data" / "progress.sqlite3"
    Store.open(path).close()
    locker = hold_lock(path)
    lock = next(locker)
    tests_dir = str(Path(__file__).parent.parent)
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**ENV, "PYTHONPATH": os.pathsep.join([tests_dir, *sys.path])},
    )
    submitted = kill_after(proc, 30, path.parent / "unsaved-progress.jsonl")
    release(lock)
    keeper, _ = ProgressKeeper.open(path, FixedClock(T0))
    assert keeper.flush(300)
    store = keeper.store
    ratings = sum(1 for i in range(submitted) if i % 6 == 1) - sum(1 for i in range(submitted) if i % 6 == 4)
    attempts = sum(1 for i in range(submitted) if i % 6 == 0)
    # once writes wait for the lock, each one is in the side file before the caller goes on (the
    # writer may have gone on a little past the last line read here before it was killed)
    assert store.count("attempts") >= attempts and store.count("reviews") >= ratings
    keeper.close()
    check_consistent(path)


APP = textwrap.dedent(
    """
    import asyncio, os, sys
    from tokdrill.backend import Backend
    from tokdrill.clock import FixedClock
    from tokdrill.ui.app import TokdrillApp

    async def main():
        backend = Backend.open(clock=FixedClock())
        app = TokdrillApp(backend, cursor_blink=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("f5")
            await pilot.pause()
            await pilot.press("space", "3")
            await pilot.pause()
            app.start_drill("bytes-to-unicode", "recall")
            await pilot.pause()
            await pilot.press(*"def bytes_to_unicode():")
            app.screen.save_draft(force=True)
            await pilot.press(*" pass")
            app.screen.save_draft(force=True)
            await pilot.pause(0.5)
            os.write(1, b"TYPED\\n")  # print() in a running app is buffered by the app, not flushed
            await asyncio.sleep(600)

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("lock_held", [False, True])
def test_kill_9_of_the_app_mid_drill(tmp_path: Path, lock_held: bool) -> None:
    home = tmp_path / "home"
    path = home / "progress.sqlite3"
    Store.open(path).close()
    lock = next(hold_lock(path)) if lock_held else None
    proc = subprocess.Popen(
        [sys.executable, "-c", APP],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**ENV, "TOKDRILL_HOME": str(home)},
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 120)
    line = proc.stdout.readline() if ready else ""
    if line.strip() != "TYPED":
        proc.kill()
        _, err = proc.communicate(timeout=60)
        pytest.fail(f"the app did not report the typed draft within 2 minutes: {line!r}\n{err[-3000:]}")
    if lock_held:  # the writes wait for the lock; they are in the side file
        deadline = time.monotonic() + 60
        journal = home / "unsaved-progress.jsonl"
        while "pass" not in (journal.read_text() if journal.exists() else "") and time.monotonic() < deadline:
            time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    if lock is not None:
        release(lock)
    keeper, _ = ProgressKeeper.open(path, FixedClock())
    store = keeper.store
    draft = store.draft("bytes-to-unicode", "recall")
    assert draft is not None and draft.text.startswith("def bytes_to_unicode(): pass")
    assert store.count("reviews") == 1
    keeper.close()
    check_consistent(path)


def test_kill_9_during_an_import_is_all_or_nothing(tmp_path: Path) -> None:
    source = tmp_path / "big" / "progress.sqlite3"
    clock = FixedClock(T0)
    with Store.open(source, clock=clock) as store:
        with store.write() as w:
            for i in range(3000):
                w.insert_attempt(make_attempt(at=T0 + timedelta(minutes=i + 1)))
        doc = export_document(store)
    dump = tmp_path / "export.json"
    dump.write_text(json.dumps(doc))
    target = tmp_path / "data"
    with Store.open(target / "progress.sqlite3") as store:
        store.set_mock_minutes(77)
    rng = random.Random(5)
    for _ in range(4):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tokdrill", "--data-dir", str(target), "import", "--replace", str(dump)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=ENV,
        )
        time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        with Store.open(target / "progress.sqlite3") as store:
            count = store.count("attempts")
            assert count in (0, 3000)
            assert store.mock_minutes() == (77 if count == 0 else 45)
        check_consistent(target / "progress.sqlite3")
