# drills: viterbi-segment
# mistake: greedy longest piece first instead of the global optimum
# caught-by: test_picks_the_globally_best_split_not_the_greedy_one, test_random_vocabularies_match_brute_force_enumeration
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    pieces, score, start = [], 0.0, 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if word[start:end] in log_probs:
                pieces.append(word[start:end])
                score += log_probs[word[start:end]]
                start = end
                break
        else:
            return [], -math.inf
    return pieces, score
