"""The write queue: writes leave the caller at once, survive a full disk and a lock held by
another process (kept in memory and in a side file, retried, reported once), and a journal left
by a run that could not save is replayed on the next start."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import tempfile
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from factories import T0, make_attempt
from faults import BIG, WAIT, Statuses, full_after, release

from tokdrill.clock import FixedClock
from tokdrill.practice import recording
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.progress.records import Draft
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import JOURNAL_NAME, REFUSED_NAME, Job, WriteQueue, read_journals


@pytest.fixture
def db(db_path: Path) -> Path:
    Store.open(db_path).close()
    return db_path


def test_writes_are_applied_in_order_off_the_callers_thread(db: Path, clock: FixedClock) -> None:
    threads: list[str] = []
    queue = WriteQueue(db, clock)
    for i in range(5):
        clock.advance(minutes=1)
        job = recording.review_job(f"c{i}", 3, 1.0, clock.now(), clock)
        queue.submit(
            job.__class__(
                job.label, job.entry, lambda s, j=job: (threads.append(threading.current_thread().name), j.run(s))
            )
        )
    assert queue.flush(WAIT)
    queue.close()
    assert set(threads) == {"tokdrill-store-writer"}
    with Store.open(db) as store:
        assert [r.card_id for r in reversed(store.reviews())] == ["c0", "c1", "c2", "c3", "c4"]
    assert not (db.parent / JOURNAL_NAME).exists()


def test_disk_full_keeps_the_write_reports_once_and_saves_it_when_space_returns(db: Path, clock: FixedClock) -> None:
    statuses = Statuses()
    opener = full_after(0)
    queue = WriteQueue(db, clock, statuses, open_store=opener)
    queue.submit(recording.attempt_job(make_attempt(tests=BIG), clock))
    trouble = statuses.wait_for("retrying")
    assert trouble.problem == "full" and "disk" in trouble.message and "free some disk space" in trouble.message
    assert str(db) in trouble.message and trouble.pending == 1
    journal = db.parent / JOURNAL_NAME
    assert trouble.journal == journal and json.loads(journal.read_text())["op"] == "attempt"
    queue.submit(recording.draft_job(Draft("bpe-train", "retype", "typed after the disk filled", 3.0, T0)))
    assert "typed after the disk filled" in journal.read_text()  # the side file follows at once
    assert [s.state for s in statuses.seen].count("retrying") == 1  # reported once, not per retry
    opener.free_space()  # type: ignore[attr-defined]
    queue.retry_now()
    assert queue.flush(WAIT)
    statuses.wait_for("saved")
    queue.close()
    with Store.open(db) as store:
        assert store.count("attempts") == 1
        assert store.draft("bpe-train", "retype").text == "typed after the disk filled"
    assert not journal.exists()


def test_sqlite_full_at_the_nth_write(db: Path, clock: FixedClock) -> None:
    """The database may grow a little, then fills up in the middle of a run of writes."""
    statuses = Statuses()
    opener = full_after(3)
    queue = WriteQueue(db, clock, statuses, open_store=opener)
    for _ in range(40):
        clock.advance(hours=1)
        queue.submit(recording.attempt_job(make_attempt(at=clock.now(), tests=BIG), clock))
        while queue.pending() and not any(s.state == "retrying" for s in statuses.seen):
            queue.flush(0.05)  # one write at a time, until the disk fills
    statuses.wait_for("retrying")
    with Store.open(db) as reader:
        written = reader.count("attempts")
    assert 0 < written < 40
    assert len(queue.pending()) == 40 - written
    opener.free_space()  # type: ignore[attr-defined]
    queue.retry_now()
    assert queue.flush(WAIT)
    queue.close()
    with Store.open(db) as store:
        assert store.count("attempts") == 40


@pytest.mark.slow
def test_a_lock_held_by_another_process_never_blocks_the_caller(
    db: Path, clock: FixedClock, locked: subprocess.Popen[str]
) -> None:
    statuses = Statuses()
    keeper, problems = ProgressKeeper.open(db, clock)
    keeper.set_listener(statuses)
    assert problems == []
    keeper.rate_card("bpe-why", 3, 2.0)  # returns while the other process still holds the lock
    keeper.save_draft(Draft("bpe-train", "recall", "def train(", 4.0, clock.now()))
    assert locked.poll() is None  # the lock was held the whole time the calls above ran
    trouble = statuses.wait_for("retrying")
    assert trouble.problem == "busy" and "another tokdrill" in trouble.message
    assert keeper.draft("bpe-train", "recall").text == "def train("  # reads see the pending draft
    assert keeper.cards_rated_pending() == {"bpe-why"}
    with Store.open(db, busy_timeout=0.1, read_only=True) as reader:
        assert reader.count("reviews") == 0
    release(locked)
    keeper.retry_now()
    statuses.wait_for("saved")
    assert keeper.store.count("reviews") == 1
    assert keeper.store.draft("bpe-train", "recall").text == "def train("
    keeper.close()


def test_closing_with_writes_pending_leaves_them_for_the_next_start(
    db: Path, clock: FixedClock, locked: subprocess.Popen[str]
) -> None:
    keeper, _ = ProgressKeeper.open(db, clock)
    keeper.rate_card("bpe-why", 4, 2.0)
    clock.advance(seconds=5)
    keeper.record_attempt(make_attempt(at=clock.now(), tests=()))
    keeper.set_setting("mock_minutes", 60)
    status = keeper.close(grace=0.5)
    assert status.pending == 3 and status.journal == db.parent / JOURNAL_NAME
    release(locked)
    entries, _files, problems = read_journals(db.parent)
    assert [e["op"] for e in entries] == ["review", "attempt", "setting"] and problems == []
    again, notes = ProgressKeeper.open(db, clock)
    assert any("earlier run could not save" in n for n in notes)
    store = again.store
    assert (store.count("reviews"), store.count("attempts"), store.mock_minutes()) == (1, 1, 60)
    again.close()
    assert not (db.parent / JOURNAL_NAME).exists()


def test_replaying_a_journal_twice_adds_nothing_twice(db: Path, clock: FixedClock) -> None:
    """A run killed after committing but before clearing its journal replays the same writes."""
    jobs = [
        recording.review_job("bpe-why", 3, 1.0, T0, clock),
        recording.attempt_job(make_attempt(tests=()), clock),
        recording.draft_job(Draft("wp", "retype", "old", 1.0, T0)),
    ]
    journal = db.parent / JOURNAL_NAME
    text = "".join(json.dumps(j.entry) + "\n" for j in jobs)
    for _ in range(2):
        journal.write_text(text)
        keeper, _ = ProgressKeeper.open(db, clock)
        keeper.store  # noqa: B018 - waits for the replay
        keeper.close()
    with Store.open(db) as store:
        assert (store.count("reviews"), store.count("attempts"), store.count("drafts")) == (1, 1, 1)
        store.save_draft(Draft("wp", "retype", "newer", 2.0, T0 + timedelta(hours=1)))
    journal.write_text(text)  # an old draft in a journal never overwrites a newer stored one
    keeper, _ = ProgressKeeper.open(db, clock)
    assert keeper.store.draft("wp", "retype").text == "newer"
    keeper.close()


def test_an_undo_replayed_after_it_was_applied_removes_nothing_more(db: Path, clock: FixedClock) -> None:
    """An undo names the review it removes, so a journal replayed twice undoes it once; an undo
    journaled by an earlier version (no review named) still undoes the newest rating."""
    with Store.open(db) as store:
        for card, minutes in (("a", 0), ("b", 1), ("c", 2)):
            recording.review_job(card, 3, 1.0, T0 + timedelta(minutes=minutes), clock).run(store)
    journal = db.parent / JOURNAL_NAME
    undo = recording.undo_job("c", T0 + timedelta(minutes=2), clock).entry
    for _ in range(2):
        journal.write_text(json.dumps(undo) + "\n")
        keeper, problems = ProgressKeeper.open(db, clock)
        assert not [p for p in problems if "skipped" in p]
        assert keeper.flush(60)
        assert {r.card_id for r in keeper.store.reviews()} == {"a", "b"}
        keeper.close()
    journal.write_text(json.dumps({"op": "undo", "since": None}) + "\n")
    keeper, _ = ProgressKeeper.open(db, clock)
    assert keeper.flush(60)
    assert [r.card_id for r in keeper.store.reviews()] == ["a"]
    assert set(keeper.store.item_states("card")) == {"a"}
    keeper.close()


def test_a_damaged_journal_line_is_named_and_the_rest_replayed(db: Path, clock: FixedClock) -> None:
    good = recording.review_job("bpe-why", 3, 1.0, T0, clock).entry
    (db.parent / JOURNAL_NAME).write_text(
        json.dumps(good) + "\n{not json\n" + json.dumps({"op": "review", "card_id": 5}) + "\n"
    )
    keeper, notes = ProgressKeeper.open(db, clock)
    assert any(f"{JOURNAL_NAME}:2" in n for n in notes)
    assert any("skipped one write" in n for n in notes)
    assert keeper.store.count("reviews") == 1
    keeper.close()


def test_an_invalid_write_is_refused_to_the_caller_not_queued(db: Path, clock: FixedClock) -> None:
    keeper, _ = ProgressKeeper.open(db, clock)
    with pytest.raises(ValueError, match="mode"):
        keeper.record_attempt(make_attempt(mode="typing", tests=()))
    with pytest.raises(ValueError):
        keeper.set_setting("mock_minutes", 1000)
    assert keeper.status().pending == 0
    keeper.close()


def test_the_undo_of_a_rating_still_queued_goes_in_order(
    db: Path, clock: FixedClock, locked: subprocess.Popen[str]
) -> None:
    keeper, _ = ProgressKeeper.open(db, clock)
    keeper.rate_card("a", 3, 1.0)
    clock.advance(seconds=1)
    keeper.rate_card("b", 1, 1.0)
    assert keeper.undo_last_review() == "b"
    assert keeper.undo_last_review() == "a"
    assert keeper.undo_last_review() is None
    release(locked)
    keeper.retry_now()
    assert keeper.store.count("reviews") == 0 and keeper.store.item_states("card") == {}
    keeper.close()


def test_the_writer_survives_a_store_that_cannot_even_be_opened(tmp_path: Path, clock: FixedClock) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "progress.sqlite3"
    path.mkdir()  # a folder where the database should be
    statuses = Statuses()
    keeper, problems = ProgressKeeper.open(path, clock)
    keeper.set_listener(statuses)
    assert any("is a folder" in p for p in problems)
    keeper.rate_card("bpe-why", 3, 1.0)
    keeper.close(grace=0.2)
    assert json.loads((folder / JOURNAL_NAME).read_text())["card_id"] == "bpe-why"
    with pytest.raises(sqlite3.Error):
        sqlite3.connect(path).execute("SELECT 1 FROM reviews")


def _planted(folder: Path, clock: FixedClock) -> Path:
    """A journal in ``folder`` rating card ``planted`` (as another account would leave one)."""
    folder.mkdir(parents=True, exist_ok=True)
    journal = folder / JOURNAL_NAME
    journal.write_text(json.dumps(recording.review_job("planted", 4, 1.0, T0, clock).entry) + "\n")
    return journal


def _replayed_reviews(db: Path, clock: FixedClock) -> tuple[int, list[str]]:
    keeper, problems = ProgressKeeper.open(db, clock)
    count = keeper.store.count("reviews")
    keeper.close()
    return count, problems


@pytest.mark.parametrize("where", ["data folder", "shared temporary folder"])
def test_a_journal_in_a_folder_other_accounts_can_write_is_never_replayed(
    db: Path, clock: FixedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    folder = db.parent if where == "data folder" else shared / f"tokdrill-{os.getuid()}"
    journal = _planted(folder, clock)
    folder.chmod(0o777)
    count, problems = _replayed_reviews(db, clock)
    assert count == 0
    named = [p for p in problems if str(journal) in p]
    assert len(named) == 1 and "written by other accounts" in named[0] and "not replayed" in named[0]
    assert journal.exists()  # left alone, not adopted
    folder.chmod(0o700)
    assert _replayed_reviews(db, clock)[0] == 1  # the same journal in a folder of the user's own is replayed


def test_a_journal_owned_by_another_account_or_reached_by_a_link_is_never_replayed(
    db: Path, clock: FixedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    elsewhere = _planted(tmp_path / "elsewhere", clock)
    (db.parent / JOURNAL_NAME).symlink_to(elsewhere)
    count, problems = _replayed_reviews(db, clock)
    assert count == 0 and any("symbolic link" in p and "not replayed" in p for p in problems)
    (db.parent / JOURNAL_NAME).unlink()
    if os.getuid() != 0:
        pytest.skip("only root can give a file to another account")
    journal = _planted(tmp_path / f"tokdrill-{os.getuid()}", clock)
    os.chown(journal, 65534, 65534)
    count, problems = _replayed_reviews(db, clock)
    assert count == 0 and any(str(journal) in p and "another account" in p for p in problems)
    os.chown(journal.parent, 65534, 65534)
    os.chown(journal, 0, 0)
    count, problems = _replayed_reviews(db, clock)
    assert count == 0 and any(str(journal) in p and "folder belongs to another account" in p for p in problems)


def test_a_refused_write_is_never_kept_through_a_link_or_in_a_folder_others_may_write(
    db: Path, clock: FixedClock, tmp_path: Path
) -> None:
    """The side file of refused writes is written only in the user's own folders, never through a
    symbolic link planted there."""
    victim = tmp_path / "victim.txt"
    victim.write_text("untouched\n")
    own, shared = tmp_path / "own", tmp_path / "shared"
    own.mkdir(mode=0o700)
    shared.mkdir()
    shared.chmod(0o777)
    (own / REFUSED_NAME).symlink_to(victim)

    def refused(store: Store) -> None:
        raise ValueError("not a valid write")

    statuses = Statuses()
    queue = WriteQueue(db, clock, statuses, journal_dirs=[shared, own])
    queue.submit(Job("your rating of card x", {"op": "review", "card_id": "x"}, refused))
    lost = statuses.wait_for("lost")
    queue.close()
    assert victim.read_text() == "untouched\n"
    assert not (shared / REFUSED_NAME).exists()
    assert "could not save your rating of card x" in lost.message and "kept in" not in lost.message
