"""Command palette hits that open any drill (in either mode) or any card."""

from __future__ import annotations

from functools import partial

from textual.command import Hit, Hits, Provider


class ContentCommands(Provider):
    """Command palette hits that open any drill (both modes) or card by id or title."""

    async def search(self, query: str) -> Hits:
        app = self.app
        from tokdrill.ui.app import TokdrillApp

        assert isinstance(app, TokdrillApp)
        matcher = self.matcher(query)
        library = app.backend.library
        for drill in library.drills.values():
            for mode, label in (("retype", "retype"), ("recall", "from memory")):
                text = f"Drill: {drill.title} ({label})"
                score = matcher.match(f"{text} {drill.id}")
                if score > 0:
                    yield Hit(score, matcher.highlight(text), partial(app.start_drill, drill.id, mode), help=drill.id)
        for card in library.all_cards():
            text = f"Card: {card.question.strip()[:70]}"
            score = matcher.match(f"{text} {card.id}")
            if score > 0:
                yield Hit(score * 0.9, matcher.highlight(text), partial(app.open_card, card.id), help=card.id)
