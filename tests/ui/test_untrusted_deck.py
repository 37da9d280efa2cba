"""Opening a downloaded deck's drill in the app and typing in it (which has the warm grader get
the drill ready) runs none of the deck's code outside the sandbox; its verdicts are still right."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_deck import DRILL_ID, GOOD, TESTS, WRONG, HostileDeck
from ui_helpers import SIZE, load, start_drill, submit

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp


@pytest.fixture
def deck(tmp_path: Path) -> Iterator[HostileDeck]:
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's secret\n")
    made = HostileDeck(secret)
    yield made
    made.remove()


async def test_opening_and_typing_in_a_decks_drill_runs_its_code_only_in_the_sandbox(
    deck: HostileDeck, home: Path, clock: FixedClock
) -> None:
    backend = Backend.open(content_dirs=[str(deck.folder)], clock=clock)
    try:
        app = TokdrillApp(backend, cursor_blink=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = await start_drill(app, pilot, DRILL_ID, "recall")
            await pilot.press("d", "e", "f")  # the first keystroke has the grader collect the tests
            await app.workers.wait_for_complete()
            assert deck.written() == {}
            await load(pilot, screen, WRONG)
            await submit(app, pilot)
            wrong = screen.last_verdict
            await load(pilot, screen, GOOD)
            await submit(app, pilot)
            right = screen.last_verdict
    finally:
        backend.close()
    assert deck.written() == {}
    assert wrong is not None and not wrong.passed and not wrong.internal
    assert [t.name for t in wrong.tests] == list(TESTS)
    assert right is not None and right.passed
