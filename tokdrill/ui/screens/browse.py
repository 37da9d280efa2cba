"""Browse every drill and card: search as you type, filter by tag, Enter opens the row (in the
search box, the first row; Down moves to the rows). Coming back from an item keeps the search
and the cursor on the item. Titles show Markdown as text (``**printable**`` as ``printable``).

A long list (thousands of cards) goes into the list a page at a time: the first page at once,
the next whenever the cursor comes near the end of what is loaded. A short list goes in whole."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from markdown_it import MarkdownIt
from markdown_it.token import Token
from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Select, Static

from tokdrill.backend import Backend
from tokdrill.clock import clock_text
from tokdrill.content.model import Library
from tokdrill.ui import keymap
from tokdrill.ui.formatting import shorten
from tokdrill.ui.messages import ContentChanged, OpenCard, OpenDrill
from tokdrill.ui.text import printable, rich_plain
from tokdrill.ui.textual_internals import key_bindings
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.in_order import InOrderInput
from tokdrill.ui.widgets.row_list import RowList


@dataclass(frozen=True)
class Entry:
    """One browsable row: a drill or a card, with the text search matches against."""

    kind: str
    item_id: str
    title: str
    group: str
    tags: tuple[str, ...]
    detail: str
    haystack: str

    @property
    def key(self) -> str:
        """The list's key for this row: ``kind:id``."""
        return f"{self.kind}:{self.item_id}"

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """What the row shows, one value per column of :data:`HEADINGS`."""
        return (
            self.kind,
            shorten(printable(self.title), TITLE_WIDTH),
            printable(self.group),
            printable(", ".join(self.tags[:2])),
            printable(self.detail),
            printable(self.item_id),
        )


_MARKDOWN = MarkdownIt("commonmark")


def plain_text(markdown: str) -> str:
    """What ``markdown`` reads as, on one line: emphasis, escapes and link syntax dropped, code
    and link text kept."""
    parts: list[str] = []

    def walk(tokens: list[Token]) -> None:
        for token in tokens:
            if token.children:
                walk(token.children)
            elif token.type in ("text", "code_inline", "code_block", "fence", "html_inline"):
                parts.append(token.content)
            elif token.type in ("softbreak", "hardbreak", "paragraph_close", "heading_close"):
                parts.append(" ")

    walk(_MARKDOWN.parse(markdown))
    return " ".join("".join(parts).split())


def entries(library: Library) -> list[Entry]:
    """Every drill, then every card, as browse rows."""
    rows = []
    for drill in library.drills.values():
        text = " ".join((drill.id, drill.title, " ".join(drill.tags), " ".join(drill.symbols))).lower()
        rows.append(
            Entry(
                "drill",
                drill.id,
                drill.title,
                drill.difficulty,
                drill.tags,
                f"target {clock_text(drill.target_seconds)}",
                text,
            )
        )
    for deck in library.decks.values():
        for card in deck.cards:
            text = " ".join((card.id, card.question, deck.id, " ".join(card.tags))).lower()
            rows.append(Entry("card", card.id, plain_text(card.question), deck.id, card.tags, "", text))
    return rows


HEADINGS = ("kind", "title / question", "deck / level", "tags", "", "id")
GAP = "  "  # between columns


class Columns:
    """Browse's columns, drawn into one line of text per row. Widths fit the longest value of
    each column over every row, so they hold still while the list filters."""

    def __init__(self, rows: list[Entry]) -> None:
        self.widths = [cell_len(h) for h in HEADINGS]
        for row in rows:
            self.widths = [max(w, cell_len(f)) for w, f in zip(self.widths, row.fields, strict=True)]
        self._lines: dict[str, Text] = {}

    def _line(self, values: tuple[str, ...]) -> Text:
        """``values`` in their columns, as plain text (never read as markup: a ``[i]`` stays)."""
        line = Text(no_wrap=True, end="")
        for value, width in zip(values, self.widths, strict=True):
            if line:
                line.append(GAP)
            line.append(set_cell_size(value, width))
        return line

    def heading(self) -> Text:
        return self._line(HEADINGS)

    def line(self, row: Entry) -> Text:
        """``row`` drawn in the columns (made once per row)."""
        found = self._lines.get(row.key)
        if found is None:
            found = self._lines[row.key] = self._line(row.fields)
        return found


def list_rows(columns: Columns, rows: list[Entry]) -> list[tuple[str, Text]]:
    """``rows`` as Browse's list takes them: key ``kind:id`` and the row's line."""
    return [(row.key, columns.line(row)) for row in rows]


def filter_entries(rows: list[Entry], query: str, tag: str | None) -> list[Entry]:
    """Rows whose text contains every word of ``query`` and, if given, carry ``tag``."""
    if tag is not None:
        rows = [r for r in rows if tag in r.tags]
    for word in query.lower().split():
        rows = [r for r in rows if word in r.haystack]
    return rows


class Search:
    """:func:`filter_entries` as the query is typed: a query that extends the last one filters
    the last result (its rows are a superset), and recent results are kept for backspace."""

    KEPT = 64

    def __init__(self, rows: list[Entry]) -> None:
        self.rows = rows
        self._tag: str | None = None
        self._last = ""
        self._found: dict[str, list[Entry]] = {"": rows}

    def __call__(self, query: str, tag: str | None) -> list[Entry]:
        query = query.lower()
        if tag != self._tag:
            self._tag, self._last = tag, ""
            self._found = {"": filter_entries(self.rows, "", tag)}
        found = self._found.get(query)
        if found is None:
            every = self._found[""]
            base = self._found.get(self._last, every) if query.startswith(self._last) else every
            found = filter_entries(base, query, None)
            if len(self._found) >= self.KEPT:
                self._found = {"": self._found[""]}
            self._found[query] = found
        self._last = query
        return found


