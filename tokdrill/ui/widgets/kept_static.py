"""A Static that wraps its content once per width and draws only the lines shown, keeping them.

Textual's Static wraps and draws all of its content again on every refresh, and every layout pass
refreshes each widget whose region moved: a failing verdict of six hundred lines was measured
twice and drawn in full on every submit, though a dozen of its lines were on screen.
:class:`KeptStatic` wraps text content once per width (its height comes from the same wrap), draws
a line when it is first shown, and keeps what it drew until the content, style (colours and text
style; tint and text opacity apply to drawn lines), text selection or theme changes. It keeps the
last few widths at once: a scrolling container whose height follows its content measures it at
two widths on every layout pass (with and without room for the scroll bar). Content that is not
text, text with a selection in it, and aligned text are drawn whole, as Static draws them.

:meth:`KeptStatic.after_paint` runs work once the content is on screen: what may wait a frame
(a restyle that redraws a whole editor, say) then does not delay the frame a user waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.content import Content
from textual.geometry import Region, Size
from textual.selection import Selection
from textual.strip import Strip
from textual.style import Style
from textual.timer import Timer
from textual.visual import Visual
from textual.widgets import Static

from tokdrill.ui.textual_internals import content_styles, link_styled

KEPT_WIDTHS = 3  # widths kept at once
PAINT_WAIT_SECONDS = 0.5  # after_paint's work runs after this long if the content is not drawn


@dataclass
class _Kept:
    """What was made of the content at one width."""

    wrapped: list[Any] | None  # Textual's wrapped lines, for text content
    whole: list[Strip] | None  # everything drawn, for other content
    drawn: dict[int, Strip] = field(default_factory=dict)  # y -> line drawn

    @property
    def height(self) -> int:
        return len(self.wrapped if self.wrapped is not None else self.whole or ())


class KeptStatic(Static):
    """Static content wrapped once per (content, width, style, selection, theme), drawn line by line."""

    def __init__(self, content: str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(content, id=id, classes=classes)
        self._kept_visual: Visual | None = None
        self._kept_for: tuple[Style, Selection | None, str] | None = None
        self._kept: dict[int, _Kept] = {}  # width -> what was made at that width
        self.wraps = 0  # times the content was wrapped (or, when not text, drawn whole)
        self.lines_drawn = 0
        self._after_paint: list[Callable[[], object]] = []
        self._paint_wait: Timer | None = None

    def after_paint(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` right after the next frame that draws this widget (so after its
        current content is on screen), or after :data:`PAINT_WAIT_SECONDS` if no frame draws it
        (hidden, scrolled away)."""
        self._after_paint.append(callback)
        if self._paint_wait is None:
            self._paint_wait = self.set_timer(PAINT_WAIT_SECONDS, self._painted)

    def _painted(self) -> None:
        callbacks, self._after_paint = self._after_paint, []
        if self._paint_wait is not None:
            self._paint_wait.stop()
            self._paint_wait = None
        for callback in callbacks:
            callback()

    def render_lines(self, crop: Region) -> list[Strip]:
        lines = super().render_lines(crop)
        if self._after_paint:
            self.call_later(self._painted)  # queued: runs once the frame being drawn is shown
        return lines

    def _keep(self, width: int) -> _Kept:
        """What is kept for ``width``, made now if needed; everything kept is forgotten first if
        anything it depends on other than the width changed."""
        visual = self.visual
        key = (self.visual_style, self.text_selection, self.app.theme)
        if visual is not self._kept_visual or key != self._kept_for:
            self._kept_visual, self._kept_for = visual, key
            self._kept = {}
        kept = self._kept.get(width)
        if kept is None:
            if len(self._kept) >= KEPT_WIDTHS:
                del self._kept[next(iter(self._kept))]  # the width kept longest
            wrapped = self._wrap(visual, width) if self.text_selection is None else None
            whole = None
            if wrapped is None:
                whole = Visual.to_strips(self, visual, width, None, self.visual_style, pad=True)
            kept = self._kept[width] = _Kept(wrapped, whole)
            self.wraps += 1
        return kept

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
                    get_style=content_styles(self),
                )
            )
        except (TypeError, AttributeError):  # a different Textual: draw whole, as Static does
            return None

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self._keep(width).height if width > 0 else 0

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        kept = self._keep(width)
        style = self.visual_style
        if kept.wrapped is None:
            whole = kept.whole or []
            return whole[y] if 0 <= y < len(whole) else Strip.blank(width, style.rich_style)
        found = kept.drawn.get(y)
        if found is None:
            if not 0 <= y < len(kept.wrapped):
                return Strip.blank(width, style.rich_style)
            found = Strip(*kept.wrapped[y].to_strip(style))
            if self.auto_links:
                found = link_styled(found, self.link_style)
            found = found.extend_cell_length(width, (style + Style(reverse=False)).rich_style)
            kept.drawn[y] = found
            self.lines_drawn += 1
        return found
