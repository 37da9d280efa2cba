"""Which of a card's key points a typed answer mentions (pure text matching, no UI).

A key point is a short phrase ("rank order", "est</w> needs es"). It counts as covered when the
typed answer contains enough of its significant words, compared after lower-casing, dropping
punctuation and a light suffix strip, so "merges ranked in order" covers "rank order".
Numbers must match exactly; one-word and two-word points need every word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
_SUFFIXES = ("ing", "ed", "es", "s")
COVERAGE_THRESHOLD = 0.6


@dataclass(frozen=True)
class KeyPointMatch:
    """One key point and whether the answer covered it; ``missing`` lists the words not found."""

    point: str
    covered: bool
    found: tuple[str, ...]
    missing: tuple[str, ...]


def _stem(word: str) -> str:
    if word[0].isdigit():
        return word
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    # "encode"/"encoding" and "username"/"usernames" meet at the same stem
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def significant_words(text: str) -> list[str]:
    """Lower-cased words of ``text`` without stopwords (kept if nothing else is left)."""
    words = _WORD.findall(_DIGIT_GROUPS.sub("", text.lower()))
    kept = [w for w in words if w not in _STOPWORDS]
    return kept or words


def _stems(words: Iterable[str]) -> set[str]:
    return {_stem(w) for w in words}


def match_key_points(answer: str, key_points: Sequence[str]) -> list[KeyPointMatch]:
    """For each key point, in order, whether ``answer`` covers it."""
    answer_stems = _stems(significant_words(answer))
    matches = []
    for point in key_points:
        words = significant_words(point)
        found = tuple(w for w in words if _stem(w) in answer_stems)
        missing = tuple(w for w in words if _stem(w) not in answer_stems)
        if not words:
            covered = False
        elif len(words) <= 2:
            covered = not missing
        else:
            covered = len(found) / len(words) >= COVERAGE_THRESHOLD
        matches.append(KeyPointMatch(point, covered, found, missing))
    return matches


def coverage(matches: Sequence[KeyPointMatch]) -> float:
    """Fraction of key points covered (0.0 when there are none)."""
    if not matches:
        return 0.0
    return sum(m.covered for m in matches) / len(matches)
