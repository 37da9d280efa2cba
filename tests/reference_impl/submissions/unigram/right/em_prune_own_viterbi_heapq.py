# drills: unigram-em-prune
# variant: its own memoised Viterbi, plain dict counts, heapq.nlargest, loss over affected words only
import heapq
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    memo: dict[int, tuple[float, list[str]]] = {len(word): (0.0, [])}

    def solve(i: int) -> tuple[float, list[str]]:
        if i not in memo:
            options = [
                (log_probs[word[i:j]] + solve(j)[0], j)
                for j in range(i + 1, len(word) + 1)
                if word[i:j] in log_probs
            ]
            options = [o for o in options if o[0] > -math.inf]
            if options:
                score, j = max(options)
                memo[i] = (score, [word[i:j]] + solve(j)[1])
            else:
                memo[i] = (-math.inf, [])
        return memo[i]

    score, pieces = solve(0)
    return (pieces, score) if score > -math.inf else ([], -math.inf)


def unigram_em_step(word_freqs: dict[str, int], log_probs: dict[str, float]) -> dict[str, float]:
    counts: dict[str, int] = {}
    for word, freq in word_freqs.items():
        for piece in viterbi_segment(word, log_probs)[0]:
            counts[piece] = counts.get(piece, 0) + freq
    for piece in log_probs:  # single characters never drop out
        if len(piece) == 1:
            counts.setdefault(piece, 1)
    total = sum(counts.values())
    return {piece: math.log(n) - math.log(total) for piece, n in counts.items()}


def unigram_prune(word_freqs: dict[str, int], log_probs: dict[str, float], keep_fraction: float = 0.8) -> dict[str, float]:
    current = {w: viterbi_segment(w, log_probs)[1] for w in word_freqs}
    losses: dict[str, float] = {}
    for piece in (p for p in log_probs if len(p) > 1):
        without = dict(log_probs)
        del without[piece]
        losses[piece] = sum(
            f * (current[w] - viterbi_segment(w, without)[1]) for w, f in word_freqs.items() if piece in w
        )
    kept = set(heapq.nlargest(int(len(losses) * keep_fraction), losses, key=losses.__getitem__))
    return {p: v for p, v in log_probs.items() if len(p) == 1 or p in kept}
