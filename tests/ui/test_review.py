"""Review flow: question, reveal, follow-ups, rate 1-4; typed answers checked against key points."""

from __future__ import annotations

from textual.widgets import Markdown, TextArea
from ui_helpers import SIZE

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.messages import OpenCard
from tokdrill.ui.screens.review import ReviewScreen


async def test_review_reveal_and_rate_records_reviews(app: TokdrillApp, backend: Backend, clock: FixedClock) -> None:
    queue = backend.review_queue()
    assert len(queue) >= 3
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        assert [c.id for c in screen.cards] == [c.id for c in queue]
        first = screen.card
        assert first is not None
        await pilot.press("3")  # rating before the answer is shown does nothing
        assert backend.store.reviews() == []
        await pilot.press("space")
        await pilot.pause()
        answer = screen.query_one("#answer", Markdown)
        assert answer.display and answer.source == first.answer
        if first.follow_ups:
            assert first.follow_ups[0].question.strip() in screen.query_one("#follow-ups", Markdown).source
        clock.advance(seconds=12)
        await pilot.press("3")
        for rating in ("1", "4"):
            await pilot.press("space", rating)
        reviews = backend.store.reviews()
        assert [r.rating for r in reversed(reviews)] == [3, 1, 4]
        assert [r.card_id for r in reversed(reviews)] == [c.id for c in queue[:3]]
        assert screen.index == 3
        state = backend.store.item_state("card", first.id)
        assert state is not None and state.reps == 1


async def test_typed_answer_shows_covered_key_points_before_rating(app: TokdrillApp, backend: Backend) -> None:
    card = next(c for c in backend.library.all_cards() if len(c.key_points) >= 2)
    async with app.run_test(size=SIZE) as pilot:
        app.post_message(OpenCard(card.id))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("t")
        typed = screen.query_one("#typed-answer", TextArea)
        assert typed.display and typed.has_focus
        typed.load_text(f"My answer: {card.key_points[0]}.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert screen.revealed
        shown = str(screen.query_one("#keypoints").render())
        assert f"✓ {card.key_points[0]}" in shown
        assert f"✗ {card.key_points[-1]}" in shown or card.key_points[-1] in card.key_points[0]
        await pilot.press("2")
        assert [r.rating for r in backend.store.reviews(card.id)] == [2]


async def test_empty_queue_says_so(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReviewScreen(backend, [], title="Review"))
        await pilot.pause()
        assert "Nothing to review" in app.screen.question_text
        await pilot.press("space", "3")
        assert backend.store.reviews() == []