TITLE_WIDTH = 50  # the title column, so that the deck or level fits an 80-column terminal
WHOLE_ROWS = 300  # a list this short goes in whole
PAGE_ROWS = 100  # a longer one this many rows at a time (several screenfuls)


class BrowseScreen(Screen[None]):
    """All content, searchable and filterable by tag."""

    BINDINGS = keymap.BROWSE

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self._left_for_item = False
        self._opened_key: str | None = None  # the row last opened, for the cursor on coming back
        self.shown: list[Entry] = []  # what the search and tag select, loaded into the list or not
        self._opened = False  # mounted: typed keys go to the search box from now on
        self._typed_early = ""  # keys typed while it opened, the start of a search

    def _read_rows(self) -> None:
        self.rows = entries(self.backend.library)
        self.search = Search(self.rows)
        self.columns = Columns(self.rows)

    def compose(self) -> ComposeResult:
        library = self.backend.library
        self._read_rows()
        yield Static("[b]Browse[/b] · every drill and card", id="browse-title")
        with Horizontal(id="browse-filters"):
            yield InOrderInput(placeholder="search (/ or just type)", id="search", select_on_focus=False)
            yield Select([(rich_plain(t), t) for t in library.tags()], prompt="any tag", id="tag")
        yield RowList(self.columns.heading(), id="items")
        yield Static("", id="browse-count")
        yield FittingFooter()

    def on_mount(self) -> None:
        search = self.query_one("#search", Input)
        if self._typed_early:  # keys typed while it opened are a search
            search.value = self._typed_early
            search.cursor_position = len(search.value)
            self.set_focus(search)
        else:
            self.set_focus(self.query_one(RowList))
        self._opened = True
        self.refill()

    def refill(self) -> None:
        query = self.query_one("#search", Input).value
        tag_value = self.query_one("#tag", Select).value
        tag = tag_value if isinstance(tag_value, str) else None
        self.shown = shown = self.search(query, tag)
        page = shown if len(shown) <= WHOLE_ROWS else shown[:PAGE_ROWS]
        self.query_one(RowList).set_rows(list_rows(self.columns, page))
        self.query_one("#browse-count", Static).update(
            f"{len(shown)} of {len(self.rows)} shown · Enter opens", layout=False
        )

    def on_content_changed(self, message: ContentChanged) -> None:
        """Content was loaded again: the rows anew, the search and tag kept."""
        self._read_rows()
        self.query_one(RowList).heading = self.columns.heading()
        self.refill()

    def on_row_list_highlighted(self, event: RowList.Highlighted) -> None:
        """Near the end of what is loaded of a long list: load the next page."""
        table = event.row_list
        loaded = table.row_count
        if loaded < len(self.shown) and event.index >= loaded - PAGE_ROWS // 2:
            table.add_rows(list_rows(self.columns, self.shown[loaded : loaded + PAGE_ROWS]))

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the search box opens the first row (Down moves to the rows instead)."""
        table = self.query_one(RowList)
        if table.row_count:
            table.cursor = 0
            table.action_select()

    def on_screen_suspend(self) -> None:
        self._left_for_item = not isinstance(self.app.screen, ModalScreen)

    def on_screen_resume(self) -> None:
        """Back from a drill or card: the same search, the cursor on the row that was opened."""
        if not self._left_for_item:
            return
        self._left_for_item = False
        table = self.query_one(RowList)
        keys = list(table.keys)
        if self._opened_key in keys:
            table.cursor = keys.index(self._opened_key)
        self.set_focus(table)

    def on_select_changed(self, event: Select.Changed) -> None:
        self.refill()

    def on_row_list_selected(self, event: RowList.Selected) -> None:
        self._opened_key = event.key
        kind, _, item_id = event.key.partition(":")
        if kind == "drill":
            self.post_message(OpenDrill(item_id))
        else:
            self.post_message(OpenCard(item_id))

    def route_key(self, event: events.Key) -> bool:
        """Type to search: a printable key pressed while the list, the closed tag select or
        nothing has focus goes into the search box, at the end of the query (one typed while the
        screen opens starts the query). The app asks before it sends the key on, so every key of
        a burst reaches the box in the order typed. A key the screen binds (``/``, see
        :meth:`action_search`) or the focused widget binds (space opens the select) is theirs.
        Down in the search box moves to the rows, on the first."""
        if event.key == "down" and self._opened and self.focused is self.query_one("#search", Input):
            table = self.query_one(RowList)
            table.cursor = 0
            self.set_focus(table)
            return True
        if not event.is_printable or not event.character or event.key in key_bindings(self):
            return False
        if not self._opened:
            self._typed_early += event.character
            return True
        focused = self.focused
        if focused is not None and not isinstance(focused, (RowList, Select)):
            return False  # the search box, or the select's open list, which searches its own options
        if focused is not None and event.key in key_bindings(focused):
            return False
        search = self.query_one("#search", Input)
        search.cursor_position = len(search.value)
        self.set_focus(search)  # at once: Widget.focus would move it only after the queued keys
        return False

    def action_search(self) -> None:
        """``/`` moves to the search box; in the box it is a character of the query."""
        search = self.query_one("#search", Input)
        if self.focused is search:  # focused by now, though perhaps not yet told
            raise SkipAction()
        self.set_focus(search)

    def action_leave(self) -> None:
        search = self.query_one("#search", Input)
        if self.focused is search and search.value:
            search.value = ""
            return
        self.app.pop_screen()
