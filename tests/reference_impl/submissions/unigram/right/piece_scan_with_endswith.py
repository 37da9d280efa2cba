# drills: viterbi-segment
# variant: for each end position, scans the vocabulary with endswith instead of slicing substrings
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    table: list[tuple[float, str | None]] = [(0.0, None)] + [(-math.inf, None)] * len(word)
    for end in range(1, len(word) + 1):
        prefix = word[:end]
        for piece, lp in log_probs.items():
            if piece and prefix.endswith(piece):
                before = table[end - len(piece)][0]
                if before + lp > table[end][0]:
                    table[end] = (before + lp, piece)
    total = table[len(word)][0]
    if total == -math.inf:
        return [], -math.inf
    pieces: list[str] = []
    end = len(word)
    while end:
        piece = table[end][1]
        pieces.append(piece)
        end -= len(piece)
    return pieces[::-1], total
