"""Shared fixtures for progress tests: a fixed clock and a fresh store."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from factories import T0
from faults import hold_lock

from tokdrill.clock import FixedClock
from tokdrill.progress.store import Store


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "progress.sqlite3"


@pytest.fixture
def store(db_path: Path, clock: FixedClock) -> Iterator[Store]:
    s = Store.open(db_path, clock=clock)
    yield s
    s.close()


@pytest.fixture
def locked(db_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the write lock of the store at ``db_path`` until ``release``."""
    if not db_path.exists():
        Store.open(db_path).close()
    yield from hold_lock(db_path)
