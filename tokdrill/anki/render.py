"""Card Markdown -> the HTML an Anki note field holds.

Rendering is CommonMark plus tables and strikethrough (markdown-it-py), with raw HTML switched
off: card text such as ``est</w>`` is tokenizer notation, not markup, so it is shown as written.
Fenced code is coloured by Pygments with CSS classes; :func:`code_css` gives the matching rules
for light and night mode (they live in the note type's CSS, so every note stays small).
"""

from __future__ import annotations

from functools import cache
from html import escape

from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

LIGHT_STYLE = "default"
NIGHT_STYLE = "monokai"
CODE_SELECTOR = "pre code"


def _highlight(code: str, language: str, _attrs: str) -> str:
    """Pygments spans for ``code`` (no wrapper: markdown-it adds ``<pre><code class=...>``);
    '' (plain escaped text) when the language is unknown or not given."""
    if not language:
        return ""
    try:
        lexer = get_lexer_by_name(language)
    except ClassNotFound:
        return ""
    return str(highlight(code, lexer, HtmlFormatter(nowrap=True)))


@cache
def _renderer() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight})
    md.enable(["table", "strikethrough"])
    return md


def markdown_to_html(text: str) -> str:
    """The HTML for one piece of card Markdown (a question, an answer, a follow-up)."""
    return str(_renderer().render(text)).strip()


def plain_to_html(text: str) -> str:
    """Plain text (a key point, a reference's title) as HTML that shows it exactly."""
    return escape(text, quote=False)


def code_css() -> str:
    """CSS for highlighted code: the light style, and a dark one under Anki's night mode."""
    rules = []
    for style, selector in ((LIGHT_STYLE, CODE_SELECTOR), (NIGHT_STYLE, f".nightMode {CODE_SELECTOR}")):
        defs = HtmlFormatter(style=style).get_style_defs(selector)  # type: ignore[no-untyped-call]
        # only the rules for token classes (not Pygments' line-number tables, which are never used)
        rules += [line for line in defs.splitlines() if line.startswith(selector)]
    return "\n".join(rules) + "\n"
