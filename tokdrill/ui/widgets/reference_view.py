"""Read-only, Pygments-highlighted reference code with one line that can be marked.

Long lines wrap (under their own line number) so every character to retype is on screen.
"""

from __future__ import annotations

from rich.syntax import Syntax
from textual.containers import VerticalScroll
from textual.widgets import Static


class ReferenceView(VerticalScroll, can_focus=False):
    """The code to retype. ``mark(line)`` highlights one 0-based line (the first divergence)."""

    DEFAULT_CSS = """
    ReferenceView { height: 1fr; }
    ReferenceView > Static { width: 100%; }
    """

    def __init__(self, code: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.code = code
        self.marked: int | None = None
        self._body = Static(self._render_code(), expand=False)

    def compose(self):  # type: ignore[no-untyped-def]
        yield self._body

    def _render_code(self) -> Syntax:
        marked = set() if self.marked is None else {self.marked + 1}
        return Syntax(
            self.code,
            "python",
            theme="monokai",
            line_numbers=True,
            highlight_lines=marked,
            word_wrap=True,
            indent_guides=False,
        )

    def mark(self, line: int | None) -> None:
        """Highlight ``line`` (0-based) and bring it into view; ``None`` clears the mark."""
        if line == self.marked:
            return
        self.marked = line
        self._body.update(self._render_code())
        if line is not None:
            self.scroll_to(y=max(0, line - 3), animate=False)
