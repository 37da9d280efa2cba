"""Textual's private names that the app relies on, in one place; tests/ui/test_textual_internals.py
checks every one against the installed Textual, so a release that moves one fails there by name
(pyproject.toml pins Textual to the release tested).

Reached through this module: the footer's key widget and the syntax-aware document (private
modules), whether the footer has read its bindings, a widget's own key bindings and content styles,
a strip's link styling, the app's frame hand-off to its driver (the benchmark counts frames there),
the update of a widget's scroll bars to a new scrollable size, a scroll view that keeps its scroll
bars through a layout that leaves it as it was (:class:`SteadyScrollBars`), and the Python
highlight query the code editor colours its text with. A tree-sitter query is compiled once per
process (:func:`share_compiled_queries`): the code editor and the reference view use one compiled
Python highlight query instead of compiling it for every document. A document's parser reads its
text through a callable that holds the document weakly (:func:`collectable_documents`): Textual
hands tree-sitter a bound method, which the syntax tree keeps, and as the tree is not seen by
Python's collector the document, its tree and everything drawn from it were never freed (a few
thousand objects for every drill opened). Textual drops the watchers a removed widget set on
another object (the app's theme, which every text area watches) only when the watched value
changes; :func:`prune_watchers` drops them sooner, so a closed screen's text areas, their documents
and drawn lines are freed. Textual's style cache keeps up to 1,024 widgets' caches of drawn lines
in a cache of two background colours keyed by the widget's cache itself;
:func:`release_closed_widgets` empties it with the watchers when the app settles after a screen
change. Key names that name no character fail at once instead of being looked up in Python's
Unicode name table (:func:`quick_key_name_lookups`). A strip makes its seven caches of derived
strips when one is first used, not when the strip is made (:func:`lazy_strip_caches`). The code
editor is a TextArea subclass: the private methods and attributes of TextArea it overrides or reads
are listed in :data:`TEXT_AREA_PRIVATE`, and the same check covers them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.cache import FIFOCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.document._syntax_aware_document import SyntaxAwareDocument
else:

    def __getattr__(name: str) -> Any:
        """``SyntaxAwareDocument`` is imported when first asked for: it brings in the text area's
        tree-sitter support, which the first screen does not use."""
        if name == "SyntaxAwareDocument":
            from textual.document._syntax_aware_document import SyntaxAwareDocument

            adapt_documents()
            return SyntaxAwareDocument
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "INPUT_PRIVATE",
    "SCROLL_VIEW_PRIVATE",
    "TEXT_AREA_PRIVATE",
    "FooterKey",
    "SteadyScrollBars",
    "SyntaxAwareDocument",
    "adapt_documents",
    "collectable_documents",
    "content_styles",
    "footer_ready",
    "intercept_frames",
    "key_bindings",
    "lazy_strip_caches",
    "link_styled",
    "prune_watchers",
    "python_highlights",
    "quick_key_name_lookups",
    "release_closed_widgets",
    "scroll_bars_follow",
    "share_compiled_queries",
]

# TextArea's private members the code editor (tokdrill.ui.widgets.code_editor) and the in-order
# text area (tokdrill.ui.widgets.in_order) override or read: name -> the parameters of a method
# (without self), or None for an attribute.
TEXT_AREA_PRIVATE: Mapping[str, tuple[str, ...] | None] = {
    "_build_highlight_map": (),
    "_watch_selection": ("previous_selection", "selection"),
    "_refresh_size": (),
    "_refresh_scrollbars": (),
    "_recompute_cursor_offset": (),
    "_on_key": ("event",),
    "_cursor_offset": None,
    "_has_cursor": None,
    "_highlight_query": None,
    "_matching_bracket_location": None,
}
# Input's, which the in-order input overrides.
INPUT_PRIVATE: Mapping[str, tuple[str, ...] | None] = {"_on_key": ("event",)}
# ScrollView's, which SteadyScrollBars overrides.
SCROLL_VIEW_PRIVATE: Mapping[str, tuple[str, ...] | None] = {
    "_size_updated": ("size", "virtual_size", "container_size", "layout")
}


def key_bindings(widget: Widget) -> Mapping[str, list[Binding]]:
    """The bindings ``widget`` itself declares (not its screen's or the app's), by key."""
    return widget._bindings.key_to_bindings


def footer_ready(footer: Footer) -> bool:
    """Whether Textual's footer has read the screen's bindings since it was mounted."""
    return bool(footer._bindings_ready)


def content_styles(widget: Widget) -> Callable[[VisualStyle | str], VisualStyle]:
    """How ``widget`` resolves a style name of its content (``.class`` rules included), as its
    own rendering does when it wraps Content."""
    return widget._get_style


def link_styled(strip: Strip, link_style: Style) -> Strip:
    """``strip`` with ``link_style`` applied to its links, as Textual's own widgets draw them."""
    return strip._apply_link_style(link_style)


