"""A text's tokens drawn in alternating colours, wrapped once per width, drawn line by line.

Each token is one coloured run (specials in a colour of their own); a token longer than the
line continues on the next. Only the lines on screen are drawn, so 100 KB of text (25,000
tokens) scrolls as cheaply as one line. Token texts are plain strings drawn as segments, so no
text here is ever read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tokdrill.ui.text import printable

# A run is (text, shade): shade 0/1 alternate between tokens, 2 is a special token, 3 a label,
# 4 a heading;
# a run whose text is a single newline starts a new line.
Run = tuple[str, int]
SHADES = ("token-view--even", "token-view--odd", "token-view--special", "token-view--label", "token-view--title")
LABEL = 3
TITLE = 4


def wrap_runs(items: Sequence[Run], width: int) -> list[list[Run]]:
    """``items`` laid out in lines of at most ``width`` cells; a run longer than the space left
    is split character by character (one wide character never straddles two lines)."""
    width = max(1, width)
    lines: list[list[Run]] = [[]]
    used = 0
    for text, shade in items:
        if text == "\n":
            lines.append([])
            used = 0
            continue
        cells = len(text) if text.isascii() else cell_len(text)
        if used + cells <= width:
            lines[-1].append((text, shade))
            used += cells
            continue
        piece: list[str] = []
        for ch in text:
            w = cell_len(ch)
            if used + w > width and (piece or used):
                if piece:
                    lines[-1].append(("".join(piece), shade))
                    piece = []
                lines.append([])
                used = 0
            piece.append(ch)
            used += w
        if piece:
            lines[-1].append(("".join(piece), shade))
    return lines


def printable_runs(runs: Sequence[Run]) -> list[Run]:
    """``runs`` with any control character written as a visible escape (the app's one rule for
    outside text): a run never reaches the terminal as a command."""
    return [(text if text == "\n" or text.isprintable() else printable(text), shade) for text, shade in runs]


class TokenView(ScrollView, can_focus=True):
    """Coloured runs (tokens, ids or pieces) wrapped to the view's width; ↑/↓/PageUp/PageDown scroll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", "Up", show=False),
        Binding("down", "scroll_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "scroll_home", "Top", show=False),
        Binding("end", "scroll_end", "Bottom", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = set(SHADES)
    DEFAULT_CSS = """
    TokenView {
        background: $surface;
        color: $foreground;
        & > .token-view--even { background: $primary 35%; }
        & > .token-view--odd { background: $accent 35%; }
        & > .token-view--special { background: $error 60%; text-style: bold; }
        & > .token-view--label { color: $text-muted; text-style: italic; }
        & > .token-view--title { text-style: bold; }
        &:focus { background-tint: $foreground 5%; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._runs: list[Run] = []
        self._lines: list[list[Run]] = []
        self._wrapped_at = -1

    @property
    def wrap_width(self) -> int:
        """The width lines are wrapped to now (a worker may wrap for it, see :meth:`show`)."""
        return self.scrollable_content_region.width or self.size.width or 80

    def show(self, runs: Sequence[Run], wrapped: tuple[int, list[list[Run]]] | None = None) -> None:
        """Replace what is shown. ``wrapped`` is ``(width, lines)`` already laid out (off the UI
        thread, from runs made printable with :func:`printable_runs`); otherwise, or when the
        width has changed since, the runs are made printable and wrapped here."""
        if wrapped is None:
            runs = printable_runs(runs)
        self._runs = list(runs)
        self._wrapped_at = -1
        if wrapped is not None and wrapped[0] == self.wrap_width:
            self._wrapped_at, self._lines = wrapped
            self.virtual_size = Size(wrapped[0], len(self._lines))
        self._rewrap()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def plain_lines(self) -> list[str]:
        """The wrapped lines as plain text (what a person reads on screen)."""
        return ["".join(text for text, _ in line) for line in self._lines]

    def _rewrap(self) -> None:
        width = self.wrap_width
        if width == self._wrapped_at:
            return
        self._wrapped_at = width
        self._lines = wrap_runs(self._runs, width) if self._runs else []
        self.virtual_size = Size(width, len(self._lines))

    def on_resize(self) -> None:
        self._rewrap()
        self.refresh()

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        base = self.rich_style
        if index >= len(self._lines):
            return Strip.blank(width, base)
        styles = [base + self.get_component_rich_style(shade) for shade in SHADES]
        segments = [Segment(text, styles[shade]) for text, shade in self._lines[index]]
        return Strip(segments).crop_extend(0, width, base)
