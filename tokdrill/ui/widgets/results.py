"""The results panel: the verdict with failing tests first, then after a pass the time summary,
the typing figures and the diff against the reference. It scrolls with keys while the editor keeps
focus (:meth:`ResultsPanel.scroll_page`).

The panel is drawn line by line, as the Browse list is: its parts are wrapped once per width into
rows, and only the rows on screen are drawn (each kept until the content, width or theme changes).
Before the frame that shows a verdict only the rows that frame needs are wrapped (a screenful, and
one more to know whether it overflows); the rest are wrapped after it and the scroll bar then
fitted to them, without a layout. A new verdict lays the screen out again only when the panel's
height changes; a verdict as tall as the last (or one that overflows a panel already at its full
height) repaints the panel's rows and nothing else. The scroll bar's room is always kept, so the
rows are wrapped at one width whether it shows or not, and whether it shows is decided while the
panel is measured, so it is placed in the same layout pass.

The drill screen draws the panel over the lower rows of its body; :class:`ResultsPanel.Covering`
says how many rows it takes whenever that changes, so the editor can keep its cursor above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rich.text import Text
from textual import events
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.timer import Timer

from tokdrill.grading.report import summary_line, summary_style, verdict_spans
from tokdrill.grading.verdict import Verdict
from tokdrill.ui.text import printable, rich_plain
from tokdrill.ui.textual_internals import SteadyScrollBars, scroll_bars_follow

_STYLES = {"plain": "", "pass": "bold green", "fail": "bold red", "warn": "yellow", "dim": "dim", "heading": "bold"}
PARTS = ("summary", "diff", "tests")  # top to bottom: after a pass the diff sits right under the summary
STALE = VisualStyle(dim=True)  # the last verdict while the next is graded
PAINT_WAIT_SECONDS = 0.5  # after_verdict_shown's work runs after this long if the panel is not drawn


def verdict_text(verdict: Verdict) -> Text:
    """The verdict as :mod:`tokdrill.grading.report` lays it out: summary line, then the failing
    tests (each with its assertion first), then the passing ones."""
    out = Text(summary_line(verdict) + "\n\n", style=_STYLES[summary_style(verdict)])
    for span in verdict_spans(verdict, with_notice=False, compact=True):  # the sandbox note is in Problems
        out.append(span.text, style=_STYLES[span.style])
    return out


def diff_text(diff: str) -> Text:
    """A unified diff coloured by line: added green, removed red, hunk headers cyan, file names bold."""
    out = Text()
    for line in diff.split("\n"):
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        out.append(printable(line) + "\n", style=style)
    out.rstrip()
    return out


class ResultsPanel(SteadyScrollBars, can_focus=True):
    """Shows a verdict (dimmed while the next is graded), and after a pass the time summary and the diff."""

    DEFAULT_CSS = """
    ResultsPanel {
        height: auto; max-height: 50%; border-top: solid $primary; padding: 0 1;
        overflow-x: hidden; scrollbar-gutter: stable; scrollbar-size-horizontal: 0;
    }
    """

    class Covering(Message):
        """The panel now takes ``rows`` rows at the bottom of its container (0: hidden)."""

        def __init__(self, rows: int) -> None:
            super().__init__()
            self.rows = rows

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.display = False  # until the first verdict
        self._parts: dict[str, Text] = {name: Text() for name in PARTS}
        self.diff_text = ""
        self._stale = False
        self._rows: list[Content] = []  # the rows wrapped so far
        self._more: Iterator[Content] | None = None  # the rows still to wrap (None: all wrapped)
        self._wrapped_at = -1  # the width the rows were wrapped at (-1: not wrapped)
        self._drawn: dict[tuple[int, int, bool], Strip] = {}  # (row, width, stale) -> the row drawn
        self.wraps = 0  # times the parts were wrapped into rows
        self.rows_drawn = 0
        self._after_paint: list[Callable[[], object]] = []
        self._paint_wait: Timer | None = None

    # ----------------------------------------------------------------------------- content
    def text_of(self, part: str) -> str:
        """The plain text of one part (``summary``, ``diff`` or ``tests``) as shown."""
        return self._parts[part].plain

    @property
    def stale(self) -> bool:
        """Whether the verdict shown is the last one, dimmed while the next is graded."""
        return self._stale

    def show_grading(self) -> None:
        """Dim the last verdict while a new one is graded (its rows drawn again, nothing moves:
        the screen says "grading" elsewhere, and the panel keeps its size until the verdict
        replaces it)."""
        if not self._stale:
            self._stale = True
            self.refresh()

    def show_error(self, message: str) -> None:
        error = rich_plain(f"Grading failed inside tokdrill (not your code): {message}", "bold red")
        self._show({"summary": error})

    def show_verdict(self, verdict: Verdict, summary: Text | None = None, diff: str | None = None) -> None:
        """Show ``verdict``; after a pass, ``summary`` (time and typing) above it and ``diff``
        (the submission against the reference; "" when they match) between the two."""
        parts = {"summary": summary or Text(), "tests": verdict_text(verdict)}
        if diff is not None:
            self.diff_text = diff
            parts["diff"] = diff_text(diff) if diff else Text("Your code matches the reference exactly.", style="green")
        self._show(parts)

    def _show(self, parts: dict[str, Text]) -> None:
        """Replace the parts (those not named are cleared) and go back to the top. The screen is
        laid out again only if the panel's height changes."""
        self._parts = {name: parts.get(name, Text()) for name in PARTS}
        self._stale = False
        before = len(self._rows) if self._wrapped_at >= 0 else None
        self._wrapped_at = -1
        self._drawn.clear()
        if not self.display:
            self.display = True  # shown for the first time: a layout gives it its room
        elif before is None or self._height_changes(before):
            self.refresh(layout=True)
        else:
            self._fit_virtual_size()
            self.refresh()
        self.scroll_to(y=0, animate=False, immediate=True)
        self.call_after_refresh(self._wrap_the_rest)

    def _height_changes(self, before: int) -> bool:
        """Whether rows of the new content need a panel of another height than ``before`` rows
        got: it keeps its height when as many rows are shown, or when both overflow it."""
        shown = self.scrollable_content_region.height
        width = self.scrollable_content_region.width
        if before > shown:  # the panel is at its full height
            return len(self._wrap(width, shown)) < shown
        return len(self._wrap(width, before + 1)) != before

    # ------------------------------------------------------------------------------ layout
    def _wrap(self, width: int, rows: int | None = None) -> list[Content]:
        """The parts wrapped into rows at ``width``: at least the first ``rows`` of them, all when
        None (kept until the content or width changes)."""
        if width != self._wrapped_at:
            self._rows = []
            self._more = self._lines(max(1, width))
            self._wrapped_at = width
            self._drawn.clear()
            self.wraps += 1
        more = self._more
        if more is not None:
            wrapped = self._rows
            while rows is None or len(wrapped) < rows:
                row = next(more, None)
                if row is None:
                    self._more = None
                    break
                wrapped.append(row)
        return self._rows

    def _lines(self, width: int) -> Iterator[Content]:
        """The rows of the parts at ``width``, cut from one line of text at a time (the rows
        Content.wrap gives for the whole part)."""
        for name in PARTS:
            part = self._parts[name]
            if not part.plain:
                continue
            content = Content.from_rich_text(part)
            plain = content.plain
            start = 0
            while start >= 0:
                end = plain.find("\n", start)
                yield from content[start : len(plain) if end < 0 else end].wrap(width)
                start = -1 if end < 0 else end + 1

    @property
    def rows_wrapped(self) -> int:
        """How many rows of the content are wrapped so far."""
        return len(self._rows)

    def _row_count(self) -> int:
        """The rows wrapped so far, and one more while some are left (the whole count comes once
        they are all wrapped, after the frame that shows the first of them)."""
        return len(self._rows) + (self._more is not None)

    def _wrap_the_rest(self) -> None:
        """Wrap the rows below the first screenful, and fit the scroll bar to them (no layout)."""
        if self._more is not None and self._wrapped_at >= 0:
            self._wrap(self._wrapped_at)
            self._fit_virtual_size()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The rows of the content at the width they are drawn at (the scroll bar's room
        taken off the width Textual measures with)."""
        width = max(1, width - self.styles.scrollbar_size_vertical)
        limit = self.styles.max_height
        room = None if limit is None else int(limit.resolve(container, viewport)) - self.styles.gutter.height
        self._wrap(width, None if room is None else room + 1)  # enough to fill the panel, or overflow it
        rows = self._row_count()
        self.set_reactive(ResultsPanel.virtual_size, Size(width, rows))  # in this layout pass already
        if room is not None:  # the scroll bar placed in this pass too, not in one after it
            self.set_reactive(ResultsPanel.show_vertical_scrollbar, rows > room)
        return rows

    def _fit_virtual_size(self) -> None:
        """The scrollable size for new content of the same panel height, without a layout pass."""
        width = self.scrollable_content_region.width
        self._wrap(width, self.scrollable_content_region.height + 1)
        size = Size(width, self._row_count())
        self.set_reactive(ResultsPanel.virtual_size, size)
        scroll_bars_follow(self, size)

    def on_mount(self) -> None:
        self.vertical_scrollbar  # noqa: B018 - made now (a widget started), not in the verdict's frame

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Covering(self.outer_size.height))

    def on_hide(self) -> None:
        self.post_message(self.Covering(0))

    # ----------------------------------------------------------------------------- drawing
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        rows = self._wrap(width, index + 1)
        key = (index, width, self._stale)
        strip = self._drawn.get(key)
        if strip is None:
            base = self.visual_style + STALE if self._stale else self.visual_style
            if index >= len(rows):
                return Strip.blank(width, base.rich_style)
            line = rows[index]
            strip = Strip(line.render_segments(base), line.cell_length).crop_extend(0, width, base.rich_style)
            self._drawn[key] = strip
            self.rows_drawn += 1
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._drawn.clear()

    # --------------------------------------------------------------------------- after paint
    def after_verdict_shown(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` right after the next frame that draws the panel (so once the verdict
        shown last is on screen), or after :data:`PAINT_WAIT_SECONDS` if no frame draws it."""
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

    # ------------------------------------------------------------------------------ scroll
    def scroll_page(self, direction: int) -> bool:
        """Scroll most of a page down (1) or up (-1); False when there is nothing to scroll."""
        if not self.display or self.max_scroll_y == 0:
            return False
        step = max(1, self.scrollable_content_region.height - 2)
        self.scroll_to(y=self.scroll_y + direction * step, animate=False)
        return True
