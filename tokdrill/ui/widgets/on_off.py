"""A checkbox that says its state in words and marks: ``▐X▌ on`` or ``▐ ▌ off``.

Textual's checkbox draws the same ``X`` whether it is ticked or not (only its colour changes),
which reads as "on" either way on many terminals.
"""

from __future__ import annotations

from textual.widgets import Checkbox


class OnOffBox(Checkbox):
    """A checkbox labelled ``on`` or ``off`` after its value, its mark blank when off."""

    def __init__(self, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(self._word(value), value=value, compact=True, id=id)
        self._show(value)

    @staticmethod
    def _word(value: bool) -> str:
        return "on" if value else "off"

    def _show(self, value: bool) -> None:
        self.BUTTON_INNER = "X" if value else " "
        self.label = self._word(value)

    def watch_value(self) -> None:
        self._show(self.value)
        super().watch_value()
