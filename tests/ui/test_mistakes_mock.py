"""The Mistakes screen and a whole mock round, driven through the real app (real grading)."""

from __future__ import annotations

import io
import re

from rich.console import Console
from textual.widgets import OptionList, Static, TextArea
from ui_helpers import SIZE, load, screen_lines, start_drill, submit

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.progress.records import ConceptResult
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.dialogs import Confirm
from tokdrill.ui.screens.drill import DrillScreen
from tokdrill.ui.screens.home import HomeScreen
from tokdrill.ui.screens.mistakes import MistakesScreen
from tokdrill.ui.screens.mock import MockScreen, scorecard_text
from tokdrill.ui.screens.review import ReviewScreen
from tokdrill.ui.screens.stats import StatsScreen

WRONG_APPLY = "\n\ndef apply_merges(symbols, ranks):\n    return list(symbols)\n"  # after the reference: it wins


async def test_a_failed_submission_is_on_the_mistakes_screen_and_due_on_today(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_drill(app, pilot, "bpe-encode", "recall")
        await load(pilot, screen, app.backend.reference(screen.drill) + WRONG_APPLY)
        await submit(app, pilot)
        assert screen.last_verdict is not None and not screen.last_verdict.passed
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        app.backend.store  # noqa: B018 - the queued writes applied
        app.screen.refresh_today()
        reasons = [i.detail for i in app.screen.lines if i.kind == "card"]  # type: ignore[union-attr]
        assert "due because your bpe-encode attempt failed merge-order" in reasons
        await pilot.press("m")
        await pilot.pause()
        mistakes = app.screen
        assert isinstance(mistakes, MistakesScreen)
        concepts = [m.concept for m in mistakes.mistakes]
        assert "merge-order" in concepts and all(not m.fixed for m in mistakes.mistakes)
        log = mistakes.query_one("#mistakes", OptionList)
        log.highlighted = concepts.index("merge-order")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert "merge-order" in app.screen.cards[0].concepts


async def test_a_whole_mock_round_is_recorded_and_listed_in_stats(backend: Backend, clock: FixedClock) -> None:
    app = TokdrillApp(backend, cursor_blink=False, start_action="mock")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        mock = app.screen
        assert isinstance(mock, MockScreen) and mock.stage == "intro"
        await pilot.press("ctrl+s")
        await pilot.pause()
        drill_screen = app.screen
        assert isinstance(drill_screen, DrillScreen) and drill_screen.origin == "mock"
        await load(pilot, drill_screen, backend.reference(drill_screen.drill))
        clock.advance(minutes=9)
        await submit(app, pilot)
        assert drill_screen.finished and drill_screen.last_verdict is not None and drill_screen.last_verdict.passed
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is mock and mock.stage == "questions"
        for step, (card, follow) in enumerate(mock.steps):
            text = " ".join(card.key_points) if follow is None and step == 0 else "not sure"
            mock.query_one("#mock-answer", TextArea).load_text(text)
            clock.advance(minutes=2)
            await pilot.press("ctrl+s")
            await pilot.pause()
        assert mock.stage == "done" and mock.scorecard is not None
        card = mock.scorecard
        assert card.mock.drill_passed and card.mock.drill_seconds is not None
        first = card.answers[0].answer
        assert first.covered == first.total > 0
        assert len(card.answers) == 2 * len(mock.cards)
        assert card.scheduled[0].kind == "drill" and len(card.scheduled) >= 1 + len(mock.cards)
        console = Console(width=78, file=io.StringIO(), record=True)  # as an 80-column terminal shows it
        console.print(scorecard_text(card))
        shown = console.export_text()
        answers = shown.split("\n\n", 1)[1].split("Concepts missed")[0]
        assert all(re.match(r"(\d+\.| {3})", line) for line in answers.splitlines() if line.strip())
        assert "Concepts missed" in shown and "Now scheduled" in shown
        follow_ups = [view for view in card.answers if view.answer.follow_up is not None]
        assert follow_ups and any(len(view.model_answer) > 200 for view in follow_ups)
        for view in follow_ups:  # every model answer whole, however long
            assert " ".join(view.model_answer.split()) in " ".join(shown.split())
        backend.store  # noqa: B018 - the queued writes applied
        (stored,) = backend.store.mock_rounds()
        assert stored.answers == card.mock.answers
        (attempt,) = backend.store.attempts(mock.drill.id)
        assert attempt.origin == "mock" and attempt.passed
        assert {r.card_id for r in backend.store.reviews()} == set(mock.plan.card_ids)
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        rounds = str(app.screen.query_one("#mock-rounds", Static).render())
        assert f"{mock.drill.id} passed" in rounds


async def test_the_palette_offers_mistakes_and_the_mock_round(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Mistakes", "Mock interview"} <= titles


async def test_the_mistake_log_rewraps_under_its_indent_when_the_terminal_narrows(
    backend: Backend, clock: FixedClock
) -> None:
    backend.store.add_concept_results(
        [
            ConceptResult("bpe-encode", "app", clock.now(), concept, ("test_x",))
            for concept in ("merge-order", "byte-table")
        ]
    )
    app = TokdrillApp(backend, cursor_blink=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("m")
        await pilot.pause()
        mistakes = app.screen
        assert isinstance(mistakes, MistakesScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        rows = [line[3:77] for line in screen_lines(app)[3:-2] if line.startswith(" │")]
        text = " ".join(" ".join(rows).split())
        for mistake in mistakes.mistakes:  # every word, at the new width
            assert " ".join(mistake.lesson.split()) in text
        assert all(row.startswith(("✗ ", "✓ ", "  ")) for row in rows if row.strip())  # wrapped lines indented


async def test_a_blank_mock_answer_asks_before_it_is_kept(backend: Backend) -> None:
    app = TokdrillApp(backend, cursor_blink=False, start_action="mock")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        mock = app.screen
        assert isinstance(mock, MockScreen)
        assert mock.plan.drill_target_seconds <= mock.plan.clock_seconds // 2  # the drill fits the round
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("escape")  # the drill left unfinished: on to the questions
        await pilot.pause()
        assert app.screen is mock and mock.stage == "questions"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and mock.step == 0
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is mock and mock.step == 0 and mock.answers == []
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is mock and mock.step == 1 and [a.answer for a in mock.answers] == [""]
