"""`tokdrill` with no subcommand: the launch pauses garbage collection until the first frame,
collects the launch's garbage once the frame after, and collection is on again however the app ends."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path

import pytest

from tokdrill.ui import heap
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.launch import build_app, launch_app


def _args(tmp_path: Path) -> argparse.Namespace:
    return argparse.Namespace(data_dir=str(tmp_path), content=None)


def test_the_built_app_collects_once_its_imports_are_in_and_freezes_at_its_first_frame(tmp_path: Path) -> None:
    app = build_app(_args(tmp_path))
    try:
        # the imports are frozen and collection is back on while content and the first screen load
        assert gc.isenabled() and gc.get_freeze_count() > 0 and app.heap.launching
        app.heap.launched()
        assert gc.isenabled() and app.heap.frozen and app.heap.stale
    finally:
        app.heap.release()
        app.backend.close()
    assert gc.isenabled() and gc.get_freeze_count() == 0


async def test_the_launch_garbage_is_collected_the_frame_after_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(heap, "SETTLE_AFTER_SECONDS", 600.0)  # no settle after a screen change here
    app = build_app(_args(tmp_path))
    try:
        async with app.run_test() as pilot:
            for _ in range(20):
                if app.heap.settles:
                    break
                await pilot.pause()
            # one settle (a full collection, then a freeze) with no settle timer due
            assert app.heap.settles == 1 and app.heap.frozen and not app.heap.stale
            assert gc.isenabled() and not app.heap.launching
    finally:
        app.heap.release()
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_an_app_that_ends_before_its_first_frame_leaves_collection_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[int] = []

    def run(self: TokdrillApp) -> None:  # ends without ever drawing a frame
        frozen.append(gc.get_freeze_count())
        self.backend.close()

    monkeypatch.setattr(TokdrillApp, "run", run)
    assert launch_app(_args(tmp_path)) == 0
    assert frozen[0] > 10_000  # the launch had frozen its imports...
    assert gc.isenabled() and gc.get_freeze_count() == 0  # ...and lets them go once the app is done
