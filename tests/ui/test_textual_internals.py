"""The private names of Textual and textual-plotext the app relies on are still there, with the
shapes it uses. A release that moves one fails here, by name, instead of somewhere in a screen."""

from __future__ import annotations

import gc
import inspect
import string
import unicodedata
import weakref
from typing import ClassVar

import pytest
import textual.keys
from rich.segment import Segment
from rich.style import Style
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import FIFOCache
from textual.color import Color
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget
from textual.widgets import Footer, Input, Static, TextArea
from textual_plotext.plot import Plot

from tokdrill.ui import plotext_internals, textual_internals
from tokdrill.ui.widgets.code_editor import CodeEditor
from tokdrill.ui.widgets.in_order import InOrderInput, InOrderTextArea
from tokdrill.ui.widgets.paste_area import PasteArea
from tokdrill.ui.widgets.safe_history import SafeHistory


def _check_private(owner: type, expected: object, instance: object) -> list[str]:
    problems = []
    for name, parameters in dict(expected).items():  # type: ignore[call-overload]
        if parameters is None:
            if not hasattr(instance, name):
                problems.append(f"{owner.__name__}().{name} is gone")
            continue
        method = getattr(owner, name, None)
        if method is None:
            problems.append(f"{owner.__name__}.{name}() is gone")
            continue
        found = tuple(inspect.signature(method).parameters)[1:]
        if found != parameters:
            problems.append(f"{owner.__name__}.{name}{found} was {parameters}")
    return problems


def test_the_text_area_and_input_members_the_editors_use_are_there() -> None:
    problems = _check_private(TextArea, textual_internals.TEXT_AREA_PRIVATE, TextArea("x = 1\n", language="python"))
    problems += _check_private(Input, textual_internals.INPUT_PRIVATE, Input())
    problems += _check_private(ScrollView, textual_internals.SCROLL_VIEW_PRIVATE, ScrollView())
    assert not problems, "Textual changed what the code editor relies on: " + "; ".join(problems)


def test_every_private_text_area_member_the_editors_override_is_listed() -> None:
    """The list is the editors' own: a new override of a private member must be listed (and so checked)."""
    for editor, base, listed in (
        (CodeEditor, TextArea, textual_internals.TEXT_AREA_PRIVATE),
        (InOrderTextArea, TextArea, textual_internals.TEXT_AREA_PRIVATE),
        (PasteArea, TextArea, textual_internals.TEXT_AREA_PRIVATE),
        (SafeHistory, TextArea, textual_internals.TEXT_AREA_PRIVATE),
        (textual_internals.SteadyScrollBars, ScrollView, textual_internals.SCROLL_VIEW_PRIVATE),
        (InOrderInput, Input, textual_internals.INPUT_PRIVATE),
    ):
        overridden = {
            name
            for name, value in vars(editor).items()
            if name.startswith("_") and not name.startswith("__") and inspect.isfunction(value) and hasattr(base, name)
        }
        assert overridden <= set(listed), f"{editor.__name__} overrides unlisted {sorted(overridden - set(listed))}"


def test_the_private_modules_hold_the_classes_the_app_uses() -> None:
    document = TextArea("x = 1\n", language="python").document
    assert isinstance(document, textual_internals.SyntaxAwareDocument), type(document)
    key = textual_internals.FooterKey("f2", "F2", "Today", "app.today")
    assert (key.key_display, key.description) == ("F2", "Today")  # what the fitting footer measures
    assert isinstance(Plot(), plotext_internals.Figure)
    figure = Plot()
    figure.subplots(2, 1)
    assert isinstance(figure.subplot(2, 1), plotext_internals.Figure), "a subplot is no longer a Figure"


async def test_the_footer_says_when_it_has_read_the_bindings() -> None:
    class One(App[None]):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("f2", "bell", "Bell")]

        def compose(self) -> ComposeResult:
            yield Footer()

    app = One()
    footer = Footer()
    assert textual_internals.footer_ready(footer) is False  # not mounted: nothing read yet
    async with app.run_test() as pilot:
        await pilot.pause()
        assert textual_internals.footer_ready(app.query_one(Footer)) is True


def test_a_widgets_own_bindings_by_key() -> None:
    class Bound(Widget):
        BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+k", "kill", "Kill")]

    bindings = textual_internals.key_bindings(Bound())
    assert [binding.action for binding in bindings["ctrl+k"]] == ["kill"]


def test_a_widget_resolves_its_content_styles() -> None:
    resolve = textual_internals.content_styles(Static())
    style = VisualStyle(bold=True)
    assert resolve(style) is style  # a style object stands as it is; names are looked up in CSS


