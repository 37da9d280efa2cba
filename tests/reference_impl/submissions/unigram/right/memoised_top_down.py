# drills: viterbi-segment
# variant: memoised recursion from the front of the word (sums in the other order), functools.cache
import math
from functools import cache


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    @cache
    def best_from(start: int) -> tuple[float, tuple[str, ...]]:
        if start == len(word):
            return 0.0, ()
        top: tuple[float, tuple[str, ...]] = (-math.inf, ())
        for end in range(start + 1, len(word) + 1):
            piece = word[start:end]
            if piece in log_probs:
                rest_score, rest = best_from(end)
                if rest_score != -math.inf and log_probs[piece] + rest_score > top[0]:
                    top = (log_probs[piece] + rest_score, (piece,) + rest)
        return top

    score, pieces = best_from(0)
    return (list(pieces), score) if score != -math.inf else ([], -math.inf)
