"""Which of a card's key points a typed answer mentions (pure text matching, no UI).

A key point is a short phrase ("rank order"), or several phrases that mean the same separated by
``|`` ("argmax | most frequent"). A phrase is covered when the answer holds enough of its
significant words, compared after lower-casing, dropping punctuation and question words, and
reducing each word to its stem with the Snowball English stemmer ("merges", "merged",
"merging" -> "merg"; "frequencies" -> "frequenc"), so case, plurals and word forms never matter.
Numbers must match exactly ("2,500" reads as "2500"). One- and two-word phrases need every word,
longer ones at least :data:`COVERAGE_THRESHOLD` of them. A key point is covered when any of its
phrases is, and its match names that phrase.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from msgspec import Struct

ALTERNATIVE_SEPARATOR = "|"
COVERAGE_THRESHOLD = 0.6

_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")
_DIGIT_GROUPS = re.compile(r"(?<=\d)[,_](?=\d{3})")  # "2,500" reads as "2500"
_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "or",
        "is",
        "are",
        "be",
        "by",
        "as",
        "at",
        "it",
        "its",
        "with",
        "from",
        "that",
        "this",
        "than",
        "then",
        "into",
        "per",
        "vs",
        "via",
        "not",
        "no",
        "what",
        "which",
        "how",
        "why",
        "when",
        "where",
        "who",
        "do",
        "does",
    ]
)


class KeyPointMatch(Struct, frozen=True):
    """One key point and whether the answer covers it.

    ``matched`` is the phrase (one of the point's alternatives) the answer covered, or None.
    ``found`` and ``missing`` are that phrase's significant words the answer has and lacks; for
    a point not covered they describe its closest phrase.
    """

    point: str
    covered: bool
    matched: str | None
    found: tuple[str, ...]
    missing: tuple[str, ...]

    @property
    def alternatives(self) -> tuple[str, ...]:
        """The phrases this key point accepts."""
        return alternatives(self.point)


def alternatives(point: str) -> tuple[str, ...]:
    """The phrases of a key point: its ``|``-separated parts, trimmed (the point if it has none)."""
    parts = tuple(part.strip() for part in point.split(ALTERNATIVE_SEPARATOR))
    kept = tuple(part for part in parts if part)
    return kept or (point.strip(),)


def empty_alternative(point: str) -> bool:
    """True when a ``|`` leaves an empty phrase (``"a || b"``, ``"a |"``): a mistake in a card."""
    return ALTERNATIVE_SEPARATOR in point and any(not part.strip() for part in point.split(ALTERNATIVE_SEPARATOR))


def significant_words(text: str) -> list[str]:
    """Lower-cased words of ``text`` without stopwords (kept if nothing else is left)."""
    words = _WORD.findall(_DIGIT_GROUPS.sub("", text.lower()))
    kept = [w for w in words if w not in _STOPWORDS]
    return kept or words


@lru_cache(maxsize=1)
def _stemmer() -> Callable[[str], str]:
    """Snowball's English stemmer (imported on first use: it loads every language's tables)."""
    import snowballstemmer

    stem: Callable[[str], str] = snowballstemmer.stemmer("english").stemWord
    return stem


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """The stem two forms of a word share ("bytes"/"byte", "encoding"/"encode"); numbers as they are."""
    if word[0].isdigit():
        return word
    return _stemmer()(word)


def _phrase(phrase: str, answer_stems: set[str]) -> tuple[bool, float, tuple[str, ...], tuple[str, ...]]:
    words = significant_words(phrase)
    found = tuple(w for w in words if stem(w) in answer_stems)
    missing = tuple(w for w in words if stem(w) not in answer_stems)
    if not words:
        return False, 0.0, found, missing
    share = len(found) / len(words)
    covered = not missing if len(words) <= 2 else share >= COVERAGE_THRESHOLD
    return covered, share, found, missing


def match_key_points(answer: str, key_points: Sequence[str]) -> list[KeyPointMatch]:
    """For each key point, in order, whether ``answer`` covers it and through which phrase."""
    answer_stems = {stem(w) for w in significant_words(answer)}
    matches = []
    for point in key_points:
        best: tuple[float, str, tuple[str, ...], tuple[str, ...]] | None = None
        result: KeyPointMatch | None = None
        for phrase in alternatives(point):
            covered, share, found, missing = _phrase(phrase, answer_stems)
            if covered:
                result = KeyPointMatch(point, True, phrase, found, missing)
                break
            if best is None or share > best[0]:
                best = (share, phrase, found, missing)
        if result is None:
            assert best is not None
            result = KeyPointMatch(point, False, None, best[2], best[3])
        matches.append(result)
    return matches


def coverage(matches: Sequence[KeyPointMatch]) -> float:
    """Fraction of key points covered (0.0 when there are none)."""
    if not matches:
        return 0.0
    return sum(m.covered for m in matches) / len(matches)
