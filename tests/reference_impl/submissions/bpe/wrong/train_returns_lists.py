# drills: bpe-train
# mistake: merge_pair returns a list and learn_merges a list of two-element lists, where the prompt asks for a tuple and tuples
# caught-by: test_return_types_are_the_documented_ones
from collections import defaultdict


def count_pairs(word_freqs):
    counts = defaultdict(int)
    for word, freq in word_freqs.items():
        for left, right in zip(word, word[1:]):
            counts[left, right] += freq
    return counts


def merge_pair(symbols, pair):
    out = []
    last_was_merge = False
    for sym in symbols:
        if out and not last_was_merge and out[-1] == pair[0] and sym == pair[1]:
            out[-1] = pair[0] + pair[1]
            last_was_merge = True
        else:
            out.append(sym)
            last_was_merge = False
    return out


def learn_merges(word_freqs, num_merges):
    words = dict(word_freqs)
    merges = []
    while len(merges) < num_merges:
        counts = count_pairs(words)
        if not counts:
            break
        ranked = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
        best = ranked[0][0]
        merges.append([best[0], best[1]])
        words = {tuple(merge_pair(w, best)): f for w, f in words.items()}
    return merges
