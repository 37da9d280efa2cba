"""Anki field HTML -> card Markdown, with media references replaced by visible placeholders.

Conversion is markdownify's, with escaping tuned for tokenizer text: ``byte_fallback`` and
``est</w>`` stay as written, while anything Markdown would read as markup (``*``, a ``_`` at a
word edge, a backtick, a backslash before punctuation such as MathJax's ``\\(``, ``](``, ``|`` in
a table cell) is escaped. Each result is checked by rendering it back
(:func:`tokdrill.anki.render.markdown_to_html`): when the text a reader sees differs (a line
that Markdown took for a list or a heading, say), the field is converted again with every
Markdown character escaped.

What Markdown can say is kept: links with their targets, a non-breaking space between two words
(as ``&nbsp;``), coloured text as bold (Markdown has no colours; colour is how Anki users mark
what matters). Each such change is named in :attr:`Converted.changes`.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, Tag
from bs4.element import NavigableString
from markdownify import ATX, BACKSLASH, MarkdownConverter

from tokdrill.anki.render import markdown_to_html
from tokdrill.content.yaml_reading import UNSAFE_TEXT

_SOUND = re.compile(r"\[sound:([^\]]+)\]")
_MEDIA_TAGS = {
    "img": "image",
    "audio": "audio",
    "video": "video",
    "source": "media",
    "object": "media",
    "embed": "media",
}
PLACEHOLDER = re.compile(r"\[(?:image|audio|video|media|sound): [^\]]*\]")
"""What a media reference becomes in the Markdown: ``[image: name]``, ``[sound: name]``..."""
_DROPPED_TAGS = ("style", "script", "template", "head", "title", "meta", "link")
_BACKSLASH_BEFORE_PUNCT = re.compile(r"\\(?=[!-/:-@\[-`{-~])")
_EDGE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
_AUTOLINK_START = re.compile(r"<(?=[A-Za-z][A-Za-z0-9+.-]{1,31}:|[^\s<>@]+@)")
_BLOCK_STARTERS = (
    (re.compile(r"(?<!\S)(#{1,6})(?=\s|$)"), r"\\\1"),
    (re.compile(r"(?<!\S)(-+)(?=\s|$)"), r"\\\1"),
    (re.compile(r"(?<!\S)([0-9]{1,9})([.)])(?=\s|$)"), r"\1\\\2"),
)
_SPACE = re.compile(r"\s+")
_BACKTICKS = re.compile(r"`+")
_COLOUR = re.compile(r"(?:^|;)\s*color\s*:\s*([^;]+)", re.IGNORECASE)
_BOLD_TAGS = ("b", "strong")
_BINDING_SPACE = re.compile(r"(?<=\S)\xa0(?=\S)")


@dataclass(frozen=True)
class Converted:
    """A field as Markdown, the media files it referred to, and whether its text survived."""

    markdown: str
    media: tuple[str, ...]
    exact: bool
    changes: tuple[str, ...] = ()
    """What Markdown could not say as Anki showed it (``colour red on "pair" shown as bold``)."""


class _Converter(MarkdownConverter):
    """markdownify with this project's escaping (see the module docstring).

    markdownify's type stubs declare only its constructor, hence the ignores on the overrides.
    """

    options: dict[str, Any]

    def escape(self, text: str, parent_tags: set[str]) -> str:
        if not text:
            return ""
        if self.options["escape_misc"]:
            # markdownify's own escaping of every Markdown character (backslashes included); its
            # patterns for block starters miss a second one right after the first ("#\n#"), so
            # they run again here without consuming the whitespace before them
            text = super().escape(text, parent_tags)  # type: ignore[misc]
            for pattern, replacement in _BLOCK_STARTERS:
                text = pattern.sub(replacement, text)
        else:
            text = _BACKSLASH_BEFORE_PUNCT.sub(r"\\\\", text)
            text = text.replace("`", r"\`").replace("](", r"\](")
            text = _AUTOLINK_START.sub(r"\\<", text)
            if parent_tags & {"td", "th"}:
                text = text.replace("|", r"\|")
        text = text.replace("*", r"\*")
        return _EDGE_UNDERSCORE.sub(r"\\_", text)

    def convert_pre(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """A fenced block; inside a tight list item (no paragraphs) it keeps the list tight."""
        block = str(super().convert_pre(el, text, parent_tags))  # type: ignore[misc]
        item = el.parent
        if isinstance(item, Tag) and item.name == "li" and item.find("p", recursive=False) is None:
            return "\n" + block.strip("\n") + "\n"
        return block

    def convert_code(self, el: Tag, text: str, parent_tags: set[str]) -> str:
        """An inline code span that shows its text exactly, edge spaces included (a token's
        leading space matters here; markdownify would move it outside the span)."""
        if "_noformat" in parent_tags:
            return text
        text = el.get_text()
        if not text:
            return ""
        longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
        fence = "`" * (longest + 1)
        # CommonMark drops one space from each end when both ends have one (unless all spaces),
        # and a span's text must not touch its fence with a backtick: pad, and it is dropped again.
        if (text[0] == text[-1] == " " and text.strip(" ")) or text[0] == "`" or text[-1] == "`":
            text = f" {text} "
        if parent_tags & {"td", "th"}:
            text = text.replace("|", r"\|")  # a table cell ends at any unescaped pipe, even in code
        return f"{fence}{text}{fence}"


def _code_language(el: Tag) -> str:
    """The language of a ``<pre>`` block from a ``language-x`` class on it or its ``<code>``."""
    for node in (el, el.find("code")):
        if isinstance(node, Tag):
            for cls in node.get_attribute_list("class"):
                if cls and cls.startswith("language-"):
                    return str(cls[len("language-") :])
    return ""


_OPTIONS: dict[str, Any] = {
    "bullets": "-",
    "heading_style": ATX,
    "newline_style": BACKSLASH,
    "code_language_callback": _code_language,
    "escape_asterisks": False,
    "escape_underscores": False,
}


def parse_html(html: str) -> BeautifulSoup:
    """A field's HTML as a tree (a field that merely looks like a file name is still text)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        return BeautifulSoup(html, "html.parser")


