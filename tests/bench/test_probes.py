"""The probes' own pacing: a new screen is read (the app settles its heap) before it is timed."""

from __future__ import annotations

import asyncio

import pytest

from tokdrill.bench import probes


def test_reading_a_new_screen_waits_until_the_app_has_settled_its_heap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(probes, "READ_SECONDS", 60.0)  # a bound for a loaded machine, not the cause
    app = probes._app()

    async def drive() -> None:
        async with app.run_test(size=probes.SIZE) as pilot:
            await probes._read(pilot, app)
            assert app.heap.frozen and not app.heap.stale
            settles = app.heap.settles
            app.action_browse()  # what Today held may be garbage now: settled again once read
            await probes._read(pilot, app)
            assert app.heap.frozen and not app.heap.stale and app.heap.settles == settles + 1

    asyncio.run(drive())
