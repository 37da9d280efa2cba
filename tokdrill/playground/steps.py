"""Step-by-step walkthroughs of the algorithms the drills teach, on the user's own input.

Every step comes from the reference implementation running (:mod:`tokdrill.observe`
records what its watched lines did); nothing here re-implements an algorithm. Each builder
returns a :class:`Walkthrough`: numbered steps, each a title and a few plain-text lines, and the
reference's own result.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tokdrill.observe import Watch, observe
from tokdrill.playground.glyphs import visible

MAX_STEPS = 2000  # a walkthrough longer than this is cut, and says so
SHOWN_CANDIDATES = 6
MAX_CORPUS_CHARS = 20_000
END_OF_WORD = "</w>"


class StepInputError(ValueError):
    """Input a walkthrough cannot use, with a message that says what to change."""


@dataclass(frozen=True, slots=True)
class Step:
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Walkthrough:
    algorithm: str
    steps: tuple[Step, ...]
    result: str
    cut: bool = False


@dataclass(frozen=True, slots=True)
class Algorithm:
    """A walkthrough the Step-through screen offers, and which inputs it reads."""

    id: str
    title: str
    build: Callable[[str, str, int], Walkthrough]
    uses_word: bool
    uses_size: str  # what the number means ("" when unused)
    default_size: int


def _words(corpus: str) -> Counter[str]:
    if len(corpus) > MAX_CORPUS_CHARS:
        raise StepInputError(f"the corpus has {len(corpus):,} characters; step through at most {MAX_CORPUS_CHARS:,}")
    words = Counter(corpus.split())
    if not words:
        raise StepInputError("type a corpus: a few words, separated by spaces")
    return words


def _symbols(word: str) -> tuple[str, ...]:
    return (*word[:-1], word[-1] + END_OF_WORD)


def _corpus_line(words: Mapping[tuple[str, ...], int]) -> str:
    shown = sorted(words.items(), key=lambda item: (-item[1], item[0]))[:8]
    text = "  ".join(f"{' '.join(w)} ×{n}" for w, n in shown)
    return text + ("  …" if len(words) > len(shown) else "")


def _finish(name: str, steps: list[Step], result: str) -> Walkthrough:
    cut = len(steps) > MAX_STEPS
    return Walkthrough(name, tuple(steps[:MAX_STEPS]), result, cut)


def bpe_training(corpus: str, word: str, merges: int) -> Walkthrough:
    """``reference_impl.bpe.learn_merges`` on the corpus's words (each with the end-of-word marker)."""
    from reference_impl.bpe import learn_merges

    word_freqs = {_symbols(w): n for w, n in _words(corpus).items()}
    chosen = Watch(
        "chosen",
        "learned.append(best)",
        lambda f: (f["best"], Counter(f["counts"]).most_common(SHOWN_CANDIDATES), len(f["counts"])),
    )
    merged = Watch("merged", "words = rewritten", lambda f: dict(f["words"]))
    learned, events = observe(learn_merges, word_freqs, merges, watches=[chosen, merged])
    steps = [Step("start", ("the corpus, each word as characters with </w> on its last:", _corpus_line(word_freqs)))]
    pending: Any = None
    for event in events:
        if event.name == "chosen":
            pending = event.value
            continue
        best, top, distinct = pending
        top_count = top[0][1]
        ties = [pair for pair, count in top if count == top_count]
        why = "the most frequent pair"
        if len(ties) > 1:
            why += f"; {len(ties)} pairs tie at {top_count}, and ties go to the larger pair"
        lines = [f"merge {best[0]!r} + {best[1]!r} -> {best[0] + best[1]!r}: {why}"]
        lines.append(f"pair counts ({distinct} distinct), highest first:")
        lines.extend(f"  {a!r} {b!r}: {count}" + ("   <- chosen" if (a, b) == best else "") for (a, b), count in top)
        lines.append("the corpus after it: " + _corpus_line(event.value))
        steps.append(Step(f"merge {len(steps)}", tuple(lines)))
    if len(learned) < merges:
        learned_text = f"{len(learned)} merge" + ("" if len(learned) == 1 else "s")
        steps.append(Step("stop", (f"no word has two symbols left: {learned_text} learned, not {merges}",)))
    return _finish("BPE training", steps, "merges: " + ", ".join(f"{a}+{b}" for a, b in learned))


def bpe_encoding(corpus: str, word: str, merges: int) -> Walkthrough:
    """``reference_impl.bpe.apply_merges`` on ``word``, with merges learned from the corpus."""
    from reference_impl.bpe import apply_merges, learn_merges

    if not word.strip() or len(word.split()) != 1:
        raise StepInputError("type one word to encode (no spaces)")
    learned = learn_merges({_symbols(w): n for w, n in _words(corpus).items()}, merges)
    ranks = {pair: rank for rank, pair in enumerate(learned)}
    start = _symbols(word.strip())
    step = Watch("merged", "current = merge_pair(", lambda f: (sorted(f["present"]), tuple(f["current"])))
    result, events = observe(apply_merges, start, ranks, watches=[step])
    steps = [Step("start", (f"{word.strip()!r} as characters: {' '.join(start)}", f"{len(ranks)} ranked merges"))]
    for event in events:
        present, current = event.value
        (rank, pair), *others = present
        lines = [f"merge {pair[0]!r} + {pair[1]!r}: rank {rank}, the lowest (earliest learned) pair present"]
        lines.extend(f"  also present: {a!r} {b!r} rank {r}" for r, (a, b) in others[:SHOWN_CANDIDATES])
        lines.append("now: " + " ".join(current))
        steps.append(Step(f"step {len(steps)}", tuple(lines)))
    steps.append(Step("done", ("no adjacent pair has a rank: " + " ".join(result),)))
    return _finish("BPE encoding", steps, " ".join(result))


