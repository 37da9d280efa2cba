"""The drill editor: Textual's code editor with an auto-indent that never fights the typist.

With auto-indent on, Enter indents the new line (like the reference's line in retype mode, else
like the line above, one level deeper after a ``:``). That indentation is *provisional*: spaces
typed next are absorbed into it instead of adding to it, and if fewer spaces were typed than it
holds, what was typed wins. So typing the shown text exactly produces it exactly, and typing
only the code lets the editor indent. Backspace in leading whitespace removes one indent level.
With auto-indent off the editor inserts exactly the keys pressed.

Each key that types a character is reported with a :class:`CodeEditor.Typed` message carrying
the position the typist meant (absorbed spaces included), which the typing meter counts.

A keystroke repaints only the rows it changed: TextArea repaints every row on screen whenever the
cursor moves; here a move repaints the rows of the old and new selection and of the bracket
matched before and after, and an edit that keeps the number of lines the rows whose text or
highlights it changed. Anything else (lines added or removed, undo, a new text, soft wrapping)
repaints every row, as TextArea does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from msgspec import Struct
from textual import events
from textual.cache import LRUCache
from textual.geometry import Offset, Region, Size, Spacing
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.strip import Strip
from textual.widgets.text_area import Edit, EditResult, Selection

from tokdrill.ui.textual_internals import SteadyScrollBars, SyntaxAwareDocument
from tokdrill.ui.widgets.safe_history import SafeHistory
from tokdrill.ui.widgets.syntax_highlights import BlockHighlights, Node, Point, Tree, rows_an_edit_changed

INDENT = "    "
SCROLL_STEP = 16  # columns: how far past a side edge the cursor is scrolled, and the width's step

# Editing keys that TextArea handles through bindings. Bindings run only once the key has
# bubbled up to the app, so under fast typing a backspace could land after characters typed
# later; the editor runs these itself, in the order the keys arrived.
IN_ORDER_KEYS: dict[str, str] = {
    "backspace": "delete_left",
    "delete": "delete_right",
    "left": "cursor_left",
    "right": "cursor_right",
    "up": "cursor_up",
    "down": "cursor_down",
    "home": "cursor_line_start",
    "end": "cursor_line_end",
}


def leading_spaces(line: str) -> int:
    """How many spaces ``line`` starts with."""
    return len(line) - len(line.lstrip(" "))


def next_line_indent(line_before_cursor: str) -> str:
    """Indentation for a new line typed after ``line_before_cursor``: the same, plus one level
    after a line that opens a block (ends with ``:`` once comments and spaces are stripped)."""
    stripped = line_before_cursor.lstrip(" \t")
    indent = line_before_cursor[: len(line_before_cursor) - len(stripped)]
    code = stripped.split("#", 1)[0].rstrip()
    if code.endswith(":"):
        indent += INDENT
    return indent


def dedent_column(column: int, width: int = len(INDENT)) -> int:
    """Where Backspace at ``column`` of leading whitespace goes: the previous indent stop."""
    return max(0, (column - 1) // width * width)


class PendingIndent(Struct):
    """Indentation Enter inserted on ``row`` that typed spaces have not yet confirmed."""

    row: int
    width: int
    absorbed: int = 0


class LinesByContent(LRUCache[tuple[object, ...], Strip]):
    """TextArea's cache of drawn lines, each key extended with what the line shows (its text,
    highlights and the widths it is drawn at). TextArea's own key names a line's position, the
    cursor and the editor's size but not the line's content, so TextArea empties the cache after
    every edit and resize and redraws every visible line. With the content in the key, an edit
    redraws only the lines it changed, and a change of height (the results opening below the
    editor) none: the key keeps the width of TextArea's size, not its height, and emptying the
    cache is left to a change of styles (or soft wrapping, whose rows are not keyed by content)."""

    def __init__(self, editor: CodeEditor, maxsize: int = 1024) -> None:
        super().__init__(maxsize)
        self._editor = editor

    def _full_key(self, key: tuple[object, ...]) -> tuple[object, ...]:
        size = key[0] if key else None
        if isinstance(size, Size):
            key = (size.width, *key[1:])
        return (key, self._editor.drawing)

    def get(self, key: tuple[object, ...], default: Any = None) -> Any:
        return super().get(self._full_key(key), default)

    def set(self, key: tuple[object, ...], value: Strip) -> None:
        super().set(self._full_key(key), value)

    __setitem__ = set

    def clear(self) -> None:
        """Kept: every key says what its line shows (see the class docstring)."""
        if self._editor.soft_wrap:
            self.forget()

    def forget(self) -> None:
        """Empty the cache."""
        super().clear()


class CodeEditor(SafeHistory, SteadyScrollBars):
    """A Python code editor; see the module docstring for what auto-indent does.

    ``reference``, when given (retype mode), supplies each new line's indentation.
    """

    auto_indent: reactive[bool] = reactive(False)
    # TextArea's selection repaints the whole editor on every change; the watcher below repaints
    # the rows that changed instead.
    selection: Reactive[Selection] = reactive(Selection(), init=False, always_update=True, repaint=False)
    _editing = False  # inside edit(), which repaints the rows it changed itself
    covered_rows = 0  # rows at the bottom that a panel drawn over the editor hides (see cover)

    class Typed(Message):
        """A key typed ``character`` at (``line``, ``column``) of the text the typist meant."""

        def __init__(self, character: str, line: int, column: int) -> None:
            super().__init__()
            self.character = character
            self.line = line
            self.column = column

    def __init__(
        self, text: str = "", *, auto_indent: bool = False, reference: str | None = None, id: str | None = None
    ) -> None:
        super().__init__(
            text,
            language="python",
            theme="monokai",
            soft_wrap=False,
            tab_behavior="indent",
            show_line_numbers=True,
            id=id,
        )
        self.indent_width = len(INDENT)
        self.reference_lines = None if reference is None else reference.split("\n")
        self.pending: PendingIndent | None = None
        self.set_reactive(CodeEditor.auto_indent, auto_indent)
        self.unlock: Callable[[], bool] | None = None
        """Asked when a key that edits arrives while the editor is read-only: True when it made
        the editor writable again (the key then goes in, in its turn)."""
        self.drawing: tuple[object, ...] = ()  # what the line being drawn shows (LinesByContent)
        self._lines = LinesByContent(self)
        self._line_cache = self._lines

    def cover(self, rows: int) -> None:
        """A panel drawn over the editor now hides its bottom ``rows`` rows: the cursor is kept
        above it (the editor scrolls, with room below the last line, only if it was hidden)."""
        rows = max(0, rows)
        if rows == self.covered_rows:
            return
        self.covered_rows = rows
        top = round(self.scroll_y)
        if self.cursor_location[0] - top >= self.scrollable_content_region.height - rows:
            self._refresh_size()
            self.scroll_cursor_visible()

    def render_line(self, y: int) -> Strip:
        self.drawing = self._line_content(self.scroll_offset.y + y)
        return super().render_line(y)

    def _line_content(self, row: int) -> tuple[object, ...]:
        """What row ``row`` of the document shows, beyond what TextArea's own cache key holds."""
        document = self.document
        width = max(self.virtual_size.width, self.region.width)  # what a row is padded to
        if self.soft_wrap or row >= document.line_count:
            return (row >= document.line_count, self.virtual_size, width, self.gutter_width)
        highlights = tuple(self._highlights[row]) if self._highlights else ()
        return (document[row], highlights, width, self.gutter_width, self.has_focus)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.forget()  # colours are not part of a line's key

    def _build_highlight_map(self) -> None:
        """After a change of text: forget the highlights and repaint every row; each block of
        lines is looked up again when it is next drawn (:mod:`tokdrill.ui.widgets.syntax_highlights`),
        not the whole document now. Inside :meth:`edit`, which looks up only what it changed,
        nothing."""
        if self._editing:
            return
        self.refresh()
        if self._highlight_query is None or not isinstance(self.document, SyntaxAwareDocument):
            self._highlights = defaultdict(list)
            super()._build_highlight_map()
            return
        self._line_cache.clear()  # kept unless rows are wrapped (not keyed by their content)
        if isinstance(self._highlights, BlockHighlights):
            self._highlights.clear()
        else:
            query = self._highlight_query
            names = [query.capture_name(i) for i in range(query.capture_count)]
            self._highlights = BlockHighlights(self._query_rows, names=names)

    def edit(self, edit: Edit) -> EditResult:
        """Make ``edit``, then look up and repaint only the rows it changed when it kept the number
        of lines (and the gutter's width); else everything, as after any other change of text."""
        document = self.document
        before = (document.line_count, self.gutter_width, self._is_empty())
        old_tree: Tree | None = getattr(document, "_syntax_tree", None)
        self._editing = True
        try:
            result = super().edit(edit)
        finally:
            self._editing = False
        new_tree: Tree | None = getattr(document, "_syntax_tree", None)
        kept = before == (document.line_count, self.gutter_width, self._is_empty()) and not self.soft_wrap
        if not kept or old_tree is None or new_tree is None or not isinstance(self._highlights, BlockHighlights):
            self._build_highlight_map()
            return result
        start = self._point(edit.top)
        end = self._point(max(result.end_location, edit.top))
        for first, stop in rows_an_edit_changed(old_tree, new_tree, start, end):
            self._highlights.look_up_again(first, stop)
            self._refresh_rows(first, stop)
        return result

    def _is_empty(self) -> bool:
        document = self.document
        return document.line_count == 1 and not document[0]

    def _point(self, location: tuple[int, int]) -> Point:
        """The tree-sitter point (row, byte) of a document location (row, character)."""
        row, column = location
        line = self.document[row] if row < self.document.line_count else ""
        return row, len(line[:column].encode("utf-8"))

    def _watch_selection(self, previous_selection: Selection, selection: Selection) -> None:
        """TextArea's watcher, then a repaint of the rows whose drawing the move changed."""
        bracket_before = self._matching_bracket_location
        super()._watch_selection(previous_selection, selection)
        if self.soft_wrap:
            self.refresh()
            return
        for chosen in (previous_selection, selection):
            rows = sorted((chosen.start[0], chosen.end[0]))
            self._refresh_rows(rows[0], rows[1] + 1)
        for bracket in (bracket_before, self._matching_bracket_location):
            if bracket is not None:
                self._refresh_rows(bracket[0], bracket[0] + 1)

    def scroll_cursor_visible(self, center: bool = False, animate: bool = False) -> Offset:
        """TextArea's scroll, except that a cursor past the left or right edge is brought up to
        :data:`SCROLL_STEP` columns inside it (to the right, no further than where the line's text
        starts if all of it then shows): typing along a long line then scrolls (and repaints every
        row) once every few keys, not at every key."""
        if not self._has_cursor or center or self.soft_wrap:
            return super().scroll_cursor_visible(center=center, animate=animate)
        if self.covered_rows:
            self._refresh_size()  # the room below the last line, if the cursor now needs it
        self._recompute_cursor_offset()  # type: ignore[no-untyped-call]
        x, y = self._cursor_offset
        gutter = self.gutter_width
        view = self.scrollable_content_region.width - gutter  # text columns on screen
        lead = max(0, min(SCROLL_STEP, view // 3))
        if x < self.scroll_x:
            region = Region(max(0, x - lead), y, width=3 + lead, height=1)
        elif x + 3 > self.scroll_x + view:
            needed = x + 3 - view  # the least scroll that shows the cursor
            indent = leading_spaces(self.document[self.cursor_location[0]])
            if needed <= indent:
                lead = min(lead, indent - needed)
            region = Region(x, y, width=3 + lead, height=1)
        else:
            region = Region(x, y, width=3, height=1)
        spacing = Spacing(right=gutter, bottom=self.covered_rows)
        return self.scroll_to_region(region, spacing=spacing, animate=animate, force=True)

    def _refresh_size(self) -> None:
        """TextArea's virtual size (the longest line, the gutter and a column for the cursor) with
        its width the editor's while lines fit, and beyond, in steps of :data:`SCROLL_STEP` columns
        with a step to spare: a line growing longer changes it (and repaints every row) once every
        few keys, not at every key."""
        if self.soft_wrap:
            super()._refresh_size()
            return
        width, height = self.document.get_size(self.indent_width)
        width += self.gutter_width + 1
        region = self.content_region
        covered = self.covered_rows
        if covered and height > region.height - covered:
            height += covered  # the last lines can scroll up above the panel over the bottom rows
        view = region.width  # the columns left beside the vertical scrollbar, if the lines need one
        if height > region.height:
            view -= self.styles.scrollbar_size_vertical
        if width <= view:  # no scrollbar while the lines fit
            width = view
        else:  # a step of room past the longest line, for scrolling the cursor a step inside the edge
            width = -(-width // SCROLL_STEP) * SCROLL_STEP + SCROLL_STEP
        self.virtual_size = Size(width, height)
        self._refresh_scrollbars()

    def _refresh_rows(self, first: int, end: int) -> None:
        """Repaint document rows ``first`` .. ``end - 1`` where they are on screen."""
        top = self.scroll_offset.y
        first, end = max(first, top), min(end, top + self.size.height)
        if first < end:
            self.refresh_lines(first, end - first)

    def _query_rows(self, start: Point, end: Point) -> dict[str, list[Node]]:
        query, document = self._highlight_query, self.document
        if query is None or not isinstance(document, SyntaxAwareDocument):
            return {}
        return document.query_syntax_tree(query, start, end)  # type: ignore[return-value]

    @staticmethod
    def _edits(event: events.Key) -> bool:
        """True for a key that changes the text when the editor is writable."""
        return event.is_printable or event.key in ("enter", "tab", "backspace", "delete")

    def watch_auto_indent(self, on: bool) -> None:
        if not on:
            self.pending = None

    async def on_key(self, event: events.Key) -> None:
        """Typing keys and the editing keys in :data:`IN_ORDER_KEYS` are handled here, in the
        order keys arrive, before TextArea's own handler runs."""
        if self.read_only and not (self._edits(event) and self.unlock is not None and self.unlock()):
            return
        key = event.key
        if key == "enter":
            self.action_newline()
        elif key == "tab" and self.selection.is_empty:
            pending = self._pending_here()
            column = self.cursor_location[1] if pending is None else pending.absorbed
            self.type_text(" " * (self.indent_width - column % self.indent_width))
        elif key == "backspace" and self._dedent():
            pass
        elif event.is_printable and event.character:
            self.type_text(event.character)
        elif key in IN_ORDER_KEYS:
            if key not in ("backspace", "delete"):
                self.pending = None
            await self.run_action(IN_ORDER_KEYS[key])
        else:
            return
        event.stop()
        event.prevent_default()

    # ------------------------------------------------------------------------------ typing
    def _pending_here(self) -> PendingIndent | None:
        """The provisional indentation, if the cursor still sits at its end with nothing else
        on the line (anything else, such as an undo or a click, makes it ordinary text)."""
        pending = self.pending
        if pending is None:
            return None
        row, column = self.cursor_location
        if (
            not self.selection.is_empty
            or row != pending.row
            or column != pending.width
            or self.document.get_line(row) != " " * pending.width
        ):
            self.pending = None
            return None
        return pending

    def _confirm_typed_indent(self, pending: PendingIndent) -> None:
        """Fewer spaces were typed than Enter inserted: the line keeps what was typed."""
        if pending.absorbed < pending.width:
            self.replace(
                "", (pending.row, pending.absorbed), (pending.row, pending.width), maintain_selection_offset=False
            )
        self.pending = None

    def type_text(self, text: str) -> None:
        """Type ``text`` (one key's worth) as a key press would (see the module docstring)."""
        pending = self._pending_here()
        if pending is not None:
            if not text.strip(" "):  # spaces go into the provisional indentation first
                take = min(pending.width - pending.absorbed, len(text))
                if take:
                    self.post_message(self.Typed(text[:take], pending.row, pending.absorbed))
                    pending.absorbed += take
                    text = text[take:]
                if not text:
                    return
                self.pending = None
            elif pending.absorbed:
                self._confirm_typed_indent(pending)
            else:
                self.pending = None  # only code typed: the editor's indentation stays
        start, end = self.selection
        top = min(start, end)
        self.post_message(self.Typed(text, *top))
        self.replace(text, start, end, maintain_selection_offset=False)

    def action_newline(self) -> None:
        """Insert a line break; with auto-indent on, indent the new line provisionally (a line
        left empty passes its indentation on to the next)."""
        if self.read_only:
            return
        pending = self._pending_here()
        carried: str | None = None
        if pending is not None:  # the line keeps only the spaces typed on it
            carried = " " * pending.width if pending.absorbed == 0 else None
            self._confirm_typed_indent(pending)
        start, end = self.selection
        top = min(start, end)
        self.post_message(self.Typed("\n", *top))
        indent = ""
        if self.auto_indent:
            before = self.document.get_line(top[0])[: top[1]] if carried is None else carried
            indent = self._indent_for(top[0] + 1, before)
        self.replace("\n" + indent, start, end, maintain_selection_offset=False)
        self.pending = PendingIndent(top[0] + 1, len(indent)) if indent else None
        self.scroll_cursor_visible()

    def _indent_for(self, row: int, line_before: str) -> str:
        """The indentation a new line ``row`` gets: the reference's, else from the line above."""
        if self.reference_lines is not None and row < len(self.reference_lines):
            return " " * leading_spaces(self.reference_lines[row])
        return next_line_indent(line_before)

    def _dedent(self) -> bool:
        """Backspace in leading whitespace with auto-indent on: back to the previous indent stop
        (an absorbed space is taken back first). True if it handled the key."""
        if not self.auto_indent or not self.selection.is_empty:
            return False
        pending = self._pending_here()
        if pending is not None and pending.absorbed > 0:
            pending.absorbed -= 1
            return True
        row, column = self.cursor_location
        if column == 0 or self.document.get_line(row)[:column].strip(" "):
            return False
        stop = dedent_column(column, self.indent_width)
        self.replace("", (row, stop), (row, column), maintain_selection_offset=False)
        if pending is not None:
            self.pending = PendingIndent(row, stop) if stop else None
        return True
