"""Damaged databases: any unreadable row is reported as damage with the file named and a copy
beside it; what can be read is shown; the damaged file is replaced only on the user's word."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from factories import T0, make_attempt

from tokdrill.cli import main
from tokdrill.clock import FixedClock
from tokdrill.practice.keeper import ProgressKeeper
from tokdrill.practice.stats import compute_stats
from tokdrill.progress.errors import StoreError
from tokdrill.progress.salvage import repair, salvage
from tokdrill.progress.store import Store
from tokdrill.progress.transfer import export_document
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import Planner

CATALOG = Catalog({"bpe-train": 600}, {"bpe": ("b1", "b2", "b3")})


def fill(path: Path, attempts: int = 20) -> None:
    clock = FixedClock(T0)
    with Store.open(path, clock=clock) as store:
        planner = Planner(store, clock)
        for i in range(attempts):
            clock.advance(hours=1)
            planner.record_attempt(make_attempt(at=clock.now(), seconds=300 + i))
        for card in ("b1", "b2"):
            planner.review_card(card, 3, 2.0)
        store.set_mock_minutes(50)


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection that writes what tokdrill never would (checks and triggers off)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute("DROP TRIGGER attempts_append_only")
    return conn


def damage_cell(path: Path, sql: str, *params: object) -> None:
    conn = raw(path)
    conn.execute(sql, params)
    conn.execute(
        "CREATE TRIGGER attempts_append_only BEFORE UPDATE ON attempts BEGIN "
        "SELECT RAISE(ABORT, 'attempts are append-only'); END"
    )
    conn.close()


@pytest.mark.parametrize(
    ("sql", "field"),
    [
        ("UPDATE attempts SET tests = substr(tests, 1, 30) WHERE id = 7", "tests"),
        ("UPDATE attempts SET mode = 'typing' WHERE id = 7", "CHECK constraint failed in attempts"),
        ("UPDATE attempts SET ended_at = 'yesterday' WHERE id = 7", "ended_at"),
        ("UPDATE attempts SET active_seconds = 'slow' WHERE id = 7", "active_seconds"),
        ("UPDATE attempts SET tests = x'ff00ff' WHERE id = 7", "tests"),
        ("UPDATE schedule SET state = '{\"card_id\": 1}' WHERE item_id = 'b1'", "state"),
        ("UPDATE settings SET value = '\"lots\"' WHERE key = 'mock_minutes'", "mock_minutes"),
    ],
)
def test_a_damaged_cell_is_damage_named_with_a_copy_beside_it(tmp_path: Path, sql: str, field: str) -> None:
    path = tmp_path / "progress.sqlite3"
    fill(path)
    damage_cell(path, sql)
    with pytest.raises(StoreError) as err, Store.open(path, clock=FixedClock(T0)) as store:
        export_document(store)  # (a broken CHECK constraint is already caught by the open's quick_check)
    assert err.value.problem == "damaged" and str(path) in str(err.value) and field in str(err.value)
    assert err.value.backup is not None and err.value.backup.exists()
    found = salvage(path)
    assert sum(found.lost.values()) == 1 and found.kept["attempts"] >= 19
    found.close()


def test_salvage_and_repair_keep_every_readable_row(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    fill(path)
    damage_cell(path, "UPDATE attempts SET tests = '[{\"name\": 1}]' WHERE id = 3")
    before = path.read_bytes()
    found = salvage(path)
    assert path.read_bytes() == before  # reading never writes the damaged file
    assert (found.kept["attempts"], found.lost["attempts"], found.kept["reviews"]) == (19, 1, 2)
    assert "attempts row 3" in " ".join(found.problems)
    repair(path, found=found)
    found.close()
    assert list(tmp_path.glob("progress.sqlite3.broken-*"))
    with Store.open(path) as store:
        assert store.count("attempts") == 19 and store.count("reviews") == 2 and store.mock_minutes() == 50
        compute_stats(store, CATALOG)
        export_document(store)


def test_damaged_pages_lose_only_their_rows(tmp_path: Path) -> None:
    path = tmp_path / "progress.sqlite3"
    fill(path, attempts=300)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    middle = (len(data) // 4096 // 2) * 4096
    data[middle + 100 : middle + 400] = b"\x00\xff" * 150
    path.write_bytes(bytes(data))
    found = salvage(path)
    assert found.kept["attempts"] + found.kept["reviews"] > 0
    repair(path, found=found)
    found.close()
    with Store.open(path) as store:
        compute_stats(store, CATALOG)
        export_document(store)


def test_the_app_shows_what_can_be_read_and_repairs_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "data" / "progress.sqlite3"
    fill(path)
    damage_cell(path, "UPDATE schedule SET state = '{}' WHERE item_id = 'b2'")
    clock = FixedClock(T0 + timedelta(days=2))
    keeper, problems = ProgressKeeper.open(path, clock)
    # quick_check passes (the pages are fine); the damage shows when the row is read
    assert problems == []
    stats = keeper.guarded_view(lambda: compute_stats(keeper.reader, CATALOG, clock, keeper.planner()))
    assert keeper.damaged is not None and stats.total_attempts == 20
    assert list(path.parent.glob("progress.sqlite3.broken-*"))
    damaged_bytes = path.read_bytes()
    keeper.rate_card("b3", 4, 1.0)  # held: never written to the damaged file
    assert keeper.status().state == "held"
    assert path.read_bytes() == damaged_bytes
    assert "Repair" in keeper.status().message or keeper.damaged is not None
    message = keeper.repair()
    assert "repaired" in message
    store = keeper.store
    assert store.count("attempts") == 20 and store.count("reviews") == 3
    assert store.item_state("card", "b2") is None  # its damaged state was not kept
    keeper.close()


def test_repair_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "progress.sqlite3"
    fill(path)
    damage_cell(path, "UPDATE schedule SET due = 'soon' WHERE item_id = 'bpe-train'")
    assert main(["--data-dir", str(tmp_path), "stats", "--json"]) == 1
    err = capsys.readouterr().err
    assert str(path) in err and "tokdrill repair" in err and "Traceback" not in err
    assert main(["--data-dir", str(tmp_path), "repair"]) == 1  # not a terminal: asks for --yes
    assert "--yes" in capsys.readouterr().err
    assert main(["--data-dir", str(tmp_path), "repair", "--yes"]) == 0
    assert "20 attempts" in capsys.readouterr().err
    assert main(["--data-dir", str(tmp_path), "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["attempts"] == 20
    assert main(["--data-dir", str(tmp_path), "repair"]) == 0
    assert "not damaged" in capsys.readouterr().err
