# drills: unigram-em-prune
# mistake: counts each word's pieces once, ignoring its frequency
# caught-by: test_em_step_counts_viterbi_pieces_weighted_by_word_frequency
import math
from collections import Counter


def unigram_em_step(word_freqs: dict[str, int], log_probs: dict[str, float]) -> dict[str, float]:
    counts = Counter()
    for word, freq in word_freqs.items():
        pieces, _ = viterbi_segment(word, log_probs)
        for piece in pieces:
            counts[piece] += 1
    for piece in log_probs:
        if len(piece) == 1 and counts[piece] == 0:
            counts[piece] = 1  # an unused single character keeps a floor count
    total = sum(counts.values())
    return {p: math.log(c / total) for p, c in counts.items()}


def _likelihood(word_freqs: dict[str, int], log_probs: dict[str, float]) -> float:
    return sum(f * viterbi_segment(w, log_probs)[1] for w, f in word_freqs.items())


def unigram_prune(word_freqs: dict[str, int], log_probs: dict[str, float], keep_fraction: float = 0.8) -> dict[str, float]:
    base = _likelihood(word_freqs, log_probs)
    loss = {}
    for piece in log_probs:
        if len(piece) > 1:
            loss[piece] = base - _likelihood(word_freqs, {p: v for p, v in log_probs.items() if p != piece})
    ranked = sorted(loss, key=loss.get, reverse=True)
    kept = set(ranked[:int(len(loss) * keep_fraction)])
    return {p: v for p, v in log_probs.items() if len(p) == 1 or p in kept}
