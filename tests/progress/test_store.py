"""The store's records, settings, drafts, retired ids and thread use."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from datetime import date, timedelta

import msgspec
import pytest
from factories import T0, fsrs_state, make_attempt

from tokdrill.progress.records import Draft, ItemState, Review
from tokdrill.progress.schema import SCHEMA_VERSION
from tokdrill.progress.store import Store


def test_new_database_is_current_schema_in_wal_mode(store: Store, db_path) -> None:
    assert store.schema_version == SCHEMA_VERSION
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_attempt_round_trips_every_field(store: Store) -> None:
    attempt = make_attempt(keystrokes=812, retype_accuracy=0.975, submissions=4)
    attempt_id = store.add_attempt(attempt)
    (stored,) = store.attempts()
    assert stored == msgspec.structs.replace(attempt, id=attempt_id)


def test_passed_attempt_clears_its_draft_only(store: Store) -> None:
    for mode in ("recall", "retype"):
        store.save_draft(Draft("bpe-train", mode, "def f(): ...", 42.5, T0))  # type: ignore[arg-type]
    store.add_attempt(make_attempt(passed=False))
    assert store.draft("bpe-train", "recall") is not None
    store.add_attempt(make_attempt(passed=True, mode="recall"))
    assert store.draft("bpe-train", "recall") is None
    assert store.draft("bpe-train", "retype") is not None


def test_draft_save_is_an_upsert(store: Store) -> None:
    store.save_draft(Draft("wp", "recall", "v1", 5.0, T0))
    store.save_draft(Draft("wp", "recall", "v2", 10.0, T0 + timedelta(seconds=5)))
    assert store.draft("wp", "recall") == Draft("wp", "recall", "v2", 10.0, T0 + timedelta(seconds=5))
    assert len(store.drafts()) == 1
    store.clear_draft("wp", "recall")
    assert store.drafts() == []


def test_review_and_state_are_written_together(store: Store) -> None:
    state = {
        "card_id": 1,
        "state": 1,
        "step": 1,
        "stability": 2.3,
        "difficulty": 5.1,
        "due": "2026-01-05T09:10:00+00:00",
        "last_review": "2026-01-05T09:00:00+00:00",
    }
    item = ItemState("card", "bpe-why", state, T0 + timedelta(minutes=10), T0, T0, 1)
    review_id = store.add_review(Review("bpe-why", 3, 7.25, T0, state), item)
    assert store.reviews("bpe-why")[0].id == review_id
    assert store.item_state("card", "bpe-why") == item
    assert store.item_states("card") == {"bpe-why": item}


def test_settings_have_typed_defaults_and_are_validated(store: Store) -> None:
    assert store.interview_date() is None
    assert store.new_cards_per_day() == 10
    store.set_interview_date(date(2026, 2, 1))
    store.set_new_cards_per_day(25)
    store.set_setting("ui.theme", "dark")
    assert store.interview_date() == date(2026, 2, 1)
    assert store.new_cards_per_day() == 25
    assert store.get_setting("ui.theme") == "dark"
    with pytest.raises(ValueError, match=r"new_cards_per_day|whole number"):
        store.set_new_cards_per_day(-1)
    with pytest.raises(ValueError, match="unknown setting"):
        store.set_setting("colour", "red")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        store.set_setting("interview_date", "next friday")
    store.set_interview_date(None)
    assert store.interview_date() is None


def test_history_of_vanished_content_is_kept_and_reported_retired(store: Store) -> None:
    store.add_attempt(make_attempt("old-drill"))
    store.add_attempt(make_attempt("bpe-train"))
    state = fsrs_state(T0 + timedelta(days=1), T0)
    store.add_review(
        Review("gone-card", 3, 2.0, T0, state), ItemState("card", "gone-card", state, T0 + timedelta(days=1), T0, T0, 1)
    )
    retired = store.retired(drill_ids=["bpe-train"], card_ids=["kept-card"])
    assert retired.drills == ("old-drill",)
    assert retired.cards == ("gone-card",)
    assert store.count("attempts") == 2


def test_attempts_are_append_only(store: Store) -> None:
    store.add_attempt(make_attempt())
    with pytest.raises(sqlite3.IntegrityError, match="append-only"), store.write() as w:
        w.conn.execute("UPDATE attempts SET passed = 0")
    assert store.attempts()[0].passed


def test_failed_write_rolls_back_everything(store: Store) -> None:
    with pytest.raises(RuntimeError), store.write() as w:
        w.insert_attempt(make_attempt())
        raise RuntimeError("boom")
    assert store.count("attempts") == 0
    assert store.count("drill_totals") == 0


def test_store_is_usable_from_worker_threads(store: Store) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(20):
                store.add_attempt(make_attempt(f"drill-{n}", at=T0 + timedelta(seconds=i)))
                store.attempts(f"drill-{n}", limit=1)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.count("attempts") == 80


def test_totals_follow_inserts_and_deletes(store: Store) -> None:
    for passed in (True, False, True):
        store.add_attempt(make_attempt(passed=passed))
    with store.read() as conn:
        assert conn.execute("SELECT attempts, passes FROM drill_totals").fetchall() == [(3, 2)]
    with store.write() as w:
        w.conn.execute("DELETE FROM attempts")
    assert store.count("drill_totals") == 0


def test_open_reopen_keeps_data(db_path, clock) -> None:
    with Store.open(db_path, clock=clock) as s:
        s.add_attempt(make_attempt())
    with Store.open(db_path, clock=clock) as s:
        assert len(s.attempts()) == 1


def test_attempt_filters_and_best_time(store: Store) -> None:
    store.add_attempt(make_attempt(seconds=500, mode="recall"))
    store.add_attempt(make_attempt(seconds=200, mode="retype", at=T0 + timedelta(minutes=5)))
    store.add_attempt(make_attempt(seconds=100, mode="recall", passed=False, at=T0 + timedelta(minutes=9)))
    assert [a.active_seconds for a in store.attempts("bpe-train", mode="recall")] == [100.0, 500.0]
    assert [a.active_seconds for a in store.attempts(passed=True)] == [200.0, 500.0]
    assert [a.active_seconds for a in store.attempts(limit=1)] == [100.0]
    assert store.best_seconds("bpe-train") == 200.0
    assert store.best_seconds("bpe-train", "recall") == 500.0
    assert store.best_seconds("unigram") is None
    assert store.attempt_count("bpe-train") == len(store.attempts("bpe-train")) == 3
    assert store.attempt_count("unigram") == 0


def test_typed_filter_reads_only_attempts_with_typing_figures_in_the_database(store: Store) -> None:
    """The Stats screen's typing history asks the database for the newest typed attempts only,
    rather than decoding the whole history to drop the untyped ones."""
    for minute, wpm in enumerate([40.0, None, 50.0, None, 60.0, None]):
        store.add_attempt(make_attempt(mode="retype", at=T0 + timedelta(minutes=minute), wpm=wpm, seconds=10 + minute))
    typed = store.attempts(mode="retype", typed=True, limit=2)
    assert [(a.wpm, a.active_seconds) for a in typed] == [(60.0, 14.0), (50.0, 12.0)]
    assert len(store.attempts(mode="retype", typed=True)) == 3


def test_opening_the_store_again_keeps_the_locks_of_the_stores_already_open(db_path, clock) -> None:
    """SQLite's locks are per process and a process drops all of them on a file when it closes
    any descriptor of it: the open must not read the file behind SQLite's back. Otherwise another
    process closing its connection believes it is the last user and deletes the WAL in use here."""
    first = Store.open(db_path, clock=clock)
    first.add_attempt(make_attempt())
    second = Store.open(db_path, clock=clock)
    other = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT 1 FROM sqlite_master'); c.close()"
    subprocess.run([sys.executable, "-c", other, str(db_path)], check=True, timeout=60)
    assert db_path.with_name(db_path.name + "-wal").exists(), "the other process took itself for the last user"
    first.add_attempt(make_attempt(at=T0 + timedelta(minutes=1)))
    assert second.count("attempts") == 2
    second.close()
    first.close()
    with Store.open(db_path, clock=clock) as again:
        assert again.count("attempts") == 2