def wordpiece(corpus: str, word: str, vocab_size: int) -> Walkthrough:
    """``WordPieceTokenizer.tokenize_word`` on ``word`` after training on the corpus."""
    from reference_impl.wordpiece import WordPieceTokenizer

    if not word.strip() or len(word.split()) != 1:
        raise StepInputError("type one word to split (no spaces)")
    tokenizer = WordPieceTokenizer()
    tokenizer.train(" ".join(w for w, n in _words(corpus).items() for _ in range(n)), vocab_size)
    tried = Watch("tried", "candidate = marker + word[start:stop]", lambda f: (f["start"], f["candidate"]))
    pieces, events = observe(tokenizer.tokenize_word, word.strip(), watches=[tried])
    steps = [Step("start", (f"vocabulary of {len(tokenizer.vocab)} entries trained on the corpus",))]
    for event in events:
        start, candidate = event.value
        found = candidate in tokenizer.vocab
        verdict = "in the vocabulary: take it, move past it" if found else "not in the vocabulary: try one shorter"
        steps.append(Step(f"position {start}", (f"try {candidate!r}: {verdict}",)))
    if pieces == [tokenizer.unk]:
        steps.append(Step("unknown", (f"no entry matches at some position: the whole word is {tokenizer.unk}",)))
    return _finish("WordPiece longest match", steps, " ".join(pieces))


def _seed_log_probs(corpus: str, longest: int = 5) -> dict[str, float]:
    """A seed vocabulary: every substring of up to ``longest`` characters, by frequency."""
    counts: Counter[str] = Counter()
    for w, n in _words(corpus).items():
        for i in range(len(w)):
            for j in range(i + 1, min(len(w), i + longest) + 1):
                counts[w[i:j]] += n
    total = sum(counts.values())
    return {piece: math.log(c / total) for piece, c in counts.items()}


def viterbi(corpus: str, word: str, _size: int) -> Walkthrough:
    """``reference_impl.unigram.viterbi_segment`` on ``word``: the lattice, then the back-pointers."""
    from reference_impl.unigram import viterbi_segment

    if not word.strip() or len(word.split()) != 1:
        raise StepInputError("type one word to segment (no spaces)")
    log_probs = _seed_log_probs(corpus)
    edge = Watch(
        "edge",
        "total = best[start] + piece_lp",
        lambda f: (
            f["start"],
            f["end"],
            f["word"][f["start"] : f["end"]],
            f["piece_lp"],
            f["total"],
            f["best"][f["end"]],
        ),
    )
    back = Watch("back", "pieces.append(word[start_of[end] : end])", lambda f: f["pieces"][-1])
    (pieces, score), events = observe(viterbi_segment, word.strip(), log_probs, watches=[edge, back])
    steps = [Step("start", (f"{len(log_probs)} pieces seeded from the corpus's substrings (log-probabilities)",))]
    for event in events:
        if event.name == "edge":
            start, end, piece, _, total, best = event.value
            better = total > best
            steps.append(
                Step(
                    f"lattice end {end}",
                    (
                        f"piece {piece!r} from {start} to {end}: best[{start}] + log p = {total:.3f}",
                        f"best[{end}] so far {best:.3f}: "
                        + ("this is better, back-pointer -> " + str(start) if better else "keep the old one"),
                    ),
                )
            )
        else:
            steps.append(Step("back-pointer", (f"follow the back-pointers from the end: {event.value!r}",)))
    result = "unsegmentable" if not pieces else f"{' '.join(pieces)} (log p {score:.3f})"
    return _finish("Unigram Viterbi", steps, result)


def byte_mapping(corpus: str, word: str, _size: int) -> Walkthrough:
    """The byte-level view of the text: ``reference_impl.byte_level``'s chunks and byte table."""
    from reference_impl.byte_level import PRETOKENIZE, bytes_to_unicode

    text = word or corpus
    if not text:
        raise StepInputError("type some text")
    table = bytes_to_unicode()
    steps: list[Step] = []
    symbols: list[str] = []
    for chunk in PRETOKENIZE.findall(text[:MAX_CORPUS_CHARS]):
        data = chunk.encode("utf-8")
        mapped = "".join(table[b] for b in data)
        symbols.append(mapped)
        steps.append(
            Step(
                f"chunk {len(steps) + 1}",
                (
                    f"text {visible(chunk)!r} -> UTF-8 bytes {' '.join(f'{b:02X}' for b in data)}",
                    f"each byte as its printable stand-in: {mapped!r}",
                ),
            )
        )
    return _finish("Byte-level mapping", steps, " ".join(symbols))


ALGORITHMS: tuple[Algorithm, ...] = (
    Algorithm("bpe-train", "BPE training", bpe_training, False, "merges", 10),
    Algorithm("bpe-encode", "BPE encoding", bpe_encoding, True, "merges", 10),
    Algorithm("wordpiece", "WordPiece", wordpiece, True, "vocabulary size", 40),
    Algorithm("viterbi", "Unigram Viterbi", viterbi, True, "", 0),
    Algorithm("bytes", "Byte-level mapping", byte_mapping, True, "", 0),
)
