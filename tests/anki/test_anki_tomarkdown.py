"""Anki field HTML -> Markdown: what the reader sees survives, media become visible placeholders."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokdrill.anki.render import markdown_to_html
from tokdrill.anki.tomarkdown import html_to_markdown, visible_text


@pytest.mark.parametrize(
    ("html", "markdown"),
    [
        ("What does <b>BPE</b> merge?", "What does **BPE** merge?"),
        ("est&lt;/w&gt; and ##ing and \u2581low", "est</w> and ##ing and \u2581low"),
        ("byte_fallback, __init__", "byte_fallback, \\_\\_init\\_\\_"),
        ("2*3", "2\\*3"),
        ("MathJax \\(x^2\\)", "MathJax \\\\(x^2\\\\)"),
        ("a <code> lowest</code> token", "a `` lowest`` token".replace("`` lowest``", "` lowest`")),
        ("<code> both </code>", "`  both  `"),
        ("<code>a`b</code>", "``a`b``"),
        ("[x](y) is not a link", "[x\\](y) is not a link"),
        ("<div>line one</div><div>line two<br></div>", "line one\n\nline two"),
        ("one<br>two", "one\\\ntwo"),
        ("<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>", "- a\n  - b\n- c"),
        ('<pre><code class="language-python">x = 1\n\n\ny = 2</code></pre>', "```python\nx = 1\n\n\ny = 2\n```"),
        ("<table><tr><th>k</th></tr><tr><td>a|b</td></tr></table>", "| k |\n| --- |\n| a\\|b |"),
        ("<b>bold</b>&nbsp;text<br><br>", "**bold**&nbsp;text"),
        ("<style>.x{}</style>Text<script>alert(1)</script>", "Text"),
    ],
)
def test_html_becomes_markdown_that_shows_the_same(html: str, markdown: str) -> None:
    converted = html_to_markdown(html)
    assert converted.markdown == markdown
    assert converted.exact
    assert visible_text(markdown_to_html(converted.markdown)) == visible_text(html.replace("&nbsp;", " "))


def test_lines_that_markdown_would_read_as_structure_are_escaped() -> None:
    converted = html_to_markdown("<div>1. Count pairs</div><div># not a heading</div><div>- nor a list</div>")
    assert converted.exact
    html = markdown_to_html(converted.markdown)
    assert "<ol>" not in html and "<h1>" not in html and "<ul>" not in html
    assert "1. Count pairs" in html and "# not a heading" in html and "- nor a list" in html


def test_media_become_placeholders_and_are_listed() -> None:
    converted = html_to_markdown('See <img src="merge table.png"> and hear [sound:bpe.mp3].<audio src="x.ogg"></audio>')
    assert converted.media == ("merge table.png", "x.ogg", "bpe.mp3")
    assert "[image: merge table.png]" in converted.markdown
    assert "[sound: bpe.mp3]" in converted.markdown
    assert "[audio: x.ogg]" in converted.markdown


def test_an_inline_picture_is_named_by_its_type_not_its_bytes() -> None:
    converted = html_to_markdown('<img src="data:image/png;base64,iVBORw0KGgo=">')
    assert (converted.markdown, converted.media) == ("[image: embedded image/png]", ("embedded image/png",))


def test_an_image_without_a_source_is_dropped_without_a_placeholder() -> None:
    converted = html_to_markdown('Text<img alt="nothing">')
    assert converted.markdown == "Text"
    assert converted.media == ()


_SPECIAL_TEXT = st.lists(
    st.sampled_from(list("ab1 _*`\\[]()<>#-+.!|&:~=\n") + ["</w>", "\u2581", "http://x.y", "1. ", "# ", "&amp;"]),
    max_size=20,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_SPECIAL_TEXT, min_size=1, max_size=4))
def test_any_plain_text_survives_the_round_trip(lines: list[str]) -> None:
    """Whatever characters a field holds, the Markdown shows them all and nothing else."""
    html = "".join(f"<div>{escape(line)}</div>" for line in lines)
    converted = html_to_markdown(html)
    assert converted.exact, converted.markdown
    assert visible_text(markdown_to_html(converted.markdown)) == visible_text(html)


@settings(max_examples=150, deadline=None)
@given(code=st.text(alphabet=st.sampled_from(list("ab `|\\<>*_")), min_size=1, max_size=12))
def test_inline_code_keeps_its_exact_text(code: str) -> None:
    """Edge spaces, backticks and pipes in a code span (a token's leading space matters)."""
    if not code.strip():
        return  # a span of spaces only renders as nothing in CommonMark
    converted = html_to_markdown(f"<p>x <code>{escape(code)}</code> y</p>")
    rendered = markdown_to_html(converted.markdown)
    assert f"<code>{escape(code, quote=False)}</code>" in rendered.replace("&quot;", '"'), converted.markdown


def test_markup_nested_hundreds_deep_keeps_its_text() -> None:
    """Nobody types this, but a shared deck can hold it: no crash, the text survives."""
    depth = 5000
    converted = html_to_markdown("<div>" * depth + "first" + "</div>" * depth + "<b>" * depth + "2*3" + "</b>" * depth)
    assert converted.markdown == "first\n\n2\\*3"
    assert not converted.exact
