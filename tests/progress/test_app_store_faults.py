"""Store faults seen through the app (Textual pilot): a full disk while rating a card or typing
a drill, and a lock another process holds for longer than any timeout. The app keeps running,
says what happened and what to do, keeps typing responsive, and loses nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from faults import WAIT, full_after, release

from tokdrill import locations
from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.content import load_library
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.progress.store import Store
from tokdrill.progress.write_queue import JOURNAL_NAME
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.screens.review import ReviewScreen

SIZE = (120, 36)
DRILL = "bytes-to-unicode"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("TOKDRILL_HOME", str(folder))
    monkeypatch.delenv("TOKDRILL_CONTENT", raising=False)
    return folder


@pytest.fixture
def db_path(home: Path) -> Path:
    """The app's database (created), where the ``locked`` fixture holds the lock."""
    path = locations.database_path()
    Store.open(path).close()
    return path


def make_backend(clock: FixedClock, opener: Callable[[Path], Store] | None = None) -> Backend:
    library = load_library([], cache_dir=locations.cache_dir(), check_symbols=False)
    keeper, problems = ProgressKeeper.open(locations.database_path(), clock, queue_opener=opener)
    return Backend(library, keeper, clock, problems)


class Notes:
    """The app's notifications, captured."""

    def __init__(self, app: TokdrillApp) -> None:
        self.seen: list[tuple[str, str]] = []
        original = app.notify

        def notify(message: str, **kwargs: object) -> None:
            self.seen.append((str(kwargs.get("severity", "information")), message))
            original(message, **kwargs)  # type: ignore[arg-type]

        app.notify = notify  # type: ignore[method-assign]

    def text(self) -> str:
        return "\n".join(m for _s, m in self.seen)


async def wait_until(pilot, check: Callable[[], bool]) -> None:  # type: ignore[no-untyped-def]
    """Let the app run until ``check()`` holds (bounded by WAIT seconds)."""
    for _ in range(int(WAIT * 20)):
        if check():
            return
        await pilot.pause(0.05)
    raise AssertionError("condition not reached")


def test_disk_full_while_rating_a_card(db_path: Path) -> None:
    clock = FixedClock()
    with Store.open(db_path) as store:
        store.set_new_cards_per_day(100)
    opener = full_after(0)

    async def run() -> None:
        backend = make_backend(clock, opener)
        app = TokdrillApp(backend, cursor_blink=False)
        notes = Notes(app)
        async with app.run_test(size=SIZE) as pilot:
            rated = 0
            while "disk" not in notes.text() and rated < 40:  # each rating stores a review and a state
                await pilot.press("f5")
                await pilot.pause()
                assert isinstance(app.screen, ReviewScreen)
                await pilot.press("space")
                await pilot.press("3")
                rated += 1
                await pilot.pause(0.2)
                await pilot.press("f2")
            await wait_until(pilot, lambda: "disk" in notes.text())
            assert "free some disk space" in notes.text() and ("warning", notes.seen[-1][1]) in notes.seen
            assert app.is_running
            opener.free_space()  # type: ignore[attr-defined]
            backend.progress.retry_now()
            await wait_until(pilot, lambda: "Progress saved again" in notes.text())
        with Store.open(db_path) as store:
            assert store.count("reviews") == rated

    asyncio.run(run())


def test_disk_full_mid_drill_keeps_the_line_typed_after(db_path: Path) -> None:
    clock = FixedClock()
    opener = full_after(0)
    typed = "def bytes_to_unicode():\n" + "    # a long comment line to fill pages\n" * 120

    async def run() -> None:
        backend = make_backend(clock, opener)
        app = TokdrillApp(backend, cursor_blink=False)
        notes = Notes(app)
        async with app.run_test(size=SIZE) as pilot:
            app.start_drill(DRILL, "recall")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            screen.editor.text = typed
            screen.save_draft(force=True)
            await wait_until(pilot, lambda: "disk" in notes.text())
            screen.editor.move_cursor(screen.editor.document.end)
            await pilot.press(*"x = 1")  # typed after the disk filled
            await pilot.press("ctrl+q")
        assert not app.is_running
        status = app.final_store_status
        assert status is not None and status.pending >= 1
        journal = locations.data_dir() / JOURNAL_NAME
        assert "x = 1" in journal.read_text()
        # next start (disk has room again): the draft comes back with the last line
        again = make_backend(clock)
        draft = again.store.draft(DRILL, "recall")
        assert draft is not None and draft.text.endswith("x = 1")
        again.close()
        assert not journal.exists()

    asyncio.run(run())


