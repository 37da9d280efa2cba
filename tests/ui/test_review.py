"""Review flow: question, reveal, follow-ups, rate 1-4; typed answers checked against key points."""

from __future__ import annotations

import re
from datetime import timedelta

import msgspec
from textual.containers import VerticalScroll
from textual.widgets import Markdown, TextArea
from ui_helpers import SIZE, SMALL, after_refresh, burst, screen_text

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.formatting import interval_text
from tokdrill.ui.messages import OpenCard
from tokdrill.ui.screens.review import RATING_NAMES, ReviewScreen


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


async def test_typed_answer_mode_is_chosen_per_card(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("t")
        typed = screen.query_one("#typed-answer", TextArea)
        typed.load_text("an answer")
        await pilot.press("ctrl+s", "3")
        assert screen.index == 1
        await pilot.press("space")  # the next card starts in the usual mode: Space reveals
        assert screen.revealed and not screen.typed_mode
        assert not typed.display and typed.text == ""


async def test_typed_answers_across_two_cards(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        for _ in range(2):
            card = screen.card
            assert card is not None
            await pilot.press("t")
            screen.query_one("#typed-answer", TextArea).load_text(card.key_points[0] if card.key_points else "x")
            await pilot.press("ctrl+s")
            assert screen.revealed and "Key points covered" in str(screen.query_one("#keypoints").render())
            await pilot.press("3")
        assert len(backend.store.reviews()) == 2


async def test_each_rating_key_shows_the_interval_it_would_give(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5", "space")
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.card is not None
        hint = str(screen.query_one("#rate-hint").render())
        intervals = backend.preview_intervals(screen.card)
        for rating, name in RATING_NAMES.items():
            assert f"{rating} {name} · {interval_text(intervals[rating])}" in hint
        assert intervals[4] > intervals[3] > timedelta(0)


async def test_u_undoes_the_last_rating_and_brings_the_card_back(app: TokdrillApp, backend: Backend) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        first = screen.card
        assert first is not None
        await pilot.press("space", "1")
        assert screen.index == 1
        await pilot.press("u")
        assert screen.index == 0 and screen.card == first and not screen.revealed
        assert backend.store.reviews() == [] and backend.store.item_state("card", first.id) is None
        await pilot.press("space", "3")
        assert [r.rating for r in backend.store.reviews()] == [3]


async def test_study_more_when_the_daily_new_cards_are_done(app: TokdrillApp, backend: Backend) -> None:
    backend.set_setting("new_cards_per_day", 2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and len(screen.cards) == 2
        await pilot.press("space", "4", "space", "4")
        assert screen.card is None and "study more" in screen.question_text
        await pilot.press("m")
        assert len(screen.cards) == 4 and screen.card is not None and screen.index == 2
        await pilot.press("space", "4")
        assert len(backend.store.reviews()) == 3
        assert backend.extra_new_today() == 2  # the extra new cards stay in today's queue
        assert screen.cards[3] in backend.review_queue()


async def test_nothing_due_offers_study_more(app: TokdrillApp, backend: Backend) -> None:
    backend.set_setting("new_cards_per_day", 0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        screen = app.screen
        assert isinstance(screen, ReviewScreen) and screen.card is None
        assert "Nothing to review" in screen.question_text and "study more" in screen.question_text
        await pilot.press("m")
        assert screen.card is not None and len(screen.cards) == 10  # one day's worth when the setting is 0


async def test_typed_feedback_names_the_phrase_that_matched_among_alternatives(
    app: TokdrillApp, backend: Backend
) -> None:
    card = msgspec.structs.replace(
        backend.library.all_cards()[0], key_points=("argmax | most frequent", "rank order | by rank")
    )
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReviewScreen(backend, [card]))
        await pilot.pause()
        await pilot.press("t")
        app.screen.query_one("#typed-answer", TextArea).load_text("Take the MOST-frequent pairs, by rank.")
        await pilot.press("ctrl+s")
        await pilot.pause()
        shown = str(app.screen.query_one("#keypoints").render())
        assert "✓ argmax | most frequent   (matched: most frequent)" in shown
        assert "✓ rank order | by rank   (matched: by rank)" in shown


async def test_a_typed_answer_typed_in_a_burst_keeps_its_corrections(app: TokdrillApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5", "t")
        burst(app, [*"rankx", "backspace", "space", *"ordr", "left", "e", "end", "!"])
        await pilot.pause(0.3)
        assert app.screen.query_one("#typed-answer", TextArea).text == "rank order!"


async def test_a_checked_typed_answer_at_80x24_shows_the_model_answer_and_pagedown_scrolls_to_the_rest(
    app: TokdrillApp, backend: Backend
) -> None:
    plain = [c for c in backend.library.all_cards() if re.match(r"[A-Za-z]+ [a-z]+ [a-z]+ ", c.answer)]
    card = max(plain, key=lambda c: len(c.answer) + 80 * len(c.key_points))  # the longest to check
    async with app.run_test(size=SMALL) as pilot:
        app.post_message(OpenCard(card.id))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await pilot.press("t", *"my answer", "ctrl+s")
        await pilot.pause()
        await after_refresh(screen)
        body = screen.query_one("#review-body", VerticalScroll)
        typed = screen.query_one("#typed-answer", TextArea)
        first_words = " ".join(card.answer.split()[:3])
        assert "Key points covered" in screen_text(app) and first_words in screen_text(app)
        assert "PgDn" in str(screen.query_one("#rate-hint").render())
        assert body.has_focus and typed.read_only
        top = body.scroll_y
        for key in ("pagedown", "down", "space"):  # they scroll the card, never type into the answer
            await pilot.press(key)
            await pilot.pause()
        assert body.scroll_y > top and typed.text == "my answer"
        await pilot.press("3")
        assert [r.rating for r in backend.store.reviews(card.id)] == [3]