def test_links_are_styled_and_other_text_is_not() -> None:
    plain, link = Style(bold=True), Style.from_meta({"@click": "app.bell()"})
    strip = Strip([Segment("see ", plain), Segment("docs", link)])
    styled = list(textual_internals.link_styled(strip, Style(underline=True)))
    assert [segment.text for segment in styled] == ["see ", "docs"]
    assert styled[0].style == plain
    assert styled[1].style is not None and styled[1].style.underline


async def test_every_frame_handed_to_the_driver_is_seen() -> None:
    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield Footer()
            yield Static("hello")

    app = One()
    seen: list[object] = []
    async with app.run_test() as pilot:
        textual_internals.intercept_frames(app, lambda screen, renderable: seen.append(renderable))
        app.query_one(Static).update("changed")
        await pilot.pause()
        await pilot.pause(0.1)
    assert any(renderable is not None for renderable in seen)


async def test_scroll_bars_follow_a_scrollable_size_set_without_a_layout() -> None:
    class One(App[None]):
        CSS = "ScrollView { height: 5; }"

        def compose(self) -> ComposeResult:
            yield ScrollView()

    app = One()
    async with app.run_test() as pilot:
        await pilot.pause()
        widget = app.query_one(ScrollView)
        assert widget.max_scroll_y == 0 and not widget.show_vertical_scrollbar
        widget.set_reactive(ScrollView.virtual_size, Size(widget.size.width, 50))
        textual_internals.scroll_bars_follow(widget, Size(widget.size.width, 50))
        assert widget.show_vertical_scrollbar and widget.vertical_scrollbar.window_virtual_size == 50
        assert widget.max_scroll_y > 0


async def test_steady_scroll_bars_are_drawn_again_only_when_the_view_changes() -> None:
    class Two(App[None]):
        CSS = "SteadyScrollBars { height: 5; } #other { height: 1; }"

        def compose(self) -> ComposeResult:
            yield textual_internals.SteadyScrollBars()
            yield Static("", id="other")

    app = Two()
    async with app.run_test() as pilot:
        view = app.query_one(textual_internals.SteadyScrollBars)
        view.virtual_size = Size(view.size.width, 50)
        await pilot.pause()
        bar = view.vertical_scrollbar
        assert view.show_vertical_scrollbar and bar.window_virtual_size == 50
        refreshed: list[object] = []
        refresh = bar.refresh

        def counted(*regions: object, **kwargs: object) -> object:
            refreshed.append(regions)
            return refresh(*regions, **kwargs)  # type: ignore[arg-type]

        bar.refresh = counted  # type: ignore[method-assign,assignment]
        other = app.query_one("#other", Static)
        other.update("a layout elsewhere")
        other.styles.height = 2
        await pilot.pause()
        assert refreshed == []  # Textual's own scroll view draws its bars again here
        view.virtual_size = Size(view.size.width, 60)
        await pilot.pause()
        assert refreshed and bar.window_virtual_size == 60


def test_the_python_highlight_query_captures_spans_by_byte_column() -> None:
    captures = textual_internals.python_highlights("def f(x):\n    return 'é' + x\n")
    spans = {name: [(node.start_point, node.end_point) for node in nodes] for name, nodes in captures.items()}
    assert spans["keyword.function"] == [((0, 0), (0, 3))]
    assert spans["string"] == [((1, 11), (1, 15))]  # 'é' is four bytes: the columns count bytes


def test_text_areas_share_one_compiled_highlight_query() -> None:
    textual_internals.share_compiled_queries()
    textual_internals.share_compiled_queries()  # a second call keeps the first sharing
    first = TextArea("x = 1\n", language="python")
    second = TextArea("def f():\n    pass\n", language="python")
    assert first._highlight_query is not None
    assert first._highlight_query is second._highlight_query
    assert first.document is not second.document  # documents (and their syntax trees) stay apart
    captures = second.document.query_syntax_tree(second._highlight_query)  # type: ignore[attr-defined]
    assert [(n.start_point, n.end_point) for n in captures["keyword.function"]] == [((0, 0), (0, 3))]


def test_a_document_no_longer_used_is_freed_and_an_edited_one_still_highlights() -> None:
    textual_internals.adapt_documents()
    area = TextArea("x = 1\n", language="python")
    area.document.replace_range((0, 0), (0, 0), "def f():\n    pass\n")
    captures = area.document.query_syntax_tree(area._highlight_query)  # type: ignore[attr-defined,arg-type]
    assert [(n.start_point, n.end_point) for n in captures["keyword.function"]] == [((0, 0), (0, 3))]
    gone = weakref.ref(area.document)
    del area, captures
    gc.collect()
    assert gone() is None, "the document (and its syntax tree) is still held"


class Node:
    """What the pruning reads of a widget that set a watcher."""

    def __init__(self, closing: bool = False, attached: bool = True) -> None:
        self._closing, self.is_attached = closing, attached


