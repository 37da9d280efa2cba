"""Fixtures for the UI tests: a temporary TOKDRILL_HOME, a fixed clock, the real backend; and
``async def`` tests run with ``asyncio.run``."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run ``async def`` tests in a fresh event loop (no async plugin needed)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    wanted = inspect.signature(pyfuncitem.obj).parameters
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in wanted}))
    return True


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """TOKDRILL_HOME pointing at a fresh folder (no extra content)."""
    folder = tmp_path / "home"
    monkeypatch.setenv("TOKDRILL_HOME", str(folder))
    monkeypatch.delenv("TOKDRILL_CONTENT", raising=False)
    return folder


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def backend(home: Path, clock: FixedClock) -> Iterator[Backend]:
    opened = Backend.open(clock=clock)
    yield opened
    opened.close()


@pytest.fixture
def app(backend: Backend) -> TokdrillApp:
    """The app over the real core, with the cursor blink off."""
    return TokdrillApp(backend, cursor_blink=False)
