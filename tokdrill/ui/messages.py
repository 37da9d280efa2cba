"""Typed messages the app's workers post back to the UI thread."""

from __future__ import annotations

from textual.message import Message

from tokdrill.grading.verdict import Verdict
from tokdrill.progress.write_queue import StoreStatus


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


class StoreStatusChanged(Message):
    """Saving progress failed, recovered, or stopped (posted from the store writer's thread)."""

    def __init__(self, status: StoreStatus) -> None:
        super().__init__()
        self.status = status
