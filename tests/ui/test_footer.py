"""The key footer: going from screen to screen leaves no keys behind."""

from __future__ import annotations

import gc

from textual.widgets._footer import FooterKey
from ui_helpers import SMALL

from tokdrill.ui.app import TokdrillApp


def _alive() -> int:
    """How many footer keys are alive (after a collection)."""
    gc.collect()
    return sum(isinstance(o, FooterKey) for o in gc.get_objects())


async def test_screens_visited_again_and_again_leave_no_keys_behind(app: TokdrillApp) -> None:
    alive: list[int] = []
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        for _ in range(6):
            for key in ("f4", "c", "f3", "f5", "f2"):  # Stats with its charts, Browse, Review, Today
                await pilot.press(key)
                await pilot.pause()
            alive.append(_alive())
    assert alive[-1] == alive[1]  # nothing piles up from one round to the next
