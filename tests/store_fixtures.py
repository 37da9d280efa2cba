"""Fixtures the scheduling and practice tests share: a fixed clock, a store in UTC days, a planner
and a small catalog (their conftest files import them by name)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tokdrill.clock import FixedClock
from tokdrill.progress.store import Store
from tokdrill.scheduling.catalog import Catalog
from tokdrill.scheduling.planner import Planner

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(START)


@pytest.fixture
def store(tmp_path: Path, clock: FixedClock) -> Iterator[Store]:
    s = Store.open(tmp_path / "progress.sqlite3", clock=clock)
    s.set_timezone("UTC")
    yield s
    s.close()


@pytest.fixture
def planner(store: Store, clock: FixedClock) -> Planner:
    return Planner(store, clock)


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        drill_targets={"bpe-train": 600, "wordpiece": 900},
        decks={"bpe": ("b1", "b2", "b3"), "wp": ("w1", "w2", "w3")},
    )