def intercept_frames(app: Any, after: Callable[[object, object], None]) -> None:
    """Call ``after(screen, renderable)`` each time ``app`` hands a frame to its driver (after
    the hand-off; a ``None`` renderable is a frame with nothing to draw)."""
    original = app._display

    def display(screen: object, renderable: object) -> None:
        original(screen, renderable)
        after(screen, renderable)

    app._display = display


def scroll_bars_follow(widget: Widget, virtual_size: Size) -> None:
    """Fit ``widget``'s scroll bars (their extent and the scroll position's bounds) to a new
    ``virtual_size`` set without a layout pass, as a layout pass does after setting it."""
    widget._scroll_update(virtual_size)


_compiled_queries: dict[tuple[object, str], Any] = {}


def share_compiled_queries() -> None:
    """Make every syntax-aware document compile a given query for a given language once per
    process and share it. Textual's text area compiles its highlight query for each document
    it makes (twice as it is built); compiling the Python one takes more than a megabyte for a
    moment, which stays in the process. A compiled query is only read when it runs (each run
    has its own cursor), so one can serve every document."""
    from textual.document._syntax_aware_document import SyntaxAwareDocument

    if getattr(SyntaxAwareDocument.prepare_query, "shared", False):
        return
    compile_query = SyntaxAwareDocument.prepare_query

    def prepare_query(document: SyntaxAwareDocument, query: str) -> Any:
        key = (document.language, query)  # Textual keeps one Language object per name
        compiled = _compiled_queries.get(key)
        if compiled is None:
            compiled = _compiled_queries[key] = compile_query(document, query)
        return compiled

    prepare_query.shared = True  # type: ignore[attr-defined]
    SyntaxAwareDocument.prepare_query = prepare_query  # type: ignore[method-assign,assignment]


def collectable_documents() -> None:
    """Make a syntax-aware document's parser read the text through a callable that holds the
    document weakly (a document gone reads as empty), so a document no longer used is freed."""
    import weakref

    from textual.document._syntax_aware_document import SyntaxAwareDocument

    read = SyntaxAwareDocument.__dict__["_read_callable"]
    if isinstance(read, property):
        return

    def weak_reader(document: SyntaxAwareDocument) -> Callable[[int, tuple[int, int]], bytes]:
        held = weakref.ref(document)

        def reader(byte_offset: int, point: tuple[int, int]) -> bytes:
            found = held()
            return b"" if found is None else read(found, byte_offset, point)

        return reader

    SyntaxAwareDocument._read_callable = property(weak_reader)  # type: ignore[assignment,method-assign]


def prune_watchers(owner: object, attribute: str | None = None) -> None:
    """Drop the watchers of ``owner``'s reactive values (of ``attribute`` only, when named) that
    widgets no longer mounted set (Textual keeps them until the value next changes)."""
    watchers: dict[str, list[tuple[object, object]]] = getattr(owner, "__watchers", {})
    for name, found in watchers.items():
        if attribute is None or name == attribute:
            found[:] = [
                (node, callback)
                for node, callback in found
                if not getattr(node, "_closing", False) and getattr(node, "is_attached", True)
            ]


def release_closed_widgets(app: object) -> None:
    """Let go of what closed widgets left on the app: their watchers of its values, and the style
    cache's memo of background colours, which holds each widget's cache of drawn lines (an
    ``lru_cache`` on a method keeps every instance it saw, up to 1,024)."""
    from textual._styles_cache import StylesCache

    prune_watchers(app)
    StylesCache.get_inner_outer.cache_clear()


def adapt_documents() -> None:
    """Every adaptation of Textual's syntax-aware documents, once per process."""
    share_compiled_queries()
    collectable_documents()


