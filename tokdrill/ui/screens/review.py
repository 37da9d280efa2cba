"""Flashcard review: question, reveal the answer and follow-ups, rate 1-4 (Again..Easy).

In typed-answer mode the user writes an answer first; on reveal the card's key points are
checked against it (``tokdrill.content.keypoints``) so the rating is an informed one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static, TextArea

from tokdrill.backend import Backend
from tokdrill.content.keypoints import coverage, match_key_points
from tokdrill.content.model import Card
from tokdrill.ui import keymap
from tokdrill.ui.formatting import interval_text, references_text
from tokdrill.ui.messages import OpenPlayground
from tokdrill.ui.text import markup, printable
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.in_order import InOrderTextArea

RATING_NAMES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}


def rating_hint(intervals: Mapping[int, timedelta]) -> str:
    """``1 Again · 1m   2 Hard · 6m   3 Good · 10m   4 Easy · 4d``: each key with its interval."""
    parts = []
    for rating, name in RATING_NAMES.items():
        after = intervals.get(rating)
        parts.append(f"[b]{rating}[/b] {name}" + ("" if after is None else f" · {interval_text(after)}"))
    return "   ".join(parts)


def follow_ups_markdown(card: Card) -> str:
    """The card's follow-up questions and answers as one Markdown block ('' if none)."""
    parts = []
    for i, follow in enumerate(card.follow_ups, 1):
        parts.append(f"**Follow-up {i}: {follow.question.strip()}**\n\n{follow.answer.strip()}")
    return printable("\n\n".join(parts))