def test_a_lock_held_for_long_never_freezes_the_app(db_path: Path, locked) -> None:  # type: ignore[no-untyped-def]
    clock = FixedClock()

    async def run() -> None:
        backend = Backend.open(clock=clock)
        app = TokdrillApp(backend, cursor_blink=False)
        notes = Notes(app)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f5")
            await pilot.pause()
            await pilot.press("space", "4")
            await pilot.pause()
            app.start_drill(DRILL, "recall")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await pilot.press(*"def b")  # typing goes on while the other process holds the lock
            await pilot.pause()
            assert screen.editor.text.startswith("def b")
            screen.save_draft(force=True)
            await wait_until(pilot, lambda: "locked" in notes.text())
            assert locked.poll() is None  # all of the above happened while the lock was held
            assert backend.draft(DRILL, "recall").text.startswith("def b")
            release(locked)
            backend.progress.retry_now()
            await wait_until(pilot, lambda: "Progress saved again" in notes.text())
            await pilot.press("ctrl+q")
        with Store.open(db_path) as store:
            assert store.count("reviews") == 1
            draft = store.draft(DRILL, "recall")
            assert draft is not None and draft.text.startswith("def b")

    asyncio.run(run())


def test_journal_names_every_kind_of_pending_write(db_path: Path, locked) -> None:  # type: ignore[no-untyped-def]
    clock = FixedClock()
    backend = Backend.open(clock=clock)
    backend.rate_card(backend.review_queue()[0], 3, 1.0)
    backend.set_setting("auto_indent", True)
    backend.save_draft(DRILL, "retype", "def", 2.0)
    status = backend.close()
    ops = [json.loads(line)["op"] for line in (db_path.parent / JOURNAL_NAME).read_text().splitlines()]
    assert ops == ["review", "setting", "draft"] and status.pending == 3


def test_rating_while_another_process_holds_the_lock_raises_nothing_and_loses_nothing(
    db_path: Path,
    locked,  # type: ignore[no-untyped-def]
) -> None:
    backend = Backend.open(clock=FixedClock())
    card = backend.review_queue()[0]
    backend.rate_card(card, 3, 1.0)
    assert locked.poll() is None
    release(locked)
    backend.close()
    with Store.open(db_path) as store:
        assert [r.card_id for r in store.reviews()] == [card.id]


def test_the_app_opens_a_damaged_database_and_repairs_it_from_the_palette(db_path: Path) -> None:
    clock = FixedClock()
    backend = Backend.open(clock=clock)
    for card in backend.review_queue()[:3]:
        backend.rate_card(card, 3, 1.0)
    backend.close()
    conn = sqlite3.connect(db_path, isolation_level=None)  # damage one review past its CHECK constraint
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute("DROP TRIGGER reviews_append_only")
    conn.execute("UPDATE reviews SET rating = 9 WHERE id = 2")
    conn.close()

    async def run() -> None:
        damaged = Backend.open(clock=clock)
        assert damaged.store_damaged and any("Repair progress" in p for p in damaged.problems)
        app = TokdrillApp(damaged, cursor_blink=False)
        notes = Notes(app)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("ctrl+p")
            await pilot.press(*"Repair progress")
            await pilot.pause(0.5)
            await pilot.press("enter")
            await wait_until(pilot, lambda: "Progress repaired" in notes.text())
            assert not damaged.store_damaged
            await pilot.press("ctrl+q")
        with Store.open(db_path) as store:
            assert store.count("reviews") == 2  # the damaged review is the one left behind
        assert list(db_path.parent.glob("progress.sqlite3.broken-*"))

    asyncio.run(run())
