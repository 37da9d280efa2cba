"""Read-only, syntax-highlighted reference code that follows the editor's cursor.

Long lines wrap (under their own line number) so every character to retype is on screen. The
view knows which screen row each reference line starts on, so :meth:`ReferenceView.follow` can
put the line being typed at the same height as the editor's cursor; the line being typed is
shaded and the first divergence, if any, is marked in red.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets.text_area import TextAreaTheme

from tokdrill.ui.textual_internals import SteadyScrollBars, python_highlights

THEME = "monokai"
CURRENT_STYLE = Style(bgcolor="#3e3d32")  # the line the cursor is on
MARKED_STYLE = Style(bgcolor="#5f1f1f")  # the first divergence
GUTTER_STYLE = Style(color="#90908a")
SHADES = (Style(), CURRENT_STYLE, MARKED_STYLE)  # a row's background: plain, current, marked
MIN_CODE_WIDTH = 12


def highlighted_lines(code: str) -> tuple[list[Text], Style]:
    """``code`` highlighted as Python, one Text per line, and the theme's base style (its
    background and plain text colour). The colours are the code editor's: Textual's tree-sitter
    query over the code (already loaded for the editor) and its Monokai theme."""
    theme = TextAreaTheme.get_builtin_theme(THEME)
    rows = code.split("\n")
    if len(rows) > 1 and not rows[-1]:
        rows.pop()  # the newline that ends the file starts no line
    lines = [Text(row) for row in rows]
    encoded = [row.encode() for row in rows]

    def column(row: int, byte: int) -> int:
        return len(encoded[row][:byte].decode(errors="ignore"))

    styles = {} if theme is None else theme.syntax_styles
    for name, nodes in python_highlights(code).items():
        style = styles.get(name)
        if style is None:
            continue
        for node in nodes:
            (first, start), (last, end) = node.start_point, node.end_point
            for row in range(first, min(last, len(rows) - 1) + 1):
                left = column(row, start) if row == first else 0
                right = column(row, end) if row == last else len(rows[row])
                if right > left:
                    lines[row].stylize(style, left, right)
    base = Style() if theme is None or theme.base_style is None else theme.base_style
    return lines, base


class ReferenceView(SteadyScrollBars, can_focus=False):
    """The code to retype. ``follow(line, row)`` scrolls so that 0-based ``line`` starts at
    ``row`` of the view and shades it; ``mark(line)`` marks the first divergence."""

    DEFAULT_CSS = """
    ReferenceView { height: 1fr; }
    """

    def __init__(self, code: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.code = code
        self.marked: int | None = None
        self.current: int | None = None
        self.at_row = 0  # the view row the current line is kept at
        self._lines, self._background = highlighted_lines(code)
        self._gutter = len(str(len(self._lines))) + 2
        self._rows: list[tuple[int, Text]] = []  # (line index, the part of the line) per row
        self._first_row: list[int] = []  # line index -> its first row
        self._wrapped_for = -1
        self._strips: dict[tuple[int, int, int], Strip] = {}  # (row, shade, width) -> the row drawn

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def on_resize(self, event: events.Resize) -> None:
        self._rewrap()
        self._size_for_rows()

    def _watch_show_vertical_scrollbar(self) -> None:
        """The scroll bar takes columns from the code (or gives them back): wrap anew. A resize
        does not always follow, e.g. when the bar appears while a dialog covers the screen."""
        if self.is_mounted:
            self._rewrap()

    def _size_for_rows(self) -> None:
        """Room for every row, and below the last a view's height of blank rows: the last lines
        can then sit at the cursor's height too."""
        self.virtual_size = Size(self.size.width, len(self._rows) + max(0, self.size.height - 1))

    def _rewrap(self) -> None:
        width = self.scrollable_content_region.width or self.size.width
        code_width = max(MIN_CODE_WIDTH, width - self._gutter)
        if code_width == self._wrapped_for:
            return
        self._wrapped_for = code_width
        console = self.app.console
        rows: list[tuple[int, Text]] = []
        first: list[int] = []
        for index, line in enumerate(self._lines):
            first.append(len(rows))
            parts = line.wrap(console, code_width) if line.cell_len > code_width else [line]
            rows.extend((index, part) for part in parts)
        self._rows = rows
        self._first_row = first
        self._strips.clear()
        self._size_for_rows()
        self.refresh()
        if self.current is not None:  # the current line stays where it was (rows wrap anew)
            self.scroll_to(y=max(0, self._first_row[self.current] - self.at_row), animate=False)

    def row_of(self, line: int) -> int:
        """The first row (0-based, from the top of the whole text) that ``line`` is drawn on."""
        if not self._first_row:
            self._rewrap()
        if not self._first_row:
            return 0
        return self._first_row[max(0, min(line, len(self._first_row) - 1))]

    def follow(self, line: int, at_row: int) -> None:
        """Shade ``line`` and scroll so that it starts ``at_row`` rows below the top of the view
        (as near as the text's length allows)."""
        line = max(0, min(line, self.line_count - 1))
        self.at_row = max(0, at_row)
        if line != self.current:
            self.current = line
            self.refresh()
        self.scroll_to(y=max(0, self.row_of(line) - self.at_row), animate=False)

    def mark(self, line: int | None) -> None:
        """Mark ``line`` (0-based) as the first divergence; ``None`` clears the mark."""
        if line != self.marked:
            self.marked = line
            self.refresh()

    def render_line(self, y: int) -> Strip:
        row = self.scroll_offset.y + y
        width = self.size.width
        if not self._rows:
            self._rewrap()
        if row >= len(self._rows):
            return Strip([Segment(" " * width, self._background)], width)
        index, part = self._rows[row]
        shade = 2 if index == self.marked else 1 if index == self.current else 0
        key = (row, shade, width)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strips[key] = self._draw_row(row, index, part, SHADES[shade], width)
        return strip

    def _draw_row(self, row: int, index: int, part: Text, line_style: Style, width: int) -> Strip:
        """One row of the view: the line number on a line's first row, then the code, shaded
        with ``line_style`` (a background only: token colours show through it)."""
        base = self._background + line_style
        first = self._first_row[index] == row
        number = f"{index + 1:>{self._gutter - 2}}  " if first else " " * self._gutter
        segments = [Segment(number, base + GUTTER_STYLE)]
        segments.extend(
            Segment(segment.text, self._background + (segment.style or Style()) + line_style)
            for segment in part.render(self.app.console)
            if segment.text != "\n"
        )
        return Strip(segments).adjust_cell_length(width, base)
