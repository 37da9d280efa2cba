"""A list of one-line rows under a fixed heading, with a row cursor, drawn line by line.

Only the rows on screen are drawn, and a row's drawing is kept while the row stays in the list
(keyed by the row's key, width, horizontal scroll and shading; a key always names the same
text), so replacing the rows with a filtered few costs the rows that are new on screen, not a
measure and redraw of every cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

CACHED_LINES = 1024


class RowList(ScrollView, can_focus=True):
    """Rows of text with keys; ↑/↓, PageUp/PageDown, Home/End move the cursor, Enter selects."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--heading", "row-list--even-row", "row-list--cursor"}
    DEFAULT_CSS = """
    RowList {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .row-list--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        & > .row-list--heading { text-style: bold; background: $panel; color: $foreground; }
        & > .row-list--even-row { background: $surface-lighten-1 50%; }
        &:dark > .row-list--even-row { background: $surface-darken-1 40%; }
        & > .row-list--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    cursor: reactive[int] = reactive(0, always_update=True, repaint=False)

    class Highlighted(Message):
        """The cursor is on a row (moved there, or the rows under it changed)."""

        def __init__(self, row_list: RowList, index: int, key: str) -> None:
            super().__init__()
            self.row_list = row_list
            self.index = index
            self.key = key

        @property
        def control(self) -> RowList:
            return self.row_list

    class Selected(Highlighted):
        """Enter (or a click on the cursor's row) chose a row."""

    def __init__(self, heading: Text, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.heading = heading
        self._keys: list[str] = []
        self._texts: list[Text] = []
        self._width = heading.cell_len
        self._drawn: LRUCache[tuple[str, int, int, str], Strip] = LRUCache(CACHED_LINES)

    # ------------------------------------------------------------------ rows
    @property
    def row_count(self) -> int:
        return len(self._keys)

    @property
    def keys(self) -> Sequence[str]:
        """The rows' keys, top to bottom."""
        return self._keys

    @property
    def cursor_key(self) -> str | None:
        """The key of the row under the cursor (None when the list is empty)."""
        return self._keys[self.cursor] if self._keys else None

    def set_rows(self, rows: Iterable[tuple[str, Text]]) -> None:
        """Replace the rows; the cursor goes back to the first and the list to the top."""
        self._keys, self._texts = [], []
        self._width = self.heading.cell_len
        self._append(rows)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.cursor = 0

    def add_rows(self, rows: Iterable[tuple[str, Text]]) -> None:
        """Append rows below the last (the cursor stays where it is)."""
        self._append(rows)

    def _append(self, rows: Iterable[tuple[str, Text]]) -> None:
        for key, text in rows:
            self._keys.append(key)
            self._texts.append(text)
            self._width = max(self._width, text.cell_len)
        self.virtual_size = Size(self._width, len(self._keys) + 1)
        self.refresh()

    # ------------------------------------------------------------------ cursor
    @property
    def _page(self) -> int:
        """Rows that fit under the heading."""
        return max(1, self.scrollable_content_region.height - 1)

    def validate_cursor(self, cursor: int) -> int:
        return max(0, min(cursor, len(self._keys) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        top = round(self.scroll_y)
        if new < top:
            self.scroll_to(y=new, animate=False, immediate=True)
        elif new >= top + self._page:
            self.scroll_to(y=new - self._page + 1, animate=False, immediate=True)
        self.refresh()
        if self._keys:
            self.post_message(self.Highlighted(self, new, self._keys[new]))

    def action_cursor(self, step: int) -> None:
        self.cursor += step

    def action_page(self, step: int) -> None:
        self.cursor += step * self._page

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self._keys) - 1

    def action_select(self) -> None:
        if self._keys:
            self.post_message(self.Selected(self, self.cursor, self._keys[self.cursor]))

    async def _on_click(self, event: events.Click) -> None:
        index = round(self.scroll_y) + event.y - 1
        if event.y < 1 or index >= len(self._keys):
            return
        if index == self.cursor:
            self.action_select()
        else:
            self.cursor = index

    def _on_focus(self, event: events.Focus) -> None:
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self.refresh()

    # ------------------------------------------------------------------ drawing
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        scroll_x, scroll_y = round(self.scroll_x), round(self.scroll_y)
        if y == 0:
            return self._draw("", self.heading, width, scroll_x, "row-list--heading")
        index = scroll_y + y - 1
        if index >= len(self._keys):
            return Strip.blank(width, self.rich_style)
        if index == self.cursor:
            shade = "row-list--cursor"
        else:
            shade = "row-list--even-row" if index % 2 == 0 else ""
        return self._draw(self._keys[index], self._texts[index], width, scroll_x, shade)

    def _draw(self, key: str, text: Text, width: int, scroll_x: int, shade: str) -> Strip:
        """``text`` cropped to the view and shaded; kept by (key, width, scroll, shade). The
        cursor's row is drawn afresh each time, as focus changes its colours."""
        cache_key = (key, width, scroll_x, shade)
        if key and shade != "row-list--cursor":
            found = self._drawn.get(cache_key)
            if found is not None:
                return found
        base = self.rich_style
        style = base + self.get_component_rich_style(shade) if shade else base
        segments = [Segment(s.text, style + s.style if s.style else style) for s in text.render(self.app.console)]
        strip = Strip(segments, text.cell_len).crop_extend(scroll_x, scroll_x + width, style)
        if key and shade != "row-list--cursor":
            self._drawn[cache_key] = strip
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()
