"""Browse every drill and card: search as you type, filter by tag, Enter opens the row.

The table measures every cell of every row it is given before it paints, so a long list
(thousands of cards) goes in a page at a time: the first page at once, the next whenever the
cursor comes near the end of what is loaded. A short list goes in whole."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Input, Select, Static

from tokdrill.backend import Backend
from tokdrill.clock import clock_text
from tokdrill.content.model import Library
from tokdrill.ui import keymap
from tokdrill.ui.formatting import shorten
from tokdrill.ui.messages import OpenCard, OpenDrill
from tokdrill.ui.widgets.footer import FittingFooter
from tokdrill.ui.widgets.in_order import InOrderInput


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
            rows.append(Entry("card", card.id, card.question.strip().replace("\n", " "), deck.id, card.tags, "", text))
    return rows


def add_rows(table: DataTable[str], rows: list[Entry]) -> None:
    """Append ``rows`` to Browse's table, keyed ``kind:id``."""
    for row in rows:
        table.add_row(
            row.kind,
            shorten(row.title, TITLE_WIDTH),
            row.group,
            ", ".join(row.tags[:2]),
            row.detail,
            row.item_id,
            key=f"{row.kind}:{row.item_id}",
        )


def filter_entries(rows: list[Entry], query: str, tag: str | None) -> list[Entry]:
    """Rows whose text contains every word of ``query`` and, if given, carry ``tag``."""
    words = query.lower().split()
    return [r for r in rows if (tag is None or tag in r.tags) and all(w in r.haystack for w in words)]


TITLE_WIDTH = 50  # the title column, so that the deck or level fits an 80-column terminal
WHOLE_ROWS = 300  # a list this short goes into the table whole
PAGE_ROWS = 100  # a longer one this many rows at a time (several screenfuls)


class BrowseScreen(Screen[None]):
    """All content, searchable and filterable by tag."""

    BINDINGS = keymap.BROWSE

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self._left_for_item = False
        self.shown: list[Entry] = []  # what the search and tag select, loaded into the table or not

    def compose(self) -> ComposeResult:
        library = self.backend.library
        self.rows = entries(library)
        yield Static("[b]Browse[/b] · every drill and card", id="browse-title")
        with Horizontal(id="browse-filters"):
            yield InOrderInput(placeholder="search (/ or just type)", id="search", select_on_focus=False)
            yield Select([(t, t) for t in library.tags()], prompt="any tag", id="tag")
        yield DataTable(id="items", cursor_type="row", zebra_stripes=True)
        yield Static("", id="browse-count")
        yield FittingFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("kind", "title / question", "deck / level", "tags", "", "id")
        self.refill()
        if not self.query_one("#search", Input).value:  # keys typed while it opened are a search
            table.focus()

    def refill(self) -> None:
        query = self.query_one("#search", Input).value
        tag_value = self.query_one("#tag", Select).value
        tag = tag_value if isinstance(tag_value, str) else None
        self.shown = shown = filter_entries(self.rows, query, tag)
        table = self.query_one(DataTable)
        table.clear()
        add_rows(table, shown if len(shown) <= WHOLE_ROWS else shown[:PAGE_ROWS])
        self.query_one("#browse-count", Static).update(
            f"{len(shown)} of {len(self.rows)} shown · Enter opens", layout=False
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Near the end of what is loaded of a long list: load the next page."""
        table = event.data_table
        loaded = table.row_count
        if loaded < len(self.shown) and event.cursor_row >= loaded - PAGE_ROWS // 2:
            add_rows(table, self.shown[loaded : loaded + PAGE_ROWS])

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the search box moves to the results, on the first row."""
        table = self.query_one(DataTable)
        if table.row_count:
            table.move_cursor(row=0)
        table.focus()

    def on_screen_suspend(self) -> None:
        self._left_for_item = not isinstance(self.app.screen, ModalScreen)

    def on_screen_resume(self) -> None:
        """Back from a drill or card: a fresh, unfiltered list (a dialog closing keeps it)."""
        if not self._left_for_item:
            return
        self._left_for_item = False
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""
            self.refill()
        self.query_one(DataTable).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        self.refill()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value or ""
        kind, _, item_id = key.partition(":")
        if kind == "drill":
            self.post_message(OpenDrill(item_id))
        else:
            self.post_message(OpenCard(item_id))

    def on_key(self, event: events.Key) -> None:
        """Type to search: a printable key that nothing else took goes into the search box. The
        box takes its own keys, so one that reaches here was sent to another widget, perhaps just
        before focus moved to the box (a fast typist after ``/``): it is not lost either."""
        search = self.query_one("#search", Input)
        if not event.is_printable or not event.character or (event.character == "/" and not search.has_focus):
            return
        event.stop()
        search.value += event.character
        search.cursor_position = len(search.value)
        search.focus()

    def action_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_leave(self) -> None:
        search = self.query_one("#search", Input)
        if search.has_focus and search.value:
            search.value = ""
            return
        self.app.pop_screen()
