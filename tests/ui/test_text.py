"""The one rendering rule for outside text (tokdrill/ui/text.py): whatever a string holds, what is
shown is the string itself, control characters written as visible escapes."""

from __future__ import annotations

import pytest
from hostile import ACTION, ESCAPE, MARKUP
from markdown_it import MarkdownIt
from textual.content import Content
from textual.fuzzy import Matcher
from textual.widgets import Markdown

from tokdrill.ui.app import TokdrillApp
from tokdrill.ui.text import as_markup, highlighted, markdown_literal, markup, plain, printable, rich_plain, web_link

HOSTILE = [MARKUP, ESCAPE, "[", "]", "\\[b]", "[b]unclosed", "$name ${x}", "\u202eevil\u202c", "a\rb\x07c", "\ud800"]


@pytest.mark.parametrize("text", HOSTILE)
def test_plain_and_rich_plain_show_the_text_itself(text: str) -> None:
    assert plain(text).plain == printable(text) == rich_plain(text).plain
    assert plain(text, "bold").plain == printable(text)
    assert "\x1b" not in plain(text).plain and plain(text).spans == []


@pytest.mark.parametrize("text", HOSTILE)
def test_markup_fills_variables_as_text(text: str) -> None:
    shown = markup("[b]$title[/b] · $n", title=text, n=3)
    assert shown.plain == f"{printable(text)} · 3"
    assert all(span.style == "b" for span in shown.spans)  # only the template's own tag styles anything


@pytest.mark.parametrize("text", HOSTILE)
def test_as_markup_parses_back_to_the_text(text: str) -> None:
    assert Content.from_markup(as_markup(text)).plain == printable(text)


def test_palette_highlight_keeps_the_text_and_marks_the_matched_characters() -> None:
    shown = highlighted(Matcher("click"), f"Drill: {MARKUP}")
    assert shown.plain == f"Drill: {MARKUP}"
    marked = "".join(shown.plain[span.start : span.end] for span in shown.spans)
    assert marked == "click"


@pytest.mark.parametrize("text", [*HOSTILE[:-1], "**bold** _i_ `code` <b>html</b> [link](https://x.org) # head"])
def test_markdown_literal_renders_as_the_text(text: str) -> None:
    tokens = MarkdownIt("commonmark").parseInline(markdown_literal(text))
    rendered = "".join(child.content for token in tokens for child in token.children or [])
    kinds = {child.type for token in tokens for child in token.children or []}
    assert kinds <= {"text", "softbreak"}, kinds
    assert rendered.replace("\n", "\r") == printable(text).replace("\n", "\r")


@pytest.mark.parametrize(
    ("href", "opens"),
    [
        ("https://example.org/x", True),
        ("http://example.org", True),
        ("file:///etc/passwd", False),
        ("ssh://host/x", False),
        ("javascript:alert(1)", False),
        ("https:///no-host", False),
        ("https://example.org/\x1b[31m", False),
        (f"https://example.org/{ACTION}", True),  # shown and opened as an address, never run
    ],
)
def test_only_web_addresses_are_opened(href: str, opens: bool) -> None:
    assert web_link(href) is opens


async def test_a_link_clicked_in_content_opens_only_a_web_address(app: TokdrillApp) -> None:
    opened: list[str] = []
    app.open_url = lambda url, **_kw: opened.append(url)  # type: ignore[method-assign]
    async with app.run_test() as pilot:
        markdown = Markdown("x", open_links=False)
        await app.screen.mount(markdown)
        for href in ("ssh://host/x", "https://example.org/ok", "vscode://file/etc/passwd"):
            app.post_message(Markdown.LinkClicked(markdown, href))
        await pilot.pause()
    assert opened == ["https://example.org/ok"]
