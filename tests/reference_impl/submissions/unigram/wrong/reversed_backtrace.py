# drills: viterbi-segment
# mistake: forgets to reverse the pieces collected while walking the back-pointers
# caught-by: test_pieces_come_back_in_left_to_right_order, test_picks_the_globally_best_split_not_the_greedy_one
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    best, back = [0.0] + [-math.inf] * n, [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            lp = log_probs.get(word[j:i])
            if lp is not None and best[j] + lp > best[i]:
                best[i], back[i] = best[j] + lp, j
    if best[n] == -math.inf:
        return [], -math.inf
    pieces, i = [], n
    while i > 0:
        pieces.append(word[back[i]:i])
        i = back[i]
    return pieces, best[n]
