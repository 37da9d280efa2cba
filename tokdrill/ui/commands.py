"""Command palette hits that open any drill (in either mode) or any card."""

from __future__ import annotations

from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import Hit, Hits, Provider

from tokdrill.backend import Backend
from tokdrill.progress.records import Mode
from tokdrill.ui.messages import OpenCard, OpenDrill
from tokdrill.ui.text import as_markup, highlighted


@runtime_checkable
class HasBackend(Protocol):
    """What the provider needs of the app: its backend (checked, so the app need not be imported)."""

    backend: Backend


MODE_LABELS: dict[Mode, str] = {"retype": "retype", "recall": "from memory"}


class ContentCommands(Provider):
    """Command palette hits that open any drill (both modes) or card by id or title."""

    async def search(self, query: str) -> Hits:
        app = self.app
        if not isinstance(app, HasBackend):
            return
        matcher = self.matcher(query)
        library = app.backend.library

        def open_drill(drill_id: str, mode: Mode) -> None:
            app.post_message(OpenDrill(drill_id, mode))

        def open_card(card_id: str) -> None:
            app.post_message(OpenCard(card_id))

        for drill in library.drills.values():
            for mode, label in MODE_LABELS.items():
                text = f"Drill: {drill.title} ({label})"
                score = matcher.match(f"{text} {drill.id}")
                if score > 0:
                    yield Hit(
                        score,
                        highlighted(matcher, text),
                        partial(open_drill, drill.id, mode),
                        text=text,
                        help=as_markup(drill.id),
                    )
        for card in library.all_cards():
            text = f"Card: {card.question.strip()[:70]}"
            score = matcher.match(f"{text} {card.id}")
            if score > 0:
                yield Hit(
                    score * 0.9,
                    highlighted(matcher, text),
                    partial(open_card, card.id),
                    text=text,
                    help=as_markup(card.id),
                )