class ReviewScreen(Screen[None]):
    """Review ``cards`` in order; each rating is recorded and schedules the card's next review."""

    BINDINGS = keymap.REVIEW

    def __init__(self, backend: Backend, cards: Sequence[Card], *, title: str = "Review") -> None:
        super().__init__()
        self.backend = backend
        self.cards = list(cards)
        self.index = 0
        self.revealed = False
        self.typed_mode = False
        self.shown_at = 0.0
        self.ratings: list[int] = []
        self.review_title = title

    @property
    def card(self) -> Card | None:
        return self.cards[self.index] if self.index < len(self.cards) else None

    def compose(self) -> ComposeResult:
        yield Static("", id="review-bar")
        with VerticalScroll(id="review-body"):
            yield Static("", id="question")
            yield InOrderTextArea("", id="typed-answer", soft_wrap=True, classes="hidden")
            yield Static("", id="keypoints", classes="hidden")
            yield Markdown("", id="answer", classes="hidden", open_links=False)
            yield Markdown("", id="follow-ups", classes="hidden", open_links=False)
            yield Static("", id="references", classes="hidden")
        yield Static("", id="rate-hint")
        yield FittingFooter()

    def on_mount(self) -> None:
        self._to_key_points = False  # a checked answer's key points are to be scrolled to the top
        self.watch(self.query_one("#review-body", VerticalScroll), "virtual_size", self._scroll_to_key_points)
        self.show_card()

    def _scroll_to_key_points(self) -> None:
        """Once the revealed parts are laid out (the body has grown), put the key points at the
        top, the model answer under them."""
        if not self._to_key_points:
            return
        body = self.query_one("#review-body", VerticalScroll)
        top = self.query_one("#keypoints", Static).virtual_region.y
        if body.max_scroll_y >= top > 0:  # laid out far enough for the key points to reach the top
            self._to_key_points = False
            body.scroll_to(y=top, animate=False)

    # ----------------------------------------------------------------------------- display
    def show_card(self) -> None:
        self.revealed = False
        self._to_key_points = False
        card = self.card
        bar = self.query_one("#review-bar", Static)
        question = self.query_one("#question", Static)
        for widget_id in ("#answer", "#follow-ups", "#keypoints", "#references"):
            self.query_one(widget_id).add_class("hidden")
        typed = self.query_one("#typed-answer", TextArea)
        typed.load_text("")
        typed.read_only = False
        typed.remove_class("-checked")
        typed.set_class(not self.typed_mode or card is None, "hidden")
        if card is None:
            done = len(self.ratings)
            bar.update(markup("[b]$title[/b]  ·  done", title=self.review_title))
            counts = "  ".join(f"{RATING_NAMES[r]}: {self.ratings.count(r)}" for r in RATING_NAMES)
            more = "Press **m** to study more new cards today, **Esc** to go back." if self.can_study_more else ""
            self.question_text = (
                f"**All done.** You reviewed {done} card{'s' if done != 1 else ''}. {counts}\n\n"
                + (more or "Press **Esc** to go back.")
                if done
                else "**Nothing to review.** No card is due right now. " + (more or "Press **Esc** to go back.")
            )
            question.update(RichMarkdown(self.question_text))
            self.query_one("#rate-hint", Static).update("u: undo the last rating" if self.ratings else "")
            self.refresh_bindings()
            return
        deck = self.backend.library.decks.get(card.deck)
        deck_title = deck.title if deck else card.deck
        bar.update(
            markup(
                "[b]$title[/b]  ·  card $number of $count  ·  [dim]$deck · $card[/dim]",
                title=self.review_title,
                number=self.index + 1,
                count=len(self.cards),
                deck=deck_title,
                card=card.id,
            )
        )
        self.question_text = printable(card.question.strip())
        question.update(RichMarkdown(self.question_text, style="bold"))
        # render the answer now, hidden, so that revealing it is instant
        self.query_one("#answer", Markdown).update(printable(card.answer))
        follow = follow_ups_markdown(card)
        self.query_one("#follow-ups", Markdown).update(follow)
        self.query_one("#references", Static).update(references_text(card.references))
        hint = (
            "Type your answer, then ctrl+s to check it."
            if self.typed_mode
            else "Space: reveal the answer.  t: type your answer first."
        )
        self.query_one("#rate-hint", Static).update(hint)
        if self.typed_mode:
            typed.focus()
        else:
            self.set_focus(None)
        self.shown_at = self.backend.clock.monotonic()
        self.query_one("#review-body", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    def reveal(self) -> None:
        card = self.card
        if card is None or self.revealed:
            return
        self.revealed = True
        self.query_one("#answer", Markdown).remove_class("hidden")
        self.query_one("#follow-ups", Markdown).set_class(not card.follow_ups, "hidden")
        self.query_one("#references", Static).set_class(not card.references, "hidden")
        hint = rating_hint(self.backend.preview_intervals(card))
        body = self.query_one("#review-body", VerticalScroll)
        if self.typed_mode:
            # the typed answer is done with: it shrinks to its text and the keys scroll the
            # body, so PageDown brings the model answer below the key points into view
            self._show_key_points(card)
            typed = self.query_one("#typed-answer", TextArea)
            typed.read_only = True
            typed.add_class("-checked")
            self._to_key_points = True
            self.call_after_refresh(self._scroll_to_key_points)
            hint += "   [b]PgDn[/b] more"
        self.query_one("#rate-hint", Static).update(hint)
        body.focus()
        self.refresh_bindings()

    def _show_key_points(self, card: Card) -> None:
        typed = self.query_one("#typed-answer", TextArea).text
        matches = match_key_points(typed, card.key_points)
        text = Text()
        text.append(
            f"Key points covered: {sum(m.covered for m in matches)} of {len(matches)} "
            f"({coverage(matches) * 100:.0f}%)\n",
            style="bold",
        )
        for match in matches:
            if match.covered:
                text.append("  ✓ ", style="bold green")
                text.append(printable(match.point))
                if len(match.alternatives) > 1:
                    text.append(f"   (matched: {printable(str(match.matched))})", style="green")
                text.append("\n")
            else:
                text.append("  ✗ ", style="bold red")
                text.append(printable(match.point), style="red")
                if match.missing:
                    text.append(f"   (missing: {printable(', '.join(match.missing))})", style="dim")
                text.append("\n")
        widget = self.query_one("#keypoints", Static)
        widget.update(text)
        widget.remove_class("hidden")

    # ----------------------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rate":
            return self.revealed and self.card is not None
        if action == "reveal":
            return not self.revealed and self.card is not None and not self.typed_mode
        if action == "check_typed":
            return self.typed_mode and not self.revealed and self.card is not None
        if action == "typed_mode":
            return not self.revealed and self.card is not None
        if action == "undo":
            return bool(self.ratings)
        if action == "study_more":
            return self.card is None
        if action == "see_it":
            return self.card is not None and self.card.see_it is not None
        return True

    def action_see_it(self) -> None:
        card = self.card
        if card is not None and card.see_it is not None:
            self.post_message(OpenPlayground(card.see_it.text, card.see_it.encodings, card.see_it.note))

    def action_reveal(self) -> None:
        self.reveal()

    def action_check_typed(self) -> None:
        self.reveal()

    def action_typed_mode(self) -> None:
        self.typed_mode = not self.typed_mode
        self.show_card()

    def action_rate(self, rating: int) -> None:
        card = self.card
        if card is None or not self.revealed:
            return
        seconds = self.backend.clock.monotonic() - self.shown_at
        self.backend.rate_card(card, rating, seconds)
        self.ratings.append(rating)
        self.index += 1
        self.typed_mode = False  # each card starts with Space revealing; t types an answer
        self.show_card()

    def action_undo(self) -> None:
        """Take back the newest rating of this run of the app; its card comes back to be rated."""
        card_id = self.backend.undo_last_review()
        if card_id is None:
            self.notify("Nothing to undo: no rating given in this session.", timeout=3)
            return
        if self.index > 0 and self.cards[self.index - 1].id == card_id:
            self.index -= 1
        else:
            self.cards.insert(self.index, self.backend.library.card(card_id))
        if self.ratings:
            self.ratings.pop()
        self.typed_mode = False
        self.show_card()
        self.notify("Rating undone: rate this card again.", timeout=3)

    @property
    def can_study_more(self) -> bool:
        """At the end of a review queue, with cards never seen left."""
        return self.card is None and self.review_title == "Review" and self.backend.has_unseen_cards()

    def action_study_more(self) -> None:
        """Raise today's new-card limit and carry on with the new cards it lets in."""
        step = self.backend.study_more()
        seen = {card.id for card in self.cards[: self.index]}
        fresh = [card for card in self.backend.review_queue() if card.id not in seen]
        if not fresh:
            self.notify("No more cards to study today: every card has been seen.", timeout=4)
            return
        self.cards = self.cards[: self.index] + fresh
        self.show_card()
        self.notify(f"{step} more new cards today.", timeout=3)

    def action_leave(self) -> None:
        self.app.pop_screen()