def test_closed_widgets_lose_their_watchers_and_their_styles_memo() -> None:
    from textual._styles_cache import StylesCache

    owner, kept, closing, removed = Node(), Node(), Node(closing=True), Node(attached=False)
    watchers = {"flag": [(kept, print), (closing, print), (removed, print)]}
    setattr(owner, "__watchers", watchers)
    textual_internals.prune_watchers(owner, "other")  # another value's watchers: left alone
    assert len(watchers["flag"]) == 3
    StylesCache().get_inner_outer(Color(0, 0, 0), Color(1, 1, 1))
    assert StylesCache.get_inner_outer.cache_info().currsize > 0
    textual_internals.release_closed_widgets(owner)
    assert watchers["flag"] == [(kept, print)]
    assert StylesCache.get_inner_outer.cache_info().currsize == 0


def _names_said_to_be_no_character() -> list[str]:
    """Every name :data:`textual_internals.NOT_CHARACTER_NAMES` accepts (it is a finite set)."""
    candidates = [*string.ascii_uppercase, *string.digits, *(f"F{n}" for n in range(100))]
    candidates += [f"F0{n}" for n in range(10)]
    candidates += ["UP", "DOWN", "LEFT", "RIGHT", "HOME", "END", "PAGEUP", "PAGEDOWN", "INSERT", "ENTER"]
    return [name for name in candidates if textual_internals.NOT_CHARACTER_NAMES.fullmatch(name)]


def test_key_names_answered_without_the_unicode_table_name_no_character() -> None:
    names = _names_said_to_be_no_character()
    assert len(names) == 36 + 110 + 10
    for name in names:
        with pytest.raises(KeyError):
            unicodedata.lookup(name)


KEYS = ["f1", "f12", "f24", "escape", "tab", "enter", "up", "home", "end", "pageup", "pagedown", "insert", "delete"]
KEYS += [
    "backspace",
    "space",
    "plus",
    "minus",
    "number_sign",
    "question_mark",
    "a",
    "Z",
    "1",
    "ü",
    "ctrl+s",
    "shift+tab",
]


def test_textual_shows_and_types_keys_as_it_did_through_the_wrapper(monkeypatch: pytest.MonkeyPatch) -> None:
    format_key = textual.keys.format_key.__wrapped__  # type: ignore[attr-defined]
    key_to_character = textual.keys.key_to_character.__wrapped__  # type: ignore[attr-defined]
    monkeypatch.setitem(vars(textual.keys), "unicodedata", unicodedata)
    before = [(format_key(key), key_to_character(key)) for key in KEYS]
    asked: list[str] = []
    lookup = unicodedata.lookup

    def counted(name: str) -> str:
        asked.append(name)
        return lookup(name)

    textual_internals.quick_key_name_lookups()
    monkeypatch.setattr(unicodedata, "lookup", counted)
    assert [(format_key(key), key_to_character(key)) for key in KEYS] == before
    assert "ESCAPE" in asked  # Textual's key module still looks names up through ``unicodedata``
    assert not [name for name in asked if textual_internals.NOT_CHARACTER_NAMES.fullmatch(name.upper())]


def _slots_set(init: object) -> dict[str, object]:
    strip = Strip.__new__(Strip)
    init(strip, [Segment("ab"), Segment("cd")])  # type: ignore[operator]
    found = {}
    for name in Strip.__slots__:
        try:
            found[name] = Strip.__dict__[name].__get__(strip, Strip)
        except AttributeError:
            continue
    return found


def test_a_strip_made_by_textual_holds_the_caches_the_app_makes_lazily() -> None:
    made = _slots_set(textual_internals.TEXTUAL_STRIP_INIT)
    caches = {name: value for name, value in made.items() if isinstance(value, FIFOCache)}
    assert {name: cache._maxsize for name, cache in caches.items()} == dict(textual_internals.STRIP_CACHES)
    # the lazy __init__ sets every other slot as Textual's does
    assert set(_slots_set(textual_internals._strip_init)) == set(made) - set(caches)


def test_a_strip_makes_a_cache_when_first_used_and_then_keeps_it() -> None:
    textual_internals.lazy_strip_caches()
    strip = Strip([Segment("hello"), Segment(" world")])
    assert not [name for name in textual_internals.STRIP_CACHES if _has_slot(strip, name)]  # none made yet
    first = strip.crop(0, 3)
    assert _has_slot(strip, "_crop_cache") and not _has_slot(strip, "_style_cache")
    assert strip.crop(0, 3) is first  # served from the cache made on first use
    assert first.text == "hel" and strip.text == "hello world"
    with pytest.raises(AttributeError, match="no_such_thing"):
        strip.no_such_thing  # type: ignore[attr-defined]  # noqa: B018


def _has_slot(strip: Strip, name: str) -> bool:
    try:
        Strip.__dict__[name].__get__(strip, Strip)
    except AttributeError:
        return False
    return True