def python_highlights(code: str) -> Mapping[str, Sequence[Any]]:
    """The captures of Textual's own Python highlight query over ``code`` (name -> tree-sitter
    nodes, whose points are (row, byte column)): the spans the code editor colours. Empty when
    tree-sitter's Python grammar is not installed."""
    from textual._tree_sitter import get_language
    from textual.document._syntax_aware_document import SyntaxAwareDocument
    from textual.widgets import TextArea

    adapt_documents()

    language = get_language("python")
    if language is None:
        return {}
    document = SyntaxAwareDocument(code, language)
    query = document.prepare_query(TextArea._get_builtin_highlight_query("python"))
    return document.query_syntax_tree(query) if query is not None else {}


class SteadyScrollBars(ScrollView):
    """A scroll view whose scroll bars are drawn again only when its size, its scrollable size,
    its container or its scroll styles change. Textual updates a scroll view's bars at every
    layout of the screen (a layout hands it the size of its viewport, never equal to the
    scrollable size of a view that scrolls), so that a panel shown anywhere drew the bars of every
    such view anew, as tall as the view."""

    _placed: tuple[object, ...] | None = None

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        styles = self.styles
        placed = (
            size,
            virtual_size,
            container_size,
            self.virtual_size,
            styles.overflow_x,
            styles.overflow_y,
            styles.scrollbar_size_vertical,
            styles.scrollbar_size_horizontal,
        )
        if placed == self._placed:
            return False  # what Textual's own update returns when nothing changed
        self._placed = placed
        return super()._size_updated(size, virtual_size, container_size, layout)


# Key names (as Textual spells them, upper-cased) that are no character's name or alias:
# letters and digits, function keys, arrows and the navigation keys.
# tests/ui/test_textual_internals.py checks each against Python's Unicode name table.
NOT_CHARACTER_NAMES = re.compile(r"[A-Z0-9]|F[0-9]{1,2}|UP|DOWN|LEFT|RIGHT|HOME|END|PAGEUP|PAGEDOWN|INSERT|ENTER")


class _KeyNameLookup:
    """:mod:`unicodedata` as Textual's key module uses it, except that :func:`lookup` of a name
    in :data:`NOT_CHARACTER_NAMES` fails at once, as the table's own lookup would."""

    def __getattr__(self, name: str) -> Any:
        return getattr(unicodedata, name)

    @staticmethod
    def lookup(name: str) -> str:
        if NOT_CHARACTER_NAMES.fullmatch(name.upper()):
            raise KeyError(f"undefined character name '{name}'")
        return unicodedata.lookup(name)


def quick_key_name_lookups() -> None:
    """Answer Textual's look-ups of key names that name no character without Python's Unicode
    name table. Textual looks each bound key up there, to show it in the footer and to learn
    whether a widget that takes typed text consumes it; a failed look-up reads through the table,
    which leaves about half a megabyte of it in memory for the rest of the process."""
    import textual.keys

    if not isinstance(textual.keys.unicodedata, _KeyNameLookup):  # type: ignore[attr-defined]
        textual.keys.unicodedata = _KeyNameLookup()  # type: ignore[attr-defined,assignment]


# The caches a Textual strip keeps of the strips derived from it, with their sizes as Textual
# makes them; tests/ui/test_textual_internals.py checks them against Strip.__init__.
STRIP_CACHES: Mapping[str, int] = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


TEXTUAL_STRIP_INIT = Strip.__init__
"""Textual's own ``Strip.__init__``, which :func:`lazy_strip_caches` replaces."""


def _strip_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    """Textual's ``Strip.__init__`` without making the caches of :data:`STRIP_CACHES`."""
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _strip_cache(self: Strip, name: str) -> FIFOCache[Any, Any]:
    """A cache of :data:`STRIP_CACHES` read before it was made: make it now (Python asks
    ``__getattr__`` only when the attribute is unset, so a made cache is read at full speed)."""
    size = STRIP_CACHES.get(name)
    if size is None:
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    cache: FIFOCache[Any, Any] = FIFOCache(size)
    setattr(self, name, cache)
    return cache


def lazy_strip_caches() -> None:
    """Make each strip's caches of derived strips on first use. Textual makes seven for every
    strip it builds (about 1 KB), and most strips never use most of them: with a drill open
    that is over 9,000 caches, more than a megabyte, nearly all empty."""
    if Strip.__init__ is _strip_init:
        return
    Strip.__init__ = _strip_init  # type: ignore[method-assign]
    Strip.__getattr__ = _strip_cache  # type: ignore[attr-defined]
