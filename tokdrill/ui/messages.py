"""Typed messages: workers report back to the UI thread, and screens ask the app to navigate.

Screens never call the app: they post one of the navigation messages below, which bubbles up
to :class:`tokdrill.ui.app.TokdrillApp`, the one place that decides what opens where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from tokdrill.progress.records import Mode
from tokdrill.progress.write_queue import StoreStatus

if TYPE_CHECKING:
    from tokdrill.grading.verdict import Verdict


class GradeFinished(Message):
    """A submission was graded; ``source`` is the text that was graded."""

    def __init__(self, verdict: Verdict, source: str) -> None:
        super().__init__()
        self.verdict = verdict
        self.source = source


class GradeFailed(Message):
    """Grading broke inside tokdrill itself (never the user's fault)."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class OpenDrill(Message):
    """Open a drill; with ``mode`` None the user is asked for the mode first."""

    def __init__(self, drill_id: str, mode: Mode | None = None) -> None:
        super().__init__()
        self.drill_id = drill_id
        self.mode: Mode | None = mode


class OpenCard(Message):
    """Open one card for review on top of the current screen."""

    def __init__(self, card_id: str) -> None:
        super().__init__()
        self.card_id = card_id


class ContentChanged(Message):
    """Content files changed on disk (a deck imported while the app runs) and were loaded."""


class OpenPlayground(Message):
    """Open the Playground on ``text`` with ``encodings`` (a card's or drill's "see it")."""

    def __init__(self, text: str, encodings: tuple[str, ...], note: str = "") -> None:
        super().__init__()
        self.text = text
        self.encodings = encodings
        self.note = note


class SettingsChanged(Message):
    """Settings were saved; screens showing what they affect refresh."""


class StoreStatusChanged(Message):
    """Saving progress failed, recovered, or stopped (posted from the store writer's thread)."""

    def __init__(self, status: StoreStatus) -> None:
        super().__init__()
        self.status = status
