"""Content loading figures: the shipped content, and a generated 1,000 drills + 10,000 cards.

The generated set is written to a temporary folder (removed afterwards) with realistic sizes:
multi-line prompts, starters and answers, a follow-up, key points, tags and a reference per item.
The baseline is a plain ``yaml.load`` with the C safe loader over the same files, so the ratio
shows what line tracking and validation cost on top of parsing (cold), and what the cache of
per-file results saves (warm). Every cache lives in the temporary folder too.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

from tokdrill.bench.figures import Figure, median, time_call

GOAL_SECONDS = 0.5
DRILLS, CARDS, CARDS_PER_DECK = 1_000, 10_000, 100
SYMBOL_SETS = (
    ["count_pairs", "merge_pair", "learn_merges"],
    ["apply_merges", "BPETokenizer.train", "BPETokenizer.tokenize"],
    ["bytes_to_unicode"],
    ["viterbi_segment"],
    ["WordPieceTokenizer.tokenize_word"],
)

_DRILL = """\
id: synthetic-drill-{n:04d}
title: Synthetic drill number {n}
symbols: [{symbols}]
target_seconds: {target}
difficulty: {difficulty}
tags: [synthetic, bench, group-{group}]
hidden_tests: [test_synthetic.py]
prompt: |
  Implement the named functions so that they behave like the reference.
  Words end with the end-of-word marker on their last character, and ties
  between equally frequent pairs go to the larger pair.

  - Keep merges in rank order.
  - Merge only whole adjacent symbols, left to right, without overlap.
  - Return tuples, not lists, where the reference does.
  Drill {n} exists to measure loading speed.
starter: |
  from collections import Counter


  def count_pairs(word_freqs):
      \"\"\"Count adjacent symbol pairs weighted by word frequency.\"\"\"


  def merge_pair(symbols, pair):
      \"\"\"Merge every occurrence of pair in symbols.\"\"\"
references: [{{title: Synthetic reference {group}, year: 2016, venue: "arXiv:1508.07909"}}]
"""

_CARD = """\
  - id: synthetic-card-{n:05d}
    question: What does synthetic card {n} ask about rank order and merges?
    answer: |
      Merges apply in the order they were learned, because a later merge can
      depend on a symbol that only an earlier merge creates.

      For example `est</w>` needs `es` first. Card {n} says so at length to
      resemble a real answer with **Markdown** in it.
    follow_ups:
      - question: What breaks if merges are applied by frequency instead?
        answer: Symbols that later merges need are never built, so encodings differ.
    key_points: [rank order, dependency chain, "est</w> needs es"]
    tags: [synthetic, bpe]
    references: [{{title: Synthetic card reference, url: "https://example.org/card/{n}"}}]
"""


def write_synthetic_content(folder: Path, drills: int = DRILLS, cards: int = CARDS) -> None:
    """Write ``drills`` drill files and ``cards`` cards (decks of 100) into content folder ``folder``."""
    (folder / "drills" / "hidden").mkdir(parents=True, exist_ok=True)
    (folder / "questions").mkdir(parents=True, exist_ok=True)
    (folder / "drills" / "hidden" / "test_synthetic.py").write_text(
        "def test_synthetic_drill_placeholder(impl):\n    assert impl is not None\n", encoding="utf-8"
    )
    for n in range(drills):
        text = _DRILL.format(
            n=n,
            symbols=", ".join(SYMBOL_SETS[n % len(SYMBOL_SETS)]),
            target=300 + 60 * (n % 20),
            difficulty=("easy", "medium", "hard")[n % 3],
            group=n % 10,
        )
        (folder / "drills" / f"synthetic-drill-{n:04d}.yaml").write_text(text, encoding="utf-8")
    for start in range(0, cards, CARDS_PER_DECK):
        deck = start // CARDS_PER_DECK
        header = (
            f"deck: synthetic-deck-{deck:03d}\ntitle: Synthetic deck {deck}\n"
            "description: Generated cards for the loading benchmark.\ncards:\n"
        )
        body = "".join(_CARD.format(n=n) for n in range(start, min(cards, start + CARDS_PER_DECK)))
        (folder / "questions" / f"synthetic-deck-{deck:03d}.yaml").write_text(header + body, encoding="utf-8")


def _plain_parse(files: list[Path]) -> None:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in files:
        try:
            yaml.load(path.read_bytes(), Loader=loader)
        except yaml.YAMLError:
            pass  # the loader reports it; the baseline only times parsing


def figures(quick: bool) -> list[Figure]:
    """Load times of the shipped content and of the generated large set, each cold (no cache:
    parse everything, then write the cache) and warm (every file from the cache; the checks
    across files still run). The goal (<= 0.5 s) applies to the warm figures; the cold large-set
    figure is information: it is dominated by YAML parsing, which the cache exists to avoid."""
    from tokdrill.content.loader import content_files, load_library, shipped_files

    repeat = 3 if quick else 7
    with tempfile.TemporaryDirectory(prefix="tokdrill-bench-content-") as tmp:
        caches = Path(tmp) / "caches"
        fresh = itertools.count()

        def cold(extra: list[Path], shipped: bool) -> object:
            return load_library(extra, include_shipped=shipped, cache_dir=caches / f"cold-{next(fresh)}")

        def warm(extra: list[Path], shipped: bool) -> object:
            return load_library(extra, include_shipped=shipped, cache_dir=caches / "warm")

        shipped_cold = median(time_call(lambda: cold([], True), repeat))
        shipped_warm = median(time_call(lambda: warm([], True), repeat))
        shipped_plain = median(time_call(lambda: _plain_parse([p for p, _ in shipped_files()]), repeat))

        folder = Path(tmp) / "generated"
        write_synthetic_content(folder)
        parsed = load_library([folder], include_shipped=False, use_cache=False)  # also the warm-up
        if parsed.errors or len(parsed.drills) != DRILLS or len(parsed.all_cards()) != CARDS:
            raise RuntimeError(f"generated content did not load cleanly: {parsed.errors[:3]}")
        big_cold = median(time_call(lambda: cold([folder], False), 2 if quick else 3, warmup=0))
        warm([folder], False)  # writes the cache the warm runs read
        if warm([folder], False) != parsed:
            raise RuntimeError("content loaded from the cache differs from content parsed afresh")
        del parsed
        big_warm = median(time_call(lambda: warm([folder], False), repeat + 2))
        files = content_files(folder)
        big_plain = median(time_call(lambda: _plain_parse(files), 1 if quick else 3, warmup=0))
    big = f"{DRILLS:,} drills + {CARDS:,} cards"
    goal = f"<= {GOAL_SECONDS} s"
    plain = "plain CSafeLoader parse"
    return [
        Figure(
            "content: load shipped, cold (no cache)",
            shipped_cold,
            "s",
            goal,
            shipped_cold <= GOAL_SECONDS,
            shipped_plain,
            plain,
        ),
        Figure(
            "content: load shipped, warm (cached)",
            shipped_warm,
            "s",
            goal,
            shipped_warm <= GOAL_SECONDS,
            shipped_plain,
            plain,
        ),
        Figure(
            f"content: load {big}, cold (parse + write cache)", big_cold, "s", "information", True, big_plain, plain
        ),
        Figure(f"content: load {big}, warm (cached)", big_warm, "s", goal, big_warm <= GOAL_SECONDS, big_plain, plain),
    ]
