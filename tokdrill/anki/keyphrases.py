"""Key points for a card that came without any (every tokdrill card needs 2 to 6).

They are drawn from the answer itself, so a typed answer is checked against what the card says:
first any phrases the caller knows matter (a cloze deletion's text), then the answer's
emphasised phrases, its list items, then its sentences and clauses, each cut to a few words.
Every point kept is one the answer covers (:func:`tokdrill.content.keypoints.match_key_points`),
and no two say the same words. An answer with a single phrase repeats it, as a card needs two.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bs4 import Tag

from tokdrill.anki.render import markdown_to_html
from tokdrill.anki.tomarkdown import PLACEHOLDER, parse_html
from tokdrill.content.keypoints import match_key_points, significant_words

MIN_POINTS, MAX_POINTS = 2, 6
DRAWN_POINTS = 4
"""How many points are drawn from an answer's text (the caller's own phrases may add more)."""
MAX_WORDS = 6

_CLAUSE_BREAK = re.compile(r"[.;:!?](?=\s|$)|,\s|\s[-\u2013\u2014]+\s|\(|\)|\n")
_EDGE = re.compile(r"^[\s.,;:!?\-\u2013\u2014]+|[\s.,;:!?\-\u2013\u2014]+$")
_SPACE = re.compile(r"\s+")


def _phrase(text: str) -> str:
    """``text`` as a short key point: one line, at most :data:`MAX_WORDS` words, no edge
    punctuation, and no ``|`` (which separates alternative wordings in a key point)."""
    words = _SPACE.sub(" ", text.replace("|", "/")).strip().split(" ")
    return _EDGE.sub("", " ".join(words[:MAX_WORDS]))


def _is_label(tag: Tag) -> bool:
    """A bold lead-in such as ``**Cost.**`` or ``**Count**:``: it names a part, not a fact."""
    if tag.find_previous_sibling() is not None or str(tag.previous_sibling or "").strip():
        return False
    after = str(tag.next_sibling or "").lstrip()
    return tag.get_text().rstrip().endswith((".", ":")) or after.startswith((":", ".", " -", "-"))


def _candidates(answer_html: str) -> Iterable[tuple[str, int]]:
    """``(text, fewest significant words it needs)``, best first: emphasised phrases, then
    clauses of list items, then clauses of paragraphs and table cells."""
    soup = parse_html(answer_html)
    labels = []
    for tag in soup.find_all(["strong", "b", "em", "i"]):
        if _is_label(tag):
            labels.append(tag)
        else:
            yield tag.get_text(" "), 1
    for tag in labels:
        tag.decompose()
    blocks = soup.find_all("li") + soup.find_all(["p", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6"])
    for block in blocks or [soup]:
        for clause in _CLAUSE_BREAK.split(PLACEHOLDER.sub(" ", block.get_text(" "))):
            yield clause, 2


def deletion_key_points(deletions: Sequence[str]) -> tuple[str, ...] | None:
    """A cloze card's key points: the text of each deletion it blanks (at most
    :data:`MAX_POINTS`; a single one repeated, as a card needs two), so typing exactly what was
    blanked covers them all. None when no deletion holds words (a picture, say)."""
    chosen: list[str] = []
    for text in deletions:
        point = _phrase(PLACEHOLDER.sub(" ", text))
        if point and significant_words(point) and point not in chosen:
            chosen.append(point)
    if not chosen:
        return None
    while len(chosen) < MIN_POINTS:
        chosen.append(chosen[-1])
    return tuple(chosen[:MAX_POINTS])


def derive_key_points(answer_markdown: str, preferred: Sequence[str] = ()) -> tuple[str, ...]:
    """2 to 6 key points for an answer (Markdown); ``preferred`` phrases come first."""
    html = markdown_to_html(answer_markdown)
    answer_text = parse_html(html).get_text(" ")
    chosen: list[str] = []
    seen: set[frozenset[str]] = set()

    def consider(text: str, limit: int, fewest_words: int = 1) -> None:
        point = _phrase(PLACEHOLDER.sub(" ", text))
        words = frozenset(significant_words(point))
        substantial = sum(len(word) >= 3 for word in words)
        if len(chosen) >= limit or not point or substantial < fewest_words or words in seen:
            return
        if not match_key_points(answer_text, [point])[0].covered:
            return
        seen.add(words)
        chosen.append(point)

    for text in preferred:
        consider(text, MAX_POINTS)
    limit = max(DRAWN_POINTS, min(len(chosen), MAX_POINTS))
    for text, fewest_words in _candidates(html):
        consider(text, limit, fewest_words)
    if len(chosen) == 1:
        words = chosen[0].split(" ")
        if len(words) >= 2:
            half = (len(words) + 1) // 2
            first, second = " ".join(words[:half]), " ".join(words[half:])
            if significant_words(first) and significant_words(second):
                chosen[:] = [first, second]
    if not chosen:
        chosen.append(_phrase(answer_text) or answer_text.strip() or "answer")
    while len(chosen) < MIN_POINTS:
        chosen.append(chosen[-1])
    return tuple(chosen)