def replace_media(soup: BeautifulSoup) -> list[str]:
    """Replace every media element and ``[sound:...]`` tag in ``soup`` by a visible
    ``[image: name]``-style placeholder; return the file names, in order."""
    found: list[str] = []
    for tag in soup.find_all(list(_MEDIA_TAGS)):
        name = str(tag.get("src") or tag.get("data") or "").strip()
        if not name:
            tag.decompose()
            continue
        if name.lower().startswith("data:"):
            name = f"embedded {name[5:].split(';', 1)[0].split(',', 1)[0] or 'data'}"  # the file itself is inline
        found.append(name)
        tag.replace_with(NavigableString(f"[{_MEDIA_TAGS[tag.name]}: {name}]"))
    for text in soup.find_all(string=_SOUND):
        names = _SOUND.findall(str(text))
        found += names
        text.replace_with(NavigableString(_SOUND.sub(lambda m: f"[sound: {m.group(1)}]", str(text))))
    return found


def colour_as_bold(soup: BeautifulSoup) -> list[str]:
    """Wrap each coloured passage (``<font color>``, a ``color:`` style) of ``soup`` in ``<b>``
    unless it is bold already; return a line per passage saying what became of its colour."""
    changes: list[str] = []
    for tag in soup.find_all(["font", "span"]):
        colour = str(tag.get("color") or "").strip() if tag.name == "font" else ""
        if not colour and (match := _COLOUR.search(str(tag.get("style") or ""))):
            colour = match.group(1).strip()
        text = " ".join(tag.get_text().split())
        if not colour or not text:
            continue
        if tag.find_parent(_BOLD_TAGS) is not None or tag.find(_BOLD_TAGS) is not None:
            changes.append(f"colour {colour} on {text!r} left out (the text is bold already)")
            continue
        bold = soup.new_tag("b")
        for child in list(tag.contents):
            bold.append(child.extract())
        tag.append(bold)
        changes.append(f"colour {colour} on {text!r} shown as bold")
    return changes


def visible_text(html_or_soup: str | BeautifulSoup) -> str:
    """The characters a reader sees, without whitespace (where lines break and how blocks are
    spaced is layout): what a conversion must keep."""
    soup = parse_html(html_or_soup) if isinstance(html_or_soup, str) else html_or_soup
    return _SPACE.sub("", soup.get_text())


def html_to_markdown(html: str) -> Converted:
    """Convert one field. Media become placeholders (listed in ``media``); ``exact`` is False
    when even the fully escaped Markdown does not show the field's text unchanged. Control
    characters, which content text may not hold and a browser does not show, are dropped."""
    soup = parse_html(UNSAFE_TEXT.sub("", html))
    for tag in soup.find_all(_DROPPED_TAGS):
        tag.decompose()
    media = replace_media(soup)
    changes = tuple(colour_as_bold(soup))
    wanted = visible_text(soup)
    markdown = ""
    for escape_misc in (False, True):
        try:
            markdown = _tidy(_Converter(escape_misc=escape_misc, **_OPTIONS).convert_soup(soup))
        except RecursionError:
            # markdownify recurses once per nesting level: markup nested hundreds deep (never
            # typed by a person) keeps its text, line by line, and loses its formatting
            return Converted(_plain_markdown(soup), tuple(media), False, changes)
        if visible_text(markdown_to_html(markdown)) == wanted:
            return Converted(markdown, tuple(media), True, changes)
    return Converted(markdown, tuple(media), False, changes)


def _plain_markdown(soup: BeautifulSoup) -> str:
    """The text of ``soup`` as Markdown paragraphs, every Markdown character escaped."""
    converter = _Converter(escape_misc=True, **_OPTIONS)
    for tag in soup.find_all(["br", "p", "div", "li", "tr", "pre", "h1", "h2", "h3", "h4", "h5", "h6"]):
        tag.insert_after("\n")
    lines = (" ".join(line.split()) for line in soup.get_text().split("\n"))
    return "\n\n".join(converter.escape(line, set()) for line in lines if line)


def _tidy(markdown: str) -> str:
    """No trailing spaces, no line break that ends a block (Markdown would show a backslash),
    no runs of blank lines outside code, no blank edges; outside code a non-breaking space
    between two words stays (as ``&nbsp;``) and any other becomes a plain space."""
    lines = markdown.strip("\n").split("\n")
    in_code = [False] * len(lines)
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        else:
            in_code[index] = fenced
    for index in range(len(lines) - 1, -1, -1):
        if in_code[index]:
            continue
        line = lines[index]
        if "`" not in line:
            line = _BINDING_SPACE.sub("&nbsp;", line)
        line = line.replace("\xa0", " ").rstrip()
        ends_block = index + 1 == len(lines) or not lines[index + 1].strip()
        while ends_block and line.endswith("\\") and not line.endswith("\\\\"):
            line = line[:-1].rstrip()
        lines[index] = line
    kept = [line for index, line in enumerate(lines) if in_code[index] or line or (index and lines[index - 1])]
    return "\n".join(kept).strip()
