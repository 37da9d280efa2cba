"""Facts carry over from the source texts, sentences do not.

Every prose field a person reads (card questions, answers, follow-ups, drill titles and prompts)
is compared with the source texts: no run of ten words may appear in both.
Signatures and data (word lists, section names) are not prose and are not compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RUN = 10


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def _prose_fields() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "questions").glob("*.yaml")):
        deck = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in deck.get("cards", []):
            where = f"{path.name}:{card.get('id')}"
            yield where, f"{card.get('question', '')}\n{card.get('answer', '')}"
            for follow in card.get("follow_ups") or []:
                yield where, f"{follow.get('question', '')}\n{follow.get('answer', '')}"
    for path in sorted((ROOT / "drills").glob("*.yaml")):
        drill = yaml.safe_load(path.read_text(encoding="utf-8"))
        yield path.name, f"{drill.get('title', '')}\n{drill.get('prompt', '')}"


@pytest.fixture(scope="module")
def source_runs(source_texts: list[Path]) -> set[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for path in source_texts:
        runs |= _runs(_words(path.read_text(encoding="utf-8")))
    return runs


def test_no_prose_copied_from_the_source_texts(source_runs: set[tuple[str, ...]]) -> None:
    copied = []
    for where, text in _prose_fields():
        shared = _runs(_words(text)) & source_runs
        copied += [f"{where}: {' '.join(run)}" for run in sorted(shared)]
    assert not copied, "runs of ten words shared with the source texts:\n" + "\n".join(copied)


def test_the_check_detects_a_copied_sentence(source_runs: set[tuple[str, ...]], source_texts: list[Path]) -> None:
    text = source_texts[0].read_text(encoding="utf-8")
    sentence = max(re.split(r"(?<=[.!?])\s+", text), key=len)
    assert _runs(_words(sentence)) & source_runs
