"""A text's tokens drawn in alternating colours, wrapped once per width, drawn line by line.

Each token is one coloured run (specials in a colour of their own); a token longer than the
line continues on the next. Only the lines on screen are drawn, so 100 KB of text (25,000
tokens) scrolls as cheaply as one line, and the view can be shown the first screenful of a
layout before the rest is laid out (:meth:`TokenView.show`, then :meth:`TokenView.complete`).
Token texts are plain strings drawn as segments, so no text here is ever read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
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


@dataclass(frozen=True, slots=True)
class Layout:
    """Runs laid out in lines for one width; ``complete`` is False when only the first lines are."""

    width: int
    lines: list[list[Run]]
    complete: bool = True


def lay_out(items: Sequence[Run], width: int, max_lines: int | None = None) -> Layout:
    """``items`` laid out for ``width`` cells: all of them, or only the first ``max_lines`` lines."""
    lines = wrap_runs(items, width, max_lines)
    return Layout(width, lines, max_lines is None or len(lines) < max_lines)


def wrap_runs(items: Sequence[Run], width: int, max_lines: int | None = None) -> list[list[Run]]:
    """``items`` laid out in lines of at most ``width`` cells; a run longer than the space left
    is split character by character (one wide character never straddles two lines). With
    ``max_lines``, the layout stops after that many lines and one more are started (the extra one,
    unfinished, is left out)."""
    width = max(1, width)
    lines: list[list[Run]] = [[]]
    used = 0
    stop = -1 if max_lines is None else max_lines
    for text, shade in items:
        if 0 <= stop < len(lines):
            return lines[:stop]
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
    return lines if stop < 0 else lines[:stop]


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
        self._runs: Sequence[Run] = ()
        self._lines: list[list[Run]] = []
        self._wrapped_at = -1
        self._styles: tuple[Style, list[Style]] | None = None  # the base style and each shade's

    @property
    def wrap_width(self) -> int:
        """The width lines are wrapped to now (a worker may wrap for it, see :meth:`show`)."""
        return self.scrollable_content_region.width or self.size.width or 80

    def show(self, runs: Sequence[Run], layout: Layout | None = None) -> None:
        """Replace what is shown. ``layout`` holds ``runs`` already laid out (off the UI thread,
        from runs made printable with :func:`printable_runs`), perhaps only its first lines until
        :meth:`complete` brings the rest; without it, or when the width has changed since, the
        runs are made printable and laid out here."""
        self._runs = runs if layout is not None else printable_runs(runs)
        self._wrapped_at = -1
        if layout is not None and layout.width == self.wrap_width:
            self._use(layout)
        self._rewrap()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def complete(self, runs: Sequence[Run], layout: Layout) -> None:
        """The whole ``layout`` of the ``runs`` shown (the same object) in place of their first
        lines; ignored when other runs or another width are shown by now."""
        if runs is self._runs and layout.width == self._wrapped_at:
            self._use(layout)
            self.refresh()

    def _use(self, layout: Layout) -> None:
        self._wrapped_at, self._lines = layout.width, layout.lines
        self.virtual_size = Size(layout.width, len(layout.lines))

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

    def render_lines(self, crop: Region) -> list[Strip]:
        self._styles = None  # looked up once for all the lines drawn now (focus or theme may change them)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        if self._styles is None:
            base = self.rich_style
            self._styles = (base, [base + self.get_component_rich_style(shade) for shade in SHADES])
        base, styles = self._styles
        if index >= len(self._lines):
            return Strip.blank(width, base)
        segments = [Segment(text, styles[shade]) for text, shade in self._lines[index]]
        return Strip(segments).crop_extend(0, width, base)
