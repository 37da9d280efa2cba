"""Helpers shared by the UI tests (imported as ``ui_helpers``)."""

from __future__ import annotations

from textual.pilot import Pilot

from tokdrill.ui.app import TokdrillApp

SIZE = (120, 40)


async def submit(app: TokdrillApp, pilot: Pilot[None]) -> None:
    """Press ctrl+s and wait until the grading worker has reported back."""
    await pilot.press("ctrl+s")
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()
