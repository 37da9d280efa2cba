"""Facts carry over from the seed texts, sentences do not.

Every prose field a person reads (card questions, answers, follow-ups, drill titles and prompts)
is compared with the seed texts in ``../shared/seeds``: no run of ten words may appear in both.
Signatures and data (word lists, section names) are not prose and are not compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
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
def seed_runs() -> set[tuple[str, ...]]:
    if not SEEDS.is_dir():
        pytest.fail(f"seed texts not found at {SEEDS}: CI lays shared/ beside the checkout")
    runs: set[tuple[str, ...]] = set()
    for path in SEEDS.glob("*.txt"):
        runs |= _runs(_words(path.read_text(encoding="utf-8")))
    return runs


def test_no_prose_copied_from_the_seeds(seed_runs: set[tuple[str, ...]]) -> None:
    copied = []
    for where, text in _prose_fields():
        shared = _runs(_words(text)) & seed_runs
        copied += [f"{where}: {' '.join(run)}" for run in sorted(shared)]
    assert not copied, "runs of ten words shared with the seeds:\n" + "\n".join(copied)


def test_the_check_detects_a_copied_sentence(seed_runs: set[tuple[str, ...]]) -> None:
    seed_text = next(SEEDS.glob("*.txt")).read_text(encoding="utf-8")
    sentence = max(re.split(r"(?<=[.!?])\s+", seed_text), key=len)
    assert _runs(_words(sentence)) & seed_runs
