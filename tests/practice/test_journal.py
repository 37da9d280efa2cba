"""The CLI's writes take the app's path: a check made while another process holds the database
is kept in the journal and saved by the next run; a start rebuilt from its journal line is the
same start."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

from tokdrill.clock import FixedClock
from tokdrill.content import load_library
from tokdrill.grading.verdict import TestResult, Verdict
from tokdrill.practice import recording
from tokdrill.practice.service import Practice
from tokdrill.progress.records import Start
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import JOURNAL_NAME

LIBRARY = load_library([], check_symbols=False)


def test_a_check_made_while_the_database_is_locked_is_saved_by_the_next_run(tmp_path: Path) -> None:
    clock = FixedClock()
    database = tmp_path / "progress.sqlite3"
    Store.open(database, clock=clock).close()
    drill = LIBRARY.drill("bpe-encode")
    failing = Verdict(drill.id, False, (TestResult("t.py::test_rank", "failed", "", ("merge-order",)),), 0.1)
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing for longer than the check waits
    try:
        practice, _ = Practice.open(LIBRARY, database, clock)
        practice.start(drill, "recall", "mine.py")
        clock.advance(minutes=3)
        kept = practice.check(drill, failing, "def apply_merges(): ...\n", "mine.py")
        assert kept.kind == "recorded" and kept.failed_concepts == ("merge-order",)
        status = practice.close(grace=0.5)
        assert status.state != "saved" and status.pending == 2  # the start (its newest state) and the concepts
        assert (tmp_path / JOURNAL_NAME).exists()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    clock.advance(minutes=1)
    again, problems = Practice.open(LIBRARY, database, clock)
    assert any("being saved now" in p for p in problems)
    assert again.close().state == "saved"
    with Store.open(database, clock=clock) as store:
        start = store.start(drill.id)
        assert start is not None and start.checks == 1 and start.open
        assert [r.concept for r in store.concept_results(failed=True)] == ["merge-order"]


def test_a_start_survives_its_journal_line() -> None:
    moment = FixedClock().now()
    start = Start("bpe-encode", "recall", "/home/u/bpe.py", moment, 2, moment + timedelta(minutes=4), "f" * 64, None)
    job = recording.start_job(start)
    again = recording.job_from_entry(job.entry, FixedClock())
    assert again.entry == job.entry and again.replaces == ("start", "bpe-encode")
