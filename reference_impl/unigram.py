"""Unigram language-model tokenization: Viterbi segmentation, a hard-EM step, likelihood pruning.

A vocabulary is a dict piece -> log-probability. A word's segmentation is scored by the sum of
its pieces' log-probabilities; :func:`viterbi_segment` finds the best one by dynamic programming
over prefix lengths. :func:`unigram_em_step` re-estimates the probabilities from the best
segmentations (hard EM; SentencePiece uses soft forward-backward counts), and
:func:`unigram_prune` drops the multi-character pieces the corpus likelihood misses least. Both
keep every single character, so a word made of known characters always stays segmentable.
"""

from __future__ import annotations

import math
from collections import Counter


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    """The highest-scoring split of ``word`` into pieces of ``log_probs``, and its log-probability.

    ``best[end]`` holds the best score of ``word[:end]``; each end position tries every start
    whose piece ``word[start:end]`` is in the vocabulary. An unsegmentable word gives
    ``([], -math.inf)``; the empty word gives ``([], 0.0)``.
    """
    size = len(word)
    longest = max(map(len, log_probs), default=0)
    best = [0.0] + [-math.inf] * size
    start_of = [0] * (size + 1)
    for end in range(1, size + 1):
        for start in range(max(0, end - longest), end):
            if best[start] == -math.inf:
                continue
            piece_lp = log_probs.get(word[start:end])
            if piece_lp is None:
                continue
            total = best[start] + piece_lp
            if total > best[end]:
                best[end] = total
                start_of[end] = start
    if best[size] == -math.inf:
        return [], -math.inf
    pieces: list[str] = []
    end = size
    while end > 0:
        pieces.append(word[start_of[end] : end])
        end = start_of[end]
    pieces.reverse()
    return pieces, best[size]


def unigram_em_step(word_freqs: dict[str, int], log_probs: dict[str, float]) -> dict[str, float]:
    """One hard-EM step: count pieces in each word's Viterbi split (times the word's frequency),
    then return log(count / total count) for every piece of ``log_probs`` with a count.

    A single character that no split uses gets a floor count of 1, so it stays; a
    multi-character piece with a zero count is left out. Unsegmentable words contribute nothing.
    """
    usage: Counter[str] = Counter()
    for word, freq in word_freqs.items():
        for piece in viterbi_segment(word, log_probs)[0]:
            usage[piece] += freq
    for piece in log_probs:
        if len(piece) == 1 and usage[piece] == 0:
            usage[piece] = 1  # the floor: single characters never drop out
    total = sum(usage.values())
    return {piece: math.log(usage[piece] / total) for piece in log_probs if usage[piece] > 0}


def unigram_prune(
    word_freqs: dict[str, int], log_probs: dict[str, float], keep_fraction: float = 0.8
) -> dict[str, float]:
    """Keep every single character and the ``int(n * keep_fraction)`` multi-character pieces (of
    ``n``) whose removal would lower the corpus log-likelihood most; log-probs are unchanged.

    A piece's loss is the corpus log-likelihood with all pieces minus the likelihood without that
    one piece. Equal losses keep the piece that comes first in ``log_probs``.
    """

    def corpus_log_prob(pieces: dict[str, float]) -> float:
        return sum(freq * viterbi_segment(word, pieces)[1] for word, freq in word_freqs.items())

    baseline = corpus_log_prob(log_probs)
    loss: dict[str, float] = {}
    for piece in log_probs:
        if len(piece) > 1:
            loss[piece] = baseline - corpus_log_prob({p: lp for p, lp in log_probs.items() if p != piece})
    ranked = sorted(loss, key=lambda piece: -loss[piece])  # stable: ties keep dict order
    kept = set(ranked[: int(len(loss) * keep_fraction)])
    return {p: lp for p, lp in log_probs.items() if len(p) == 1 or p in kept}
