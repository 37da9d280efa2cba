# drills: viterbi-segment
# mistake: every prefix starts with score 0.0, so unreachable positions look reachable
# caught-by: test_unsegmentable_prefix_is_not_rescued_by_a_later_piece, test_word_with_an_unknown_character_is_unsegmentable
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    best, back = [0.0] * (n + 1), [None] * (n + 1)
    for i in range(1, n + 1):
        cands = [(best[j] + log_probs[word[j:i]], j) for j in range(i) if word[j:i] in log_probs]
        if cands:
            best[i], back[i] = max(cands)
    if back[n] is None and n:
        return [], -math.inf
    pieces, i = [], n
    while i > 0:
        j = back[i] if back[i] is not None else i - 1
        pieces.append(word[j:i])
        i = j
    return pieces[::-1], best[n]
