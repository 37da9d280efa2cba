"""A text box that takes a large paste at once: soft wrap is off before the text goes in, and its
owner can draw what follows from the paste in the same frame as the pasted text.

Textual's TextArea wraps every line of an edit to its width as the edit is made, and again when
its scroll bar appears or wrapping is switched off; for 100 KB of pasted text that is three
passes over every line. This box decides before a paste whether the text it will hold is small
enough to wrap (:func:`wraps`), so a large paste is laid out once, unwrapped. A paste is still an
ordinary edit: it is one step of the undo history, and undoing it is safe (:mod:`.safe_history`).
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events

from tokdrill.ui.widgets.safe_history import SafeHistory

# A text of at least this many lines or characters is shown unwrapped (each line scrolls sideways).
WRAP_LINES, WRAP_CHARACTERS = 200, 20_000


def wraps(lines: int, characters: int) -> bool:
    """Whether a text of ``lines`` lines and ``characters`` characters is soft-wrapped."""
    return lines < WRAP_LINES and characters < WRAP_CHARACTERS


class PasteArea(SafeHistory):
    """Textual's TextArea that wraps only texts small enough to wrap on every key, and calls
    :attr:`pasted` (when set) as soon as a paste is in, before the box reports the change."""

    pasted: Callable[[], None] | None = None

    def fit_wrap(self) -> None:
        """Wrap the text when it is small enough, else show it unwrapped."""
        self.soft_wrap = wraps(self.document.line_count, len(self.text))

    def on_paste(self, event: events.Paste) -> None:
        """Put the pasted text in place of the selection, as TextArea's own handler does (which
        this one replaces), then call ``pasted``: whatever it draws is in the frame that first
        shows the pasted text, as the change is reported after this handler."""
        if self.read_only:
            return
        event.prevent_default()
        if self.soft_wrap and not wraps(
            self.document.line_count + event.text.count("\n"), len(self.text) + len(event.text)
        ):
            self.soft_wrap = False
        result = self.replace(event.text, *self.selection, maintain_selection_offset=False)
        self.move_cursor(result.end_location)
        self.focus()
        if self.pasted is not None:
            self.pasted()
