"""Undo and redo that cannot end the app.

Textual's TextArea restores an undone (or redone) edit's text before its selection, and a scroll
bar that appears or goes in between looks for the cursor on a line the edit may have removed: it
raises, and the app ends with whatever was typed since the last save (Textual issue #6686). Here
the cursor goes to the start of the text first; the edit then puts back its own selection.
"""

from __future__ import annotations

from textual.widgets import TextArea
from textual.widgets.text_area import Selection


class SafeHistory(TextArea):
    """Textual's TextArea whose undo and redo keep the cursor on a line that exists throughout."""

    def undo(self) -> None:
        """Undo the last batch of edits (a paste is one)."""
        if self.history.undo_stack:
            self.selection = Selection.cursor((0, 0))
        super().undo()

    def redo(self) -> None:
        """Redo the last batch of edits undone."""
        if self.history.redo_stack:
            self.selection = Selection.cursor((0, 0))
        super().redo()
