"""A Static that wraps its content once per width and draws only the lines shown, keeping them.

Textual's Static wraps and draws all of its content again on every refresh, and every layout pass
refreshes each widget whose region moved: a failing verdict of six hundred lines was measured
twice and drawn in full on every submit, though a dozen of its lines were on screen.
:class:`KeptStatic` wraps text content once per width (its height comes from the same wrap), draws
a line when it is first shown, and keeps what it drew until the content, width, style (colours
and text style; tint and text opacity apply to drawn lines), text selection or theme changes.
Content that is not text, text with a selection in it, and aligned text are drawn whole, as Static
draws them.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.geometry import Size
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widgets import Static


class KeptStatic(Static):
    """Static content wrapped once per (content, width, style, selection, theme), drawn line by line."""

    def __init__(self, content: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(content, id=id, classes=classes)
        self._kept_visual: Visual | None = None
        self._kept_for: tuple[int, Style, Selection | None, str] | None = None
        self._wrapped: list[Any] | None = None  # Textual's wrapped lines, for text content
        self._drawn: dict[int, Strip] = {}  # y -> line drawn
        self._whole: list[Strip] | None = None  # everything drawn, for other content
        self.wraps = 0  # times the content was wrapped (or, when not text, drawn whole)
        self.lines_drawn = 0

    def _keep(self, width: int) -> None:
        """Forget what was kept if anything it depends on changed."""
        visual = self.visual
        key = (width, self.visual_style, self.text_selection, self.app.theme)
        if visual is self._kept_visual and key == self._kept_for:
            return
        self._kept_visual, self._kept_for = visual, key
        self._drawn = {}
        self._wrapped = self._wrap(visual, width) if self.text_selection is None else None
        if self._wrapped is None:
            self._whole = Visual.to_strips(self, visual, width, None, self.visual_style, pad=True)
        else:
            self._whole = None
        self.wraps += 1

    def _wrap(self, visual: Visual, width: int) -> list[Any] | None:
        """Text content wrapped as Textual wraps it to draw it; None where that is not available."""
        wrap = getattr(visual, "_wrap_and_format", None)
        rules = self.styles
        if not isinstance(visual, Content) or wrap is None or width <= 0 or rules.content_align != ("left", "top"):
            return None
        try:
            return list(
                wrap(
                    width,
                    align=rules.text_align,
                    overflow=rules.text_overflow,
                    no_wrap=rules.text_wrap == "nowrap",
                    line_pad=rules.line_pad,
                    tab_size=8,
                    get_style=self._get_style,
                )
            )
        except (TypeError, AttributeError):  # a different Textual: draw whole, as Static does
            return None

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width <= 0:
            return 0
        self._keep(width)
        if self._wrapped is not None:
            return len(self._wrapped)
        return len(self._whole or ())

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        self._keep(width)
        style = self.visual_style
        if self._wrapped is None:
            whole = self._whole or []
            return whole[y] if 0 <= y < len(whole) else Strip.blank(width, style.rich_style)
        found = self._drawn.get(y)
        if found is None:
            if not 0 <= y < len(self._wrapped):
                return Strip.blank(width, style.rich_style)
            found = Strip(*self._wrapped[y].to_strip(style))
            if self.auto_links:
                found = found._apply_link_style(self.link_style)
            found = found.extend_cell_length(width, (style + Style(reverse=False)).rich_style)
            self._drawn[y] = found
            self.lines_drawn += 1
        return found
