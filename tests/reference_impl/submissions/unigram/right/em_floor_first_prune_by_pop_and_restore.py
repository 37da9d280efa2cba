# drills: unigram-em-prune
# variant: counts start from a zero for every piece; each loss measured by popping the piece from a private copy and putting it back
import math
from collections import Counter


def unigram_em_step(word_freqs: dict[str, int], log_probs: dict[str, float]) -> dict[str, float]:
    counts = dict.fromkeys(log_probs, 0)
    for word, freq in word_freqs.items():
        pieces, _ = viterbi_segment(word, log_probs)
        for piece in pieces:
            counts[piece] += freq
    counts = {p: (1 if len(p) == 1 and c == 0 else c) for p, c in counts.items()}
    total = sum(counts.values())
    return {p: math.log(c / total) for p, c in counts.items() if c > 0}


def _likelihood(word_freqs: dict[str, int], log_probs: dict[str, float]) -> float:
    return sum(f * viterbi_segment(w, log_probs)[1] for w, f in word_freqs.items())


def unigram_prune(word_freqs: dict[str, int], log_probs: dict[str, float], keep_fraction: float = 0.8) -> dict[str, float]:
    base = _likelihood(word_freqs, log_probs)
    loss = {}
    mine = dict(log_probs)
    for piece in log_probs:
        if len(piece) > 1:
            value = mine.pop(piece)
            loss[piece] = base - _likelihood(word_freqs, mine)
            mine[piece] = value
    ranked = sorted(loss, key=loss.get, reverse=True)
    kept = set(ranked[:int(len(loss) * keep_fraction)])
    return {p: v for p, v in log_probs.items() if len(p) == 1 or p in kept}
