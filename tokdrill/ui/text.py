"""The one rule for showing text in the app: outside text is text, never markup.

Text that did not come from this package (content titles, questions, answers, tags, deck names,
file names, imported Anki fields, a submission's output, and every message that quotes them) is
turned into Textual :class:`~textual.content.Content` here and nowhere else. :func:`plain` shows
a string as written; :func:`markup` fills the package's own markup template with such strings as
``$name`` variables, which Textual inserts as literal text after the template is parsed. Either
way a ``[b]`` or ``[@click=app.quit]`` inside outside text is shown, not obeyed, and control
characters (escape sequences, carriage returns, bidirectional overrides) are written as visible
escapes so they never reach the terminal as commands.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from rich.text import Text
from textual.content import Content
from textual.fuzzy import Matcher

from tokdrill.grading.report import printable

__all__ = ["as_markup", "highlighted", "markdown_literal", "markup", "plain", "printable", "rich_plain", "web_link"]

_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def plain(text: str, style: str = "") -> Content:
    """``text`` shown exactly as written, in ``style`` (a Textual style such as ``"bold"``)."""
    return Content.styled(printable(text), style)


def markup(template: str, **values: object) -> Content:
    """The package's own markup ``template`` with each ``$name`` replaced by ``values[name]`` as
    plain text (``str()`` of it, control characters escaped)."""
    return Content.from_markup(template, **{name: printable(str(value)) for name, value in values.items()})


def rich_plain(text: str, style: str = "") -> Text:
    """``text`` as a Rich :class:`~rich.text.Text` shown exactly as written, for the places that
    build a Rich renderable (tables, Markdown blocks, styled runs appended together)."""
    return Text(printable(text), style=style)


def as_markup(text: str) -> str:
    """``text`` escaped into markup that shows it as written, for the few Textual parameters that
    take only a markup string (a palette hit's help line)."""
    return printable(text).replace("[", "\\[")  # Textual's own escape() doubles a backslash before a tag


def highlighted(matcher: Matcher, text: str) -> Content:
    """``text`` as a command palette shows a hit: plain, with the characters ``matcher``'s query
    matched in its match style (Textual's own ``Matcher.highlight`` reads the text as markup)."""
    shown = printable(text)
    content = Content(shown)
    score, offsets = matcher.fuzzy_search.match(matcher.query, shown)
    for offset in offsets if score else ():
        if not shown[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def markdown_literal(text: str) -> str:
    """``text`` escaped for a Markdown document so that it shows as written (CommonMark lets a
    backslash escape every ASCII punctuation character), for a title quoted in Markdown."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", printable(text))


def web_link(href: str) -> bool:
    """Whether a link in content may be opened: an ``http`` or ``https`` address to a host, and
    nothing else (no files, no other schemes, no control characters)."""
    try:
        parts = urlsplit(href)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) and href.isprintable()
